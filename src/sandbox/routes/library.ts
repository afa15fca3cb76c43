// Library: saved web pages, saved brief entries, uploaded files and saved media.
// Every item is read, summarised and given key points when it arrives; when no
// space is given, the agent picks one. Uploaded files keep their extracted text
// on disk (blob dir), served in chunks by readLibraryText.
import { rm, rename, writeFile } from 'node:fs/promises';
import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LibraryItem, Locale, SaveLinkRequest, Space, UpdateLibraryItemRequest } from '../../api/shapes.js';
import { limits } from '../../api/shapes.js';
import { charLength } from '../../api/validate.js';
import { extractText } from '../extract.js';
import { decideType, type FileType } from '../filetypes.js';
import { isMediaUrl, pickSpace, readWebPage, summarise, tokens } from '../reading.js';
import { HttpFail, type Account, type Jobs, type LibraryRecord, type Reply, type Routes } from '../types.js';
import { receiveFile, type ReceivedFile } from '../uploads.js';
import { notFound, page, publicView, type World } from '../world.js';

/** Credits a summary costs (assumed; the contract shows no prices). */
export const LINK_SUMMARY_CREDITS = 1;
export const FILE_SUMMARY_CREDITS = 2;

const FILE_NAME_MAX = limits.fileNameMax;
const SUMMARY_SOURCE_CHARS = 200_000;

export const routes: Routes = {
  listLibrary: ({ world, account, query }) => {
    let items = newestFirst(account.library);
    if (query.space)
      items = items.filter((item) => item.spaceId !== null && matchesSpace(account, item.spaceId, query.space));
    if (query.kind) items = items.filter((item) => item.kind === query.kind);
    if (query.q) {
      // A search answers the best matches at once: no paging.
      const found = search(items, query.q, world).slice(0, query.limit ?? 50);
      return { body: { items: found.map((item) => view(item, account)), nextCursor: null } };
    }
    const listKey = `library:${account.id}:${query.space ?? ''}:${query.kind ?? ''}`;
    const result = page(items, query, listKey, 50);
    return { body: { items: result.items.map((item) => view(item, account)), nextCursor: result.nextCursor } };
  },

  saveLink: ({ world, account, body }) => {
    const input = body as SaveLinkRequest;
    if (!/^https?:$/i.test(new URL(input.url).protocol)) {
      throw new HttpFail(400, 'INVALID_INPUT', 'Only http and https links can be saved', {
        issues: [{ path: 'url', message: 'must be an http or https URL' }],
      });
    }
    // Video and podcast links are transcribed through POST /media; nothing is saved here.
    if (isMediaUrl(input.url)) return { status: 201, body: { media: true, item: null } };
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
    return { status: 201, body: { media: false, item: view(item, account) } };
  },

  getLibraryItem: ({ account, params }) => ({ body: view(findItem(account, params.id), account) }),

  updateLibraryItem: ({ world, account, params, body }) => {
    const item = findItem(account, params.id);
    const input = body as UpdateLibraryItemRequest & { space?: string };
    const spaceRef = input.spaceId ?? input.space;
    if (spaceRef !== undefined) item.spaceId = world.space(account, spaceRef).id;
    if (input.note !== undefined) item.note = input.note;
    item.updatedAt = world.iso();
    return { status: 204 };
  },

  deleteLibraryItem: async ({ world, account, params }) => {
    const item = findItem(account, params.id);
    account.library = account.library.filter((i) => i !== item);
    if (item.kind === 'file' && item.size) account.storageUsed = Math.max(0, account.storageUsed - item.size);
    if (item.kind === 'entry' && item.entryId && account.entryState[item.entryId])
      account.entryState[item.entryId]!.saved = false;
    await removeFiles(world, item);
    return { status: 204 };
  },

  readLibraryText: ({ world, account, params, query }) => {
    const item = findItem(account, params.id);
    if (item.kind !== 'file' || !item._textFile || !item._textLength) {
      throw new HttpFail(
        400,
        'NO_TEXT',
        item.kind === 'file' ? 'No text could be extracted from this file' : 'Only uploaded files have stored text',
      );
    }
    const offset: number = query.offset ?? 0;
    const limit: number = query.limit ?? 8000;
    const text = storedText(world.blobFile(item._textFile));
    const chunk = sliceChars(text, offset, limit);
    const total = item._textLength;
    const end = Math.min(total, offset + limit);
    return { body: { id: item.id, offset, limit, total, text: chunk, nextOffset: end < total ? end : null } };
  },

  uploadFile: async ({ world, account, raw, headers, query }) => {
    const fileName = fileNameFrom(headers['x-file-name']);
    const length = declaredLength(headers, account);
    const chosen: Space | undefined = query.space ? world.space(account, query.space) : undefined;
    const lang: Locale = query.lang ?? account.lang;
    const note: string | null = query.note ?? null;
    // Over quota the bytes are still hashed: the same file already stored is not a new one.
    const overStorage = account.storageUsed + length > account.limits.storageBytes;

    const received = await receiveFile(raw, join(world.blobDir, 'files'), length, { store: !overStorage });
    const stored: string[] = received.path ? [received.path] : [];
    let kept = false;
    try {
      const existing = findFile(account, received.sha256);
      if (existing) return duplicateOf(existing, account);
      if (overStorage || !received.path) throw storageFull(account, length);
      const type = await supportedType(received, received.path, fileName);
      // Checked before the extraction work; the credits are taken when the item is added.
      if (world.credits(account) < FILE_SUMMARY_CREDITS)
        world.spend(account, FILE_SUMMARY_CREDITS, 'the summary of this file');

      const id = world.id('li');
      const text = await extractText(received, type, fileName, lang, world.warn);
      const title = titleOf(fileName);
      // The beginning of a long text is enough to summarise it (and keeps big uploads quick).
      const reading = summarise(text.slice(0, SUMMARY_SOURCE_CHARS), title, lang);
      const space =
        chosen ??
        pickSpace(account.spaces, `${fileName} ${text.slice(0, 20_000)} ${note ?? ''}`) ??
        world.defaultSpace(account);
      const { blob, textFile } = await keepUpload(world, id, received.path, text, stored);

      // From here on nothing awaits: another upload of the same bytes, or one that
      // filled the storage, may have finished while this one was being read.
      const raced = findFile(account, received.sha256);
      if (raced) return duplicateOf(raced, account);
      if (account.storageUsed + received.size > account.limits.storageBytes) throw storageFull(account, received.size);
      world.spend(account, FILE_SUMMARY_CREDITS, 'the summary of this file');
      const now = world.iso();
      const item: LibraryRecord = {
        id,
        kind: 'file',
        title,
        url: null,
        note,
        spaceId: space.id,
        status: 'ready',
        summary: reading.summary,
        keyPoints: reading.keyPoints,
        fileName,
        mime: type.mime,
        size: received.size,
        sha256: received.sha256,
        entryId: null,
        mediaId: null,
        createdAt: now,
        updatedAt: now,
        _blob: blob,
        _textFile: textFile,
        _textLength: textFile ? charLength(text) : 0,
      };
      account.library.push(item);
      account.storageUsed += received.size;
      kept = true;
      return { status: 201, body: { item: view(item, account), duplicate: false } };
    } finally {
      if (!kept) for (const path of stored) await rm(path, { force: true });
    }
  },
};

