// From the operands of `lib upload` to the list of files to send: files as
// named, folders walked recursively, glob patterns expanded (quoted, so that
// the same pattern works in every shell and CI runner), and `-` for stdin.
//
// Rules (documented in the command's help):
// - an operand that names nothing (no such path, a pattern matching no file, a
//   folder without a file) is a usage error before anything is sent;
// - walking a folder skips hidden entries (names starting with "."), does not
//   follow symbolic links to folders (no loops), and goes in name order;
// - a file reached twice (named and inside a named folder) is sent once.
import { lstat, readdir, stat } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UsageError } from '../errors.js';

export interface Source {
  /** How the file is shown: the operand, a path under a named folder, or "-" for stdin. */
  display: string;
  /** Where the bytes are read from (for stdin: the spooled temporary file, set later). */
  path: string;
  /** Sent as X-File-Name (and part of the idempotency key). */
  name: string;
  size: number;
  stdin?: boolean;
}

export interface DiscoverOptions {
  cwd: string;
  signal?: AbortSignal;
  /** Whose path rules apply to patterns (default: this machine's). */
  platform?: NodeJS.Platform;
}

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
      add({ display: operand, path: absolute, name: basename(absolute), size: info.size }, fileId(info));
    } else if (info?.isDirectory()) {
      const files = await walk(absolute, operand, add, options.signal);
      if (files === 0) {
        throw new UsageError(`no files in folder ${operand}`, 'hidden files (names starting with ".") are skipped inside folders; name them to upload them');
      }
    } else if (info) {
      throw new UsageError(`${operand} is not a regular file or folder`);
    } else if (await isPattern(globPattern(operand, options.platform))) {
      const matches = await expand(globPattern(operand, options.platform), options);
      if (matches.length === 0) throw new UsageError(`no files match ${operand}`);
      for (const match of matches) {
        const matchInfo = await stat(match.path).catch(() => undefined);
        if (matchInfo?.isFile()) add({ display: match.display, path: match.path, name: basename(match.path), size: matchInfo.size }, fileId(matchInfo));
      }
    } else {
      throw new UsageError(`no such file or folder: ${operand}`);
    }
  }
  return found;
}

function fileId(info: { dev: number; ino: number }): string {
  return `${info.dev}:${info.ino}`;
}

/** Adds every file under `dir`; returns how many there were (counting ones already added). */
async function walk(dir: string, shown: string, add: (source: Source, id: string) => void, signal?: AbortSignal): Promise<number> {
  if (signal?.aborted) return 0;
  let files = 0;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    throw new UsageError(`cannot read folder ${shown}: ${(error as Error).message}`);
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    const display = shown.endsWith('/') || shown.endsWith(sep) ? `${shown}${entry.name}` : `${shown}/${entry.name}`;
    if (entry.isDirectory()) {
      files += await walk(path, display, add, signal);
      continue;
    }
    if (!entry.isFile() && !entry.isSymbolicLink()) continue; // sockets, fifos, devices
    // A link is followed to a file, never to a folder.
    const info = entry.isSymbolicLink() ? await stat(path).catch(() => undefined) : await lstat(path);
    if (!info?.isFile()) continue;
    add({ display, path, name: entry.name, size: info.size }, fileId(info));
    files++;
  }
  return files;
}

async function isPattern(operand: string): Promise<boolean> {
  const { isDynamicPattern } = await import('tinyglobby');
  return isDynamicPattern(operand);
}

/** Expands a glob: the static leading folders become the search root, so absolute and `../` patterns work too. */
async function expand(pattern: string, options: DiscoverOptions): Promise<Array<{ path: string; display: string }>> {
  const { glob, isDynamicPattern } = await import('tinyglobby');
  const segments = pattern.split('/');
  let staticCount = 0;
  while (staticCount < segments.length - 1 && !isDynamicPattern(segments[staticCount] as string)) staticCount++;
  const base = segments.slice(0, staticCount).join('/');
  const rest = segments.slice(staticCount).join('/');
  const root = base === '' ? (pattern.startsWith('/') ? '/' : options.cwd) : resolve(options.cwd, base);
  const matches = await glob(rest, { cwd: root, onlyFiles: true, dot: false, followSymbolicLinks: true, expandDirectories: false, signal: options.signal });
  matches.sort();
  return matches.map((match) => {
    const path = resolve(root, match);
    const display = isAbsolute(pattern) ? path : relative(options.cwd, path) || path;
    return { path, display };
  });
}
