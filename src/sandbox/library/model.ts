// The library model: saved web pages, saved brief entries, uploaded files and
// saved media. Every item is read, summarised and given key points when it
// arrives; when no space is given, the agent picks one. Uploaded files keep their
// extracted text on disk (text.ts); receiving one is upload.ts. The routes are in
// ../routes/library.ts.
import { rm } from 'node:fs/promises';
import type { LibraryItem, LibraryText, Locale, SaveLinkRequest, UpdateLibraryItemRequest } from '../../api/shapes.js';
import { isMediaUrl, pickSpace, readWebPage, tokens } from '../reading.js';
import { newestFirst } from '../order.js';
import { HttpFail, type Account, type LibraryRecord } from '../types.js';
import { notFound, page, publicView, type World } from '../world.js';
import { forgetText, sliceChars, storedText, storedTextOrEmpty } from './text.js';

/** Credits a summary costs (assumed; the contract shows no prices). */
export const LINK_SUMMARY_CREDITS = 1;
export const FILE_SUMMARY_CREDITS = 2;

/** The listing's filters and paging, as listLibrary's query has them. */
export interface LibraryQuery {
  space?: string;
  kind?: string;
  q?: string;
  limit?: number;
  cursor?: string;
}

/** A page of items, newest first; a search (`q`) answers the best matches at once, with no paging. */
export function listLibrary(
  world: World,
  account: Account,
  query: LibraryQuery,
): { items: LibraryItem[]; nextCursor: string | null } {
  let items = newestFirst(account.library);
  if (query.space) {
    const space = query.space;
    items = items.filter((item) => item.spaceId !== null && matchesSpace(account, item.spaceId, space));
  }
  if (query.kind) items = items.filter((item) => item.kind === query.kind);
  if (query.q) {
    const found = search(items, query.q, world).slice(0, query.limit ?? 50);
    return { items: found.map((item) => view(item, account)), nextCursor: null };
  }
  const listKey = `library:${account.id}:${query.space ?? ''}:${query.kind ?? ''}`;
  const result = page(items, query, listKey, 50);
  return { items: result.items.map((item) => view(item, account)), nextCursor: result.nextCursor };
}

/** Saves a web page, read and summarised (a credit); a video or podcast link is not saved here (`media: true`). */
export function saveLink(
  world: World,
  account: Account,
  input: SaveLinkRequest,
): { media: boolean; item: LibraryItem | null } {
  if (!/^https?:$/i.test(new URL(input.url).protocol)) {
    throw new HttpFail(400, 'INVALID_INPUT', 'Only http and https links can be saved', {
      issues: [{ path: 'url', message: 'must be an http or https URL' }],
    });
  }
  // Video and podcast links are transcribed through POST /media; nothing is saved here.
  if (isMediaUrl(input.url)) return { media: true, item: null };
  const chosen = input.spaceId ? world.space(account, input.spaceId) : undefined;
  const lang: Locale = input.lang ?? account.lang;
  world.spend(account, LINK_SUMMARY_CREDITS, 'the summary of this link');

  const read = readWebPage(input.url, lang, world.rng(`link:${lang}:${input.url}`));
  const space =
    chosen ??
    pickSpace(account.spaces, `${read.title} ${read.text} ${input.note ?? ''}`) ??
    world.defaultSpace(account);
  const now = world.iso();
  const item: LibraryRecord = {
    id: world.id('li'),
    kind: 'link',
    title: read.title,
    url: input.url,
    note: input.note ?? null,
    spaceId: space.id,
    status: 'ready',
    summary: read.summary,
    keyPoints: read.keyPoints,
    fileName: null,
    mime: 'text/html',
    size: null,
    sha256: null,
    entryId: null,
    mediaId: null,
    createdAt: now,
    updatedAt: now,
  };
  account.library.push(item);
  return { media: false, item: view(item, account) };
}

