// What a list verb asks of the API: its query as the user gave it, checked
// against the operation's bounds before anything is sent (a problem names the
// flag), `--space` then sent as the id of the space named, and --limit/--all.
import type { PageItem, PagedOperation } from '../api/operation-types.js';
import * as S from '../api/shapes.js';
import type { Context } from '../context.js';
import type { Listing } from '../http/paginate.js';
import { checkInput } from './define.js';
import { paging } from './options.js';
import { spaceIdFor } from './space.js';

type Query = Record<string, string | number | undefined>;
type ListOperation = PagedOperation & keyof typeof S.Queries;

/**
 * A query checked against its operation's bounds, each field named by its flag
 * (`space` is `--space` unless `flagFor` says otherwise), with the space the user
 * named (id or name) turned into its id.
 */
export async function checkedQuery<Q extends Query>(
  ctx: Context,
  op: keyof typeof S.Queries,
  query: Q,
  flagFor: Record<string, string> = {},
): Promise<Q> {
  checkInput(S.Queries[op], query, { space: '--space', ...flagFor });
  return typeof query.space === 'string' ? { ...query, space: await spaceIdFor(ctx, query.space) } : query;
}

/** The items of a list operation, page after page, as --limit or --all ask (both at once: exit 2, before any request). */
export async function listItems<K extends ListOperation>(
  ctx: Context,
  op: K,
  query: Query,
  opts: { limit?: number; all?: boolean },
  flagFor: Record<string, string> = {},
): Promise<Listing<PageItem<K>>> {
  const pages = paging(opts);
  const checked = await checkedQuery(ctx, op, query, flagFor);
  const api = await ctx.api();
  return api.paginate(op, { query: checked, signal: ctx.signal }, pages);
}
