// Everything checked about a file before a request is made: not empty, a type
// the service accepts (by content), not over the plan's per-file limit; and
// its SHA-256, read in the same pass that confirms a text file is UTF-8 to the
// end. A refusal here costs no request. Also: stdin spooled to a temporary
// file, because the service needs the length up front and the idempotency key
// comes from the bytes.
import { createHash } from 'node:crypto';
import { createWriteStream, type BigIntStats } from 'node:fs';
import { mkdtemp, open, rm, stat, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CliError, ExitCode } from '../errors.js';
import { noDigestCache, type DigestCache } from './digest-cache.js';
import { treeHash, TREE_MIN_BYTES } from './tree-hash.js';
import { ACCEPTED_TYPES, HEAD_BYTES, isDocx, sniffHead, Utf8Checker, type SniffedType } from './sniff.js';

/** Read size for hashing: two buffers per file, reused (one is read into while the other is hashed). */
const HASH_CHUNK = 4 * 1024 * 1024;

export interface Refusal {
  code: 'EMPTY_FILE' | 'UNSUPPORTED_TYPE' | 'FILE_TOO_LARGE' | 'FILE_CHANGED' | 'FILE_UNREADABLE';
  message: string;
  exitCode: number;
}

/**
 * `digest`: the content hash the idempotency key is made from (see key.ts and tree-hash.ts);
 * `plain`: it is the SHA-256 of the whole file (not the tree digest of a large one).
 */
export type Inspection = { ok: true; type: SniffedType; digest: string; plain: boolean } | { ok: false; refusal: Refusal };

export interface InspectOptions {
  /** The plan's per-file limit in bytes, when known (asked only for files that pass the cheap checks). */
  limit: () => Promise<number | undefined>;
  /** Digests of unchanged files hashed before on this machine. */
  cache?: DigestCache;
  signal?: AbortSignal;
}

export async function inspect(path: string, name: string, size: number, options: InspectOptions): Promise<Inspection> {
  if (size === 0) return refuse('EMPTY_FILE', 'the file is empty', ExitCode.USAGE);
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    return refuse('FILE_UNREADABLE', `cannot read the file: ${(error as Error).message}`, ExitCode.ERROR);
  }
  try {
    const before = await handle.stat({ bigint: true });
    if (before.size !== BigInt(size)) return refuse('FILE_CHANGED', 'the file changed size since it was found', ExitCode.ERROR);
    const headLength = Math.min(size, HEAD_BYTES);
    const head = Buffer.alloc(headLength);
    const { bytesRead } = await handle.read(head, 0, headLength, 0);
    if (bytesRead < headLength) return refuse('FILE_CHANGED', 'the file got shorter while being read', ExitCode.ERROR);

    const verdict = sniffHead(head, name, size <= HEAD_BYTES);
    if (!verdict.ok) return unsupported(name, verdict.reason);
    if (verdict.type.kind === 'docx' && !(await isDocx(handle, size))) return unsupported(name, 'a ZIP archive that is not a Word document');

    // The hash pass starts at once; the plan's limit (one GET /me per run) is asked meanwhile,
    // and a file over it stops the pass.
    const stop = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
    const cache = options.cache ?? noDigestCache;
    const cached = await cache.get(before);
    const hashing: Promise<Inspection | { failed: unknown }> = cached
      ? Promise.resolve({ ok: true, type: verdict.type, ...cached })
      : digestOf(handle, path, name, size, verdict.textCandidate, verdict.type, signal).catch((error: unknown) => ({ failed: error }));
    let limit: number | undefined;
    try {
      limit = await options.limit();
    } catch (error) {
      stop.abort();
      await hashing;
      throw error;
    }
    if (limit !== undefined && size > limit) {
      stop.abort();
      await hashing;
      return refuse('FILE_TOO_LARGE', `the file is ${formatBytes(size)}; the plan allows ${formatBytes(limit)} per file`, ExitCode.QUOTA);
    }
    const hashed = await hashing;
    if ('failed' in hashed) throw hashed.failed;
    // Recorded only if the file stayed as it was while it was read.
    if (hashed.ok && !cached && sameFile(before, await handle.stat({ bigint: true }))) await cache.set(before, { digest: hashed.digest, plain: hashed.plain });
    return hashed;
  } catch (error) {
    // Ctrl-C, and failures of the account check (no valid key, service down), are not this file's.
    if (options.signal?.aborted || error instanceof CliError) throw error;
    return refuse('FILE_UNREADABLE', `cannot read the file: ${(error as Error).message}`, ExitCode.ERROR);
  } finally {
    await handle?.close();
  }
}

