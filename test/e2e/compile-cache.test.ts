// Node's module compile cache (src/cli/compile-cache.ts), seen from the built binary
// on KAGENT_TEST_NODE (CI runs this file on Node 20, 22, 24 and 26): on Node
// 22.1+ a command leaves V8's compiled code of the chunks it loaded under
// <cache dir>/compile-cache and the next run reads it back; on Node 20, which
// has no such cache, nothing is written there; --version and the root --help
// leave it alone;
// and a cache dir that cannot be written never fails a command.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, ensureBuilt, testNode } from '../helpers/binary.js';

let home: string;
beforeAll(() => {
  ensureBuilt();
  home = mkdtempSync(join(tmpdir(), 'kagent-e2e-compile-cache-'));
}, 60_000);
afterAll(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

const version = spawnSync(testNode, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
const [major, minor] = version.split('.').map(Number) as [number, number];
const hasCompileCache = major > 22 || (major === 22 && minor >= 1);

function kagent(args: string[], cacheDir: string, extraEnv: Record<string, string> = {}) {
  return spawnSync(testNode, [bin, ...args], {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: home,
      KAGENT_CONFIG_DIR: join(home, 'config'),
      KAGENT_CACHE_DIR: cacheDir,
      ...extraEnv,
    },
  });
}

/** Every file under dir, recursively. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe(`the compile cache on Node ${version}`, () => {
  it(hasCompileCache ? 'is written by a command and read back by the next' : 'is not there (Node 20 has none)', () => {
    const cache = join(home, 'cache-help');
    const first = kagent(['help', 'exit-codes'], cache);
    expect(first.status, first.stderr).toBe(0);
    const files = filesUnder(join(cache, 'compile-cache'));
    if (!hasCompileCache) {
      expect(files).toEqual([]);
      return;
    }
    expect(files.length).toBeGreaterThan(0);
    const again = kagent(['help', 'exit-codes'], cache, { NODE_DEBUG_NATIVE: 'COMPILE_CACHE' });
    expect(again.status).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    expect(again.stderr).toMatch(/cache for (ESM )?file:\/\/\S+\/chunks\/\S+\.js was accepted/);
  });

  it('is not touched by --version nor by the root --help', () => {
    const cache = join(home, 'cache-version');
    const version = kagent(['--version'], cache);
    expect(version.status).toBe(0);
    expect(version.stdout).toMatch(/^kagent version \d+\.\d+\.\d+ \(\d{4}-\d\d-\d\d\)\n$/);
    const help = kagent(['--help'], cache);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/Usage: kagent/);
    expect(existsSync(join(cache, 'compile-cache'))).toBe(false);
  });

  it('never fails a command when the cache dir cannot be written', () => {
    const blocker = join(home, 'a-file');
    writeFileSync(blocker, 'not a directory');
    const r = kagent(['help', 'exit-codes'], join(blocker, 'cache'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('130');
    expect(r.stderr).toBe('');
  });
});
