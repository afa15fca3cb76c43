// Pacing: never more than the rate in any 60-second window, shared by every
// client of the process, and (with the file-backed pacer) across processes.
import { spawn } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import {
  ARRIVAL_MARGIN_MS,
  nextSlot,
  PacingTooLong,
  processPacer,
  reserve,
  SlidingWindowPacer,
  windowShape,
  type WindowState,
} from '../../src/http/pacer.js';
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

const WINDOW = MINUTE + ARRIVAL_MARGIN_MS;

describe('the sliding window', () => {
  it('lets a burst of up to the limit go at once', async () => {
    const clock = createFakeClock();
    const pacer = new SlidingWindowPacer(60, clock);
    const waits = [];
    for (let i = 0; i < 60; i++) waits.push(await pacer.take());
    expect(waits).toEqual(Array.from({ length: 60 }, () => 0));
    expect(clock.sleeps).toEqual([]);
  });

  it('makes the (limit+1)th wait exactly until the oldest leaves the window, and only that one', async () => {
    const clock = createFakeClock();
    const pacer = new SlidingWindowPacer(5, clock);
    const t0 = clock.now();
    await pacer.take();
    await clock.sleep(10_000);
    for (let i = 0; i < 4; i++) await pacer.take(); // 5 in the window: the first at t0, four at t0 + 10 s
    const sixth = await pacer.take();
    expect(sixth).toBe(t0 + WINDOW - (t0 + 10_000));
    expect(clock.now()).toBe(t0 + WINDOW);
    // The next four wait for the four that left at t0 + 10 s, all at the same moment.
    const waits = [];
    for (let i = 0; i < 4; i++) waits.push(await pacer.take());
    expect(waits).toEqual([10_000, 0, 0, 0]);
    expect(clock.now()).toBe(t0 + 10_000 + WINDOW);
  });

  it('the pure arithmetic: the window is a parameter, the wait is oldest + window − now', () => {
    const shape = windowShape(3, MINUTE);
    let state: WindowState | undefined;
    for (const now of [0, 1000, 2000]) {
      const r = reserve(state, now, shape);
      expect('waitMs' in r && r.waitMs).toBe(0);
      state = (r as { state: WindowState }).state;
    }
    const fourth = reserve(state, 30_000, shape);
    expect(fourth).toEqual({ state: { sent: [1000, 2000, MINUTE], pausedUntil: 0 }, waitMs: MINUTE - 30_000 });
    // With a deadline it misses, nothing is reserved.
    expect(reserve(state, 30_000, shape, 50_000)).toEqual({ refusedMs: MINUTE - 30_000 });
    expect(nextSlot(state, 61_000, shape)).toBe(61_000);
  });

  it.each([60, 10, 1, 300])('at %i/min, 3 minutes of eager callers never exceed it in any window', async (rate) => {
    const clock = createFakeClock();
    const pacer = new SlidingWindowPacer(rate, clock);
    const start = clock.now();
    const released: number[] = [];
    await Promise.all(Array.from({ length: rate * 3 + 5 }, () => pacer.take().then(() => released.push(clock.now()))));
    expect(busiestWindow(released, WINDOW)).toBeLessThanOrEqual(rate);
    // …while using the whole budget: the first `rate` at once, then `rate` per window.
    expect(released.filter((t) => t === start)).toHaveLength(rate);
    expect(busiestWindow(released, WINDOW)).toBe(rate);
  });

  it('pause() holds everyone back, including callers already waiting', async () => {
    const clock = createFakeClock();
    const pacer = new SlidingWindowPacer(5, clock);
    const t0 = clock.now();
    for (let i = 0; i < 5; i++) await pacer.take();
    const waiting = pacer.take().then(() => clock.now());
    pacer.pause(t0 + WINDOW + 30_000);
    const later = pacer.take().then(() => clock.now());
    expect(await waiting).toBe(t0 + WINDOW + 30_000);
    expect(await later).toBe(t0 + WINDOW + 30_000);
  });

  it('a wait past the deadline is refused at once and reserves nothing', async () => {
    const clock = createFakeClock();
    const pacer = new SlidingWindowPacer(2, clock);
    const t0 = clock.now();
    await pacer.take();
    await pacer.take();
    const error = await pacer.take(undefined, { deadline: t0 + 5_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PacingTooLong);
    expect((error as PacingTooLong).waitMs).toBe(WINDOW);
    expect(clock.now()).toBe(t0);
    // Nothing reserved: the next caller waits for the first slot, not behind a phantom one.
    const notices: number[] = [];
    expect(await pacer.take(undefined, { onWait: (ms) => notices.push(ms) })).toBe(WINDOW);
    expect(notices).toEqual([WINDOW]);
  });

  it('an abort while waiting rejects the take', async () => {
    const clock = createFakeClock();
    const pacer = new SlidingWindowPacer(1, clock);
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
    expect(processPacer(`${server.baseUrl}\nsk_pacing_2`, 6, clock)).toBe(
      processPacer(`${server.baseUrl}\nsk_pacing_2`, 6, clock),
    );
    for (let i = 0; i < 8; i++) await (i % 2 ? b : a).call('getMe');
    const arrivals = server.requests.map((r) => r.at);
    // Six at once, whichever client asks; the 7th and 8th wait for the first two to leave the window.
    expect(arrivals.map((t) => t - arrivals[0]!)).toEqual([0, 0, 0, 0, 0, 0, WINDOW, WINDOW]);
  });
});

describe('the shared pacer across processes', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kagent-pacer-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const account = { baseUrl: 'https://api.example.com/api/v1', apiKey: 'sk_shared_in_process', ratePerMinute: 5 };

  it("two pacers on the same file share the window and see each other's pause", async () => {
    const clock = createFakeClock();
    const cacheDir = join(dir, 'same-file');
    const a = new SharedFilePacer({ dir: cacheDir, clock, ...account });
    const b = new SharedFilePacer({ dir: cacheDir, clock, ...account });
    const waits = [];
    for (let i = 0; i < 6; i++) waits.push(await (i % 2 ? b : a).take());
    expect(waits).toEqual([0, 0, 0, 0, 0, WINDOW]);
    const t = clock.now();
    a.pause(t + 20_000);
    await new Promise((r) => setTimeout(r, 20)); // the pause is written once the lock is free
    await b.take();
    expect(clock.now()).toBeGreaterThanOrEqual(t + 20_000);
    expect(a.isShared && b.isShared).toBe(true);
  });

  it('a pause another process writes while one waits for its slot holds that one back until the pause ends', async () => {
    const clock = createFakeClock();
    const cacheDir = join(dir, 'pause-while-waiting');
    const a = new SharedFilePacer({ dir: cacheDir, clock, ...account });
    let duringSleep: (() => void) | undefined;
    // b's clock: the first sleep lets "another process" (a) see a 429 before it ends.
    const sleepy = {
      now: clock.now,
      sleep(ms: number, signal?: AbortSignal) {
        const hook = duringSleep;
        duringSleep = undefined;
        hook?.();
        return clock.sleep(ms, signal);
      },
    };
    const b = new SharedFilePacer({ dir: cacheDir, clock: sleepy, ...account });
    for (let i = 0; i < 5; i++) expect(await a.take()).toBe(0);
    const t = clock.now();
    duringSleep = () => a.pause(t + WINDOW + 30_000);
    await b.take(); // waits a window for its slot, then the pause written meanwhile
    expect(clock.now()).toBeGreaterThanOrEqual(t + WINDOW + 30_000);
    expect(a.isShared && b.isShared).toBe(true);
  });

  it('callers waiting at once share one lock and one append; the log holds one record per request', async () => {
    const clock = createFakeClock();
    const pacer = new SharedFilePacer({ dir: join(dir, 'batch'), clock, ...account });
    const waits = await Promise.all(Array.from({ length: 8 }, () => pacer.take()));
    expect(waits).toEqual([0, 0, 0, 0, 0, WINDOW, WINDOW, WINDOW]);
    expect(pacer.locks).toBeLessThanOrEqual(2);
    expect(readFileSync(pacer.file, 'latin1')).toMatch(/^(S\d{14}\n){8}$/);
    expect(pacer.isShared).toBe(true);
  });

  it('profiles with different rates on the same key share one window', async () => {
    const clock = createFakeClock();
    const cacheDir = join(dir, 'two-rates');
    const fast = new SharedFilePacer({ dir: cacheDir, clock, ...account, ratePerMinute: 50 });
    const slow = new SharedFilePacer({ dir: cacheDir, clock, ...account, ratePerMinute: 5 });
    expect(fast.file).toBe(slow.file);
    for (let i = 0; i < 5; i++) expect(await fast.take()).toBe(0);
    // The five the fast profile sent fill the slow one's window.
    expect(await slow.take()).toBe(WINDOW);
    expect(await fast.take()).toBe(0);
  });

  it('a directory where the lock goes is no lock: pacing goes on in the process at once, not after a 5-second wait', async () => {
    const clock = createFakeClock();
    const pacer = new SharedFilePacer({ dir: join(dir, 'lock-dir'), clock, ...account });
    mkdirSync(`${pacer.file}.lock`, { recursive: true });
    const started = Date.now();
    expect(await pacer.take()).toBe(0);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(pacer.isShared).toBe(false);
  });

  it('a lock left by a process killed while holding it (kill -9) is broken once stale, and the window stays shared', async () => {
    const clock = createFakeClock();
    const pacer = new SharedFilePacer({ dir: join(dir, 'killed'), clock, ...account });
    writeFileSync(`${pacer.file}.lock`, '');
    const past = new Date(Date.now() - 3_000);
    utimesSync(`${pacer.file}.lock`, past, past);
    expect(await pacer.take()).toBe(0);
    expect(pacer.isShared).toBe(true);
    expect(readFileSync(pacer.file, 'latin1')).toMatch(/^S\d{14}\n$/);
  });

  it('a rate set far above what is used costs the same per request: the window counts back at most 1,000 requests', async () => {
    const clock = createFakeClock();
    const pacer = new SharedFilePacer({ dir: join(dir, 'off'), clock, ...account, ratePerMinute: 1_000_000 });
    const recent = `S${String(clock.now() - 1_000).padStart(14, '0')}\n`;
    writeFileSync(pacer.file, recent.repeat(5_000));
    expect(await pacer.take()).toBe(0);
    expect(pacer.tailBytes).toBeLessThanOrEqual((1_000 + 64) * 16);
  });

  it('a 70 MB log is not read whole: its tail counts, and it is cut to its window', async () => {
    const clock = createFakeClock();
    const pacer = new SharedFilePacer({ dir: join(dir, 'huge'), clock, ...account });
    const old = `S${String(clock.now() - 10 * MINUTE).padStart(14, '0')}\n`;
    const recent = `S${String(clock.now() - 1_000).padStart(14, '0')}\n`;
    writeFileSync(pacer.file, old.repeat((70 * 1024 * 1024) / 16) + recent.repeat(4));
    const started = Date.now();
    // Four of the five in the window already: the fifth goes at once, the sixth waits for the first of them.
    expect(await pacer.take()).toBe(0);
    expect(await pacer.take()).toBe(WINDOW - 1_000);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(statSync(pacer.file).size).toBeLessThanOrEqual(6 * 16);
    expect(pacer.isShared).toBe(true);
  });

  it('falls back to pacing in-process when the cache directory cannot be used', async () => {
    const notADir = join(dir, 'a-file');
    writeFileSync(notADir, '');
    const clock = createFakeClock();
    const pacer = new SharedFilePacer({ dir: join(notADir, 'cache'), clock, ...account });
    const waits = [];
    for (let i = 0; i < 7; i++) waits.push(await pacer.take());
    expect(pacer.isShared).toBe(false);
    expect(waits).toEqual([0, 0, 0, 0, 0, WINDOW, 0]);
  });

  it('four processes with the same key share one budget', async () => {
    await build({
      entryPoints: ['src/http/shared-pacer.ts'],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: join(dir, 'shared-pacer.mjs'),
      logLevel: 'error',
    });
    const child = join(dir, 'child.mjs');
    writeFileSync(
      child,
      `import { createSharedPacer } from './shared-pacer.mjs';
const [cacheDir, n] = process.argv.slice(2);
const clock = { now: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };
const pacer = createSharedPacer({ dir: cacheDir, baseUrl: 'https://api.example.com/api/v1', apiKey: 'sk_shared_secret', ratePerMinute: 10, windowMs: 2000, clock });
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
        proc.on('exit', (code) =>
          code === 0 ? resolve(JSON.parse(out) as number[]) : reject(new Error(`child exited ${code}`)),
        );
      });
    const releases = (await Promise.all([run(), run(), run(), run()])).flat();

    expect(releases).toHaveLength(32);
    // 10 per (2-second, for the test) window: one window for all four processes means
    // 10 at once, then 10 a window, so the last goes three windows after the first;
    // four separate windows would let all 32 go at once.
    const span = Math.max(...releases) - Math.min(...releases);
    expect(span).toBeGreaterThanOrEqual(3 * 2000 * 0.95);
    // Releases are stamped after the timer fired, up to a few hundred ms late on a busy machine.
    expect(busiestWindow(releases, 1500)).toBeLessThanOrEqual(10);

    // The state file is named by a hash and holds no key.
    const files = readdirSync(cacheDir);
    expect(files).toEqual([expect.stringMatching(/^window-[0-9a-f]{24}\.log$/)]);
    expect(readFileSync(join(cacheDir, files[0]!), 'utf8')).not.toContain('sk_shared_secret');
  }, 30_000);
});
