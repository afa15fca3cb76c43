// From the operands of `lib upload` to the list of files to send: files as
// named, folders walked recursively, glob patterns expanded (quoted, so that
// the same pattern works in every shell and CI runner), and `-` for stdin.
//
// Rules (documented in the command's help):
// - an operand that names nothing (no such path, a pattern matching no file, a
//   folder without a file) is a usage error before anything is sent;
// - walking a folder skips hidden entries (names starting with "."), and goes in
//   name order;
// - a symbolic link is followed only while it stays inside the folder walked
//   (with --follow-symlinks: anywhere, folders included, each real folder once,
//   so a loop ends); one that leads out, leads nowhere or loops is skipped and
//   reported (`skipped`), as is every file of kagent's own config and cache
//   folders, whatever path or link leads there (they hold the API key);
// - --exclude/--include (filter.ts) leave files out by their path under the
//   folder (a named file or a pattern's match: by the path as given);
// - a file reached twice (named and inside a named folder) is sent once;
// - an entry whose name is not UTF-8 cannot be named to the service (nor opened
//   by a string path): it is listed, shown with its odd bytes as \xNN, and fails
//   on its own (UNREADABLE_NAME) while the other files go.
import type { BigIntStats } from 'node:fs';
import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ExitCode, UsageError } from '../errors.js';
import { fileIdentity } from './digest-cache.js';
import { entriesOf, escapeName, rawNamesLike, unreadableName, type Entry } from './odd-names.js';
import { isInside, realPath, type PathFilter } from './filter.js';
import { isDynamicPattern, glob } from 'tinyglobby';

export interface Source {
  /** How the file is shown: the operand, a path under a named folder, or "-" for stdin. */
  display: string;
  /** Where the bytes are read from (for stdin: the spooled temporary file, set later). */
  path: string;
  /** Sent as X-File-Name (and part of the idempotency key). */
  name: string;
  /** The note sent with this file, in place of the run's (lib sync's record of the file's path). */
  note?: string;
  size: number;
  /** A walked file's identity as found (digest-cache.ts fileIdentity: what a digest record compares); absent for named files and stdin. */
  identity?: string;
  stdin?: boolean;
  /** Found, but not to be sent: refused here with its own code (a name that is not UTF-8). */
  refusal?: { code: 'UNREADABLE_NAME' | 'FILE_UNREADABLE' | 'KAGENT_OWN_FILE'; message: string };
}

/** A file or link found but not sent, and why (said on stderr, one line each; excluded files are only counted). */
export interface Skipped {
  display: string;
  code: 'LINK_OUTSIDE' | 'LINK_DANGLING' | 'LINK_LOOP' | 'KAGENT_OWN_FILE' | 'NOT_A_FILE' | 'EXCLUDED';
  reason: string;
}

/** A refusal's exit code: a name that is not UTF-8 or a file of kagent's own is the user's to mend (2), a file that cannot be read 1. */
export function refusalExitCode(refusal: Source['refusal']): number {
  return refusal?.code === 'UNREADABLE_NAME' || refusal?.code === 'KAGENT_OWN_FILE' ? ExitCode.USAGE : ExitCode.ERROR;
}

export interface DiscoverOptions {
  cwd: string;
  signal?: AbortSignal;
  /** Whose path rules apply to patterns (default: this machine's). */
  platform?: NodeJS.Platform;
  /** Follow symbolic links wherever they lead (folders too); by default only those that stay inside the folder. */
  followSymlinks?: boolean;
  /** --exclude/--include. */
  filter?: PathFilter;
  /** Real paths whose files are never sent (filter.ts's ownPaths: kagent's config and cache). */
  guarded?: string[];
  /** Where what was found but not sent is told. */
  skipped?: Skipped[];
  /** The hint for a folder with nothing to take: what the command can do with hidden files (default: lib upload's). */
  emptyFolderHint?: string;
}

/** How a walk goes: the folder named (its real path), what it may not send, and the real folders already walked. */
interface Walk {
  root: string;
  options: DiscoverOptions;
  add: (source: Source, id: string) => void;
  visited: Set<string>;
  /** Entries looked at since the walk last let other work run. */
  since: number;
}

/** Entries looked at between two turns of the event loop (a few milliseconds of stats). */
const YIELD_EVERY = 64;

