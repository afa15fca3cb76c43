// Everything checked about a file before a request is made: not empty, a type
// the service accepts (by content), not over the plan's per-file limit (when
// asked: the dry runs; a real run holds only a large file it will send against
// it, uploader.ts); and
// what its idempotency key is made from (key.ts): the SHA-256 of the whole
// file, read in the same pass that confirms a text file is UTF-8 to the end —
// or, for a large file that is not text, a digest of samples of its bytes, so
// that sending starts at once instead of after a read of the whole file. A
// refusal here costs no request. Also: stdin spooled to a temporary file,
// because the service needs the length up front and the key comes from the
// bytes.
import { createHash } from 'node:crypto';
import { createWriteStream, rmSync, type BigIntStats } from 'node:fs';
import { mkdtemp, open, rm, stat, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CliError, ExitCode } from '../errors.js';
import { formatBytes } from '../io/bytes.js';
import { noDigestCache, type DigestCache } from './digest-cache.js';
import { ACCEPTED_TYPES, HEAD_BYTES, isDocx, sniffHead, Utf8Checker, type SniffedType } from './sniff.js';

/** Read size for hashing: two buffers per file, reused (one is read into while the other is hashed). */
const HASH_CHUNK = 4 * 1024 * 1024;

/** From this size on, a file that is not text is keyed by samples of its bytes (text is read whole anyway, to prove it UTF-8). */
export const SAMPLED_MIN_BYTES = 64 * 1024 * 1024;
/** The samples: this many blocks, evenly spread from the first byte to the last. */
export const SAMPLE_BLOCKS = 16;
export const SAMPLE_BLOCK_BYTES = 64 * 1024;

export interface Refusal {
  code:
    | 'EMPTY_FILE'
    | 'UNSUPPORTED_TYPE'
    | 'FILE_TOO_LARGE'
    | 'FILE_CHANGED'
    | 'FILE_UNREADABLE'
    | 'NAME_TOO_LONG'
    | 'UNREADABLE_NAME'
    | 'KAGENT_OWN_FILE';
  message: string;
  exitCode: number;
}

/**
 * `digest`: what the idempotency key is made from (key.ts) — the SHA-256 of the whole file, or
 * when `sampled`, the digest of its samples (sampleDigest); `sha256`: the whole file's SHA-256 when
 * known (always when not sampled; for a sampled file, when the digest cache had it).
 */
export type Inspection =
  | { ok: true; type: SniffedType; digest: string; sampled: boolean; sha256: string | undefined }
  | { ok: false; refusal: Refusal };

export interface InspectOptions {
  /**
   * The plan's per-file limit in bytes, asked while the file is hashed (the dry runs, which must say
   * which file would fail). A real run leaves it out and asks only for a file it will send
   * (uploader.ts: planLimitRefusal).
   */
  limit?: () => Promise<number | undefined>;
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
    if (before.size !== BigInt(size))
      return refuse('FILE_CHANGED', 'the file changed size since it was found', ExitCode.ERROR);
    const headLength = Math.min(size, HEAD_BYTES);
    const head = Buffer.alloc(headLength);
    const { bytesRead } = await handle.read(head, 0, headLength, 0);
    if (bytesRead < headLength) return refuse('FILE_CHANGED', 'the file got shorter while being read', ExitCode.ERROR);

    const verdict = sniffHead(head, name, size <= HEAD_BYTES);
    if (!verdict.ok) return unsupported(name, verdict.reason);
    if (verdict.type.kind === 'docx' && !(await isDocx(handle, size)))
      return unsupported(name, 'a ZIP archive that is not a Word document');

