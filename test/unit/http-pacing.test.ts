// Pacing: never more than the rate in any 60-second window, shared by every
// client of the process, and (with the file-backed pacer) across processes.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import { bucketShape, processPacer, TokenBucketPacer } from '../../src/http/pacer.js';
import { SharedFilePacer } from '../../src/http/shared-pacer.js';
import { createFakeClock, startFaultServer, type FaultServer } from '../helpers/fault-server.js';

const MINUTE = 60_000;

/** The most events found in any window (t − width, t]. */
function busiestWindow(times: number[], width: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let end = 0, start = 0; end < sorted.length; end++) {
    while (sorted[start]! <= sorted[end]! - width) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

describe('the token bucket', () => {
  it.each([60, 10, 1, 300])('at %i/min, 3 minutes of eager callers never exceed it in any 60 s window', async (rate) => {
    const clock = createFakeClock();
    const pacer = new TokenBucketPacer(rate, clock);
    const start = clock.now();
    const released: number[] = [];
    await Promise.all(Array.from({ length: rate * 3 + 5 }, () => pacer.take().then(() => released.push(clock.now()))));
    expect(busiestWindow(released, MINUTE)).toBeLessThanOrEqual(rate);
    // …while still using most of the budget: the burst goes at once, the rest evenly.
    const { burst } = bucketShape(rate);
    expect(released.filter((t) => t === start)).toHaveLength(burst);
    expect(busiestWindow(released, MINUTE)).toBeGreaterThanOrEqual(Math.floor(rate * 0.9));
  });

  it('starts with a small burst, then spaces requests evenly', async () => {
    const clock = createFakeClock();
    const pacer = new TokenBucketPacer(60, clock);
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) waits.push(await pacer.take());
    expect(waits.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    // 55 tokens a minute after a burst of 5: one every ~1.09 s.
    for (const wait of waits.slice(5)) expect(wait).toBe(Math.ceil(MINUTE / 55));
  });

  it('refills while idle, up to the burst only', async () => {
    const clock = createFakeClock();
    const pacer = new TokenBucketPacer(60, clock);
    for (let i = 0; i < 5; i++) await pacer.take();
    await clock.sleep(10 * MINUTE);
    const waits = [];
    for (let i = 0; i < 6; i++) waits.push(await pacer.take());
    expect(waits).toEqual([0, 0, 0, 0, 0, Math.ceil(MINUTE / 55)]);
  });

  it('pause() holds everyone back, including callers already waiting', async () => {
    const clock = createFakeClock();
    const pacer = new TokenBucketPacer(60, clock);
    const t0 = clock.now();
    for (let i = 0; i < 5; i++) await pacer.take();
    const waiting = pacer.take().then(() => clock.now());
    pacer.pause(t0 + 30_000);
    const later = pacer.take().then(() => clock.now());
    expect(await waiting).toBeGreaterThanOrEqual(t0 + 30_000);
    expect(await later).toBeGreaterThanOrEqual(t0 + 30_000);
  });

  it('an abort while waiting rejects the take', async () => {
    const clock = createFakeClock();
    const pacer = new TokenBucketPacer(1, clock);
    await pacer.take();
    const controller = new AbortController();
    const pending = pacer.take(controller.signal);
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });
});

describe('pacing through the client', () => {
  let server: FaultServer;
  const clock = createFakeClock();
  beforeAll(async () => {
    server = await startFaultServer({ now: clock.now });
  });
  afterAll(() => server.close());

  it('100 GETs in a row reach the service at most 60 a minute', async () => {
    const api = createApiClient({ baseUrl: server.baseUrl, apiKey: 'sk_pacing_1', clock, ratePerMinute: 60 });
    for (let i = 0; i < 100; i++) await api.call('getMe');
    const arrivals = server.requests.map((r) => r.at);
    expect(arrivals).toHaveLength(100);
    expect(busiestWindow(arrivals, MINUTE)).toBeLessThanOrEqual(60);
    expect(arrivals.at(-1)! - arrivals[0]!).toBeGreaterThan(MINUTE);
  });

  it('clients of the same account in one process share one budget', async () => {
    server.requests.length = 0;
    const a = createApiClient({ baseUrl: server.baseUrl, apiKey: 'sk_pacing_2', clock, ratePerMinute: 6 });
    const b = createApiClient({ baseUrl: server.origin, apiKey: 'sk_pacing_2', clock, ratePerMinute: 6 });
    expect(processPacer(`${server.baseUrl}\nsk_pacing_2`, 6, clock)).toBe(processPacer(`${server.baseUrl}\nsk_pacing_2`, 6, clock));
    for (let i = 0; i < 4; i++) await (i % 2 ? b : a).call('getMe');
    const arrivals = server.requests.map((r) => r.at);
    // Burst of 1, then 5 a minute: one every 12 s, whichever client asks.
    expect(arrivals.slice(1).map((t, i) => t - arrivals[i]!)).toEqual([12_000, 12_000, 12_000]);
  });
});

describe('the shared pacer across processes', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kagent-pacer-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const account = { baseUrl: 'https://api.example.com/api/v1', apiKey: 'sk_shared_in_process', ratePerMinute: 60 };

  it('two pacers on the same file share the bucket and see each other\'s pause', async () => {
    const clock = createFakeClock();
    const cacheDir = join(dir, 'same-file');
    const a = new SharedFilePacer({ dir: cacheDir, clock, ...account });
    const b = new SharedFilePacer({ dir: cacheDir, clock, ...account });
    const waits = [];
    for (let i = 0; i < 6; i++) waits.push(await (i % 2 ? b : a).take());
    expect(waits).toEqual([0, 0, 0, 0, 0, Math.ceil(MINUTE / 55)]);
    const t = clock.now();
    a.pause(t + 20_000);
    await new Promise((r) => setTimeout(r, 20)); // the pause is written once the lock is free
    await b.take();
    expect(clock.now()).toBeGreaterThanOrEqual(t + 20_000);
    expect(a.isShared && b.isShared).toBe(true);
  });

  it('falls back to pacing in-process when the cache directory cannot be used', async () => {
    const notADir = join(dir, 'a-file');
    writeFileSync(notADir, '');
    const clock = createFakeClock();
    const pacer = new SharedFilePacer({ dir: join(notADir, 'cache'), clock, ...account });
    const waits = [];
    for (let i = 0; i < 7; i++) waits.push(await pacer.take());
    expect(pacer.isShared).toBe(false);
    expect(waits).toEqual([0, 0, 0, 0, 0, Math.ceil(MINUTE / 55), Math.ceil(MINUTE / 55)]);
  });

  it('four processes with the same key share one budget', async () => {
    await build({ entryPoints: ['src/http/shared-pacer.ts'], bundle: true, platform: 'node', format: 'esm', outfile: join(dir, 'shared-pacer.mjs'), logLevel: 'error' });
    const child = join(dir, 'child.mjs');
    writeFileSync(
      child,
      `import { createSharedPacer } from './shared-pacer.mjs';
const [cacheDir, n] = process.argv.slice(2);
const clock = { now: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };
const pacer = createSharedPacer({ dir: cacheDir, baseUrl: 'https://api.example.com/api/v1', apiKey: 'sk_shared_secret', ratePerMinute: 600, clock });
const times = [];
for (let i = 0; i < Number(n); i++) { await pacer.take(); times.push(Date.now()); }
process.stdout.write(JSON.stringify(times));
`,
    );
    const cacheDir = join(dir, 'cache');
    const run = () =>
      new Promise<number[]>((resolve, reject) => {
        const proc = spawn(process.execPath, [child, cacheDir, '8'], { stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
        proc.on('error', reject);
        proc.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as number[]) : reject(new Error(`child exited ${code}`))));
      });
    const releases = (await Promise.all([run(), run(), run(), run()])).flat();

    expect(releases).toHaveLength(32);
    // 600/min: a burst of 5, then 595 a minute (~9.9/s). One budget for all four
    // processes means 27 paid-for tokens, ≥ 2.7 s; four separate budgets would take 0.3 s.
    const { burst, refillPerMs } = bucketShape(600);
    const span = Math.max(...releases) - Math.min(...releases);
    expect(span).toBeGreaterThanOrEqual(((32 - burst) / refillPerMs) * 0.95);
    // No second holds more than the burst plus a second's refill (+1 for timer jitter).
    expect(busiestWindow(releases, 1000)).toBeLessThanOrEqual(burst + Math.ceil(refillPerMs * 1000) + 1);

    // The state file is named by a hash and holds no key.
    const files = readdirSync(cacheDir);
    expect(files).toEqual([expect.stringMatching(/^pace-[0-9a-f]{24}\.json$/)]);
    expect(readFileSync(join(cacheDir, files[0]!), 'utf8')).not.toContain('sk_shared_secret');
  }, 30_000);
});
