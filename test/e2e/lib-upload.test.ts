// `kagent lib upload` as the built binary (bin/kagent.js → dist/):
// - three processes at once against a sandbox limited to 60 requests a minute:
//   they share one rate window through the cache dir (one state file holds
//   every request of the three), so together they stay under it (zero 429s) —
//   and, as a control, without a shared cache dir they do not wait for each other;
// - stdin from a real pipe (binary bytes);
// - a real pseudo-terminal (`script` from util-linux): the progress bar, and
//   Ctrl-C in the middle, which stops with 130 and says how to resume.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePng } from '../helpers/files.js';
import { bin, ensureBuilt, plain, runInPty, testNode } from '../helpers/binary.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let home: string;

beforeAll(() => {
  ensureBuilt();
  home = mkdtempSync(join(tmpdir(), 'kagent-e2e-upload-'));
}, 60_000);
afterAll(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function kagent(args: string[], env: Record<string, string>, input?: Buffer): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(testNode, [bin, ...args], {
      env: { PATH: process.env.PATH, HOME: home, KAGENT_CONFIG_DIR: join(home, 'config'), ...env },
      stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => (stdout += chunk));
    child.stderr?.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (input) child.stdin?.end(input);
  });
}

function folderOf(name: string, count: number): string {
  const dir = join(home, name);
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < count; i++)
    writeFileSync(join(dir, `${name}-${i}.md`), `# ${name} ${i}\n\nnotes ${Math.random()}\n`);
  return dir;
}

/** How many requests each pacing state file in a cache dir holds. */
function windowEntries(cacheDir: string): number[] {
  return readdirSync(cacheDir)
    .filter((name) => /^window-[0-9a-f]{24}\.log$/.test(name))
    .map((name) => readFileSync(join(cacheDir, name), 'latin1').match(/^S\d{14}$/gm)?.length ?? 0);
}

describe('three kagent processes, one key, a sandbox allowing 60 requests a minute', () => {
  let t: TestSandbox;
  let arrivals: number[];

  beforeAll(async () => {
    arrivals = [];
    t = await startTestSandbox({ rateLimit: 60, quiet: false, log: () => arrivals.push(Date.now()) });
  });
  afterAll(() => t?.close());

  async function threeAtOnce(cacheDirs: [string, string, string], tag: string) {
    arrivals.length = 0;
    const runs = await Promise.all(
      cacheDirs.map((cacheDir, i) =>
        kagent(['lib', 'upload', folderOf(`${tag}${i}`, 2), '--json'], {
          KAGENT_BASE_URL: t.baseUrl,
          KAGENT_API_KEY: t.apiKey,
          KAGENT_CACHE_DIR: cacheDir,
          CI: 'true',
        }),
      ),
    );
    const api = arrivals.slice(); // every request (admin ones are made only before and after)
    return { runs, span: api.length > 1 ? (api.at(-1) as number) - (api[0] as number) : 0, count: api.length };
  }

  it('sharing the budget through the cache dir: zero 429s, requests spaced at the account rate, every file once', async () => {
    const shared = join(home, 'cache-shared');
    const { runs, span, count } = await threeAtOnce([shared, shared, shared], 'shared');
    for (const run of runs) {
      expect(run.stderr).toMatch(/^2 uploaded, 0 already there, 0 failed/m);
      expect(run.code).toBe(0);
    }
    const stats = (await t.call('GET', '/_sandbox/stats', { key: null })).body;
    expect(stats.statuses['429'] ?? 0).toBe(0);
    // 3 × 2 uploads (small files: no GET /me) = 6 requests, all within the 60 a minute the window
    // lets go at once; one window for the three: its one state file counts every one of them.
    expect(count).toBe(6);
    expect(span).toBeLessThan(2_500);
    expect(windowEntries(shared)).toEqual([6]);
    const files = (await t.call('GET', '/library', { query: { kind: 'file', limit: 200 } })).body.items;
    expect(files.filter((f: any) => f.fileName.startsWith('shared'))).toHaveLength(6);
  }, 30_000);

  it('control: with separate cache dirs the processes do not wait for each other (so the spacing above is the shared budget)', async () => {
    // Let the sandbox's window and the processes' buckets empty first.
    await t.call('POST', '/_sandbox/rate-limit', { key: null, body: { perMinute: 60 } });
    const { runs, span } = await threeAtOnce(
      [join(home, 'cache-a'), join(home, 'cache-b'), join(home, 'cache-c')],
      'apart',
    );
    for (const run of runs) expect(run.code).toBe(0);
    expect(span).toBeLessThan(2_500);
    // Each process kept its own window of its own 2 requests.
    for (const dir of ['cache-a', 'cache-b', 'cache-c']) expect(windowEntries(join(home, dir))).toEqual([2]);
  }, 30_000);
});

