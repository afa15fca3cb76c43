// Cursor pagination as an async iterator: one page in memory at a time.
import { CliError } from '../errors.js';

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface PaginateOptions {
  /** Stop after this many items (and ask for no bigger pages than needed). */
  limit?: number;
  /** Follow every cursor. Without `all` or `limit`, only the first page is read. */
  all?: boolean;
  /** The operation's largest page size, when it takes a `limit` at all. */
  maxPageSize?: number;
}

/** Fetches one page: `cursor` undefined for the first one; `pageSize` undefined for the service's default. */
export type PageFetcher<T> = (cursor: string | undefined, pageSize: number | undefined) => Promise<Page<T>>;

export async function* paginate<T>(
  fetchPage: PageFetcher<T>,
  options: PaginateOptions = {},
): AsyncGenerator<T, void, undefined> {
  const { limit, all = false, maxPageSize } = options;
  if (limit !== undefined && limit <= 0) return;
  const pageSize = pageSizeFor(limit, all, maxPageSize);
  let yielded = 0;
  let cursor: string | undefined;
  // Every cursor followed: a service that hands one back again (A → B → A) would make this loop forever.
  const seen = new Set<string>();
  for (;;) {
    const remaining = limit === undefined ? undefined : limit - yielded;
    const page = await fetchPage(
      cursor,
      pageSize !== undefined && remaining !== undefined ? Math.min(pageSize, remaining) : pageSize,
    );
    for (const item of page.items ?? []) {
      yield item;
      if (limit !== undefined && ++yielded >= limit) return;
    }
    const next = page.nextCursor;
    if (!next || (!all && limit === undefined)) return;
    if (seen.has(next)) {
      throw new CliError(
        `the service returned a page cursor it had already given (${next.slice(0, 40)}) after ${seen.size + 1} pages: the pages go round in a loop; stopping`,
        {
          code: 'CURSOR_LOOP',
          hint: 'the service sends the same pages again and again; try again later, or read fewer with --limit',
        },
      );
    }
    seen.add(next);
    cursor = next;
  }
}

/** Fewest requests for the job: as many items per page as wanted (or allowed). */
function pageSizeFor(limit: number | undefined, all: boolean, maxPageSize: number | undefined): number | undefined {
  if (maxPageSize === undefined) return undefined;
  if (limit !== undefined) return Math.min(limit, maxPageSize);
  return all ? maxPageSize : undefined;
}
