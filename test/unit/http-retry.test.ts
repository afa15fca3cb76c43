// Retries, idempotency and failure handling of the HTTP core, against a real
// HTTP server on loopback that misbehaves on cue. Time is virtual: backoff
// sleeps are recorded, not waited.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/api/client.js';
import { ApiError, CliError, ExitCode, NetworkError } from '../../src/errors.js';
import type { Pacer } from '../../src/http/pacer.js';
import { createFakeClock, startFaultServer, type FakeClock, type FaultServer } from '../helpers/fault-server.js';

const KEY = 'sk_test_0123456789abcdef';
const unpaced: Pacer = { take: async () => 0, pause: () => undefined };

let server: FaultServer;
let clock: FakeClock;
let api: ApiClient;

function client(extra: Partial<Parameters<typeof createApiClient>[0]> = {}): ApiClient {
  return createApiClient({
    baseUrl: server.baseUrl,
    apiKey: KEY,
    clock,
    pacer: unpaced,
    backoff: { random: () => 0.5 },
    ...extra,
  });
}

beforeEach(async () => {
  server = await startFaultServer();
  clock = createFakeClock();
  api = client();
});
afterEach(async () => {
  await server.close();
});

describe('retries of reads', () => {
  it.each([
    ['a connection reset', { type: 'reset' as const }],
    ['502', { type: 'status' as const, status: 502 }],
    ['503', { type: 'status' as const, status: 503, body: { error: { code: 'UNAVAILABLE', message: 'down' } } }],
    ['504', { type: 'html' as const, status: 504 }],
    ['a cut-off JSON body', { type: 'truncated' as const }],
    ['a connection closed mid-body', { type: 'truncated' as const, mode: 'cut' as const }],
  ])('a GET that meets %s is tried again and succeeds', async (_name, fault) => {
    server.fail(fault);
    const me = await api.call('getMe');
    expect(me.email).toBe('ada@example.com');
    expect(server.requests).toHaveLength(2);
    expect(clock.sleeps).toHaveLength(1);
  });

  it('backs off exponentially with full jitter, capped', async () => {
    server.fail(...Array.from({ length: 5 }, () => ({ type: 'status' as const, status: 503 })));
    await api.call('getMe');
    // random() = 0.5 picks the middle of [0, min(20 s, 500 ms · 2^(n-1))]
    expect(clock.sleeps).toEqual([250, 500, 1000, 2000, 4000]);
    const capped = client({ backoff: { random: () => 1, baseMs: 500, capMs: 3000 } });
    server.fail(...Array.from({ length: 5 }, () => ({ type: 'status' as const, status: 502 })));
    clock.sleeps.length = 0;
    await capped.call('getMe');
    expect(clock.sleeps).toEqual([500, 1000, 2000, 3000, 3000]);
  });

  it('gives up after the retry budget with exit code 7 and a hint', async () => {
    server.fail(...Array.from({ length: 4 }, () => ({ type: 'status' as const, status: 503 })));
    const error = await client({ retries: 3 })
      .call('getMe')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(503);
    expect((error as ApiError).exitCode).toBe(ExitCode.UNAVAILABLE);
    expect((error as ApiError).hint).toMatch(/still 503 after 4 attempts/);
    expect(server.requests).toHaveLength(4);
  });

  it('a GET that keeps meeting resets ends as a NetworkError (exit 7)', async () => {
    server.fail(...Array.from({ length: 3 }, () => ({ type: 'reset' as const })));
    const error = await client({ retries: 2 })
      .call('getMe')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).exitCode).toBe(ExitCode.UNAVAILABLE);
    expect((error as NetworkError).message).toMatch(/after 3 attempts/);
  });

  it('a connection refused is retried once, then reported with a hint about the base URL', async () => {
    const origin = server.baseUrl;
    await server.close();
    const refused = client({ baseUrl: origin, retries: 2 });
    const error = await refused.call('createSpace', { body: { name: 'x' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toMatch(/connection refused by 127\.0\.0\.1:\d+ after 2 attempts/);
    expect((error as NetworkError).hint).toMatch(/base URL/);
    server = await startFaultServer(); // for afterEach
  });

  it('a slow answer past the request timeout is retried for a GET', async () => {
    // undici checks timeouts on a ~0.5 s tick, so the answer has to be well past it.
    server.fail({ type: 'slow', delayMs: 2500 });
    const me = await client({ requestTimeoutMs: 200 }).call('getMe');
    expect(me.id).toBe('u_1');
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry other client errors or 500', async () => {
    server.fail({ type: 'status', status: 500, body: { error: { code: 'INTERNAL', message: 'boom' } } });
    await expect(api.call('getMe')).rejects.toMatchObject({ status: 500, code: 'INTERNAL', exitCode: ExitCode.ERROR });
    server.fail({ type: 'status', status: 404, body: { error: { code: 'DOC_NOT_FOUND', message: 'no such doc' } } });
    await expect(api.call('getDoc', { params: { id: 'd_9' } })).rejects.toMatchObject({
      status: 404,
      exitCode: ExitCode.NOT_FOUND,
    });
    expect(server.requests).toHaveLength(2);
  });
});

describe('Retry-After', () => {
  it('waits the seconds a 429 asks for, then succeeds', async () => {
    server.fail({ type: 'rateLimited', retryAfter: '3' });
    await api.call('getMe');
    expect(clock.sleeps).toEqual([3000]);
  });

  it('accepts an HTTP date', async () => {
    const at = new Date(clock.now() + 7000).toUTCString();
    server.fail({ type: 'status', status: 503, headers: { 'retry-after': at } });
    await api.call('getMe');
    expect(clock.sleeps).toHaveLength(1);
    // HTTP dates have whole seconds: within a second of 7 s.
    expect(clock.sleeps[0]).toBeGreaterThan(6000);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(7000);
  });

  it('tells the pacer to hold every request back until then', async () => {
    const pauses: number[] = [];
    const watching: Pacer = { take: async () => 0, pause: (until) => void pauses.push(until) };
    server.fail({ type: 'rateLimited', retryAfter: '5' });
    await client({ pacer: watching }).call('getMe');
    expect(pauses).toEqual([expect.any(Number)]);
    expect(pauses[0]! - clock.now()).toBeGreaterThanOrEqual(0);
  });

  it('a 429 that persists fails with exit 7 and a rate hint', async () => {
    server.fail(...Array.from({ length: 3 }, () => ({ type: 'rateLimited' as const, retryAfter: '1' })));
    const error = (await client({ retries: 2 })
      .call('getMe')
      .catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.exitCode).toBe(ExitCode.UNAVAILABLE);
    expect(error.hint).toMatch(/requests a minute/);
    expect(clock.sleeps).toEqual([1000, 1000]);
  });

  it('does not silently wait out a very long Retry-After', async () => {
    server.fail({ type: 'status', status: 503, headers: { 'retry-after': '3600' } });
    const error = (await api.call('getMe').catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(503);
    expect(error.hint).toMatch(/wait 3600 s/);
    expect(clock.sleeps).toEqual([]);
  });
});

describe('idempotency', () => {
  it('create-style calls carry a fresh Idempotency-Key per call', async () => {
    await api.call('createDoc', { body: { title: 'a' } });
    await api.call('createDoc', { body: { title: 'b' } });
    const keys = server.requests.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[0]).not.toBe(keys[1]);
    // Non-create writes do not.
    await api.call('deleteDoc', { params: { id: 'd_1' } });
    expect(server.requests[2]!.headers['idempotency-key']).toBeUndefined();
  });

  it('a create whose answer is lost is retried with the same key and runs once', async () => {
    server.fail(
      { type: 'reset', afterWork: true },
      { type: 'status', status: 502, afterWork: true },
      { type: 'truncated', afterWork: true },
    );
    const result = await api.callFull('createDoc', { body: { title: 'once' } });
    expect(server.requests).toHaveLength(4);
    const keys = new Set(server.requests.map((r) => r.headers['idempotency-key']));
    expect(keys.size).toBe(1);
    const key = String(server.requests[0]!.headers['idempotency-key']);
    expect(server.creations(key)).toBe(1);
    expect(server.totalCreations()).toBe(1);
    expect(result.replayed).toBe(true);
    expect(result.body).toEqual({ id: 'r_1', revision: 1 });
  });

  it('uses the key it is given (--idempotency-key, content-derived upload keys)', async () => {
    await api.call('createSpace', { body: { name: 'x' }, idempotencyKey: 'my-key-1' });
    const again = await api.callFull('createSpace', { body: { name: 'x' }, idempotencyKey: 'my-key-1' });
    expect(server.requests.map((r) => r.headers['idempotency-key'])).toEqual(['my-key-1', 'my-key-1']);
    expect(server.creations('my-key-1')).toBe(1);
    expect(again.replayed).toBe(true);
  });

  it('refuses a key longer than the contract allows', async () => {
    await expect(
      api.call('createSpace', { body: { name: 'x' }, idempotencyKey: 'k'.repeat(201) }),
    ).rejects.toMatchObject({ exitCode: ExitCode.USAGE });
    expect(server.requests).toHaveLength(0);
  });

  it('409 IDEMPOTENCY_IN_PROGRESS waits, then asks again with the same key', async () => {
    server.fail({ type: 'inProgress' }, { type: 'inProgress', retryAfter: '2' });
    const result = await api.callFull('sendMessage', { body: { text: 'hi' } });
    expect(result.status).toBe(201);
    const keys = server.requests.map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(server.creations(keys[0] as string)).toBe(1);
    expect(clock.sleeps).toHaveLength(2);
    expect(clock.sleeps[0]).toBeGreaterThan(0);
    expect(clock.sleeps[1]).toBeGreaterThanOrEqual(2000);
  });

  it('an in-progress that never ends fails with exit 5 and says how to resume', async () => {
    server.fail(...Array.from({ length: 3 }, () => ({ type: 'inProgress' as const })));
    const error = (await client({ retries: 2 })
      .call('createDoc', { body: {}, idempotencyKey: 'k-in-progress' })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe('IDEMPOTENCY_IN_PROGRESS');
    expect(error.exitCode).toBe(ExitCode.CONFLICT);
    expect(error.hint).toContain('--idempotency-key k-in-progress');
  });
});

describe('writes without an idempotency key', () => {
  it('are not repeated once they may have reached the service (reset)', async () => {
    server.fail({ type: 'reset', afterWork: true });
    const error = await api.call('undoAction', { params: { id: 'a_1' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).hint).toMatch(/may have reached the service/);
    expect(server.requests).toHaveLength(1);
    expect(server.totalCreations()).toBe(1);
  });

  it('are not repeated after a 502/503', async () => {
    server.fail({ type: 'status', status: 503 });
    await expect(api.call('quoteMedia', { body: { url: 'https://v.example/1' } })).rejects.toMatchObject({
      status: 503,
    });
    expect(server.requests).toHaveLength(1);
  });

  it('a cut-off answer to a keyless write is a clear error, not a retry', async () => {
    server.fail({ type: 'truncated', afterWork: true });
    const error = (await api.raw('POST', '/widgets', { body: { a: 1 } }).catch((e: unknown) => e)) as CliError;
    expect(error.code).toBe('INVALID_RESPONSE');
    expect(error.hint).toMatch(/probably took effect/);
    expect(server.requests).toHaveLength(1);
  });

  it('are repeated after a 429, which turns a request away unprocessed', async () => {
    server.fail({ type: 'rateLimited', retryAfter: '1' });
    await api.call('undoAction', { params: { id: 'a_1' } });
    expect(server.requests).toHaveLength(2);
  });

  it('are repeated when the connection was refused (they never left)', async () => {
    // Refused first; the service comes up on the same port during the backoff.
    const port = Number(new URL(server.origin).port);
    await server.close();
    let up = false;
    const refusedOnce = client({
      clock: {
        now: () => 0,
        sleep: async () => {
          if (!up) server = await startFaultServer({ port });
          up = true;
        },
      },
    });
    const result = await refusedOnce.call('undoAction', { params: { id: 'a_1' } });
    expect(result).toEqual({ id: 'r_1', revision: 1 });
    expect(server.requests).toHaveLength(1);
  });
});

describe('Ctrl-C', () => {
  it('during a backoff wait ends the call with exit 130 and sends nothing more', async () => {
    const controller = new AbortController();
    server.fail({ type: 'status', status: 503 }, { type: 'status', status: 503 });
    const interruptible = client({
      signal: controller.signal,
      clock: {
        now: () => 0,
        sleep: (_ms, signal) =>
          new Promise((_resolve, reject) => {
            signal?.addEventListener('abort', () => reject(signal.reason));
            controller.abort();
          }),
      },
    });
    const error = await interruptible.call('getMe').catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: ExitCode.INTERRUPTED, code: 'INTERRUPTED' });
    expect(server.requests).toHaveLength(1);
  });

  it('an abort reason that is a CliError is passed on as it is', async () => {
    const controller = new AbortController();
    const reason = new CliError('gave up', { code: 'CUSTOM', exitCode: ExitCode.TIMEOUT });
    controller.abort(reason);
    await expect(api.call('getMe', { signal: controller.signal })).rejects.toBe(reason);
    expect(server.requests).toHaveLength(0);
  });
});

describe('streamed bodies', () => {
  it('opens the stream afresh for every attempt', async () => {
    const { Readable } = await import('node:stream');
    let opened = 0;
    server.fail({ type: 'status', status: 503 });
    const result = await api.call('uploadFile', {
      stream: () => {
        opened++;
        return Readable.from([Buffer.from('hello '), Buffer.from('world')]);
      },
      contentLength: 11,
      headers: { 'x-file-name': 'hello.txt' },
      idempotencyKey: 'sha256-of-hello',
    });
    expect(result).toEqual({ id: 'r_1', revision: 1 });
    expect(opened).toBe(2);
    expect(server.requests.map((r) => r.body)).toEqual(['hello world', 'hello world']);
    expect(server.requests[1]!.headers['content-type']).toBe('application/octet-stream');
    expect(server.creations('sha256-of-hello')).toBe(1);
  });
});
