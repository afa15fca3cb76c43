// `kagent task`: background work (watch set-up, research, transcription,
// scheduled tasks).
//   list    listTasks (--space, --active, --kind, --limit, --all), newest first
//   show    getTask: milestones, the actions it waits on and how to decide them
//   watch   follows a task to its end (the same follower as `watch create`)
//   cancel  cancelTask: work already done is kept
import type { Context } from '../context.js';
import type { Task, TaskDetail } from '../api/shapes.js';
import { ApiError, CliError, UsageError } from '../errors.js';
import type { Formatter } from '../io/format.js';
import { checkInput, defineCommand, defineGroup } from './define.js';

function taskHint(error: unknown, id: string): unknown {
  if (error instanceof ApiError && error.status === 404 && !error.hint) {
    error.hint = `no task "${id}": \`kagent task list\` shows your tasks`;
  }
  return error;
}

/** The command that opens what a finished task produced. */
export function resultCommand(result: TaskDetail['result']): string | undefined {
  if (!result) return undefined;
  const verbs: Record<string, string> = { watch: 'watch show', media: 'media show', doc: 'doc show', task: 'task show' };
  const verb = verbs[result.kind];
  return verb ? `${verb} ${result.id}` : undefined;
}

function percent(progress: number | null | undefined): string {
  return typeof progress === 'number' ? `${Math.round(progress * 100)}%` : '';
}

// ---------------------------------------------------------------- list

interface ListOptions {
  space?: string;
  active?: boolean;
  kind?: string;
  limit?: number;
  all?: boolean;
}

const list = defineCommand<ListOptions>({
  name: 'list',
  aliases: ['ls'],
  summary: 'List background tasks, newest first',
  options: [
    { flags: '--space <space>', description: 'only tasks of this space (id or name)' },
    { flags: '--active', description: 'only queued, running or waiting tasks' },
    { flags: '--kind <kind>', description: 'only tasks of this kind (watch_setup, brief, research, transcription, scheduled, ...)' },
    { flags: '-L, --limit <n>', description: 'at most this many (default: the first page)', type: 'integer', min: 1 },
    { flags: '--all', description: 'every task, following every page' },
  ],
  examples: ['kagent task list --active', 'kagent task list --kind watch_setup --limit 5', 'kagent task list --all --json | jq "map(select(.status == \\"failed\\")) | length"', 'kagent task list --active | cut -f1'],
  async run(ctx, opts) {
    if (opts.all && opts.limit !== undefined) throw new UsageError('use --limit or --all, not both');
    const S = await import('../api/shapes.js');
    const query: Record<string, string | undefined> = {
      space: opts.space,
      active: opts.active ? 'true' : undefined,
      kind: opts.kind,
    };
    checkInput(S.Queries.listTasks, query, { space: '--space', active: '--active', kind: '--kind' });
    if (opts.space !== undefined) {
      const { resolveSpace } = await import('./space.js');
      query.space = (await resolveSpace(ctx, opts.space)).id;
    }
    const { printList } = await import('../io/output.js');
    const { taskStatus } = await import('../io/task-follow.js');
    const api = await ctx.api();
    const items = api.paginate('listTasks', { query, signal: ctx.signal }, { limit: opts.limit, all: opts.all });
    await printList<Task>(ctx, items, {
      empty: opts.active ? 'No task is running.' : 'No tasks.',
      columns: [
        { header: 'Id', value: (t) => t.id },
        { header: 'Kind', value: (t) => t.kind },
        { header: 'Status', value: (t) => t.status, display: (t, f) => taskStatus(t.status, f) },
        { header: 'Progress', value: (t) => t.progress, display: (t) => percent(t.progress) },
        { header: 'Title', value: (t) => t.title, flex: true },
        { header: 'Updated', value: (t) => t.updatedAt, kind: 'time' },
        { header: 'Created', value: (t) => t.createdAt, only: 'plain' },
        { header: 'Finished', value: (t) => t.finishedAt, only: 'plain' },
        { header: 'Space', value: (t) => t.spaceId, only: 'plain' },
      ],
    });
  },
});

// ---------------------------------------------------------------- show

