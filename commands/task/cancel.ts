import type { Context } from '../../src/context.js';
import type { Task } from '../../src/api/shapes.js';
import { ApiError, CliError } from '../../src/errors.js';
import { defineCommand } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';
import { notFoundHint } from '../../src/io/not-found.js';
import { percent } from './shared.js';
import { confirmOrYes } from '../../src/io/prompt.js';
import { printDone } from '../../src/io/outcome.js';
import { sanitizeLine } from '../../src/io/sanitize.js';

async function explainCancelError(ctx: Context, error: unknown, id: string): Promise<unknown> {
  if (!(error instanceof ApiError) || error.code !== 'TASK_NOT_ACTIVE') return notFoundHint(ctx, error, 'task', id);
  let status: string | undefined;
  try {
    status = (await (await ctx.api()).call('getTask', { params: { id } })).status;
  } catch {
    status = undefined;
  }
  return new CliError(
    `task ${id} is no longer active${status ? ` (it is ${status})` : ''}: only queued, running or waiting tasks can be cancelled`,
    {
      exitCode: error.exitCode,
      code: error.code,
      hint: `nothing to cancel, and whatever it finished is kept: \`${suggest(ctx, 'task show', id)}\` shows how it ended`,
      cause: error,
    },
  );
}

export default defineCommand({
  name: 'cancel',
  summary: 'Cancel a queued, running or waiting task (work already done is kept)',
  description: 'Asks first on a terminal; elsewhere pass --yes. Prints the task as cancelled with --json.',
  arguments: [{ name: 'id', description: 'the task', complete: 'task' }],
  examples: [
    'kagent task cancel tk_3k9x8q2m7d',
    'kagent task cancel tk_3k9x8q2m7d --yes --json',
    'kagent task list --active --kind research | cut -f1 | xargs -n1 kagent task cancel --yes',
  ],
  async run(ctx, _opts, args) {
    const api = await ctx.api();
    if (!ctx.flags.yes && ctx.io.canPrompt) {
      let title = args.id;
      try {
        const current = await api.call('getTask', { params: { id: args.id }, signal: ctx.signal });
        title = `"${sanitizeLine(current.title)}" (${args.id}, ${current.status})`;
      } catch (error) {
        throw notFoundHint(ctx, error, 'task', args.id);
      }
      await confirmOrYes(ctx, {
        message: `Cancel task ${title}? Work already done is kept.`,
        action: `cancel task ${args.id}`,
      });
    } else {
      await confirmOrYes(ctx, { message: `Cancel task ${args.id}?`, action: `cancel task ${args.id}` });
    }
    let task: Task;
    try {
      task = await api.call('cancelTask', { params: { id: args.id }, signal: ctx.signal });
    } catch (error) {
      throw await explainCancelError(ctx, error, args.id);
    }
    const kept =
      typeof task.progress === 'number' && task.progress > 0
        ? `; work already done is kept (${percent(task.progress)} of it was done)`
        : '; work already done is kept';
    await printDone(ctx, task, {
      said: `Cancelled ${task.id}: ${task.title}${kept}`,
      piped: (t) => `${t.id}\t${t.status}`,
    });
  },
});
