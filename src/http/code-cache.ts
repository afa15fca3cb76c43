// undici from a V8 code cache. Every API call compiles undici's JavaScript
// (460 KB) and, on its first request, dozens of its functions; V8 can keep that
// work in a code cache, but Node 20 offers one only for CommonJS compiled by
// hand. So the build also writes undici as one CommonJS file (dist/undici.cjs)
// and, by running a real request through it once, its code cache
// (dist/undici.cjs.cache). Loading both saves 7-11 ms per call (measured on a
// GET: load 16-20 → 12-13 ms, first request 16-19 → 14 ms).
//
// V8 checks the cache against its version, its flags and the source, and
// compiles as usual when they differ (another Node, say): the cache can only
// make things faster. Without dist/undici.cjs (tests run from src/) there is
// nothing to load, and the caller imports undici as a module.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { Script } from 'node:vm';

export interface CommonJsModule {
  exports: unknown;
  script: Script;
}

/** The same wrapper at build and at run time: the cache belongs to this exact source. */
const wrap = (source: string) => `(function (exports, require, module, __filename, __dirname) {${source}\n})`;

/**
 * Runs a CommonJS file, with its code cache when there is one; undefined when the file is not there.
 * `name`: the script's name for V8 (stack traces), the file's path unless given.
 */
export function loadCommonJs(file: string, useCache = true, name = file): CommonJsModule | undefined {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  let cachedData: Buffer | undefined;
  if (useCache) {
    try {
      cachedData = readFileSync(`${file}.cache`);
    } catch {
      // no cache: compiled as usual
    }
  }
  // node:vm is required only here (Node 20, first undici request): an import at the top
  // would load it on every API call, for nothing on Node 22+.
  const { Script } = createRequire(import.meta.url)('node:vm') as typeof import('node:vm');
  const script = new Script(wrap(source), { filename: name, cachedData });
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return { exports: module.exports, script };
}

/**
 * Build time: runs `file`, lets `exercise` use it so that V8 compiles what a run needs, and writes the cache beside it.
 * The cache holds the script's `name` (and a cache read later keeps it): the build gives one that does not
 * depend on where it builds, so that two builds write the same bytes.
 */
export async function writeCodeCache(file: string, exercise: (exports: unknown) => Promise<void>, name = file): Promise<number> {
  const loaded = loadCommonJs(file, false, name);
  if (!loaded) throw new Error(`${file} is not there`);
  await exercise(loaded.exports);
  const data = loaded.script.createCachedData();
  writeFileSync(`${file}.cache`, data);
  return data.length;
}