/** Moves an item to another space (`space`: the older name of `spaceId`) and/or changes its note. */
export function updateItem(
  world: World,
  account: Account,
  id: string | undefined,
  input: UpdateLibraryItemRequest & { space?: string },
): void {
  const item = findItem(account, id);
  const spaceRef = input.spaceId ?? input.space;
  if (spaceRef !== undefined) item.spaceId = world.space(account, spaceRef).id;
  if (input.note !== undefined) item.note = input.note;
  item.updatedAt = world.iso();
}

/** Removes an item: a file gives its storage back and its bytes and text are deleted; an entry is no longer saved. */
export async function deleteItem(world: World, account: Account, id: string | undefined): Promise<void> {
  const item = findItem(account, id);
  account.library = account.library.filter((i) => i !== item);
  if (item.kind === 'file' && item.size) account.storageUsed = Math.max(0, account.storageUsed - item.size);
  if (item.kind === 'entry' && item.entryId && account.entryState[item.entryId])
    account.entryState[item.entryId]!.saved = false;
  await removeFiles(world, item);
}

/** `limit` characters of an uploaded file's text from character `offset`, or 400 NO_TEXT. */
export function readText(
  world: World,
  account: Account,
  id: string | undefined,
  offset: number,
  limit: number,
): LibraryText {
  const item = findItem(account, id);
  if (item.kind !== 'file' || !item._textFile || !item._textLength) {
    throw new HttpFail(
      400,
      'NO_TEXT',
      item.kind === 'file' ? 'No text could be extracted from this file' : 'Only uploaded files have stored text',
    );
  }
  const text = storedText(world.blobFile(item._textFile));
  const chunk = sliceChars(text, offset, limit);
  const total = item._textLength;
  const end = Math.min(total, offset + limit);
  return { id: item.id, offset, limit, total, text: chunk, nextOffset: end < total ? end : null };
}

/** What the service shows of an item; fields the account was set to leave out (`hideFields`, a service that does not send them) are left out. */
export function view(item: LibraryRecord, account: Account): LibraryItem {
  const shown = publicView(item) as Record<string, unknown>;
  for (const field of account.hideFields ?? []) delete shown[field];
  return shown as LibraryItem;
}

export function findItem(account: Account, id: string | undefined): LibraryRecord {
  const item = account.library.find((i) => i.id === id);
  if (!item) throw notFound('ITEM_NOT_FOUND', `Library item ${id}`);
  return item;
}

/** The `space` filter takes an id (or, leniently, a space's exact name); an unknown space matches nothing. */
function matchesSpace(account: Account, spaceId: string, ref: string): boolean {
  if (spaceId === ref) return true;
  return account.spaces.some((s) => s.id === spaceId && s.name === ref);
}

/** Keyword search over title, note, summary, key points, link and file name, and an upload's text. */
function search(items: LibraryRecord[], q: string, world: World): LibraryRecord[] {
  const wanted = [...new Set(tokens(q, 2))];
  const needle = q.trim().toLowerCase();
  const scored: Array<{ item: LibraryRecord; score: number }> = [];
  for (const item of items) {
    const fields = [
      item.title,
      item.note ?? '',
      item.summary ?? '',
      item.keyPoints.join(' '),
      item.url ?? '',
      item.fileName ?? '',
    ].join('\n');
    const text = item._textFile ? storedTextOrEmpty(world.blobFile(item._textFile)) : '';
    const haystack = `${fields}\n${text}`;
    const words = new Set(tokens(haystack, 2));
    let score = wanted.filter((w) => words.has(w)).length;
    if (needle.length > 0 && haystack.toLowerCase().includes(needle)) score += 2;
    if (score > 0) scored.push({ item, score });
  }
  // Best match first; equal scores newest first (items arrive newest first and the sort is stable).
  return scored.sort((a, b) => b.score - a.score).map((s) => s.item);
}

async function removeFiles(world: World, item: LibraryRecord): Promise<void> {
  for (const file of [item._blob, item._textFile]) {
    if (!file) continue;
    const path = world.blobFile(file);
    forgetText(path);
    await rm(path, { force: true });
  }
}
