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
import { HttpFail } from './types.js';

/** Stored text of a file is capped (characters); the rest is not kept. */
export const TEXT_MAX_CHARS = 2_000_000;

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
export async function receiveFile(req: IncomingMessage, dir: string, expected: number, options: { store: boolean }): Promise<ReceivedFile> {
  mkdirSync(dir, { recursive: true });
  const path = options.store ? join(dir, `incoming-${randomUUID()}`) : undefined;
  const handle = path ? await open(path, 'w') : undefined;
  const hash = createHash('sha256');
  const headParts: Buffer[] = [];
  let headLength = 0;
  let size = 0;
  let text: TextSniffer | undefined;
  let decided = false;

  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      hash.update(chunk);
      if (headLength < HEAD_BYTES) {
        headParts.push(chunk.subarray(0, HEAD_BYTES - headLength));
        headLength += Math.min(chunk.length, HEAD_BYTES - headLength);
      }
      // Once 8 bytes are in, a binary signature settles it: no text decoding for PDFs and images.
      if (!decided && headLength >= Math.min(8, expected)) {
        decided = true;
        if (binarySignature(Buffer.concat(headParts)) === undefined) text = new TextSniffer();
      }
      text?.push(chunk);
      if (handle) await handle.write(chunk);
    }
    if (size !== expected) throw new HttpFail(400, 'INVALID_INPUT', `The body ended after ${size} of ${expected} bytes`);
    if (!decided && size > 0 && binarySignature(Buffer.concat(headParts)) === undefined) {
      text = new TextSniffer();
      for (const part of headParts) text.push(part);
    }
  } catch (error) {
    await handle?.close();
    if (path) await rm(path, { force: true });
    // A client that goes away mid-body is not a sandbox error.
    if (!(error instanceof HttpFail) && req.destroyed) throw new HttpFail(400, 'INVALID_INPUT', `The upload was cut short after ${size} of ${expected} bytes`);
    throw error;
  }
  await handle?.close();
  return { path, size, sha256: hash.digest('hex'), head: Buffer.concat(headParts), text: text?.finish() };
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
