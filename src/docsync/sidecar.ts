// What `doc pull` remembers beside a file: the document's id, the revision
// pulled and that revision's text (the base of a later three-way merge), in
// `<dir>/.kagent/docs/<file name>.json` — one small JSON file per pulled file,
// in a folder the user can ignore in git (`.kagent/`).
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../errors.js';
import { commandLine } from '../io/command-line.js';

export interface Sidecar {
  id: string;
  revision: number;
  title: string;
  /** The text of `revision`, as pulled (or last pushed). */
  base: string;
}

export const SIDECAR_DIR = join('.kagent', 'docs');

export function sidecarPath(file: string): string {
  return join(dirname(file), SIDECAR_DIR, `${basename(file)}.json`);
}

/** The sidecar of `file`, or undefined when the file was never pulled. A damaged one is an error naming it. */
export async function readSidecar(file: string): Promise<Sidecar | undefined> {
  const path = sidecarPath(file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(`${path}: cannot read it (${(error as Error).message})`);
  }
  try {
    const data = JSON.parse(text) as Partial<Sidecar>;
    if (typeof data.id === 'string' && typeof data.revision === 'number' && typeof data.base === 'string') {
      return { id: data.id, revision: data.revision, title: typeof data.title === 'string' ? data.title : '', base: data.base };
    }
  } catch {
    // reported below
  }
  throw new UsageError(`${path} is damaged: it does not say which document ${basename(file)} was pulled from`, `pull it again: \`${commandLine('doc pull ID -o', file, '--force')}\``);
}

/** Written beside the file, through a temporary name, so a crash never leaves half a sidecar. */
export async function writeSidecar(file: string, data: Sidecar): Promise<void> {
  const path = sidecarPath(file);
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify({ id: data.id, revision: data.revision, title: data.title, base: data.base })}\n`);
  await rename(temporary, path);
}

export async function removeSidecar(file: string): Promise<void> {
  await rm(sidecarPath(file), { force: true });
}

/** Every pulled file of a directory (the names its `.kagent/docs/` remembers), sorted. */
export async function pulledFiles(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(join(dir, SIDECAR_DIR));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw error;
  }
  return names
    .filter((name) => name.endsWith('.json'))
    .map((name) => join(dir, name.slice(0, -'.json'.length)))
    .sort();
}

/** A file name from a title: lower case, words joined by "-", at most 80 characters; `fallback` when nothing is left. */
export function slugOf(title: string, fallback: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return slug === '' ? fallback : slug;
}

/** Atomic write of a pulled or merged text. */
export async function writeText(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  await writeFile(temporary, text);
  await rename(temporary, file);
}
