// Following a background task to its end: the one follower behind
// `watch create` and `task show --follow` (and the media follower's budget).
// Built on the polling helper (src/http/poll.ts): adaptive interval, --timeout
// → exit 8, Ctrl-C → exit 130, each with the command that picks the task up
// again. What the person sees while it runs is src/views/task.ts.
import type { Context } from '../context.js';
import type { TaskDetail } from '../api/shapes.js';
import { CliError, ExitCode } from '../errors.js';
import { poll } from '../http/poll.js';
import { kagentCommand } from '../io/command-line.js';
import { sanitizeLine } from '../io/sanitize.js';
import { createProgressView, isActiveStatus } from '../views/task.js';
import { timeoutMs } from '../http/deadline.js';

type FollowContext = Pick<Context, 'io' | 'flags' | 'config' | 'api' | 'clock' | 'serviceClock' | 'signal'>;

/**
 * Polling for tasks. The floor is what bounds the cost: never two looks less
 * than 3.2 s apart, so following costs at most 20 requests a minute (a third of
 * the account's 60/min budget) however often the task changes, and a change is
 * seen within 3.2 s while things move. While nothing changes the interval grows
 * by half up to 10 s. Measured by `npm run bench` (test/bench/task-follow.mjs):
 * a 60-second watch set-up costs 14 requests (18 with 20 sources, i.e. 24
 * milestones) and its end is seen within one interval; poll.ts's default of
 * 1 s after every change costs 24 (44) for the same set-ups.
 */
export const TASK_POLL = { minMs: 3_200, maxMs: 10_000, factor: 1.5 } as const;

export interface FollowOptions {
  /** Shown above the milestones until the task's own title is known. */
  label?: string;
  /** The command that picks the task up again; default `kagent task show <id> --follow`. */
  resumeHint?: string;
  /** Overrides --timeout (seconds → ms). */
  timeoutMs?: number;
  /** What goes on after Ctrl-C (default "the task": "the task goes on"). */
  work?: string;
}

/**
 * Polls the task until it is no longer queued, running or waiting, showing its
 * progress on stderr, and returns its last state (done, failed, cancelled or a
 * status this version does not know). Throws StillRunningError (exit 8) when
 * --timeout runs out and InterruptedError (exit 130) on Ctrl-C; both carry the
 * resume command as their hint. The task itself goes on in both cases.
 */
export async function followTask(ctx: FollowContext, taskId: string, options: FollowOptions = {}): Promise<TaskDetail> {
  const api = await ctx.api();
  const resume =
    options.resumeHint ?? `follow it again with \`${kagentCommand(ctx, 'task show', taskId, '--follow')}\``;
  const view = await createProgressView(ctx, taskId, options.label);
  try {
    const detail = await poll<TaskDetail>({
      fetch: (signal) => api.call('getTask', { params: { id: taskId }, signal }),
      isDone: (task) => !isActiveStatus(task.status),
      fingerprint: taskFingerprint,
      onUpdate: (task) => view.update(task),
      timeoutMs: options.timeoutMs ?? timeoutMs(ctx.flags),
      signal: ctx.signal,
      clock: ctx.clock,
      ...TASK_POLL,
      resumeHint: resume,
      work: options.work ?? 'the task',
    });
    await view.finish(detail);
    return detail;
  } catch (error) {
    await view.abandon();
    throw error;
  }
}

/** What counts as a change: status, milestones and the actions waited on, not timestamps. */
export function taskFingerprint(task: TaskDetail): string {
  return JSON.stringify([
    task.status,
    task.title,
    (task.milestones ?? []).map((m) => [m.id, m.status, m.title, m.detail]),
    (task.waitingOn ?? []).map((a) => [a.id, a.status]),
    task.result?.id ?? null,
  ]);
}

/**
 * A finished task that is not done as an error (exit 1) saying how it ended: failed,
 * cancelled, or a status kagent does not know (exit 0 is only for done); undefined when done.
 */
export function taskOutcomeError(ctx: Pick<Context, 'flags'>, task: TaskDetail): CliError | undefined {
  const title = sanitizeLine(task.title);
  if (task.status === 'failed') {
    const failed = task.milestones?.find((m) => m.status === 'failed');
    return new CliError(`task ${task.id} failed${failed ? ` at "${sanitizeLine(failed.title)}"` : ''}: ${title}`, {
      exitCode: ExitCode.ERROR,
      code: 'TASK_FAILED',
      hint: `\`${kagentCommand(ctx, 'task show', task.id)}\` shows its milestones`,
    });
  }
  if (task.status === 'cancelled' || task.status === ('canceled' as string)) {
    return new CliError(`task ${task.id} was cancelled: ${title}`, {
      exitCode: ExitCode.ERROR,
      code: 'TASK_CANCELLED',
      hint: `work done before it was cancelled is kept: \`${kagentCommand(ctx, 'task show', task.id)}\``,
    });
  }
  if (task.status === 'done') return undefined;
  const status = typeof task.status === 'string' ? sanitizeLine(task.status) : String(JSON.stringify(task.status));
  return new CliError(
    `task ${task.id} ended as "${status.slice(0, 40)}", which kagent does not know as done: ${title}`,
    {
      exitCode: ExitCode.ERROR,
      code: 'TASK_STATUS_UNKNOWN',
      hint: `\`${kagentCommand(ctx, 'task show', task.id, '--json')}\` shows it as the service sent it`,
    },
  );
}
