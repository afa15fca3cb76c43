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
import type { BigIntStats, Dirent } from 'node:fs';
import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ExitCode, UsageError } from '../errors.js';
import { fileIdentity } from './digest-cache.js';
import { escapeName, unreadableName } from './odd-names.js';
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
  const files = await walk(absolute, root, operand, '', { root, options, add, visited: new Set([root]), since: 0 });
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

/**
 * Adds every file under `dir` (whose real path is `real`); returns how many there were (counting ones already
 * added). `shown` is how the folder is shown, `rel` its path under the folder named ('' for that folder).
 */
async function walk(dir: string, real: string, shown: string, rel: string, w: Walk): Promise<number> {
  const { options, add } = w;
  if (options.signal?.aborted) return 0;
  let files = 0;
  let entries: Entry[];
  try {
    entries = await entriesOf(dir);
  } catch (error) {
    throw new UsageError(`cannot read folder ${shown}: ${(error as Error).message}`);
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const under = (name: string) => (shown.endsWith('/') || shown.endsWith(sep) ? `${shown}${name}` : `${shown}/${name}`);
  for (const { entry, bytes, name } of entries) {
    if (name.startsWith('.')) continue;
    // The stats below are synchronous: let what waits (lib sync's listing pages, read meanwhile) go on now and then.
    if (++w.since >= YIELD_EVERY) {
      w.since = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    if (bytes) {
      add(unreadableName(under(escapeName(bytes)), entry.isDirectory()), `raw:${dir}:${bytes.toString('hex')}`);
      files++;
      continue;
    }
    const path = join(dir, name);
    const display = under(name);
    const relPath = rel === '' ? name : `${rel}/${name}`;
    const link = entry.isSymbolicLink();
    const target = link ? followed(path, display, w) : join(real, name);
    if (target === undefined) continue;
    if (guardedBy(target, options)) {
      skip(options, display, 'KAGENT_OWN_FILE', OWN);
      continue;
    }
    if (entry.isDirectory()) {
      files += await walk(path, target, display, relPath, w);
      continue;
    }
    if (!entry.isFile() && !link) {
      if (allowed(options, relPath, display)) skip(options, display, 'NOT_A_FILE', NOT_A_FILE);
      continue;
    }
    // One synchronous stat per file: a local stat takes microseconds, a third of a trip to the thread pool and back.
    const info = statOf(path, link);
    if (info instanceof Error) {
      // Gone or unreadable since the folder was listed: that file fails, the others go.
      add(
        {
          display,
          path,
          name,
          size: 0,
          refusal: { code: 'FILE_UNREADABLE', message: `cannot read the file: ${info.message}` },
        },
        `gone:${path}`,
      );
      files++;
      continue;
    }
    if (info.isDirectory()) {
      // A link to a folder: walked only with --follow-symlinks, each real folder once (a loop ends there).
      if (!options.followSymlinks || w.visited.has(target)) continue;
      w.visited.add(target);
      files += await walk(path, target, display, relPath, w);
      continue;
    }
    if (!allowed(options, relPath, display)) continue;
    if (!info.isFile()) {
      skip(options, display, 'NOT_A_FILE', NOT_A_FILE);
      continue;
    }
    const identity = fileIdentity(info);
    // Its device and inode ("dev:ino", as fileId makes it) are where the identity starts.
    add(
      { display, path, name, size: Number(info.size), identity },
      identity.slice(0, identity.indexOf(':', identity.indexOf(':') + 1)),
    );
    files++;
  }
  return files;
}

/** A folder entry; `bytes`: its name's bytes, when they are not UTF-8 (`name` then has U+FFFD for them). */
interface Entry {
  entry: Dirent<string> | Dirent<Buffer>;
  name: string;
  bytes?: Buffer;
}

/**
 * A folder's entries. Read as text; only a folder where a name came back with U+FFFD (the mark of
 * bytes that are not UTF-8, or a name holding that very character) is read again as bytes, to tell
 * which names cannot be given to the service (nor opened by a string path).
 */
async function entriesOf(dir: string): Promise<Entry[]> {
  const named = await readdir(dir, { withFileTypes: true });
  if (!named.some((entry) => entry.name.includes('\uFFFD'))) return named.map((entry) => ({ entry, name: entry.name }));
  const raw = await readdir(dir, { withFileTypes: true, encoding: 'buffer' });
  return raw.map((entry) => {
    const bytes = entry.name;
    const name = bytes.toString('utf8');
    return Buffer.from(name, 'utf8').equals(bytes) ? { entry, name } : { entry, name, bytes };
  });
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

/** The raw names in `dir` that decode (lossily) to `decoded`. */
async function rawNamesLike(dir: string, decoded: string): Promise<Buffer[]> {
  const names = await readdir(dir, { encoding: 'buffer' }).catch(() => [] as Buffer[]);
  return names.filter((name) => name.toString('utf8') === decoded);
}

/** Expands a glob: the static leading folders become the search root, so absolute and `../` patterns work too. */
async function expand(pattern: string, options: DiscoverOptions): Promise<Array<{ path: string; display: string }>> {
  const segments = pattern.split('/');
  let staticCount = 0;
  while (staticCount < segments.length - 1 && !isDynamicPattern(segments[staticCount] as string)) staticCount++;
  const base = segments.slice(0, staticCount).join('/');
  const rest = segments.slice(staticCount).join('/');
  const root = base === '' ? (pattern.startsWith('/') ? '/' : options.cwd) : resolve(options.cwd, base);
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
