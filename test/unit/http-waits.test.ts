// Waits that are visible and bounded: a Retry-After longer than the cap ends the
// command (exit 7) and is never stored for later commands; waits over 2 s are
// said (the notice sink: stderr unless --quiet) and traced; --timeout bounds
// every wait, pacing included (exit 7, nothing sent); a refused connection is
// tried once more, quickly, then reported with the host named. Against a real
// HTTP server on loopback; time is a fake clock, so waits are recorded, not slept.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/api/client.js';
import { ApiError, CliError, ExitCode, NetworkError } from '../../src/errors.js';
import { MAX_RETRY_AFTER_MS, REFUSED_RETRY_MS } from '../../src/http/core.js';
import { createFakeClock, startFaultServer, type FakeClock, type FaultServer } from '../helpers/fault-server.js';

const KEY = 'sk_test_waits_0123456789';

let server: FaultServer;
let clock: FakeClock;
let dir: string;
let notices: string[];
let trace: string[];

function client(extra: Partial<Parameters<typeof createApiClient>[0]> = {}): ApiClient {
  return createApiClient({
    baseUrl: server.baseUrl,
    apiKey: KEY,
    clock,
    env: {},
    sharedPacingDir: dir,
    backoff: { random: () => 0.5 },
    notice: (line) => notices.push(line),
    debug: (line) => trace.push(line),
    ...extra,
  });
}

beforeEach(async () => {
  server = await startFaultServer();
  clock = createFakeClock();
  dir = mkdtempSync(join(tmpdir(), 'kagent-waits-'));
  notices = [];
  trace = [];
});
afterEach(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a long Retry-After', () => {
  it('ends the command with exit 7, stores nothing, and the next command runs at once', async () => {
    server.fail({ type: 'rateLimited', retryAfter: String(MAX_RETRY_AFTER_MS / 1000 + 1) });
    const error = (await client()
      .call('getMe')
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.exitCode).toBe(ExitCode.UNAVAILABLE);
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.hint).toMatch(/asked to wait 61 s/);
    expect(clock.sleeps).toEqual([]);
    expect(server.requests).toHaveLength(1);
    // The shared state file holds no pause…
    const files = readdirSync(dir);
    expect(files).toEqual([expect.stringMatching(/^window-[0-9a-f]{24}\.log$/)]);
    await new Promise((r) => setTimeout(r, 20)); // (a pause would be written once the lock is free)
    // (one record per request that left, `S` and its moment; a pause would be a `P` record)
    expect(readFileSync(join(dir, files[0]!), 'utf8')).toMatch(/^S\d{14}\n$/);
    // …so a later command (a new client on the same state file) goes at once.
    const me = await client().call('getMe');
    expect(me.id).toBe('u_1');
    expect(server.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([]);
  });

  it('one within the cap is waited out, said on stderr, traced, and shared with the next command', async () => {
    server.fail({ type: 'rateLimited', retryAfter: '30' });
    await client().call('getMe');
    expect(clock.sleeps).toEqual([30_000]);
    expect(notices).toEqual(['waiting 30 s: rate limit']);
    expect(trace.some((line) => /got 429 RATE_LIMITED; retry 1\/5 in 30000 ms \(Retry-After\)/.test(line))).toBe(true);
    // A command that gives up at once (no retries left) still leaves the pause for the next one.
    server.fail({ type: 'rateLimited', retryAfter: '30' });
    await expect(client({ retries: 0 }).call('getMe')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    await new Promise((r) => setTimeout(r, 20)); // the pause is written once the lock is free
    clock.sleeps.length = 0;
    notices.length = 0;
    await client().call('getMe');
    expect(clock.sleeps).toEqual([30_000]);
    expect(notices).toEqual(['waiting 30 s: rate limit']);
  });
});

describe('notices', () => {
  it('a wait of 2 s or less is not said; a longer one is', async () => {
    server.fail({ type: 'rateLimited', retryAfter: '2' });
    await client().call('getMe');
    expect(clock.sleeps).toEqual([2000]);
    expect(notices).toEqual([]);
    server.fail({ type: 'status', status: 503, headers: { 'retry-after': '5' } });
    await client().call('getMe');
    expect(notices).toEqual(['waiting 5 s: service unavailable (503)']);
  });

  it('a wait for the rate budget is said and traced', async () => {
    const api = client({ ratePerMinute: 2 });
    await api.call('getMe');
    await api.call('getMe');
    await api.call('getMe');
    expect(notices).toEqual(['waiting 61 s: rate limit']);
    expect(trace.filter((line) => line.startsWith('waiting'))).toEqual([
      expect.stringMatching(/^waiting 61000 ms for the rate budget \(2\/min\) before GET /),
    ]);
    expect(server.requests).toHaveLength(3);
  });
});

