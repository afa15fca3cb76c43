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

/** Items read page by page that know, once read, whether the service had more than were read (a page's end). */
export interface Listing<T> extends AsyncIterable<T> {
  /** True once the reading stopped before the service's last item (--limit reached, or one page without --all). */
  readonly cut: boolean;
  /**
   * True when only the first page was asked for (neither --all nor --limit): a cut
   * then is the service's page size, which nobody chose, so it is said even to a script.
   */
  readonly onePage: boolean;
}

/** What a listing knows once read (see Listing). */
export interface ListingState {
  cut: boolean;
  onePage: boolean;
}

/** `items` as a Listing whose `cut` and `onePage` read `state`. */
export function listing<T>(items: AsyncIterable<T>, state: ListingState): Listing<T> {
  return Object.defineProperties(items, {
    cut: { get: () => state.cut, enumerable: false },
    onePage: { get: () => state.onePage, enumerable: false },
  }) as Listing<T>;
}

/**
 * Empty pages in a row, each with a cursor to yet another page, after which the listing
 * stops: cursors that never repeat, on pages that never hold anything, would otherwise be
 * followed until --timeout. A service filtering after it pages may answer a few; ten in
 * a row lead nowhere.
 */
export const EMPTY_PAGES_MAX = 10;

export function paginate<T>(fetchPage: PageFetcher<T>, options: PaginateOptions = {}): Listing<T> {
  const state = { cut: false, onePage: !options.all && options.limit === undefined };
  return listing(pages(fetchPage, options, state), state);
}

async function* pages<T>(
  fetchPage: PageFetcher<T>,
  options: PaginateOptions,
  state: ListingState,
): AsyncGenerator<T, void, undefined> {
  const { limit, all = false, maxPageSize } = options;
  if (limit !== undefined && limit <= 0) return;
  const pageSize = pageSizeFor(limit, all, maxPageSize);
  let yielded = 0;
  let cursor: string | undefined;
  // Every cursor followed: a service that hands one back again (A → B → A) would make this loop forever.
  const seen = new Set<string>();
  let emptyInARow = 0;
  for (;;) {
    const remaining = limit === undefined ? undefined : limit - yielded;
    const page = await fetchPage(
      cursor,
      pageSize !== undefined && remaining !== undefined ? Math.min(pageSize, remaining) : pageSize,
    );
    const items = page.items ?? [];
    for (const [index, item] of items.entries()) {
      yield item;
      if (limit !== undefined && ++yielded >= limit) {
        // Everything asked for came: whether more was there, without judging a cursor that is not followed.
        state.cut = index < items.length - 1 || Boolean(page.nextCursor);
        return;
      }
    }
    // One page asked for: more is only said, and the cursor not followed (nor judged).
    if (!all && limit === undefined) {
      if (page.nextCursor) state.cut = true;
      return;
    }
    const next = cursorOf(page.nextCursor, seen.size + 1);
    if (!next) return;
    emptyInARow = items.length === 0 ? emptyInARow + 1 : 0;
    if (emptyInARow >= EMPTY_PAGES_MAX) {
      throw new CliError(
        `the service gave ${emptyInARow} empty pages in a row, each with a cursor to another, after ${seen.size + 1} pages: the list comes no nearer its end; stopping`,
        {
          code: 'EMPTY_PAGES',
          hint: 'the service misbehaves; try again later, or read fewer with --limit',
        },
      );
    }
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

/**
 * The cursor of the next page: text, or a number as its text; none for null, absent or
 * empty. Anything else cannot be sent back, so the rest of the list cannot be asked for:
 * an error, never a list that looks whole.
 */
function cursorOf(value: unknown, pagesRead: number): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (value === null || value === undefined) return undefined;
  throw new CliError(
    `the service's cursor for the page after page ${pagesRead} is not text (${JSON.stringify(value).slice(0, 40)}): the pages after it cannot be asked for; stopping`,
    { code: 'CURSOR_INVALID', hint: 'try again later' },
  );
}

/** Fewest requests for the job: as many items per page as wanted (or allowed). */
function pageSizeFor(limit: number | undefined, all: boolean, maxPageSize: number | undefined): number | undefined {
  if (maxPageSize === undefined) return undefined;
  if (limit !== undefined) return Math.min(limit, maxPageSize);
  return all ? maxPageSize : undefined;
}