    // The hash pass starts at once; the plan's limit (one GET /me per run), when asked for, is asked
    // meanwhile, and a file over it stops the pass.
    const stop = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
    const cache = options.cache ?? noDigestCache;
    const cached = await cache.get(before);
    const hashing = keyDigest(handle, name, size, verdict, cached, signal).catch((error: unknown) => ({
      failed: error,
    }));
    let limit: number | undefined;
    try {
      limit = await options.limit?.();
    } catch (error) {
      stop.abort();
      await hashing;
      throw error;
    }
    const tooLarge = overLimit(size, limit);
    if (tooLarge) {
      stop.abort();
      await hashing;
      return { ok: false, refusal: tooLarge };
    }
    const hashed = await hashing;
    if ('failed' in hashed) throw hashed.failed;
    // Recorded only if the file stayed as it was while it was read.
    if (hashed.ok && !cached && hashed.sha256 !== undefined && sameFile(before, await handle.stat({ bigint: true })))
      await cache.set(before, hashed.sha256);
    return hashed;
  } catch (error) {
    // Ctrl-C, and failures of the account check (no valid key, service down), are not this file's.
    if (options.signal?.aborted || error instanceof CliError) throw error;
    return refuse('FILE_UNREADABLE', `cannot read the file: ${(error as Error).message}`, ExitCode.ERROR);
  } finally {
    await handle?.close();
  }
}

/**
 * The file's key digest: sampled for a large file that is not text (sampleDigest), the cached
 * SHA-256 of an unchanged file, else the SHA-256 of the whole file read (digestOf).
 */
function keyDigest(
  handle: FileHandle,
  name: string,
  size: number,
  { type, textCandidate }: { type: SniffedType; textCandidate: boolean },
  cached: string | undefined,
  signal: AbortSignal,
): Promise<Inspection> {
  if (!textCandidate && size >= SAMPLED_MIN_BYTES)
    return sampleDigest(handle, size).then((digest): Inspection =>
      digest === undefined
        ? refuse('FILE_CHANGED', 'the file got shorter while being read', ExitCode.ERROR)
        : { ok: true, type, digest, sampled: true, sha256: cached },
    );
  if (cached) return Promise.resolve<Inspection>({ ok: true, type, digest: cached, sampled: false, sha256: cached });
  return digestOf(handle, name, size, textCandidate, type, signal);
}

/** The SHA-256 of the whole file; text is proven UTF-8 on the way. */
async function digestOf(
  handle: FileHandle,
  name: string,
  size: number,
  textCandidate: boolean,
  type: SniffedType,
  signal: AbortSignal,
): Promise<Inspection> {
  const text = textCandidate ? new Utf8Checker() : undefined;
  const pass = await hashPass(handle, size, signal, text && ((chunk) => text.push(chunk)));
  if (pass === 'shorter') return refuse('FILE_CHANGED', 'the file got shorter while being read', ExitCode.ERROR);
  if (pass === 'stopped') return unsupported(name, 'binary content after the first bytes (not UTF-8 text)');
  if (text && !text.finish()) return unsupported(name, 'not UTF-8 text (it ends in the middle of a character)');
  return { ok: true, type, digest: pass, sampled: false, sha256: pass };
}

/**
 * The SHA-256 of the first `size` bytes, in one pass; `check` sees every chunk and stops the pass
 * by returning false. The next chunk is read while this one is hashed (about a third faster than one buffer).
 */
async function hashPass(
  handle: FileHandle,
  size: number,
  signal: AbortSignal | undefined,
  check?: (chunk: Buffer) => boolean,
): Promise<string | 'shorter' | 'stopped'> {
  const hash = createHash('sha256');
  const buffers: [Buffer, Buffer] = [
    Buffer.allocUnsafe(Math.min(HASH_CHUNK, size)),
    Buffer.allocUnsafe(Math.min(HASH_CHUNK, size)),
  ];
  let which: 0 | 1 = 0;
  let position = 0;
  let reading: Promise<{ bytesRead: number }> = handle.read(buffers[0], 0, Math.min(HASH_CHUNK, size), 0);
  try {
    while (position < size) {
      const { bytesRead: n } = await reading;
      if (n === 0) return 'shorter';
      const chunk = buffers[which].subarray(0, n);
      position += n;
      which = which === 0 ? 1 : 0;
      if (position < size) reading = handle.read(buffers[which], 0, Math.min(HASH_CHUNK, size - position), position);
      if (signal?.aborted) throw signal.reason ?? new Error('aborted');
      hash.update(chunk);
      if (check && !check(chunk)) return 'stopped';
    }
  } finally {
    // Never leave a read running on a handle about to be closed.
    await reading.catch(() => undefined);
  }
  return hash.digest('hex');
}

