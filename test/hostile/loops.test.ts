// Loops end. A service whose cursors go round (A → B → A) makes `--all` stop
// with a clear error instead of paging forever; a Retry-After that is no number
// of seconds and no HTTP-date (`-5`, `3, 4`, `abc`) is taken as absent — the
// usual backoff — never as "retry at once".
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import { parseRetryAfter } from '../../src/http/backoff.js';
import type { Pacer } from '../../src/http/pacer.js';
import { createFakeClock } from '../helpers/fault-server.js';
import { hostileServer, type HostileServer } from '../helpers/hostile-server.js';
import { runCli } from '../helpers/run.js';

const KEY = 'sk_test_0123456789abcdef';
const unpaced: Pacer = { take: async () => 0, pause: () => undefined };
let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** GET /docs: the first page leads to A, A to B, and B back to A. */
function cyclingDocs(): Promise<HostileServer> {
  const next: Record<string, string> = { '': 'A', A: 'B', B: 'A' };
  return hostileServer((req) => {
    const cursor = new URL(req.url, 'http://x').searchParams.get('cursor') ?? '';
    const doc = {
      id: `d_${cursor || '0'}`,
      title: `Doc ${cursor || '0'}`,
      revision: 1,
      updatedAt: '2026-11-27T00:00:00Z',
    };
    return { kind: 'answer', status: 200, body: { items: [doc], nextCursor: next[cursor] } };
  });
}

describe('a cursor cycle', () => {
  it('A → B → A: `doc list --all` stops with CURSOR_LOOP after three pages', async () => {
    server = await cyclingDocs();
    const r = await runCli(['doc', 'list', '--all', '--base-url', server.baseUrl], { env: { KAGENT_API_KEY: KEY } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /the service returned a page cursor it had already given \(A\) after 3 pages: the pages go round in a loop; stopping \(CURSOR_LOOP\)/,
    );
    expect(server.requests.map((req) => new URL(req.url, 'http://x').searchParams.get('cursor'))).toEqual([
      null,
      'A',
      'B',
    ]);
  });
});

describe('a Retry-After that is not one', () => {
  it.each(['-5', '3, 4', 'abc', '1e3', 'Tomorrow'])('%j is absent: no wait of its own', (value) => {
    expect(parseRetryAfter(value, Date.now())).toBeUndefined();
  });

  it('the valid forms still count: seconds, and the HTTP-dates', () => {
    const now = Date.parse('Sun, 06 Nov 1994 08:49:00 GMT');
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', now)).toBe(37_000);
    expect(parseRetryAfter('Sunday, 06-Nov-94 08:49:37 GMT', now)).toBe(37_000);
    expect(parseRetryAfter('Sun Nov  6 08:49:37 1994', now)).toBe(37_000);
  });

  it.each(['-5', '3, 4', 'abc'])(
    'a 503 with Retry-After %j is retried after the usual backoff, not at once',
    async (value) => {
      let calls = 0;
      server = await hostileServer(() =>
        ++calls === 1
          ? {
              kind: 'answer',
              status: 503,
              headers: { 'retry-after': value },
              body: { error: { code: 'UNAVAILABLE', message: 'down' } },
            }
          : { kind: 'answer', status: 200, body: { id: 'u_1', email: 'ada@example.com' } },
      );
      const clock = createFakeClock();
      const api = createApiClient({
        baseUrl: server.baseUrl,
        apiKey: KEY,
        clock,
        pacer: unpaced,
        backoff: { random: () => 0.5 },
      });
      await api.call('getMe');
      // Backoff with full jitter: half of the first step's 500 ms.
      expect(clock.sleeps).toEqual([250]);
    },
  );
});