const guardedBy = (real: string, options: DiscoverOptions) =>
  (options.guarded ?? []).some((dir) => isInside(real, dir));

function skip(options: DiscoverOptions, display: string, code: Skipped['code'], reason: string): void {
  options.skipped?.push({ display, code, reason });
}

const OWN = "a file of kagent's own config or cache (it may hold the API key): never uploaded";
// Reading a FIFO would wait for a writer, a device may never end: only plain files are sent.
const NOT_A_FILE = 'not a plain file (a FIFO, socket or device)';

/**
 * A glob pattern as the glob engine reads it: on Windows `\` separates folders
 * (`docs\*.pdf`, `C:\notes\**\*.md`) and becomes `/`; elsewhere it escapes the
 * character after it (`\*` is a literal star), as in every POSIX shell.
 */
export function globPattern(operand: string, platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? operand.replace(/\\/g, '/') : operand;
}

/** Expands the operands; `-` becomes a placeholder source whose path and size the caller fills in after spooling stdin. */
export async function discover(operands: string[], options: DiscoverOptions): Promise<Source[]> {
  const found: Source[] = [];
  const seen = new Set<string>();
  let stdinSeen = false;

  const add = (source: Source, id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    found.push(source);
  };

  for (const operand of operands) {
    if (operand === '-') {
      if (stdinSeen) throw new UsageError('"-" (stdin) can be given only once');
      stdinSeen = true;
      found.push({ display: '-', path: '', name: '', size: 0, stdin: true });
      continue;
    }
    if (operand === '') throw new UsageError('an empty path was given');
    const absolute = resolve(options.cwd, operand);
    const info = await stat(absolute).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
      throw new UsageError(`cannot read ${operand}: ${error.message}`);
    });

    if (info?.isFile()) {
      if (!allowed(options, operand)) continue;
      const real = realPath(absolute) ?? absolute;
      if (guardedBy(real, options))
        add(
          {
            display: operand,
            path: absolute,
            name: basename(absolute),
            size: 0,
            refusal: { code: 'KAGENT_OWN_FILE', message: OWN },
          },
          fileId(info),
        );
      else add({ display: operand, path: absolute, name: basename(absolute), size: info.size }, fileId(info));
    } else if (info?.isDirectory()) {
      await walkFolder(absolute, operand, options, add);
    } else if (info) {
      throw new UsageError(`${operand} is not a regular file or folder`);
    } else if (isDynamicPattern(globPattern(operand, options.platform))) {
      await addMatches(operand, options, add);
    } else {
      throw new UsageError(`no such file or folder: ${operand}`);
    }
  }
  return found;
}

type Add = (source: Source, id: string) => void;

/** A folder named on the command line: every file under it; none to send is a usage error. */
async function walkFolder(absolute: string, operand: string, options: DiscoverOptions, add: Add): Promise<void> {
  const root = realPath(absolute) ?? absolute;
  const before = options.skipped?.length ?? 0;
  const w: Walk = { root, options, add, visited: new Set([root]), since: 0 };
  const files = await walk({ dir: absolute, real: root, shown: operand, rel: '' }, w);
  const left = (options.skipped?.length ?? 0) - before;
  if (files === 0 && left > 0) {
    const list = (options.skipped ?? []).slice(before, before + 3).map((s) => `${s.display} (${s.code})`);
    throw new UsageError(
      `no file to send in folder ${operand}: ${left} skipped or left out: ${list.join(', ')}${left > 3 ? ', …' : ''}`,
      '--exclude/--include choose the files; --follow-symlinks follows links out of the folder',
    );
  }
  if (files === 0) {
    throw new UsageError(
      `no files in folder ${operand}`,
      options.emptyFolderHint ??
        'hidden files (names starting with ".") are skipped inside folders; name them to upload them',
    );
  }
}

