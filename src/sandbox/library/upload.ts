// Receiving an uploaded file into the library: the plan's size and storage
// limits, the same bytes already stored (a duplicate, not a new item), the type
// decided by content, the text extracted and summarised (credits), and the bytes
// and text kept in the blob folder. The request is read in ../routes/library.ts.
import { rename, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { LibraryItem, Locale, Space } from '../../api/shapes.js';
import { charLength } from '../../api/validate.js';
import { extractText } from './extract.js';
import { decideType, type FileType } from './filetypes.js';
import { pickSpace, summarise } from '../reading.js';
import { HttpFail, type Account, type LibraryRecord } from '../types.js';
import { receiveFile, type ReceivedFile } from './receive.js';
import type { World } from '../world.js';
import { FILE_SUMMARY_CREDITS, view } from './model.js';

const SUMMARY_SOURCE_CHARS = 200_000;

/** An upload as the request gives it: the body, its declared length and what the query says. */
export interface Upload {
  body: IncomingMessage;
  fileName: string;
  length: number;
  space: string | undefined;
  lang: Locale | undefined;
  note: string | null;
}

/** 413 FILE_TOO_LARGE for a declared length over the plan's limit (before a byte is read). */
export function checkFileSize(account: Account, length: number): void {
  if (length > account.limits.fileBytes) {
    throw new HttpFail(
      413,
      'FILE_TOO_LARGE',
      `The file is ${length} bytes; this plan allows ${account.limits.fileBytes} bytes per file`,
    );
  }
}

/** Receives the file and adds it to the library, or answers the item that already has these bytes. */
export async function addFile(
  world: World,
  account: Account,
  upload: Upload,
): Promise<{ item: LibraryItem; duplicate: boolean }> {
  const { fileName, length, note } = upload;
  checkFileSize(account, length);
  const chosen: Space | undefined = upload.space ? world.space(account, upload.space) : undefined;
  const lang: Locale = upload.lang ?? account.lang;
  // Over quota the bytes are still hashed: the same file already stored is not a new one.
  const overStorage = account.storageUsed + length > account.limits.storageBytes;

  const received = await receiveFile(upload.body, join(world.blobDir, 'files'), length, { store: !overStorage });
  const stored: string[] = received.path ? [received.path] : [];
  let kept = false;
  try {
    const existing = findFile(account, received.sha256);
    if (existing) return { item: view(existing, account), duplicate: true };
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
    if (raced) return { item: view(raced, account), duplicate: true };
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
    return { item: view(item, account), duplicate: false };
  } finally {
    if (!kept) for (const path of stored) await rm(path, { force: true });
  }
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

function storageFull(account: Account, needed: number): HttpFail {
  return new HttpFail(
    413,
    'STORAGE_FULL',
    `Storage is full: ${account.storageUsed} of ${account.limits.storageBytes} bytes used, the file needs ${needed}`,
  );
}

function titleOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(0, dot) : fileName;
}