/**
 * The key digest of a large file: the SHA-256 of a label, the size, and SAMPLE_BLOCKS blocks of
 * SAMPLE_BLOCK_BYTES evenly spread over the file (the first and the last included) — 1 MiB read,
 * whatever the size. The same bytes give the same digest on every machine. Files that differ only
 * between the samples share it; the uploader tells them apart (uploader.ts: a replayed answer is
 * checked against the whole file's SHA-256).
 */
export async function sampleDigest(handle: FileHandle, size: number): Promise<string | undefined> {
  const block = Math.min(SAMPLE_BLOCK_BYTES, size);
  const blocks = await Promise.all(
    sampleOffsets(size).map(async (offset) => {
      const buffer = Buffer.allocUnsafe(block);
      const { bytesRead } = await handle.read(buffer, 0, block, offset);
      return bytesRead === block ? buffer : undefined;
    }),
  );
  if (blocks.includes(undefined)) return undefined; // the file got shorter
  const hash = createHash('sha256').update(`kagent-sample-v1\n${size}\n`);
  for (const bytes of blocks) hash.update(bytes as Buffer);
  return hash.digest('hex');
}

/** Where the sampled blocks of a file of `size` bytes start. */
export function sampleOffsets(size: number): number[] {
  const block = Math.min(SAMPLE_BLOCK_BYTES, size);
  return Array.from({ length: SAMPLE_BLOCKS }, (_, i) => Math.floor((i * (size - block)) / (SAMPLE_BLOCKS - 1)));
}

/**
 * The SHA-256 of a whole file, as the uploader needs it to check a replayed answer: the digest
 * cache's when the file is unchanged since it was recorded, else read (and recorded for next time).
 */
export async function sha256Of(
  path: string,
  size: number,
  options: { cache?: DigestCache; signal?: AbortSignal } = {},
): Promise<string> {
  const cache = options.cache ?? noDigestCache;
  const changed = () => new CliError('the file changed size while it was being uploaded', { code: 'FILE_CHANGED' });
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, 'r');
    const before = await handle.stat({ bigint: true });
    if (before.size !== BigInt(size)) throw changed();
    const cached = await cache.get(before);
    if (cached) return cached;
    const pass = await hashPass(handle, size, options.signal);
    if (pass === 'shorter' || pass === 'stopped') throw changed();
    if (sameFile(before, await handle.stat({ bigint: true }))) await cache.set(before, pass);
    return pass;
  } catch (error) {
    if (error instanceof CliError || options.signal?.aborted) throw error;
    throw new CliError(`cannot read the file: ${(error as Error).message}`, { code: 'FILE_UNREADABLE' });
  } finally {
    await handle?.close();
  }
}

function sameFile(a: BigIntStats, b: BigIntStats): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

/** FILE_TOO_LARGE (exit 6) when `size` is over the plan's per-file `limit` (when known). */
export function overLimit(size: number, limit: number | undefined): Refusal | undefined {
  if (limit === undefined || size <= limit) return undefined;
  return {
    code: 'FILE_TOO_LARGE',
    message: `the file is ${formatBytes(size)}; the plan allows ${formatBytes(limit)} per file`,
    exitCode: ExitCode.QUOTA,
  };
}

function refuse(code: Refusal['code'], message: string, exitCode: number): Inspection {
  return { ok: false, refusal: { code, message, exitCode } };
}

function unsupported(name: string, why: string): Inspection {
  return refuse('UNSUPPORTED_TYPE', `${name} is ${why}; the library accepts ${ACCEPTED_TYPES}`, ExitCode.USAGE);
}

export { formatBytes };

/** A temporary copy of stdin (mode 0600 in a private folder); `remove` deletes it. */
export interface Spooled {
  path: string;
  size: number;
  remove(): Promise<void>;
}

export async function spoolStdin(stdin: Readable, signal?: AbortSignal): Promise<Spooled> {
  const dir = await mkdtemp(join(tmpdir(), 'kagent-stdin-'));
  const path = join(dir, 'stdin');
  // However the process ends (process.exit after a second Ctrl-C, SIGTERM or SIGHUP: see cli.ts), the copy goes.
  const onExit = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', onExit);
  const remove = async () => {
    process.off('exit', onExit);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await pipeline(stdin, createWriteStream(path, { mode: 0o600, highWaterMark: HASH_CHUNK }), { signal });
    const { size } = await stat(path);
    return { path, size, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}
