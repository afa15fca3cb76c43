// Config writes from parallel processes: the built binary, many at once, on one
// config dir. Every `config set` that ends with exit 0 must be in the file after;
// the directory stays 0700 and the file 0600; a write that cannot take the
// lock fails with a clear error and a non-zero exit, and changes nothing.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runBinary, type BinaryRun } from '../helpers/binary.js';

ensureBuilt();
const home = mkdtempSync(join(tmpdir(), 'kagent-config-par-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const kagent = (args: string[], configDir: string) =>
  runBinary(
    args,
    { PATH: process.env.PATH, HOME: home, KAGENT_CONFIG_DIR: configDir, NO_COLOR: '1' },
    process.execPath,
  );

const mode = (path: string) => statSync(path).mode & 0o777;

const WORKERS = 8;
const EACH = 25;

/**
 * The time the 200 processes may take, from what one costs on this machine now
 * (a loaded machine takes longer than a quiet one, and a fixed budget failed
 * there): the slowest of 3 `config set` runs, one after another, times the
 * processes each core runs, times 3 for the lock waits, plus 30 s; 120 s at least.
 */
async function budget(): Promise<number> {
  const dir = join(home, 'measure');
  const costs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const r = await kagent(['config', 'set', 'space', `measured-${i}`, '-p', `m${i}`, '--create'], dir);
    if (r.status !== 0) throw new Error(`config set failed (exit ${r.status}): ${r.stderr}`);
    costs.push(performance.now() - started);
  }
  const perCore = Math.ceil((WORKERS * EACH) / Math.min(WORKERS, availableParallelism()));
  return Math.max(120_000, Math.round(Math.max(...costs) * perCore * 3 + 30_000));
}
const parallelBudget = await budget();

describe('config set from parallel processes (built binary)', () => {
  it(
    `8 processes × 25 \`config set\` keep all 200 profiles, the dir at 0700 and the file at 0600 (within ${Math.round(parallelBudget / 1000)} s here)`,
    async () => {
      const dir = join(home, 'parallel');
      // A directory that exists already with a loose mode is tightened too.
      mkdirSync(dir, { mode: 0o755 });
      const workers = Array.from({ length: WORKERS }, async (_, w) => {
        const results: BinaryRun[] = [];
        for (let i = 0; i < EACH; i++)
          results.push(
            await kagent(['config', 'set', 'space', `space-${w}-${i}`, '-p', `w${w}-p${i}`, '--create'], dir),
          );
        return results;
      });
      const results = (await Promise.all(workers)).flat();
      expect(results).toHaveLength(200);
      for (const result of results) {
        // Piped: no ✓ line; only the warning that a profile without a key or URL cannot check its space.
        expect(result.stderr).toMatch(/^(warning: could not check that space "space-\d+-\d+" exists [^\n]*\n)?$/);
        expect(result.status).toBe(0);
      }
      const file = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
      const expected: Record<string, { space: string }> = {};
      for (let w = 0; w < WORKERS; w++)
        for (let i = 0; i < EACH; i++) expected[`w${w}-p${i}`] = { space: `space-${w}-${i}` };
      expect(file.profiles).toEqual(expected);
      expect(mode(dir)).toBe(0o700);
      expect(mode(join(dir, 'config.json'))).toBe(0o600);
      // No lock left behind.
      expect(existsSync(join(dir, 'config.json.lock'))).toBe(false);
    },
    parallelBudget,
  );

  it('a write that cannot take the lock fails (exit 1, CONFIG_LOCKED) and changes nothing', async () => {
    const dir = join(home, 'locked');
    mkdirSync(dir, { mode: 0o700 });
    const path = join(dir, 'config.json');
    const before = '{"profiles":{"kept":{"lang":"zh"}}}';
    writeFileSync(path, before, { mode: 0o600 });
    // Another writer (this test, with kagent's own lock settings) holds the lock, kept fresh, for the whole run.
    const release = await lockfile.lock(path, { lockfilePath: `${path}.lock`, realpath: false, stale: 3000 });
    try {
      const started = Date.now();
      const result = await kagent(['config', 'set', 'lang', 'en', '-p', 'kept'], dir);
      const waited = Date.now() - started;
      expect(result.stderr).toContain(
        `error: the config file ${path} is locked by another kagent process; nothing was saved`,
      );
      expect(result.stderr).toContain('(CONFIG_LOCKED)');
      expect(result.stderr).not.toContain('✓');
      expect(result.status).toBe(1);
      // Bounded: it waited about 5 s, not forever.
      expect(waited).toBeGreaterThanOrEqual(4_500);
      expect(waited).toBeLessThan(20_000);
      expect(readFileSync(path, 'utf8')).toBe(before);
    } finally {
      await release();
    }
    // Once the lock is free, the same command goes through.
    const again = await kagent(['config', 'set', 'lang', 'en', '-p', 'kept'], dir);
    expect(again.status).toBe(0);
    expect(JSON.parse(readFileSync(path, 'utf8')).profiles.kept).toEqual({ lang: 'en' });
  }, 60_000);
});
