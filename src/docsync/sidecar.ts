// What `doc pull` remembers beside a file: the document's id, the revision
// pulled and that revision's text (the base of a later three-way merge), in
// `<dir>/.kagent/docs/<file name>.json` — one small JSON file per pulled file,
// in a folder the user can ignore in git (`.kagent/`).
import { lstat, mkdir, readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { fileError } from '../io/file-name.js';
import { replaceFile, temporarySuffix } from '../io/replace-file.js';
import type { MarkerLines } from './text.js';
import { commandLine } from '../io/command-line.js';
import { readPlainText } from '../io/local-file.js';

export interface Sidecar {
  id: string;
  revision: number;
  title: string;
  /** The text of `revision`, as pulled (or last pushed). */
  base: string;
  /**
   * The conflict-marker lines kagent's merge wrote into the file (a push that
   * met a conflict), with how many copies of each the document has of its own.
   * Absent when kagent wrote none (and in sidecars of older versions).
   */
  markers?: MarkerLines;
}

export const SIDECAR_DIR = join('.kagent', 'docs');

export function sidecarPath(file: string): string {
  return join(dirname(file), SIDECAR_DIR, `${basename(file)}.json`);
}

/**
 * The state directory `<dir>/.kagent/docs`, checked one level at a time with
 * lstat: a `.kagent` (or `docs`) that is a symbolic link is refused, never
 * followed (it could point anywhere: kagent would write there, or read a state
 * someone else wrote). With `create`, the missing levels are made (without
 * following links either). Returns false when it does not exist (and was not made).
 */
async function stateDir(dir: string, create: boolean): Promise<boolean> {
  let path = dir;
  for (const level of SIDECAR_DIR.split(/[/\\]/)) {
    path = join(path, level);
    let info;
    try {
      info = await lstat(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR') return false;
      if (code !== 'ENOENT') throw fileError(path, error, create ? 'write' : 'read');
      if (!create) return false;
      try {
        await mkdir(path);
      } catch (failure) {
        if ((failure as NodeJS.ErrnoException).code !== 'EEXIST') throw fileError(path, failure);
      }
      info = await lstat(path).catch((failure: unknown) => {
        throw fileError(path, failure);
      });
    }
    if (info.isSymbolicLink()) {
      throw new CliError(
        `${path} is a symbolic link: kagent keeps its state only in a real directory and does not follow it`,
        {
          exitCode: ExitCode.ERROR,
          code: 'UNSAFE_PATH',
          hint: `remove the link (\`rm ${path}\`) and pull again, or pull into another directory`,
        },
      );
    }
    if (!info.isDirectory()) {
      throw new CliError(`${path} is not a directory: kagent keeps the pulled documents' state there`, {
        exitCode: ExitCode.ERROR,
        code: 'UNSAFE_PATH',
        hint: 'move it away and pull again',
      });
    }
  }
  return true;
}

/** A document's revision as a sidecar keeps it and a save sends it back: a whole number, 0 or more. */
export function isRevision(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/**
 * A document as the service sent it, checked for what a pull writes and a sidecar keeps:
 * its id and body as text, its revision a whole number (its title as text, or none). Anything
 * else is refused before a byte is written: a sidecar that kagent would later call damaged,
 * or a file of "undefined", helps nobody.
 */
export function writableDoc<T extends { id: string; revision: number; body: string; title: string }>(
  doc: T,
  asked: string,
): T {
  const answer = (doc ?? {}) as Partial<Record<keyof T, unknown>>;
  const missing = [
    typeof answer.id === 'string' && answer.id !== '' ? undefined : 'id',
    typeof answer.body === 'string' ? undefined : 'text (body)',
    isRevision(answer.revision) ? undefined : 'revision as a whole number',
  ].filter((what) => what !== undefined);
  if (missing.length > 0)
    throw new CliError(
      `the service's answer for document ${asked} has no ${missing.join(' and no ')}: kagent cannot keep it in step, and wrote nothing`,
      {
        code: 'UNEXPECTED_ANSWER',
        hint: `\`${commandLine('doc show', asked, '--json')}\` shows the answer as it came; try again later`,
      },
    );
  return typeof answer.title === 'string' ? doc : { ...doc, title: '' };
}

/** A sidecar holds a document's base (at most 500,000 characters, up to 6 bytes each escaped in JSON) and a little more. */
const SIDECAR_MAX_BYTES = 16 * 1024 * 1024;

/** The sidecar of `file`, or undefined when the file was never pulled. A damaged one is an error naming it. */
export async function readSidecar(file: string): Promise<Sidecar | undefined> {
  const path = sidecarPath(file);
  if (!(await stateDir(dirname(file), false))) return undefined;
  let text: string | undefined;
  try {
    // Not through a symbolic link either (O_NOFOLLOW: ELOOP); never a FIFO or a device (local-file.ts), never huge.
    text = await readPlainText(path, SIDECAR_MAX_BYTES, { noFollow: true });
    if (text === undefined) return undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP')
      throw new UsageError(
        `${path} is a symbolic link: kagent does not follow it`,
        `remove it and pull again: \`kagent doc pull ID -o ${file} --force\``,
      );
    throw new UsageError(`${path}: cannot read it (${(error as Error).message})`);
  }
  try {
    const data = JSON.parse(text) as Partial<Sidecar>;
    if (typeof data.id === 'string' && isRevision(data.revision) && typeof data.base === 'string') {
      const markers = isMarkerLines(data.markers) ? { markers: data.markers } : {};
      return {
        id: data.id,
        revision: data.revision,
        title: typeof data.title === 'string' ? data.title : '',
        base: data.base,
        ...markers,
      };
    }
  } catch {
    // reported below
  }
  throw new UsageError(
    `${path} is damaged: it does not say which document and revision ${basename(file)} was pulled from`,
    `pull it again: \`${commandLine('doc pull', idIn(text) ?? 'ID', '-o', file, '--force')}\``,
  );
}

/** The id a damaged sidecar still names, for the command that mends it. */
function idIn(text: string): string | undefined {
  try {
    const id = (JSON.parse(text) as { id?: unknown } | null)?.id;
    return typeof id === 'string' && /^[\w.-]{1,80}$/.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Makes sure the state directory beside `file` can be used (made when missing;
 * refused when it is a symbolic link), before anything is written: a pull
 * then never leaves a file without its sidecar.
 */
export async function prepareSidecarDir(file: string): Promise<void> {
  try {
    await mkdir(dirname(file), { recursive: true });
    await stateDir(dirname(file), true);
  } catch (error) {
    if (error instanceof CliError && error.code === 'UNSAFE_PATH') throw error;
    // Said of the file asked for; the hint names the directory that could not be made.
    const failure = fileError(file, (error as { cause?: unknown }).cause ?? error);
    failure.hint = `kagent keeps what it pulled beside the file, in ${join(dirname(file), SIDECAR_DIR)}`;
    throw failure;
  }
}

/** Written beside the file, through a temporary name, so a crash never leaves half a sidecar. */
export async function writeSidecar(file: string, data: Sidecar): Promise<void> {
  const path = sidecarPath(file);
  await stateDir(dirname(file), true);
  const markers = data.markers && Object.keys(data.markers).length > 0 ? { markers: data.markers } : {};
  const record = { id: data.id, revision: data.revision, title: data.title, base: data.base, ...markers };
  await replaceFile(path, `${JSON.stringify(record)}\n`, `${path}.${temporarySuffix()}`);
}

function isMarkerLines(value: unknown): value is MarkerLines {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((n) => typeof n === 'number')
  );
}

/** Every pulled file of a directory (the names its `.kagent/docs/` remembers), sorted. */
export async function pulledFiles(dir: string): Promise<string[]> {
  let names: string[];
  if (!(await stateDir(dir, false))) return [];
  try {
    names = await readdir(join(dir, SIDECAR_DIR));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR')
      return [];
    throw error;
  }
  return names
    .filter((name) => name.endsWith('.json') && name !== '.json' && name !== '..json' && name !== '...json')
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
  try {
    await mkdir(dirname(file), { recursive: true });
  } catch (error) {
    throw fileError(file, error);
  }
  await replaceFile(file, text);
}
