import type { Action } from '../../src/api/shapes.js';
import { CliError, throwIfAborted } from '../../src/errors.js';
import { defineCommand } from '../../src/kit/define.js';
import { printJson, success, wantsJson } from '../../src/io/output.js';
import { emit } from '../../src/io/streams.js';
import { sanitizeLine } from '../../src/io/sanitize.js';
import { undoAction } from '../../src/actions/decide.js';

export default defineCommand({
  name: 'undo',
  summary: 'Undo actions that ran, within their undo window',
  description:
    'Undoes each action in the order given (a change lists its actions in the order that reverts it) and stops at the first that fails. ' +
    'Exit 5 (ACTION_NOT_UNDOABLE) when the undo window has passed or the action has not run. ' +
    'Piped, prints each id and its new status; --json prints an array of the Actions undone.',
  arguments: [{ name: 'ids', description: 'one or more actions', variadic: true, complete: 'action' }],
  examples: [
    'kagent actions undo ac_3k9x8q2m7d',
    'kagent actions undo ac_7h4v2c9dkm ac_3k9x8q2m7d',
    'kagent actions undo ac_3k9x8q2m7d --json',
  ],
  async run(ctx, _opts, args) {
    const done: Action[] = [];
    let failure: unknown;
    for (const id of args.ids) {
      throwIfAborted(ctx.signal);
      try {
        const action = await undoAction(ctx, id);
        done.push(action);
        if (!wantsJson(ctx)) {
          if (!ctx.io.stdoutIsTTY)
            await emit(ctx.io.stdout, `${sanitizeLine(action.id)}\t${sanitizeLine(action.status)}\n`);
          await success(ctx, `Undone: ${sanitizeLine(action.title ?? id)} (${id})`);
        }
      } catch (error) {
        failure = error;
        break;
      }
    }
    if (wantsJson(ctx)) await printJson(ctx, done);
    if (failure) {
      const left = args.ids.slice(done.length + 1);
      if (failure instanceof CliError && left.length > 0)
        failure.hint = `${failure.hint ? `${failure.hint}. ` : ''}Not tried: ${left.join(' ')}`;
      throw failure;
    }
  },
});
