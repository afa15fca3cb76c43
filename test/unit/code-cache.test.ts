// CommonJS run from a V8 code cache (src/http/code-cache.ts): what a file
// exports, its own require and paths, a cache written once and accepted after,
// and a cache that does not fit, which only costs the speed.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCommonJs, writeCodeCache } from '../../src/http/code-cache.js';

const dir = mkdtempSync(join(tmpdir(), 'kagent-code-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = join(dir, 'lib.cjs');
writeFileSync(
  file,
  `const { join } = require('node:path');
  module.exports = { where: join(__dirname, 'x'), file: __filename, add: (a, b) => a + b, self: this === module.exports };`,
);
type Lib = { where: string; file: string; add: (a: number, b: number) => number; self: boolean };

describe('loadCommonJs', () => {
  it('is undefined when the file is not there', () => {
    expect(loadCommonJs(join(dir, 'missing.cjs'))).toBeUndefined();
  });

  it('runs the file as CommonJS: exports, require, __dirname, __filename, this', () => {
    const lib = loadCommonJs(file)?.exports as Lib;
    expect(lib.add(2, 3)).toBe(5);
    expect(lib.where).toBe(join(dir, 'x'));
    expect(lib.file).toBe(file);
    expect(lib.self).toBe(true);
  });

  it('uses a cache written after the file was exercised', async () => {
    const bytes = await writeCodeCache(file, async (exports) => {
      expect((exports as Lib).add(1, 1)).toBe(2);
    });
    expect(bytes).toBeGreaterThan(0);
    // The same source under another name, so that V8 reads the cache instead of reusing the
    // script it compiled in this process (its in-memory cache is keyed by name too).
    const copy = join(dir, 'copy.cjs');
    writeFileSync(copy, readFileSync(file));
    writeFileSync(`${copy}.cache`, readFileSync(`${file}.cache`));
    const loaded = loadCommonJs(copy);
    expect(loaded?.script.cachedDataRejected).toBe(false);
    expect((loaded?.exports as Lib).add(2, 2)).toBe(4);
  });

  it('names the script as told, so that the cache holds nothing of where it was built', async () => {
    const built = join(dir, 'named.cjs');
    writeFileSync(built, `module.exports = { thrice: (n) => n * 3, stamp: ${Date.now()} };`);
    await writeCodeCache(built, async (exports) => expect((exports as { thrice: (n: number) => number }).thrice(2)).toBe(6), 'dist/named.cjs');
    const cache = readFileSync(`${built}.cache`);
    expect(cache.includes(dir)).toBe(false);
    expect(cache.includes('dist/named.cjs')).toBe(true);
  });

  it('a cache that does not fit is rejected, and the file still runs', () => {
    // A source this process has not compiled yet (V8 keeps compiled scripts in memory too).
    const other = join(dir, 'other.cjs');
    writeFileSync(other, `module.exports = { twice: (n) => n * 2, stamp: ${Date.now()} };`);
    writeFileSync(`${other}.cache`, Buffer.from('not a code cache'));
    const loaded = loadCommonJs(other);
    expect(loaded?.script.cachedDataRejected).toBe(true);
    expect((loaded?.exports as { twice: (n: number) => number }).twice(21)).toBe(42);
  });
});
