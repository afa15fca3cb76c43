import type { TaskDetail } from '../../src/api/shapes.js';
import { defineCommand } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';
import { notFoundHint } from '../../src/views/not-found.js';
import { resultCommand } from './shared.js';
import { printItem, printJson, success, note, wantsJson } from '../../src/io/output.js';

export default defineCommand({
  name: 'watch',
  aliases: ['follow'],
  summary: 'Follow a task until it ends',
  description:
    'Shows the milestones as they happen (in place on a terminal, one line each when piped) until the task is done, failed or cancelled. ' +
    'Exits 0 when it is done, 1 when it failed or was cancelled, 8 when --timeout runs out first and 130 on Ctrl-C; the task goes on in the last two cases. ' +
    'With --json prints the task as it ended.',
  arguments: [{ name: 'id', description: 'the task', complete: 'task' }],
  examples: [
    'kagent task watch tk_3k9x0q2m7d',
    'kagent task watch tk_3k9x0q2m7d --timeout 120',
    'kagent task watch tk_3k9x0q2m7d --json | jq -r .status',
  ],
  async run(ctx, _opts, args) {
    const { followTask, taskOutcomeError } = await import('../../src/views/task-follow.js');
    let task: TaskDetail;
    try {
      task = await followTask(ctx, args.id);
    } catch (error) {
      throw notFoundHint(ctx, error, 'task', args.id);
    }
    const failure = taskOutcomeError(ctx, task);
    if (wantsJson(ctx)) await printJson(ctx, task);
    else if (!ctx.io.stdoutIsTTY)
      await printItem(ctx, task, (t) => [t.id, t.status, t.result ? `${t.result.kind} ${t.result.id}` : ''].join('\t'));
    if (failure) throw failure;
    await success(ctx, `Done: ${task.title}`);
    const next = resultCommand(task.result);
    if (next) await note(ctx, `see the result: ${suggest(ctx, ...next)}`);
  },
});
