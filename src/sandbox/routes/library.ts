// Library routes: list and search, save a link, read, update and delete an item,
// read an upload's text, and upload a file (its name and length read from the
// headers here). The library model is in ../library/ (model.ts: items, views,
// search; upload.ts: receiving a file; text.ts: stored text).
import { isUtf8 } from 'node:buffer';
import type { SaveLinkRequest, UpdateLibraryItemRequest } from '../../api/shapes.js';
import { limits } from '../../api/shapes.js';
import { charLength } from '../../api/validate.js';
import { deleteItem, findItem, listLibrary, readText, saveLink, updateItem, view } from '../library/model.js';
import { addFile } from '../library/upload.js';
import { HttpFail, type Jobs, type Routes } from '../types.js';

const FILE_NAME_MAX = limits.fileNameMax;

export const routes: Routes = {
  listLibrary: ({ world, account, query }) => ({ body: listLibrary(world, account, query) }),

  saveLink: ({ world, account, body }) => ({ status: 201, body: saveLink(world, account, body as SaveLinkRequest) }),

  getLibraryItem: ({ account, params }) => ({ body: view(findItem(account, params.id), account) }),

  updateLibraryItem: ({ world, account, params, body }) => {
    updateItem(world, account, params.id, body as UpdateLibraryItemRequest & { space?: string });
    return { status: 204 };
  },

  deleteLibraryItem: async ({ world, account, params }) => {
    await deleteItem(world, account, params.id);
    return { status: 204 };
  },

  readLibraryText: ({ world, account, params, query }) => ({
    body: readText(world, account, params.id, query.offset ?? 0, query.limit ?? 8000),
  }),

  uploadFile: async ({ world, account, raw, headers, query }) => {
    const fileName = fileNameFrom(headers['x-file-name']);
    const length = declaredLength(headers);
    const upload = { body: raw, fileName, length, space: query.space, lang: query.lang, note: query.note ?? null };
    return { status: 201, body: await addFile(world, account, upload) };
  },
};

export const jobs: Jobs = {};

/** The upload's Content-Length, or 400 EMPTY_FILE without a usable one. */
function declaredLength(headers: Record<string, string | string[] | undefined>): number {
  const length = Number(headers['content-length'] ?? 0);
  if (!Number.isSafeInteger(length) || length <= 0) throw new HttpFail(400, 'EMPTY_FILE', emptyUploadMessage(headers));
  return length;
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