/** The upload's Content-Length: 400 EMPTY_FILE without one, 413 FILE_TOO_LARGE over the plan's limit (before a byte is read). */
function declaredLength(headers: Record<string, string | string[] | undefined>, account: Account): number {
  const length = Number(headers['content-length'] ?? 0);
  if (!Number.isSafeInteger(length) || length <= 0) throw new HttpFail(400, 'EMPTY_FILE', emptyUploadMessage(headers));
  if (length > account.limits.fileBytes) {
    throw new HttpFail(
      413,
      'FILE_TOO_LARGE',
      `The file is ${length} bytes; this plan allows ${account.limits.fileBytes} bytes per file`,
    );
  }
  return length;
}

/** The received file's type, or 415 UNSUPPORTED_TYPE. */
async function supportedType(received: ReceivedFile, path: string, fileName: string): Promise<FileType> {
  const type = await decideType(path, received.head, fileName, received.text !== undefined);
  if (!type)
    throw new HttpFail(
      415,
      'UNSUPPORTED_TYPE',
      `${fileName} is not a PDF, Word (.docx), Markdown, plain text or image file`,
    );
  return type;
}

/**
 * Moves the received bytes to the item's blob and writes its text beside it (when there is
 * any), noting each path in `stored` so that a failed upload removes them.
 */
async function keepUpload(
  world: World,
  id: string,
  receivedPath: string,
  text: string,
  stored: string[],
): Promise<{ blob: string; textFile: string | undefined }> {
  const blob = join('files', `${id}.bin`);
  await rename(receivedPath, join(world.blobDir, blob));
  stored[0] = join(world.blobDir, blob);
  let textFile: string | undefined;
  if (text.trim().length > 0) {
    textFile = join('files', `${id}.txt`);
    stored.push(join(world.blobDir, textFile));
    await writeFile(join(world.blobDir, textFile), text);
  }
  return { blob, textFile };
}

function findFile(account: Account, sha256: string): LibraryRecord | undefined {
  return account.library.find((i) => i.kind === 'file' && i.sha256 === sha256);
}

/** The same bytes again: the item already there, unchanged. */
function duplicateOf(item: LibraryRecord, account: Account): Reply {
  return { status: 201, body: { item: view(item, account), duplicate: true } };
}

function storageFull(account: Account, needed: number): HttpFail {
  return new HttpFail(
    413,
    'STORAGE_FULL',
    `Storage is full: ${account.storageUsed} of ${account.limits.storageBytes} bytes used, the file needs ${needed}`,
  );
}

