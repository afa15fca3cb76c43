// The extracted text of uploaded files, stored on disk beside their bytes: read
// through a small cache (a file is read chunk by chunk) and cut by characters
// (code points), as readLibraryText counts them.
import { readFileSync } from 'node:fs';

/** Recently read texts, so that reading a file chunk by chunk does not reread it from disk each time. */
const textCache = new Map<string, string>();
const TEXT_CACHE_CHARS = 16_000_000;

export function storedText(path: string): string {
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

export function storedTextOrEmpty(path: string): string {
  try {
    return storedText(path);
  } catch {
    return '';
  }
}

/** `limit` characters (code points) from character `offset`. */
export function sliceChars(text: string, offset: number, limit: number): string {
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

/** Forgets a file's text (the file is being removed). */
export function forgetText(path: string): void {
  textCache.delete(path);
}
