// Names that are not UTF-8: they cannot be given to the service (X-File-Name)
// nor opened by a string path, so such a file is shown with its odd bytes as
// \xNN and fails on its own (UNREADABLE_NAME) while the other files go.
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Source } from './discover.js';

export function unreadableName(display: string, folder: boolean): Source {
  const what = folder
    ? 'a folder whose name is not UTF-8: its files were not looked at'
    : 'the name is not UTF-8, so it cannot be given to the service';
  return {
    display,
    path: '',
    name: basename(display),
    size: 0,
    refusal: { code: 'UNREADABLE_NAME', message: `${what} (odd bytes shown as \\xNN); rename it to upload it` },
  };
}

/** A file name's bytes as text: UTF-8 where it is valid, each other byte as \xNN. */
export function escapeName(bytes: Buffer): string {
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    const n = utf8Length(b);
    if (n > 0 && i + n <= bytes.length) {
      const slice = bytes.subarray(i, i + n);
      const char = slice.toString('utf8');
      if (Buffer.from(char, 'utf8').equals(slice)) {
        out += char;
        i += n;
        continue;
      }
    }
    out += `\\x${b.toString(16).toUpperCase().padStart(2, '0')}`;
    i++;
  }
  return out;
}

/** How many bytes the UTF-8 sequence starting with `lead` takes (0: it cannot start one). */
function utf8Length(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** A folder entry; `bytes`: its name's bytes, when they are not UTF-8 (`name` then has U+FFFD for them). */
export interface Entry {
  entry: Dirent<string> | Dirent<Buffer>;
  name: string;
  bytes?: Buffer;
}

/**
 * A folder's entries. Read as text; only a folder where a name came back with U+FFFD (the mark of
 * bytes that are not UTF-8, or a name holding that very character) is read again as bytes, to tell
 * which names cannot be given to the service (nor opened by a string path).
 */
export async function entriesOf(dir: string): Promise<Entry[]> {
  const named = await readdir(dir, { withFileTypes: true });
  if (!named.some((entry) => entry.name.includes('\uFFFD'))) return named.map((entry) => ({ entry, name: entry.name }));
  const raw = await readdir(dir, { withFileTypes: true, encoding: 'buffer' });
  return raw.map((entry) => {
    const bytes = entry.name;
    const name = bytes.toString('utf8');
    return Buffer.from(name, 'utf8').equals(bytes) ? { entry, name } : { entry, name, bytes };
  });
}

/** The raw names in `dir` that decode (lossily) to `decoded`. */
export async function rawNamesLike(dir: string, decoded: string): Promise<Buffer[]> {
  const names = await readdir(dir, { encoding: 'buffer' }).catch(() => [] as Buffer[]);
  return names.filter((name) => name.toString('utf8') === decoded);
}