export const jobs: Jobs = {};

// ------------------------------------------------------------ helpers

/** What the service shows of an item; fields the account was set to leave out (`hideFields`, a service that does not send them) are left out. */
function view(item: LibraryRecord, account: Account): LibraryItem {
  const shown = publicView(item) as Record<string, unknown>;
  for (const field of account.hideFields ?? []) delete shown[field];
  return shown as LibraryItem;
}

function findItem(account: Account, id: string | undefined): LibraryRecord {
  const item = account.library.find((i) => i.id === id);
  if (!item) throw notFound('ITEM_NOT_FOUND', `Library item ${id}`);
  return item;
}

/** Newest first; items saved in the same millisecond keep their order of arrival, latest first. */
function newestFirst(items: LibraryRecord[]): LibraryRecord[] {
  return [...items].reverse().sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
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

/**
 * The file name from X-File-Name: URL-decoded. Leniently, a name that is not
 * validly encoded ("100% done.txt") is taken as it is, and raw UTF-8 bytes
 * (which Node reads as Latin-1) are read as UTF-8.
 */
function fileNameFrom(header: string | string[] | undefined): string {
  const raw = Array.isArray(header) ? header[0] : header;
  let name = raw === undefined ? undefined : rawUtf8(raw);
  try {
    if (name !== undefined) name = decodeURIComponent(name);
  } catch {
    // not URL-encoded after all: keep it as sent
  }
  // Only the last path segment counts: a name is not a place to write to.
  name = name?.split(/[/\\]/).pop()?.trim();
  if (!name)
    throw new HttpFail(400, 'INVALID_INPUT', 'Missing X-File-Name header (the URL-encoded file name)', {
      issues: [{ path: 'X-File-Name', message: 'is required' }],
    });
  if (charLength(name) > FILE_NAME_MAX) {
    throw new HttpFail(400, 'INVALID_INPUT', `X-File-Name is over ${FILE_NAME_MAX} characters`, {
      issues: [{ path: 'X-File-Name', message: `must be at most ${FILE_NAME_MAX} characters` }],
    });
  }
  return name;
}

function rawUtf8(header: string): string {
  if (!/[\x80-\xff]/.test(header)) return header;
  const bytes = Buffer.from(header, 'latin1');
  return isUtf8(bytes) ? bytes.toString('utf8') : header;
}

function titleOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(0, dot) : fileName;
}

async function removeFiles(world: World, item: LibraryRecord): Promise<void> {
  for (const file of [item._blob, item._textFile]) {
    if (!file) continue;
    const path = world.blobFile(file);
    textCache.delete(path);
    await rm(path, { force: true });
  }
}

// ------------------------------------------------------------ stored text

/** Recently read texts, so that reading a file chunk by chunk does not reread it from disk each time. */
const textCache = new Map<string, string>();
const TEXT_CACHE_CHARS = 16_000_000;

function storedText(path: string): string {
  const cached = textCache.get(path);
  if (cached !== undefined) {
    textCache.delete(path);
    textCache.set(path, cached); // most recently used last
    return cached;
  }
  const text = readFileSync(path, 'utf8');
  textCache.set(path, text);
  let size = 0;
  for (const value of textCache.values()) size += value.length;
  for (const key of textCache.keys()) {
    if (size <= TEXT_CACHE_CHARS || key === path) break;
    size -= textCache.get(key)?.length ?? 0;
    textCache.delete(key);
  }
  return text;
}

function storedTextOrEmpty(path: string): string {
  try {
    return storedText(path);
  } catch {
    return '';
  }
}

/** `limit` characters (code points) from character `offset`. */
function sliceChars(text: string, offset: number, limit: number): string {
  const start = unitIndex(text, offset, 0);
  const end = unitIndex(text, limit, start);
  return text.slice(start, end);
}

/** The UTF-16 index `count` code points after `from` (a UTF-16 index). */
function unitIndex(text: string, count: number, from: number): number {
  let i = from;
  for (let n = 0; n < count && i < text.length; n++) {
    const c = text.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? 2 : 1;
  }
  return i;
}

/**
 * Why an upload without a usable length is refused. The contract's answer is 400 EMPTY_FILE
 * ("upload without a body and Content-Length"; it names no 411), so the code stays the
 * same; the message says which: a body sent without a length (chunked) needs a
 * Content-Length, a length of 0 is an empty file.
 */
function emptyUploadMessage(headers: Record<string, string | string[] | undefined>): string {
  const declared = headers['content-length'];
  if (declared === undefined && headers['transfer-encoding'] !== undefined) {
    return 'A Content-Length is required: the file was sent without one (chunked); send it with its length in bytes';
  }
  if (declared === undefined)
    return 'The upload has no body and no Content-Length: send the file with its length in bytes';
  if (Number(declared) === 0) return 'The file is empty (Content-Length: 0)';
  return `The Content-Length is not a length in bytes (got ${String(declared)})`;
}
