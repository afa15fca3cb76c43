// Receiving an uploaded file: the request body is streamed to a temporary file
// while it is hashed (SHA-256) — never held in memory whole, so a 4 GiB upload
// costs no more memory than a small one. On the way through we keep the first
// bytes (for the type signature) and, while the bytes still look like UTF-8
// text without NULs, the decoded text up to a cap.
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { binarySignature, HEAD_BYTES } from './filetypes.js';
import { expectBody } from '../continue.js';
import { HttpFail } from '../types.js';

/** Stored text of a file is capped (characters); the rest is not kept. */
export const TEXT_MAX_CHARS = 2_000_000;

const WRITE_BATCH_BYTES = 1024 * 1024;

export interface ReceivedFile {
  /** The temporary file holding the bytes; undefined when only hashed (`store: false`). */
  path: string | undefined;
  size: number;
  sha256: string;
  head: Buffer;
  /** Set when every byte decoded as UTF-8 without a NUL: the text, up to TEXT_MAX_CHARS. */
  text: { value: string; truncated: boolean } | undefined;
}

/**
 * Reads exactly `expected` bytes of the request body. With `store: false` the
 * bytes are only hashed (to recognise a duplicate) and dropped.
 */
export async function receiveFile(
  req: IncomingMessage,
  dir: string,
  expected: number,
  options: { store: boolean },
): Promise<ReceivedFile> {
  mkdirSync(dir, { recursive: true });
  const path = options.store ? join(dir, `incoming-${randomUUID()}`) : undefined;
  const handle = path ? await open(path, 'w') : undefined;
  const hash = createHash('sha256');
  const head: Buffer[] = [];
  let headLength = 0;
  let size = 0;
  // Decided once 8 bytes are in: a binary signature means no text decoding (PDFs, images).
  let text: TextSniffer | undefined;
  let decided = false;
  // Chunks arrive in pieces of up to 64 KiB; they go to disk in batches, one writev each,
  // with one write in flight while the next batch is read.
  let batch: Buffer[] = [];
  let batchBytes = 0;
  let writing: Promise<void> = Promise.resolve();

  const take = (chunk: Buffer): Promise<void> | undefined => {
    size += chunk.length;
    hash.update(chunk);
    if (headLength < HEAD_BYTES) {
      head.push(chunk.subarray(0, HEAD_BYTES - headLength));
      headLength += Math.min(chunk.length, HEAD_BYTES - headLength);
    }
    if (!decided && headLength >= Math.min(8, expected)) {
      decided = true;
      if (binarySignature(Buffer.concat(head)) === undefined) {
        text = new TextSniffer();
        // The bytes before this chunk (fewer than 8) were not decoded yet.
        for (const part of head.slice(0, -1)) text.push(part);
      }
    }
    text?.push(chunk);
    if (!handle) return undefined;
    batch.push(chunk);
    batchBytes += chunk.length;
    if (batchBytes < WRITE_BATCH_BYTES) return undefined;
    const full = batch;
    batch = [];
    batchBytes = 0;
    const previous = writing;
    writing = previous.then(() => handle.writev(full)).then(() => undefined);
    // Reading pauses only while an earlier batch is still being written.
    return previous;
  };

  try {
    expectBody(req);
    await consume(req, take);
    await writing;
    if (handle && batch.length > 0) await handle.writev(batch);
    if (size !== expected)
      throw new HttpFail(400, 'INVALID_INPUT', `The body ended after ${size} of ${expected} bytes`);
  } catch (error) {
    await writing.catch(() => undefined);
    await handle?.close();
    if (path) await rm(path, { force: true });
    // A client that goes away mid-body is not a sandbox error.
    if (!(error instanceof HttpFail))
      throw new HttpFail(400, 'INVALID_INPUT', `The upload was cut short after ${size} of ${expected} bytes`);
    throw error;
  }
  await handle?.close();
  return { path, size, sha256: hash.digest('hex'), head: Buffer.concat(head), text: text?.finish() };
}

/**
 * Feeds every chunk of the body to `onChunk`, pausing the socket while the
 * promise it returns (if any) settles. 'data' events, not `for await`: async
 * iteration costs more than half the throughput of a large upload.
 */
function consume(req: IncomingMessage, onChunk: (chunk: Buffer) => Promise<void> | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    // Gone before the body was read (e.g. while a `slow` fault held the request): its 'close' has
    // passed already, so waiting for it would keep the idempotency key "in progress" for good.
    if (req.destroyed && !req.readableEnded) {
      reject(new Error('the client closed the connection before the body was read'));
      return;
    }
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      req.removeListener('data', onData);
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      let wait: Promise<void> | undefined;
      try {
        wait = onChunk(chunk);
      } catch (error) {
        return fail(error);
      }
      if (wait) {
        req.pause();
        wait.then(() => req.resume(), fail);
      }
    };
    req.on('data', onData);
    req.once('end', () => {
      if (!failed) resolve();
    });
    req.once('error', fail);
    req.once('close', () => {
      if (!req.complete) fail(new Error('the client closed the connection before the body ended'));
    });
  });
}

/** Decodes a byte stream as UTF-8, giving up at the first invalid sequence or NUL. */
class TextSniffer {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  private readonly parts: string[] = [];
  private kept = 0;
  private truncated = false;
  private valid = true;

  push(chunk: Buffer): void {
    if (!this.valid) return;
    if (chunk.includes(0)) {
      this.valid = false;
      return;
    }
    let decoded: string;
    try {
      decoded = this.decoder.decode(chunk, { stream: true });
    } catch {
      this.valid = false;
      return;
    }
    this.keep(decoded);
  }

  finish(): { value: string; truncated: boolean } | undefined {
    if (!this.valid) return undefined;
    try {
      this.keep(this.decoder.decode());
    } catch {
      return undefined;
    }
    return { value: this.parts.join(''), truncated: this.truncated };
  }

  private keep(decoded: string): void {
    if (this.kept >= TEXT_MAX_CHARS) {
      if (decoded.length > 0) this.truncated = true;
      return;
    }
    const room = TEXT_MAX_CHARS - this.kept;
    let piece = decoded.length > room ? decoded.slice(0, room) : decoded;
    // Never keep half of a surrogate pair.
    if (piece.length < decoded.length && /[\ud800-\udbff]$/.test(piece)) piece = piece.slice(0, -1);
    if (piece.length < decoded.length) this.truncated = true;
    this.parts.push(piece);
    this.kept += piece.length;
  }
}