/** A glob pattern's matches (a name that is not UTF-8 or a file gone since fails on its own). */
async function addMatches(operand: string, options: DiscoverOptions, add: Add): Promise<void> {
  const matches = await expand(globPattern(operand, options.platform), options);
  if (matches.length === 0) throw new UsageError(`no files match ${operand}`);
  for (const match of matches) {
    const matchInfo = await stat(match.path).catch((error: Error) => error);
    if (matchInfo instanceof Error) {
      // The glob decoded a name that is not UTF-8 (its odd bytes became U+FFFD): find the real ones.
      const raw = match.path.includes('\uFFFD') ? await rawNamesLike(dirname(match.path), basename(match.path)) : [];
      for (const name of raw)
        add(
          unreadableName(join(dirname(match.display), escapeName(name)), false),
          `raw:${match.path}:${name.toString('hex')}`,
        );
      if (raw.length === 0)
        add(
          {
            display: match.display,
            path: match.path,
            name: basename(match.path),
            size: 0,
            refusal: { code: 'FILE_UNREADABLE', message: `cannot read the file: ${matchInfo.message}` },
          },
          `gone:${match.path}`,
        );
    } else if (matchInfo.isFile()) {
      if (!allowed(options, globPattern(match.display, options.platform))) continue;
      const real = realPath(match.path) ?? match.path;
      if (guardedBy(real, options)) {
        skip(options, match.display, 'KAGENT_OWN_FILE', OWN);
        continue;
      }
      add(
        { display: match.display, path: match.path, name: basename(match.path), size: matchInfo.size },
        fileId(matchInfo),
      );
    }
  }
}

function fileId(info: { dev: number | bigint; ino: number | bigint }): string {
  return `${info.dev}:${info.ino}`;
}

/** Whether --exclude/--include let the file at `rel` through; an excluded one is counted in `skipped`. */
function allowed(options: DiscoverOptions, rel: string, display = rel): boolean {
  if (!options.filter || options.filter.allows(rel)) return true;
  skip(options, display, 'EXCLUDED', 'excluded by --exclude/--include');
  return false;
}

/** A folder being walked: where it is, its real path, how it is shown, and its path under the folder named ('' for that one). */
interface Folder {
  dir: string;
  real: string;
  shown: string;
  rel: string;
}

/** Adds every file under a folder; returns how many there were (counting ones already added). */
async function walk(folder: Folder, w: Walk): Promise<number> {
  if (w.options.signal?.aborted) return 0;
  let entries: Entry[];
  try {
    entries = await entriesOf(folder.dir);
  } catch (error) {
    throw new UsageError(`cannot read folder ${folder.shown}: ${(error as Error).message}`);
  }
  entries.sort((a, b) => compareCodeUnits(a.name, b.name));
  let files = 0;
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    // The stats below are synchronous: let what waits (lib sync's listing pages, read meanwhile) go on now and then.
    if (++w.since >= YIELD_EVERY) {
      w.since = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    files += await walkEntry(folder, entry, w);
  }
  return files;
}

/** Names and paths in the order of their UTF-16 code units (as `<` compares them), whatever the locale: a walk's, a plan's. */
export function compareCodeUnits(a: string, b: string): number {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}

/** How an entry of a folder is shown: under the folder's name as given. */
function under(shown: string, name: string): string {
  return shown.endsWith('/') || shown.endsWith(sep) ? `${shown}${name}` : `${shown}/${name}`;
}

/** One entry of a folder: how many files it adds (a folder's, walked in turn); a link is followed where it may be. */
async function walkEntry(folder: Folder, { entry, bytes, name }: Entry, w: Walk): Promise<number> {
  const { options, add } = w;
  if (bytes) {
    add(
      unreadableName(under(folder.shown, escapeName(bytes)), entry.isDirectory()),
      `raw:${folder.dir}:${bytes.toString('hex')}`,
    );
    return 1;
  }
  const path = join(folder.dir, name);
  const display = under(folder.shown, name);
  const rel = folder.rel === '' ? name : `${folder.rel}/${name}`;
  const link = entry.isSymbolicLink();
  const target = link ? followed(path, display, w) : join(folder.real, name);
  if (target === undefined) return 0;
  if (guardedBy(target, options)) {
    skip(options, display, 'KAGENT_OWN_FILE', OWN);
    return 0;
  }
  if (entry.isDirectory()) return walk({ dir: path, real: target, shown: display, rel }, w);
  if (!entry.isFile() && !link) {
    if (allowed(options, rel, display)) skip(options, display, 'NOT_A_FILE', NOT_A_FILE);
    return 0;
  }
  return walkFile({ path, target, display, rel, name, link }, w);
}

