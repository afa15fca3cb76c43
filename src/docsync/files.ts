// Pulled files on disk: where a pull writes, whether it may, and the state of
// a pulled file against its sidecar and the service (`doc status`).
import { lstat, stat } from 'node:fs/promises';
import type { Doc } from '../api/shapes.js';
import type { Context } from '../context.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { fileInside, NAME_MAX_BYTES, safeFileName } from '../io/file-name.js';
import {
  prepareSidecarDir,
  pulledFiles,
  readSidecar,
  slugOf,
  writeSidecar,
  writeText,
  type Sidecar,
} from './sidecar.js';
import { commandLine } from '../io/command-line.js';
import { readPlainText, specialKind, TooLargeError } from '../io/local-file.js';
import { hasConflictMarkers, markersLeft } from './text.js';
import { asFileText, sameText } from './final-newline.js';
import { latestRevisions } from './latest.js';

export async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** False only when there is no such file (another failure to look is reported when the file is read). */
async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/**
 * A document is at most 500,000 characters (the contract), so at most 4 bytes each: a larger file is no document
 * and is refused before it is read (a 1.2 GB file would not fit a string).
 */
const MAX_DOC_BYTES = 500_000 * 4;

/** The file's text, or undefined when there is no such file. Not a plain file (a FIFO, a device) or too large: refused. */
export async function readLocal(file: string): Promise<string | undefined> {
  try {
    return await readPlainText(file, MAX_DOC_BYTES);
  } catch (error) {
    throw new UsageError(`${file}: cannot read it (${whyUnreadable(error)})`);
  }
}

/** Why a document's file could not be read, as the refusal says it. */
function whyUnreadable(error: unknown): string {
  if ((error as NodeJS.ErrnoException).code === 'EISDIR') return 'it is a directory';
  if (error instanceof TooLargeError) return `${error.message}: a document is at most 500,000 characters`;
  return (error as Error).message;
}

/**
 * The file name a pulled document gets: `<slug-of-title>.md`, or the id when
 * the title slugs to nothing; `<slug>-<id>.md` (`withId`) when that name is
 * taken (then `<slug>-<id>-2.md`, -3, … while taken). Both come from the
 * service: made safe by safeFileName (one path segment, within the length a
 * file system allows, in bytes).
 */
export function docFileName(doc: Pick<Doc, 'id' | 'title'>, withId: boolean | number = false): string {
  const slug = slugOf(doc.title, '');
  if (withId === false) return safeFileName(slug, { suffix: '.md', fallback: doc.id });
  // The id part at most 100 bytes, so that some of the title is left too; `-N` when that is taken as well
  // (ids that differ only in characters a file name cannot hold).
  const id = safeFileName(doc.id, { reserve: NAME_MAX_BYTES - 100 });
  const count = typeof withId === 'number' && withId > 1 ? `-${withId}` : '';
  return safeFileName(slug, { suffix: `-${id}${count}.md`, fallback: 'doc' });
}

/** Where `doc pull` writes: -o FILE, or `<slug-of-title>.md` in -o DIR (or the current directory), never outside it. */
export async function pullTarget(
  doc: Pick<Doc, 'id' | 'title'>,
  output: string | undefined,
  cwd: string,
): Promise<string> {
  const name = docFileName(doc);
  if (output === undefined) return fileInside(cwd, name);
  if (output.endsWith('/') || (await isDirectory(output))) return fileInside(output, name);
  return output;
}

/**
 * Whether `file` may be (over)written by a pull of `id`: a new file, or one
 * pulled from the same document and not changed since. Otherwise a usage error
 * (another file) or a conflict (local changes not pushed); --force overwrites.
 */
export async function checkPullTarget(file: string, id: string, force: boolean): Promise<void> {
  // A FIFO, a device or a socket is never a document's file, --force or not: replacing /dev/zero is no pull.
  const found = await lstat(file).catch(() => undefined);
  const special = found && specialKind(found);
  if (special)
    throw new UsageError(
      `${file} is ${special}, not a file: nothing was written`,
      'give -o a plain file, or a path where none is yet',
    );
  if (force) return;
  const text = await readLocal(file);
  if (text === undefined) return;
  const sidecar = await readSidecar(file);
  if (!sidecar || sidecar.id !== id) {
    throw new UsageError(
      `${file} exists and was not pulled from doc ${id}; nothing was written`,
      'give another -o FILE, or --force to overwrite it',
    );
  }
  if (!sameText(text, sidecar.base)) {
    throw new CliError(`${file} has changes not pushed yet; nothing was written`, {
      exitCode: ExitCode.CONFLICT,
      code: 'LOCAL_CHANGES',
      hint: `push them first (\`${commandLine('doc push', file)}\`), or --force to overwrite them with the service's revision`,
    });
  }
}

/** Writes a pulled document and its sidecar. */
export async function writePulled(file: string, doc: Pick<Doc, 'id' | 'title' | 'revision' | 'body'>): Promise<void> {
  await prepareSidecarDir(file);
  await writeText(file, asFileText(doc.body));
  await writeSidecar(file, { id: doc.id, revision: doc.revision, title: doc.title, base: doc.body });
}

