// Where an uploaded file's bytes and text live: a path inside the blob folder,
// stored in the state relative to it (`files/li_….bin`). The state file is
// input like any other (it can be edited, or planted), so a stored path is
// trusted only once it is known to stay inside the folder: at start every
// stored path is checked (a state naming another path is refused, as other
// corruption is), and every use goes through blobFile() all the same.
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { State } from './types.js';

/** The absolute path of a stored path inside `blobDir`; throws when it would lead outside. */
export function blobFile(blobDir: string, stored: string): string {
  const problem = strayReason(blobDir, stored);
  if (problem) throw new Error(`the stored path ${JSON.stringify(stored)} ${problem}`);
  return resolve(blobDir, stored);
}

/** The first stored path of the state that leads outside `blobDir`, with the item naming it. */
export function strayBlobPath(
  state: State,
  blobDir: string,
): { itemId: string; path: string; reason: string } | undefined {
  for (const account of Object.values(state.accounts ?? {})) {
    for (const item of account.library ?? []) {
      for (const stored of [item._blob, item._textFile]) {
        if (stored === undefined) continue;
        const reason = strayReason(blobDir, stored);
        if (reason) return { itemId: String(item.id), path: String(stored), reason };
      }
    }
  }
  return undefined;
}

function strayReason(blobDir: string, stored: unknown): string | undefined {
  if (typeof stored !== 'string' || stored === '') return 'is not a path';
  // NUL ends a path in the system; absolute paths and `..` leave the folder.
  if (stored.includes('\0')) return 'holds a NUL character';
  const inside = relative(resolve(blobDir), resolve(blobDir, stored));
  if (isAbsolute(stored) || inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside))
    return 'is outside the blob folder';
  return undefined;
}
