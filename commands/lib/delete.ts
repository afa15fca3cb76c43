import { ApiError, CliError, throwIfAborted, mostSevere } from '../../src/errors.js';
import { itemFailed } from '../../src/kit/batch.js';
import { defineCommand } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';
import { notFoundHint } from '../../src/io/not-found.js';
import { confirmOrYes } from '../../src/io/prompt.js';
import { doneEach } from '../../src/io/outcome.js';

export default defineCommand({
  name: 'delete',
  aliases: ['rm'],
  summary: 'Delete library items',
  description:
    'Asks first on a terminal; elsewhere needs --yes (without it: exit 2, nothing deleted). ' +
    'Every id is tried; the exit status is that of the most severe failure (4 when an id was not found). ' +
    'Piped: prints each deleted id; --json prints [{id, deleted, error?}].',
  arguments: [{ name: 'ids', description: 'one or more item ids', variadic: true, complete: 'lib' }],
  examples: [
    'kagent lib delete li_8f2k3xq9mz',
    'kagent lib delete li_8f2k3xq9mz li_3m9q7zkw4c --yes',
    'kagent lib list --kind link --all | cut -f1 | xargs kagent lib delete --yes',
  ],
  async run(ctx, _opts, args) {
    const ids = [...new Set(args.ids)];
    // No key or base URL: say so before asking anything.
    const api = await ctx.api();
    await confirmOrYes(ctx, {
      message:
        ids.length === 1
          ? `Delete library item ${ids[0]}? This cannot be undone.`
          : `Delete ${ids.length} library items (${ids.join(', ')})? This cannot be undone.`,
      action: ids.length === 1 ? `delete ${ids[0]}` : `delete ${ids.length} library items`,
    });
    const each = doneEach<Record<string, unknown>>(ctx, {
      said: (r) => `Deleted ${String(r.id)}`,
      piped: (r) => String(r.id),
    });
    const failures: CliError[] = [];
    for (const id of ids) {
      throwIfAborted(ctx.signal);
      try {
        await api.call('deleteLibraryItem', { params: { id }, signal: ctx.signal });
        await each.add({ id, deleted: true });
      } catch (error) {
        if (!(error instanceof ApiError) || ids.length === 1) throw notFoundHint(ctx, error, 'item', id);
        notFoundHint(ctx, error, 'item', id);
        failures.push(error);
        await itemFailed(each, 'deleted', id, error);
      }
    }
    await each.end();
    if (failures.length > 0) {
      const codes = [...new Set(failures.map((f) => f.code))];
      throw new CliError(`could not delete ${failures.length} of ${ids.length} items`, {
        code: codes.length === 1 ? (codes[0] as string) : 'DELETE_FAILED',
        exitCode: mostSevere(failures.map((f) => f.exitCode)),
        hint: `\`${suggest(ctx, 'lib list')}\` shows the ids there are`,
      });
    }
  },
});