/** The content digest (tree-hashed on every core for large binary files); text is proven UTF-8 on the way. */
async function digestOf(handle: FileHandle, path: string, name: string, size: number, textCandidate: boolean, type: SniffedType, signal: AbortSignal): Promise<Inspection> {
  // Large binary files (PDFs, images, .docx): hashed on every core.
  if (!textCandidate && size >= TREE_MIN_BYTES) return { ok: true, type, digest: await treeHash(path, size, signal), plain: false };

  // One pass: the hash, and for text the proof that it is UTF-8 without NULs to the last byte.
  // The next chunk is read while this one is hashed (about a third faster than one buffer).
  const hash = createHash('sha256');
  const text = textCandidate ? new Utf8Checker() : undefined;
  const buffers: [Buffer, Buffer] = [Buffer.allocUnsafe(Math.min(HASH_CHUNK, size)), Buffer.allocUnsafe(Math.min(HASH_CHUNK, size))];
  let which: 0 | 1 = 0;
  let position = 0;
  let reading: Promise<{ bytesRead: number }> = handle.read(buffers[0], 0, Math.min(HASH_CHUNK, size), 0);
  try {
    while (position < size) {
      const { bytesRead: n } = await reading;
      if (n === 0) return refuse('FILE_CHANGED', 'the file got shorter while being read', ExitCode.ERROR);
      const chunk = buffers[which].subarray(0, n);
      position += n;
      which = which === 0 ? 1 : 0;
      if (position < size) reading = handle.read(buffers[which], 0, Math.min(HASH_CHUNK, size - position), position);
      if (signal.aborted) throw signal.reason ?? new Error('aborted');
      hash.update(chunk);
      if (text && !text.push(chunk)) return unsupported(name, 'binary content after the first bytes (not UTF-8 text)');
    }
  } finally {
    // Never leave a read running on a handle about to be closed.
    await reading.catch(() => undefined);
  }
  if (text && !text.finish()) return unsupported(name, 'not UTF-8 text (it ends in the middle of a character)');
  return { ok: true, type, digest: hash.digest('hex'), plain: true };
}

function sameFile(a: BigIntStats, b: BigIntStats): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

function refuse(code: Refusal['code'], message: string, exitCode: number): Inspection {
  return { ok: false, refusal: { code, message, exitCode } };
}

function unsupported(name: string, why: string): Inspection {
  return refuse('UNSUPPORTED_TYPE', `${name} is ${why}; the library accepts ${ACCEPTED_TYPES}`, ExitCode.USAGE);
}

export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} bytes` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** A temporary copy of stdin (mode 0600 in a private folder); `remove` deletes it. */
export interface Spooled {
  path: string;
  size: number;
  remove(): Promise<void>;
}

export async function spoolStdin(stdin: Readable, signal?: AbortSignal): Promise<Spooled> {
  const dir = await mkdtemp(join(tmpdir(), 'kagent-stdin-'));
  const path = join(dir, 'stdin');
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    await pipeline(stdin, createWriteStream(path, { mode: 0o600, highWaterMark: HASH_CHUNK }), { signal });
    const { size } = await stat(path);
    return { path, size, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}