describe('the binary', () => {
  let t: TestSandbox;
  beforeAll(async () => {
    t = await startTestSandbox();
  });
  afterAll(() => t?.close());
  const env = () => ({
    KAGENT_BASE_URL: t.baseUrl,
    KAGENT_API_KEY: t.apiKey,
    KAGENT_CACHE_DIR: join(home, 'cache-binary'),
  });

  it('uploads binary stdin from a real pipe (spooled, then sent with its length)', async () => {
    const png = makePng(320, 200);
    const r = await kagent(['lib', 'upload', '-', '--name', 'chart.png', '--json'], env(), png);
    expect(r.code).toBe(0);
    const [result] = r.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(result).toMatchObject({ path: '-', name: 'chart.png', size: png.length, status: 'uploaded' });
    expect(result.item).toMatchObject({
      mime: 'image/png',
      size: png.length,
      sha256: createHash('sha256').update(png).digest('hex'),
    });
  });

  it('piped into another program: tab-separated rows; the summary and errors on stderr', async () => {
    const dir = folderOf('piped', 2);
    writeFileSync(join(dir, 'junk.bin'), Buffer.from([0, 1, 2, 3]));
    const r = await kagent(['lib', 'upload', dir], env());
    expect(r.code).toBe(2);
    const rows = r.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t'));
    expect(rows.map((row) => row[0]).sort()).toEqual(['failed', 'uploaded', 'uploaded']);
    expect(r.stderr).toMatch(/junk\.bin: junk\.bin is binary content .*\(UNSUPPORTED_TYPE\)/);
    expect(r.stderr).toMatch(/^2 uploaded, 0 already there, 1 failed/m);
  });

  it('interrupted while the service is still working on a file: the rerun waits for that request (409 in progress) and finishes, nothing twice', async () => {
    const dir = folderOf('held', 2);
    // The first upload is held by the service for 1.5 s; SIGINT (Ctrl-C) comes while it waits.
    await t.inject({ kind: 'slow', ms: 1500, count: 1, method: 'POST', path: '/api/v1/library/files' });
    const child = spawn(testNode, [bin, 'lib', 'upload', dir, '--concurrency', '1', '--json'], {
      env: { PATH: process.env.PATH, HOME: home, KAGENT_CONFIG_DIR: join(home, 'config'), ...env() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => {
      setTimeout(() => child.kill('SIGINT'), 700);
      child.on('close', resolve);
    });
    expect(code).toBe(130);
    expect(
      stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line).status),
    ).toEqual(['skipped', 'skipped']);
    expect(stderr).toMatch(/run the same command again/);

    const rerun = await kagent(['lib', 'upload', dir], env());
    expect(rerun.code).toBe(0);
    const files = (await t.call('GET', '/library', { query: { kind: 'file', limit: 200 } })).body.items;
    expect(files.filter((f: any) => f.fileName.startsWith('held-'))).toHaveLength(2);
  }, 30_000);

  it('in a terminal: a progress bar while it works; Ctrl-C mid-upload stops it (130) and says how to resume; a rerun finishes', async () => {
    const dir = folderOf('pty', 2);
    // A large file first (sparse: a PDF header, then 512 MiB of nothing), so Ctrl-C lands in the middle of its body.
    const big = join(dir, 'a-big.pdf');
    writeFileSync(big, '%PDF-1.4\n');
    truncateSync(big, 512 * 1024 * 1024);
    await t.call('PATCH', '/_sandbox/account', { body: { limits: { fileBytes: 1024 ** 3 } } });
    // Ctrl-C once bytes of the big file are on their way. (A sized terminal, as a person's is: kagent draws no progress on a pty of width 0.)
    const run = await runInPty(['lib', 'upload', dir, '--concurrency', '1'], {
      env: { HOME: home, KAGENT_CONFIG_DIR: join(home, 'config'), ...env() },
      steps: [{ wait: /0\/3 files · [1-9][\d.]* MiB\/512 MiB · .*a-big\.pdf/, type: '\x03' }],
      timeoutMs: 20_000,
    });
    const screen = plain(run.output);
    expect(run.typed).toBe(1);
    expect(run.code).toBe(130);
    expect(screen).toMatch(/not attempted/);
    // Not an error: one quiet line on how to go on.
    expect(screen).not.toMatch(/error|hint:/);
    expect(screen).toMatch(/^run the same command again: files already uploaded are recognised and not added twice$/m);

    const rerun = await kagent(['lib', 'upload', dir], env());
    expect(rerun.code).toBe(0);
    const files = (await t.call('GET', '/library', { query: { kind: 'file', limit: 200 } })).body.items;
    expect(files.filter((f: any) => f.fileName.startsWith('pty-') || f.fileName === 'a-big.pdf')).toHaveLength(3);
  }, 30_000);
});
