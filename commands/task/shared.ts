// What several `kagent task` verbs share.
import type { Context } from '../../src/context.js';
import type { TaskDetail } from '../../src/api/shapes.js';
import { suggest } from '../../src/kit/hints.js';
import { notFoundHint } from '../../src/io/not-found.js';
import { success, note } from '../../src/io/output.js';
import { printDone } from '../../src/io/outcome.js';
import { followTask, taskOutcomeError } from '../../src/follow/task.js';

/** The command that shows a task's result: its words, then the id (quoted where it is shown). */
export function resultCommand(result: TaskDetail['result']): [string, string] | undefined {
  if (!result) return undefined;
  const verbs: Record<string, string> = {
    watch: 'watch show',
    media: 'media show',
    doc: 'doc show',
    task: 'task show',
  };
  const verb = verbs[result.kind];
  return verb ? [verb, result.id] : undefined;
}

export function percent(progress: number | null | undefined): string {
  return typeof progress === 'number' ? `${Math.round(progress * 100)}%` : '';
}

/**
 * Follows a task to its end (`task show ID --follow`, and its older name `task watch ID`):
 * the live milestones on stderr; --json prints the task as it ended, piped text one
 * line (id, status, result). Exit 1 when it failed or was cancelled.
 */
export async function followToEnd(ctx: Context, id: string): Promise<void> {
  let task: TaskDetail;
  try {
    task = await followTask(ctx, id);
  } catch (error) {
    throw notFoundHint(ctx, error, 'task', id);
  }
  const failure = taskOutcomeError(ctx, task);
  await printDone(ctx, task, {
    piped: (t) => [t.id, t.status, t.result ? `${t.result.kind} ${t.result.id}` : ''].join('\t'),
  });
  if (failure) throw failure;
  await success(ctx, `Done: ${task.title}`);
  const next = resultCommand(task.result);
  if (next) await note(ctx, `see the result: \`${suggest(ctx, ...next)}\``);
}

/** What `task show --follow` says of its exit: the help of `task show` (and of `task watch`). */
export const FOLLOW_DESCRIPTION =
  'With --follow (-f) shows the milestones as they happen (in place on a terminal, one line each when piped) until the task is done, failed or cancelled. ' +
  'It exits 0 when the task is done, 1 when it failed or was cancelled, 8 when --timeout runs out first and 130 on Ctrl-C (the task goes on in the last two cases); ' +
  'with --json it prints the task as it ended.';