/** An entry found in a folder walked, followed where it is a link (`target`: its real path). */
interface Found {
  path: string;
  target: string;
  display: string;
  rel: string;
  name: string;
  link: boolean;
}

/** A file or a link to one (or, with --follow-symlinks, to a folder, walked then): how many files it adds. */
async function walkFile(found: Found, w: Walk): Promise<number> {
  const { options, add } = w;
  const { path, target, display, rel, name } = found;
  // One synchronous stat per file: a local stat takes microseconds, a third of a trip to the thread pool and back.
  const info = statOf(path, found.link);
  if (info instanceof Error) {
    // Gone or unreadable since the folder was listed: that file fails, the others go.
    const refusal = { code: 'FILE_UNREADABLE' as const, message: `cannot read the file: ${info.message}` };
    add({ display, path, name, size: 0, refusal }, `gone:${path}`);
    return 1;
  }
  if (info.isDirectory()) {
    // A link to a folder: walked only with --follow-symlinks, each real folder once (a loop ends there).
    if (!options.followSymlinks || w.visited.has(target)) return 0;
    w.visited.add(target);
    return walk({ dir: path, real: target, shown: display, rel }, w);
  }
  if (!allowed(options, rel, display)) return 0;
  if (!info.isFile()) {
    skip(options, display, 'NOT_A_FILE', NOT_A_FILE);
    return 0;
  }
  const identity = fileIdentity(info);
  // Its device and inode ("dev:ino", as fileId makes it) are where the identity starts.
  add(
    { display, path, name, size: Number(info.size), identity },
    identity.slice(0, identity.indexOf(':', identity.indexOf(':') + 1)),
  );
  return 1;
}

/**
 * Where a symbolic link leads (its real path), when the walk may go there: inside the folder named, or anywhere
 * with --follow-symlinks. A link that leads nowhere, loops, or leads out unasked is reported and skipped.
 */
function followed(path: string, display: string, w: Walk): string | undefined {
  let real: string;
  try {
    real = realpathSync.native(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') skip(w.options, display, 'LINK_LOOP', 'a symbolic link loop');
    else if (code === 'ENOENT' || code === 'ENOTDIR')
      skip(w.options, display, 'LINK_DANGLING', `a symbolic link to nothing (${readLink(path)})`);
    else skip(w.options, display, 'LINK_DANGLING', `a symbolic link that cannot be followed (${code})`);
    return undefined;
  }
  // kagent's own files first: said as such, whether or not the link leads out of the folder.
  if (w.options.followSymlinks || isInside(real, w.root) || guardedBy(real, w.options)) return real;
  skip(
    w.options,
    display,
    'LINK_OUTSIDE',
    'a symbolic link to a file outside the folder (--follow-symlinks follows it)',
  );
  return undefined;
}

function readLink(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return '?';
  }
}

/** A file's stats (a link followed to what it names, never to a folder's content), or why they cannot be had. */
function statOf(path: string, link: boolean): BigIntStats | Error {
  try {
    return link ? statSync(path, { bigint: true }) : lstatSync(path, { bigint: true });
  } catch (error) {
    return error as Error;
  }
}

/** Expands a glob: the static leading folders become the search root, so absolute and `../` patterns work too. */
async function expand(pattern: string, options: DiscoverOptions): Promise<Array<{ path: string; display: string }>> {
  const segments = pattern.split('/');
  let staticCount = 0;
  while (staticCount < segments.length - 1 && !isDynamicPattern(segments[staticCount] as string)) staticCount++;
  const base = segments.slice(0, staticCount).join('/');
  const rest = segments.slice(staticCount).join('/');
  const root = searchRoot(base, pattern, options.cwd);
  const matches = await glob(rest, {
    cwd: root,
    onlyFiles: true,
    dot: false,
    followSymbolicLinks: true,
    expandDirectories: false,
    signal: options.signal,
  });
  matches.sort();
  return matches.map((match) => {
    const path = resolve(root, match);
    const display = isAbsolute(pattern) ? path : relative(options.cwd, path) || path;
    return { path, display };
  });
}

/** Where a glob is searched from: its static leading folders, else the root for an absolute pattern, else the working folder. */
function searchRoot(base: string, pattern: string, cwd: string): string {
  if (base !== '') return resolve(cwd, base);
  return pattern.startsWith('/') ? '/' : cwd;
}
