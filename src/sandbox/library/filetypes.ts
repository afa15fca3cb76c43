// What an uploaded file is, decided by its content (never by its name alone):
// PDF, Word .docx (a ZIP holding word/document.xml), PNG/JPEG/GIF/WebP images,
// or UTF-8 text without NULs (Markdown when the name says so). Anything else
// is 415 UNSUPPORTED_TYPE.
import { open } from 'node:fs/promises';
import { zipListsEntry } from '../../upload/zip.js';

export type FileKind = 'pdf' | 'docx' | 'image' | 'markdown' | 'text';

export interface FileType {
  kind: FileKind;
  mime: string;
}

/** Bytes kept from the start of an upload: enough for every signature and image header. */
export const HEAD_BYTES = 64 * 1024;

const MARKDOWN_NAME = /\.(md|markdown|mdown|mkd|mkdn)$/i;

/** The type by signature, for the binary kinds; `undefined` means "text if it decodes, else unsupported". */
export function binarySignature(head: Buffer): 'pdf' | 'zip' | 'png' | 'jpeg' | 'gif' | 'webp' | undefined {
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return 'zip';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  const six = head.subarray(0, 6).toString('latin1');
  if (six === 'GIF87a' || six === 'GIF89a') return 'gif';
  if (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'webp';
  return undefined;
}

/**
 * Decides the type once the whole file has been received.
 * `isText` says whether every byte decoded as UTF-8 without a NUL.
 */
export async function decideType(
  file: string,
  head: Buffer,
  fileName: string,
  isText: boolean,
): Promise<FileType | undefined> {
  const signature = binarySignature(head);
  switch (signature) {
    case 'pdf':
      return { kind: 'pdf', mime: 'application/pdf' };
    case 'zip':
      return (await zipHasEntry(file, 'word/document.xml'))
        ? { kind: 'docx', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' }
        : undefined;
    case 'png':
    case 'jpeg':
    case 'gif':
    case 'webp':
      return { kind: 'image', mime: `image/${signature}` };
  }
  if (!isText) return undefined;
  return MARKDOWN_NAME.test(fileName)
    ? { kind: 'markdown', mime: 'text/markdown' }
    : { kind: 'text', mime: 'text/plain' };
}

// ------------------------------------------------------------ ZIP

/** Whether a ZIP archive lists `name` in its central directory (the file is never loaded whole). */
export async function zipHasEntry(file: string, name: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    return await zipListsEntry(handle, (await handle.stat()).size, name);
  } finally {
    await handle.close();
  }
}

// ------------------------------------------------------------ images

/** Width and height from an image header, when the header says so. */
export function imageSize(head: Buffer, mime: string): { width: number; height: number } | undefined {
  try {
    if (mime === 'image/png' && head.length >= 24)
      return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
    if (mime === 'image/gif' && head.length >= 10) return { width: head.readUInt16LE(6), height: head.readUInt16LE(8) };
    if (mime === 'image/webp' && head.length >= 30) {
      const chunk = head.subarray(12, 16).toString('latin1');
      if (chunk === 'VP8X') return { width: 1 + head.readUIntLE(24, 3), height: 1 + head.readUIntLE(27, 3) };
      if (chunk === 'VP8 ') return { width: head.readUInt16LE(26) & 0x3fff, height: head.readUInt16LE(28) & 0x3fff };
      if (chunk === 'VP8L') {
        const bits = head.readUInt32LE(21);
        return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
      }
    }
    if (mime === 'image/jpeg') {
      // Walk the segments to the first start-of-frame marker.
      for (let at = 2; at + 9 < head.length;) {
        if (head[at] !== 0xff) return undefined;
        const marker = head[at + 1] ?? 0;
        const length = head.readUInt16BE(at + 2);
        if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
          return { width: head.readUInt16BE(at + 7), height: head.readUInt16BE(at + 5) };
        }
        at += 2 + length;
      }
    }
  } catch {
    return undefined;
  }
  return undefined;
}