async function renderTask(ctx: Context, task: TaskDetail, f: Formatter): Promise<string> {
  const { milestoneLines, taskStatus, approvalCommands, kagentCommand } = await import('../io/task-follow.js');
  const waiting = task.waitingOn ?? [];
  const next = resultCommand(task.result);
  if (!f.tty) {
    const head = f.fields([
      ['id', task.id],
      ['kind', task.kind],
      ['status', task.status],
      ['title', task.title],
      ['progress', task.progress === null || task.progress === undefined ? '' : String(task.progress)],
      ['space', task.spaceId ?? ''],
      ['created', task.createdAt],
      ['updated', task.updatedAt],
      ['finished', task.finishedAt ?? ''],
      ['waiting-on', waiting.map((a) => a.id).join(' ')],
      ['result', task.result ? `${task.result.kind} ${task.result.id}` : ''],
    ]);
    const rows = (task.milestones ?? []).map((m) => [m.kind, m.status, m.title, m.detail ?? '', m.at ?? ''].map((v) => v.replace(/[\t\n]+/g, ' ')).join('\t'));
    return [head, '--', ...rows].join('\n');
  }
  const facts = [task.id, task.kind, taskStatus(task.status, f)];
  if (task.progress !== null && task.progress !== undefined) facts.push(percent(task.progress));
  facts.push(`started ${f.time(task.createdAt)}`);
  if (task.finishedAt) facts.push(`finished ${f.time(task.finishedAt)}`);
  else facts.push(`updated ${f.time(task.updatedAt)}`);
  const lines = [f.bold(task.title), facts.join(f.dim(' · '))];
  const milestones = milestoneLines(task, f, Math.min(f.width, 120));
  if (milestones.length > 0) lines.push('', f.bold('Milestones'), ...milestones);
  if (waiting.length > 0) {
    lines.push('', f.bold(f.yellow('Waiting for your decision')));
    for (const action of waiting) {
      const { approve, reject } = approvalCommands(ctx, action);
      lines.push(`  ${action.title} ${f.dim(`(${action.tool}, risk ${action.risk}, ${action.id})`)}`);
      lines.push(`    approve: ${f.cyan(approve)}`);
      lines.push(`    reject:  ${f.cyan(reject)}`);
    }
  }
  if (task.result) {
    lines.push('', `${f.bold('Result')}  ${task.result.kind} ${task.result.id}${next ? f.dim(`  → ${kagentCommand(ctx, next)}`) : ''}`);
  }
  return lines.join('\n');
}

const show = defineCommand<Record<string, never>, { id: string }>({
  name: 'show',
  aliases: ['view'],
  summary: 'Show a task: its milestones, the actions it waits on and what it produced',
  description: 'Piped: label/value lines, then `--`, then one row per milestone: kind, status, title, detail, time.',
  arguments: [{ name: 'id', description: 'the task' }],
  examples: ['kagent task show tk_3k9x0q2m7d', `kagent task show tk_3k9x0q2m7d --jq '.waitingOn[].id'`, 'kagent task show tk_3k9x0q2m7d --json'],
  async run(ctx, _opts, args) {
    const { printItem } = await import('../io/output.js');
    let task: TaskDetail;
    try {
      task = await (await ctx.api()).call('getTask', { params: { id: args.id }, signal: ctx.signal });
    } catch (error) {
      throw taskHint(error, args.id);
    }
    await printItem(ctx, task, (t, f) => renderTask(ctx, t, f));
  },
});

// ---------------------------------------------------------------- watch

const watch = defineCommand<Record<string, never>, { id: string }>({
  name: 'watch',
  aliases: ['follow'],
  summary: 'Follow a task until it ends',
  description:
    'Shows the milestones as they happen (in place on a terminal, one line each when piped) until the task is done, failed or cancelled. ' +
    'Exits 0 when it is done, 1 when it failed or was cancelled, 8 when --timeout runs out first and 130 on Ctrl-C; the task goes on in the last two cases. ' +
    'With --json prints the task as it ended.',
  arguments: [{ name: 'id', description: 'the task' }],
  examples: ['kagent task watch tk_3k9x0q2m7d', 'kagent task watch tk_3k9x0q2m7d --timeout 120', 'kagent task watch tk_3k9x0q2m7d --json | jq -r .status'],
  async run(ctx, _opts, args) {
    const { followTask, taskOutcomeError, kagentCommand } = await import('../io/task-follow.js');
    const { printItem, printJson, success, note, wantsJson } = await import('../io/output.js');
    let task: TaskDetail;
    try {
      task = await followTask(ctx, args.id);
    } catch (error) {
      throw taskHint(error, args.id);
    }
    const failure = taskOutcomeError(ctx, task);
    if (wantsJson(ctx)) await printJson(ctx, task);
    else if (!ctx.io.stdoutIsTTY) await printItem(ctx, task, (t) => [t.id, t.status, t.result ? `${t.result.kind} ${t.result.id}` : ''].join('\t'));
    if (failure) throw failure;
    await success(ctx, `Done: ${task.title}`);
    const next = resultCommand(task.result);
    if (next) await note(ctx, `see the result: ${kagentCommand(ctx, next)}`);
  },
});

