import type { Context } from '../../src/context.js';
import type { Action } from '../../src/api/shapes.js';
import { ApiError, CliError, InterruptedError } from '../../src/errors.js';
import { defineCommand } from '../../src/kit/define.js';
import { notFoundHint } from '../../src/kit/hints.js';
import { locateAction } from './shared.js';

/** ACTION_NOT_UNDOABLE: the window passed, or the action never ran. */
async function explainUndoError(ctx: Context, error: unknown, id: string): Promise<unknown> {
  if (!(error instanceof ApiError) || error.code !== 'ACTION_NOT_UNDOABLE') return notFoundHint(ctx, error, 'action', id);
  const current = await locateAction(ctx, id);
  const { getFormatter } = await import('../../src/io/output.js');
  const { sanitizeLine } = await import('../../src/io/sanitize.js');
  const f = await getFormatter(ctx, 'stderr');
  const undoUntil = typeof current?.undoUntil === 'number' ? current.undoUntil : null;
  let message: string;
  if (current?.status === 'executed' && undoUntil !== null && undoUntil < ctx.clock.now()) {
    message = `action ${id} can no longer be undone: its undo window closed ${f.time(undoUntil)}`;
  } else if (current && current.status !== 'executed') {
    message = `action ${id} cannot be undone: it is ${sanitizeLine(current.status)}, and only an action that has run can be undone`;
  } else {
    message = `action ${id} cannot be undone: its undo window has passed or it has not run (the service says: ${sanitizeLine(error.message)})`;
  }
  return new CliError(message, {
    exitCode: error.exitCode,
    code: error.code,
    hint: 'undo is possible only for a short while after an action runs; to reverse it now, ask the agent (`kagent chat`) or change it yourself',
    cause: error,
  });
}

export default defineCommand({
  name: 'undo',
  summary: 'Undo actions that ran, within their undo window',
  description:
    'Undoes each action in the order given (a change lists its actions in the order that reverts it) and stops at the first that fails. ' +
    'Exit 5 (ACTION_NOT_UNDOABLE) when the undo window has passed or the action has not run. ' +
    'Piped, prints each id and its new status; --json prints an array of the Actions undone.',
  arguments: [{ name: 'ids', description: 'one or more actions', variadic: true }],
  examples: ['kagent actions undo ac_3k9x0q2m', 'kagent actions undo ac_2 ac_1', 'kagent actions undo ac_3k9x0q2m --json'],
  async run(ctx, _opts, args) {
    const api = await ctx.api();
    const { printJson, success, wantsJson } = await import('../../src/io/output.js');
    const { emit } = await import('../../src/io/streams.js');
    const { sanitizeLine } = await import('../../src/io/sanitize.js');
    const done: Action[] = [];
    let failure: unknown;
    for (const id of args.ids) {
      if (ctx.signal.aborted) throw new InterruptedError();
      try {
        const action = await api.call('undoAction', { params: { id }, signal: ctx.signal });
        done.push(action);
        if (!wantsJson(ctx)) {
          if (!ctx.io.stdoutIsTTY) await emit(ctx.io.stdout, `${sanitizeLine(action.id)}\t${sanitizeLine(action.status)}\n`);
          await success(ctx, `Undone: ${sanitizeLine(action.title ?? id)} (${id})`);
        }
      } catch (error) {
        failure = await explainUndoError(ctx, error, id);
        break;
      }
    }
    if (wantsJson(ctx)) await printJson(ctx, done);
    if (failure) {
      const left = args.ids.slice(done.length + 1);
      if (failure instanceof CliError && left.length > 0) failure.hint = `${failure.hint ? `${failure.hint}. ` : ''}Not tried: ${left.join(' ')}`;
      throw failure;
    }
  },
});