describe('one notice for requests waiting together', () => {
  it('concurrent requests waiting for the same moment are said once', async () => {
    // Time stands still until all six have taken their place in the window (the fake clock would
    // otherwise move on as soon as the first waits, and a late request would find room): then it jumps.
    let now = clock.now();
    const sleepers: Array<() => void> = [];
    const still = {
      now: () => now,
      sleep: (ms: number) =>
        new Promise<void>((wake) => sleepers.push(() => ((now = Math.max(now, clock.now() + ms)), wake()))),
    };
    const api = client({ ratePerMinute: 3, clock: still });
    const calls = Promise.all(Array.from({ length: 6 }, () => api.call('getMe')));
    // Three go at once, three wait: nothing more happens until time moves.
    while (sleepers.length < 3 || server.requests.length < 3) await new Promise((tick) => setTimeout(tick, 5));
    await new Promise((tick) => setTimeout(tick, 50));
    expect([sleepers.length, server.requests.length]).toEqual([3, 3]);
    for (const wake of sleepers.splice(0)) wake();
    await calls;
    expect(server.requests).toHaveLength(6);
    expect(trace.filter((line) => line.startsWith('waiting'))).toHaveLength(3);
    expect(notices).toEqual(['waiting 61 s: rate limit']);
  });
});

describe('--timeout bounds every wait', () => {
  it('a wait for the rate budget longer than --timeout fails at once with exit 7, sending nothing and reserving nothing', async () => {
    const api = client({ ratePerMinute: 1, waitLimitMs: 10_000 });
    await api.call('getMe');
    const t = clock.now();
    const error = (await api.call('getMe').catch((e: unknown) => e)) as CliError;
    expect(error).toBeInstanceOf(CliError);
    expect(error.exitCode).toBe(ExitCode.UNAVAILABLE);
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.message).toMatch(/next request go in 61 s, later than --timeout \(10 s\)/);
    expect(clock.now()).toBe(t);
    expect(server.requests).toHaveLength(1);
    // Nothing reserved: without --timeout the next call waits for the first slot only.
    await client({ ratePerMinute: 1 }).call('getMe');
    expect(clock.now()).toBe(t + 61_000);
  });

  it('a Retry-After longer than --timeout fails at once (exit 7) instead of waiting', async () => {
    server.fail({ type: 'rateLimited', retryAfter: '20' });
    const error = (await client({ waitLimitMs: 5_000 })
      .call('getMe')
      .catch((e: unknown) => e)) as ApiError;
    expect(error.exitCode).toBe(ExitCode.UNAVAILABLE);
    expect(error.hint).toMatch(/asked to wait 20 s, longer than --timeout \(5 s\)/);
    expect(clock.sleeps).toEqual([]);
  });

  it('a backoff that would end past --timeout is not slept', async () => {
    server.fail(...Array.from({ length: 5 }, () => ({ type: 'status' as const, status: 503 })));
    const error = (await client({ waitLimitMs: 1_000 })
      .call('getMe')
      .catch((e: unknown) => e)) as ApiError;
    // random 0.5: 250, 500 fit in 1 s; the third (1000) would end at 1750 ms.
    expect(clock.sleeps).toEqual([250, 500]);
    expect(error.status).toBe(503);
    expect(error.exitCode).toBe(ExitCode.UNAVAILABLE);
    expect(server.requests).toHaveLength(3);
  });
});

describe('a refused connection', () => {
  it('is tried once more, quickly, then reported with the host named (exit 7)', async () => {
    const origin = server.origin;
    await server.close();
    const error = (await client({ baseUrl: origin, retries: 5 })
      .call('listSpaces')
      .catch((e: unknown) => e)) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.exitCode).toBe(ExitCode.UNAVAILABLE);
    expect(error.message).toBe(`GET /api/v1/spaces: connection refused by ${new URL(origin).host} after 2 attempts`);
    expect(error.hint).toMatch(/nothing is listening at/);
    const attempts = trace.filter((line) => line.startsWith('→ GET'));
    expect(attempts).toHaveLength(2);
    expect(clock.sleeps).toEqual([REFUSED_RETRY_MS]);
    server = await startFaultServer(); // for afterEach
  });
});
