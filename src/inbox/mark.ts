// `kagent inbox read|done|dismiss ID...`: every id is tried; the run fails as
// its most severe failure (4 when an id was not found), after the others are marked.
import type { Context } from '../context.js';
import { ApiError, CliError, mostSevere, throwIfAborted } from '../errors.js';
import { doneEach } from '../io/outcome.js';
import { itemFailed } from '../kit/batch.js';
import { suggest } from '../kit/hints.js';

export type Mark = 'read' | 'done' | 'dismissed';

export async function markItems(ctx: Context, given: string[], mark: Mark): Promise<void> {
  const ids = [...new Set(given)];
  const api = await ctx.api();
  const marked = doneEach<Record<string, unknown>>(ctx, {
    said: (r) => `Marked ${String(r.id)} ${mark}`,
    piped: (r) => String(r.id),
  });
  const failures: CliError[] = [];
  const hint = `\`${suggest(ctx, 'inbox list')}\` shows the ids`;
  for (const id of ids) {
    throwIfAborted(ctx.signal);
    try {
      await api.call('markInboxItem', { params: { id }, body: { [mark]: true }, signal: ctx.signal });
      await marked.add({ id, [mark]: true });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404 && !error.hint)
        error.hint = `no inbox item "${id}": ${hint}`;
      if (!(error instanceof ApiError) || ids.length === 1) throw error;
      failures.push(error);
      await itemFailed(marked, mark, id, error);
    }
  }
  await marked.end();
  if (failures.length === 0) return;
  const codes = [...new Set(failures.map((f) => f.code))];
  throw new CliError(`could not mark ${failures.length} of ${ids.length} items ${mark}`, {
    code: codes.length === 1 ? (codes[0] as string) : 'MARK_FAILED',
    exitCode: mostSevere(failures.map((f) => f.exitCode)),
    hint,
  });
}
