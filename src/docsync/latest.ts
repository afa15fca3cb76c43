// The service's latest revision of pulled documents, for the fewest requests:
// the document list carries each document's revision (DocSummary), so a page of
// up to 500 answers for 500 files where reading each document costs one request
// apiece (at 60 requests a minute: a second instead of eight minutes).
import type { DocSummary } from '../api/shapes.js';
import type { Context } from '../context.js';
import { ApiError } from '../errors.js';
import { warn } from '../io/output.js';
import { isRevision } from './sidecar.js';

/** The largest page listDocs gives (the contract's bound). */
export const DOC_PAGE = 500;

/** A document's revision now; null when the service has no such document. */
export type LatestRevisions = Map<string, number | null>;

/**
 * The latest revision of each id. One id: one read (a list page could cost more).
 * Several: the list, page by page, until every id is seen, or until the pages read
 * outnumber the ids still unseen (reading those one by one is then cheaper). An
 * id the list does not show (or shows without a revision) is read on its own: a
 * 404 says it is gone. A list of one page is the whole list at one moment, so an
 * id it lacks is gone without asking again; over several pages a document saved
 * meanwhile moves to the first page, which was read already.
 */
export async function latestRevisions(ctx: Context, ids: readonly string[]): Promise<LatestRevisions> {
  const latest: LatestRevisions = new Map();
  const unseen = new Set(ids);
  const api = await ctx.api();
  let read = 0;
  let whole = false;
  const withoutRevision = new Set<string>();
  if (unseen.size > 1) {
    const list = api.paginate('listDocs', { signal: ctx.signal }, { all: true });
    whole = true;
    for await (const summary of list) {
      read++;
      const id = (summary as Partial<DocSummary> | undefined)?.id;
      if (typeof id === 'string' && unseen.has(id)) {
        if (isRevision(summary.revision)) {
          latest.set(id, summary.revision);
          unseen.delete(id);
        } else withoutRevision.add(id);
      }
      if (read % DOC_PAGE === 0 && (unseen.size === 0 || read / DOC_PAGE >= unseen.size)) {
        whole = false;
        break;
      }
    }
    if (whole && read > DOC_PAGE) whole = false;
  }
  // Said once: the contract promises the revision in the list, so this is a service that differs.
  if (withoutRevision.size > 0)
    await warn(
      ctx,
      `the document list gave no revision for ${withoutRevision.size} of the documents: reading ${withoutRevision.size === 1 ? 'it' : 'them'} one by one`,
    );
  for (const id of unseen) {
    if (whole && !withoutRevision.has(id)) latest.set(id, null);
    else latest.set(id, await revisionOf(ctx, id));
  }
  return latest;
}

/** One document's revision (getDoc), null when it is gone (404). */
async function revisionOf(ctx: Context, id: string): Promise<number | null> {
  const api = await ctx.api();
  try {
    return (await api.call('getDoc', { params: { id }, signal: ctx.signal })).revision;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}
