// Whether a ZIP archive lists an entry, read from its central directory at the
// end of the file: the archive is never loaded whole. Used to tell a Word .docx
// (which lists word/document.xml) from any other ZIP, by kagent before an upload
// and by the sandbox when one arrives.
import type { FileHandle } from 'node:fs/promises';

const END_OF_CENTRAL_DIRECTORY = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;

export async function zipListsEntry(handle: FileHandle, size: number, name: string): Promise<boolean> {
  // The end-of-central-directory record: 22 bytes plus a comment of up to 64 KiB.
  const tailLength = Math.min(size, 22 + 0xffff);
  const tail = Buffer.alloc(tailLength);
  await handle.read(tail, 0, tailLength, size - tailLength);
  const eocd = tail.lastIndexOf(END_OF_CENTRAL_DIRECTORY);
  if (eocd === -1 || eocd + 22 > tail.length) return false;
  const dirSize = tail.readUInt32LE(eocd + 12);
  const dirOffset = tail.readUInt32LE(eocd + 16);
  if (dirOffset + dirSize > size || dirSize > 64 * 1024 * 1024) return false;
  const dir = Buffer.alloc(dirSize);
  await handle.read(dir, 0, dirSize, dirOffset);
  for (let at = 0; at + 46 <= dir.length && dir.readUInt32LE(at) === CENTRAL_DIRECTORY_ENTRY;) {
    const nameLength = dir.readUInt16LE(at + 28);
    const extraLength = dir.readUInt16LE(at + 30);
    const commentLength = dir.readUInt16LE(at + 32);
    if (dir.toString('utf8', at + 46, at + 46 + nameLength) === name) return true;
    at += 46 + nameLength + extraLength + commentLength;
  }
  return false;
}