/**
 * The first conflict marker kagent's merge wrote that is still in the file, or undefined.
 * Only kagent's own markers count: the sidecar remembers them (text.ts, MarkerLines), so lines
 * of the document that look like markers (they came from the service) do not. A sidecar that
 * remembers none (written by an older kagent): markers count only when the base has none.
 */
export function conflictMarkersLeft(text: string, sidecar: Sidecar): string | undefined {
  if (sidecar.markers) return markersLeft(text, sidecar.markers);
  return hasConflictMarkers(text) && !hasConflictMarkers(sidecar.base) ? '<<<<<<<' : undefined;
}

export type SyncState =
  | 'unchanged'
  | 'conflict'
  | 'changed-locally'
  | 'changed-on-service'
  | 'both'
  | 'missing-locally'
  | 'deleted-on-service'
  | 'not-pulled'
  | 'damaged';

export const STATE_WORDS: Record<SyncState, string> = {
  unchanged: 'unchanged',
  // As git's "unmerged": a merge left both sides in the file, to be chosen before the next push.
  conflict: 'unmerged: conflict markers left (edit, then push)',
  'changed-locally': 'changed locally',
  'changed-on-service': 'changed on the service',
  both: 'changed locally and on the service',
  'missing-locally': 'file missing',
  'deleted-on-service': 'deleted on the service',
  'not-pulled': 'not pulled',
  damaged: 'damaged: what kagent kept of its pull cannot be read',
};

export interface FileState {
  file: string;
  state: SyncState;
  id: string | null;
  /** The revision pulled (or last pushed). */
  revision: number | null;
  /** The service's revision now. */
  latest: number | null;
  /** Why the state is `damaged`: the sidecar's error, and how to mend it. */
  error?: { code: string; message: string; hint?: string };
}

/** The files `doc status` looks at: each FILE, and every pulled file of each directory given. */
export async function statusFiles(paths: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    if (await isDirectory(path)) files.push(...(await pulledFiles(path)));
    else if ((await exists(path)) || (await readSidecar(path))) files.push(path);
    // Checked before anything is asked: a FILE that is neither there nor known from a pull is a typo, not "not pulled".
    else
      throw new UsageError(
        `${path}: no such file`,
        'give a file pulled with `kagent doc pull ID`, or a directory (the current one by default)',
      );
  }
  return files;
}

/**
 * Each file's state against its sidecar and the service: the revisions from the
 * document list (latest.ts), one request for up to 500 files.
 */
export async function statesOf(ctx: Context, files: readonly string[]): Promise<FileState[]> {
  const sidecars = await Promise.all(files.map((file) => readSidecar(file).catch(damagedSidecar)));
  const ids = sidecars.flatMap((sidecar) => (sidecar && !(sidecar instanceof UsageError) ? [sidecar.id] : []));
  const latest = ids.length > 0 ? await latestRevisions(ctx, ids) : new Map<string, number | null>();
  const states: FileState[] = [];
  for (const [index, file] of files.entries()) {
    const sidecar = sidecars[index];
    if (sidecar instanceof UsageError) states.push(damagedState(file, sidecar));
    else if (!sidecar) states.push({ file, state: 'not-pulled', id: null, revision: null, latest: null });
    else states.push(stateOf(file, sidecar, await readLocal(file), latest.get(sidecar.id) ?? null));
  }
  return states;
}

/** One sidecar that cannot be read (garbage, a link, a FIFO) is that file's state, not the end of the others'. */
function damagedSidecar(error: unknown): UsageError {
  if (error instanceof UsageError) return error;
  throw error;
}

function damagedState(file: string, error: UsageError): FileState {
  const { code, message, hint } = error;
  return { file, state: 'damaged', id: null, revision: null, latest: null, error: { code, message, hint } };
}

/**
 * After the states are shown: the damaged ones as one error, each file with what is
 * wrong and how to mend it, so that a script sees the run was not whole. Exit 2, as
 * one damaged sidecar always was: kagent's own state, refused as input.
 */
export function damagedError(states: readonly FileState[]): CliError | undefined {
  const damaged = states.filter((s) => s.state === 'damaged');
  if (damaged.length === 0) return undefined;
  const said = damaged.map((s) => s.error?.message ?? s.file);
  const hints = [...new Set(damaged.flatMap((s) => (s.error?.hint ? [s.error.hint] : [])))];
  return new CliError(
    damaged.length === 1
      ? (said[0] as string)
      : `what kagent kept of ${damaged.length} pulled files cannot be read: ${said.join('; ')}`,
    {
      exitCode: ExitCode.USAGE,
      code: 'SIDECAR_DAMAGED',
      hint: `${hints.length > 0 ? `${hints.join('; ')}; ` : ''}the other files' states are shown`,
    },
  );
}

function stateOf(file: string, sidecar: Sidecar, text: string | undefined, latest: number | null): FileState {
  const base = { file, id: sidecar.id, revision: sidecar.revision, latest };
  if (latest === null) return { ...base, state: 'deleted-on-service' };
  if (text === undefined) return { ...base, state: 'missing-locally' };
  if (conflictMarkersLeft(text, sidecar) !== undefined) return { ...base, state: 'conflict' };
  const local = !sameText(text, sidecar.base);
  const remote = latest !== sidecar.revision;
  if (local && remote) return { ...base, state: 'both' };
  if (local) return { ...base, state: 'changed-locally' };
  return { ...base, state: remote ? 'changed-on-service' : 'unchanged' };
}
