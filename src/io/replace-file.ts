// Writing a whole file kagent makes (a pulled document, a sidecar, a report) so
// that a crash never leaves half of it and a symbolic link at its path is
// replaced, never written through (`ln -s victim.conf report.xml` must not
// overwrite victim.conf).
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileError } from './file-name.js';

/** `<pid>.<8 hex digits>.tmp`: file-name.ts keeps room for it in every name kagent derives. */
export function temporarySuffix(): string {
  return `${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
}

/**
 * Writes `text` to `temporary` (by default `.<name>.<suffix>` beside `path`) — created new (O_EXCL: an existing
 * file or symbolic link there is never written through) — then renames it over `path` (which replaces a link at
 * `path` rather than following it). Failures are errors naming `path` and the system's reason (exit 1).
 */
export async function replaceFile(
  path: string,
  text: string,
  temporary = join(dirname(path), `.${basename(path)}.${temporarySuffix()}`),
): Promise<void> {
  try {
    await writeFile(temporary, text, { flag: 'wx' });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {});
    throw fileError(path, error);
  }
}