// ---------------------------------------------------------------- cancel

const cancel = defineCommand<Record<string, never>, { id: string }>({
  name: 'cancel',
  summary: 'Cancel a queued, running or waiting task (work already done is kept)',
  description: 'Asks first on a terminal; elsewhere pass --yes. Prints the task as cancelled with --json.',
  arguments: [{ name: 'id', description: 'the task' }],
  examples: ['kagent task cancel tk_3k9x0q2m7d', 'kagent task cancel tk_3k9x0q2m7d --yes --json', 'kagent task list --active --kind research | cut -f1 | xargs -n1 kagent task cancel --yes'],
  async run(ctx, _opts, args) {
    const { confirmOrYes } = await import('../io/prompt.js');
    const { printItem, success } = await import('../io/output.js');
    const { sanitizeLine } = await import('../io/sanitize.js');
    const api = await ctx.api();
    if (!ctx.flags.yes && ctx.io.canPrompt) {
      let title = args.id;
      try {
        const current = await api.call('getTask', { params: { id: args.id }, signal: ctx.signal });
        title = `"${sanitizeLine(current.title)}" (${args.id}, ${current.status})`;
      } catch (error) {
        throw taskHint(error, args.id);
      }
      await confirmOrYes(ctx, { message: `Cancel task ${title}? Work already done is kept.`, action: `cancel task ${args.id}` });
    } else {
      await confirmOrYes(ctx, { message: `Cancel task ${args.id}?`, action: `cancel task ${args.id}` });
    }
    let task: Task;
    try {
      task = await api.call('cancelTask', { params: { id: args.id }, signal: ctx.signal });
    } catch (error) {
      throw await explainCancelError(ctx, error, args.id);
    }
    const kept = typeof task.progress === 'number' && task.progress > 0 ? `; work already done is kept (${percent(task.progress)} of it was done)` : '; work already done is kept';
    await success(ctx, `Cancelled ${task.id}: ${task.title}${kept}`);
    await printItem(ctx, task, (t, f) => (f.tty ? '' : `${t.id}\t${t.status}`));
  },
});

async function explainCancelError(ctx: Context, error: unknown, id: string): Promise<unknown> {
  if (!(error instanceof ApiError) || error.code !== 'TASK_NOT_ACTIVE') return taskHint(error, id);
  let status: string | undefined;
  try {
    status = (await (await ctx.api()).call('getTask', { params: { id } })).status;
  } catch {
    status = undefined;
  }
  const { kagentCommand } = await import('../io/task-follow.js');
  return new CliError(`task ${id} is no longer active${status ? ` (it is ${status})` : ''}: only queued, running or waiting tasks can be cancelled`, {
    exitCode: error.exitCode,
    code: error.code,
    hint: `nothing to cancel, and whatever it finished is kept: \`${kagentCommand(ctx, `task show ${id}`)}\` shows how it ended`,
    cause: error,
  });
}

export default defineGroup({
  name: 'task',
  summary: 'Background tasks: list, show, follow and cancel',
  description: 'Tasks are the service\'s background work: setting up a watch, research, transcription, scheduled tasks. Each moves through milestones (plan, steps, output).',
  examples: ['kagent task list --active', 'kagent task show tk_3k9x0q2m7d', 'kagent task watch tk_3k9x0q2m7d', 'kagent task cancel tk_3k9x0q2m7d'],
  commands: [list, show, watch, cancel],
});
