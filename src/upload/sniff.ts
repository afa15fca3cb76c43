// What a file is, decided by its bytes (the name only tells Markdown from plain
// text): PDF, Word .docx (a ZIP whose central directory lists
// word/document.xml), PNG / JPEG / GIF / WebP images, or UTF-8 text without NUL
// bytes. These are the types the service accepts; anything else is refused here,
// before a request is made (the service would answer 415 UNSUPPORTED_TYPE).
//
// Two steps, so that a refusal is cheap: `sniffHead` looks at the first bytes
// only (binary signatures; for text, that the start decodes as UTF-8), and the
// full pass in prepare.ts confirms text files to the last byte while hashing.
import { isUtf8 } from 'node:buffer';
import type { FileHandle } from 'node:fs/promises';
import { zipListsEntry } from './zip.js';

export type FileKind = 'pdf' | 'docx' | 'image' | 'markdown' | 'text';

export interface SniffedType {
  kind: FileKind;
  mime: string;
}

/** Bytes read from the start of a file to decide its type. */
export const HEAD_BYTES = 64 * 1024;

export const ACCEPTED_TYPES = 'PDF, Word (.docx), Markdown, plain text (UTF-8) or an image (PNG, JPEG, GIF, WebP)';

const MARKDOWN_NAME = /\.(md|markdown|mdown|mkd|mkdn)$/i;
const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

type Signature = 'pdf' | 'zip' | 'png' | 'jpeg' | 'gif' | 'webp';

export function binarySignature(head: Uint8Array): Signature | undefined {
  const b = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (b.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04) return 'zip';
  if (b.length >= 8 && b.subarray(0, 8).equals(PNG)) return 'png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  const six = b.subarray(0, 6).toString('latin1');
  if (six === 'GIF87a' || six === 'GIF89a') return 'gif';
  if (b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  return undefined;
}
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export type HeadVerdict =
  | { ok: true; type: SniffedType; /** Text so far: the full pass must confirm the rest. */ textCandidate: boolean }
  | { ok: false; reason: string };

/**
 * The type from the first bytes of a file (`head`, at most HEAD_BYTES of it;
 * `complete` when that is the whole file). A ZIP still needs `isDocx`.
 */
export function sniffHead(head: Buffer, name: string, complete: boolean): HeadVerdict {
  const signature = binarySignature(head);
  switch (signature) {
    case 'pdf':
      return { ok: true, type: { kind: 'pdf', mime: 'application/pdf' }, textCandidate: false };
    case 'zip':
      // Settled by the caller from the archive's directory (isDocx).
      return { ok: true, type: { kind: 'docx', mime: DOCX_MIME }, textCandidate: false };
    case 'png':
    case 'jpeg':
    case 'gif':
    case 'webp':
      return { ok: true, type: { kind: 'image', mime: `image/${signature}` }, textCandidate: false };
  }
  if (head.includes(0)) return { ok: false, reason: 'binary content (NUL bytes)' };
  const checked = complete ? head : head.subarray(0, completeUtf8Length(head));
  if (!isUtf8(checked) || (complete && checked.length !== head.length)) return { ok: false, reason: 'not UTF-8 text' };
  return { ok: true, type: textType(name), textCandidate: true };
}

export function textType(name: string): SniffedType {
  return MARKDOWN_NAME.test(name) ? { kind: 'markdown', mime: 'text/markdown' } : { kind: 'text', mime: 'text/plain' };
}

/**
 * How many leading bytes of `bytes` end on a UTF-8 character boundary: a
 * sequence cut off at the end is left for the next chunk.
 */
export function completeUtf8Length(bytes: Uint8Array): number {
  const n = bytes.length;
  // Walk back over at most 3 continuation bytes to the lead byte of the last sequence.
  for (let back = 1; back <= Math.min(4, n); back++) {
    const byte = bytes[n - back] as number;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte
    return sequenceLength(byte) > back ? n - back : n;
  }
  return n;
}

/**
 * Checks text in chunks as it streams by: valid UTF-8 (sequences may straddle
 * chunks) and no NUL byte. `push` returns false from the first bad chunk on.
 */
export class Utf8Checker {
  /** The start of a character cut off at the end of the last chunk (at most 3 bytes). */
  private carry: Buffer | undefined;
  private valid = true;

  push(chunk: Buffer): boolean {
    if (!this.valid) return false;
    if (chunk.includes(0)) return (this.valid = false);
    let data = chunk;
    if (this.carry) {
      const need = sequenceLength(this.carry[0] as number) - this.carry.length;
      if (chunk.length < need) {
        this.carry = Buffer.concat([this.carry, chunk]);
        return true;
      }
      if (!isUtf8(Buffer.concat([this.carry, chunk.subarray(0, need)]))) return (this.valid = false);
      this.carry = undefined;
      data = chunk.subarray(need);
    }
    const cut = completeUtf8Length(data);
    if (!isUtf8(data.subarray(0, cut))) return (this.valid = false);
    if (cut < data.length) this.carry = Buffer.from(data.subarray(cut));
    return true;
  }

  /** At the end of the file: nothing left half-way through a character. */
  finish(): boolean {
    if (this.carry) this.valid = false;
    return this.valid;
  }
}

/** How many bytes a UTF-8 character takes, from its first byte. */
function sequenceLength(lead: number): number {
  if (lead >= 0xf0) return 4;
  if (lead >= 0xe0) return 3;
  if (lead >= 0xc0) return 2;
  return 1;
}

/** Whether a ZIP archive is a Word document: its central directory lists word/document.xml. */
export function isDocx(handle: FileHandle, size: number): Promise<boolean> {
  return zipListsEntry(handle, size, 'word/document.xml');
}
