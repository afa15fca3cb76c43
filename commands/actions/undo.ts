import type { Action } from '../../src/api/shapes.js';
import { CliError, throwIfAborted } from '../../src/errors.js';
import { defineCommand } from '../../src/kit/define.js';
import { doneEach } from '../../src/io/outcome.js';
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
    const done = doneEach<Action>(ctx, {
      said: (action) => `Undone: ${sanitizeLine(action.title ?? action.id)} (${action.id})`,
      piped: (action) => `${sanitizeLine(action.id)}\t${sanitizeLine(action.status)}`,
    });
    let failure: unknown;
    for (const id of args.ids) {
      throwIfAborted(ctx.signal);
      try {
        await done.add(await undoAction(ctx, id));
      } catch (error) {
        failure = error;
        break;
      }
    }
    await done.end();
    if (failure) {
      const left = args.ids.slice(done.items.length + 1);
      if (failure instanceof CliError && left.length > 0)
        failure.hint = `${failure.hint ? `${failure.hint}. ` : ''}Not tried: ${left.join(' ')}`;
      throw failure;
    }
  },
});
