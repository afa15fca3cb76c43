// Without --timeout, a connection that goes silent still ends: the HTTP core
// gives an attempt up after its idle bound (30 s by default; shortened here) and
// tries a silent connection once more, not five times; a proxy that accepts the
// connection and never answers CONNECT is bounded the same way (undici's own
// bound for it is five minutes). Both end with a network error (exit 7).
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import { ExitCode, NetworkError } from '../../src/errors.js';
import { IDLE_TIMEOUT_MS } from '../../src/http/core.js';
import type { Pacer } from '../../src/http/pacer.js';
import { closeTransport } from '../../src/http/transport.js';
import { createFakeClock } from '../helpers/fault-server.js';
import { hostileServer, silentProxy, type HostileServer, type SilentProxy } from '../helpers/hostile-server.js';

const KEY = 'sk_test_0123456789abcdef';
const unpaced: Pacer = { take: async () => 0, pause: () => undefined };
let peers: Array<HostileServer | SilentProxy> = [];
afterEach(async () => {
  await closeTransport();
  await Promise.all(peers.map((peer) => peer.close()));
  peers = [];
});

describe('a silent connection without --timeout', () => {
  it('is bounded by default by half a minute without a byte', () => {
    expect(IDLE_TIMEOUT_MS).toBe(30_000);
  });

  it('is given up after the idle bound and one more silent attempt, not six (exit 7)', async () => {
    const s = await hostileServer(() => ({ kind: 'silent' }));
    peers.push(s);
    // Backoff waits are virtual (the fake clock); the silences are real, 300 ms each.
    const api = createApiClient({
      baseUrl: s.baseUrl,
      apiKey: KEY,
      clock: createFakeClock(),
      pacer: unpaced,
      requestTimeoutMs: 300,
    });
    const error = await api.call('getMe').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).exitCode).toBe(ExitCode.UNAVAILABLE);
    expect((error as NetworkError).message).toMatch(
      /GET \/api\/v1\/me: timed out waiting for an answer after 2 attempts/,
    );
    expect(s.requests).toHaveLength(2);
  });

  it('that trickles nothing after its headers (a stalled body) is given up the same way', async () => {
    const s = await hostileServer(() => ({ kind: 'trickle', everyMs: 60_000 }));
    peers.push(s);
    const api = createApiClient({
      baseUrl: s.baseUrl,
      apiKey: KEY,
      clock: createFakeClock(),
      pacer: unpaced,
      requestTimeoutMs: 300,
    });
    const error = await api.call('getMe').catch((e: unknown) => e);
    expect((error as NetworkError).message).toMatch(/timed out reading the answer after 2 attempts/);
    expect(s.requests).toHaveLength(2);
  });

  it('through an HTTPS proxy that never answers CONNECT ends after the idle bound, not undici’s five minutes', async () => {
    const p = await silentProxy();
    peers.push(p);
    const started = Date.now();
    const api = createApiClient({
      baseUrl: 'https://api.example.invalid',
      apiKey: KEY,
      env: { HTTPS_PROXY: p.url },
      clock: createFakeClock(),
      pacer: unpaced,
      requestTimeoutMs: 1_000,
      retries: 0,
    });
    const error = await api.call('getMe').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toMatch(/GET \/api\/v1\/me: timed out waiting for an answer/);
    expect(p.connections()).toBe(1);
    // undici checks its timers on a coarse tick: the bound is 1 s, give it 5.
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
