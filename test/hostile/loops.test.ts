// Loops end. A service whose cursors go round (A → B → A), or that hands out new
// cursors on empty pages forever, makes `--all` stop with a clear error instead of
// paging until --timeout; a Retry-After that is no number
// of seconds and no HTTP-date (`-5`, `3, 4`, `abc`) is taken as absent — the
// usual backoff — never as "retry at once".
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import { parseRetryAfter } from '../../src/http/backoff.js';
import { listSpace } from '../../src/upload/sync-listing.js';
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

describe('endless distinct cursors on empty pages', () => {
  it('`doc list --all` stops with EMPTY_PAGES after ten empty pages in a row (exit 1), not at --timeout', async () => {
    // The first page holds one document; every page after it is empty and leads to a new cursor.
    server = await hostileServer((req) => {
      const cursor = new URL(req.url, 'http://x').searchParams.get('cursor');
      const n = cursor === null ? 0 : Number(cursor.slice(1));
      const items = n === 0 ? [{ id: 'd_0', title: 'Doc 0', revision: 1, updatedAt: '2026-11-27T00:00:00Z' }] : [];
      return { kind: 'answer', status: 200, body: { items, nextCursor: `c${n + 1}` } };
    });
    const started = Date.now();
    const r = await runCli(['doc', 'list', '--all', '--json', 'id', '--timeout', '20', '--base-url', server.baseUrl], {
      env: { KAGENT_API_KEY: KEY },
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual([{ id: 'd_0' }]);
    const { error } = JSON.parse(r.stderr) as { error: { code: string; message: string; hint: string } };
    expect(error.code).toBe('EMPTY_PAGES');
    expect(error.message).toBe(
      'the service gave 10 empty pages in a row, each with a cursor to another, after 11 pages: the list comes no nearer its end; stopping',
    );
    expect(error.hint).toMatch(/the list printed is incomplete: 1 item came before this error/);
    expect(server.requests).toHaveLength(11);
  });

  it('empty pages broken by a page with items are followed to the end', async () => {
    // Nine empty pages, one item, nine empty pages, one item, then the end: 20 pages read.
    server = await hostileServer((req) => {
      const n = Number(new URL(req.url, 'http://x').searchParams.get('cursor') ?? 0);
      const items =
        n % 10 === 9 ? [{ id: `d_${n}`, title: `Doc ${n}`, revision: 1, updatedAt: '2026-11-27T00:00:00Z' }] : [];
      return { kind: 'answer', status: 200, body: { items, nextCursor: n >= 19 ? null : String(n + 1) } };
    });
    const r = await runCli(['doc', 'list', '--all', '--json', 'id', '--base-url', server.baseUrl], {
      env: { KAGENT_API_KEY: KEY },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ id: 'd_9' }, { id: 'd_19' }]);
    expect(server.requests).toHaveLength(20);
  });
});

/** GET /docs and GET /library: page n (0, 1, 2) holds one item; `cursorAfter(n)` leads to the next, none after 2. */
function pagedBy(cursorAfter: (n: number) => unknown): Promise<HostileServer> {
  return hostileServer((req) => {
    const n = Number(new URL(req.url, 'http://x').searchParams.get('cursor') ?? 0);
    const item = { id: `d_${n}`, title: `Doc ${n}`, revision: 1, updatedAt: '2026-11-27T00:00:00Z', kind: 'file' };
    return { kind: 'answer', status: 200, body: { items: [item], nextCursor: n >= 2 ? null : cursorAfter(n) } };
  });
}

describe('a cursor that is not text', () => {
  it('a number is sent back as its text: every page is read', async () => {
    server = await pagedBy((n) => n + 1);
    const r = await runCli(['doc', 'list', '--all', '--json', 'id', '--base-url', server.baseUrl], {
      env: { KAGENT_API_KEY: KEY },
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ id: 'd_0' }, { id: 'd_1' }, { id: 'd_2' }]);
  });

  it.each([[{ a: 1 }], [true], [[2]]])(
    '%j cannot be sent back: CURSOR_INVALID (exit 1), the list printed says it is incomplete',
    async (cursor) => {
      server = await pagedBy(() => cursor);
      const r = await runCli(['doc', 'list', '--all', '--json', 'id', '--base-url', server.baseUrl], {
        env: { KAGENT_API_KEY: KEY },
      });
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout)).toEqual([{ id: 'd_0' }]);
      const { error } = JSON.parse(r.stderr) as { error: { code: string; message: string; hint: string } };
      expect(error.code).toBe('CURSOR_INVALID');
      expect(error.message).toBe(
        `the service's cursor for the page after page 1 is not text (${JSON.stringify(cursor)}): the pages after it cannot be asked for; stopping`,
      );
      // One hint, its parts joined so that they read as two (a line break would be flattened to a space).
      expect(error.hint).toBe('try again later; the list printed is incomplete: 1 item came before this error');
      expect(server.requests).toHaveLength(1);
    },
  );

  it('`lib sync` reading a space: a cursor loop or a cursor that is not text stops it before anything is planned', async () => {
    for (const cursorAfter of [() => 'A', () => ({ a: 1 })]) {
      server = await pagedBy(cursorAfter);
      const api = createApiClient({ baseUrl: server.baseUrl, apiKey: KEY, clock: createFakeClock(), pacer: unpaced });
      await expect(listSpace(api, 'sp_1', undefined)).rejects.toMatchObject({
        code: cursorAfter() === 'A' ? 'CURSOR_LOOP' : 'CURSOR_INVALID',
      });
      await server.close();
    }
    server = await pagedBy((n) => n + 1);
    const api = createApiClient({ baseUrl: server.baseUrl, apiKey: KEY, clock: createFakeClock(), pacer: unpaced });
    const listed = await listSpace(api, 'sp_1', undefined);
    expect(listed.items.map((item) => item.id)).toEqual(['d_0', 'd_1', 'd_2']);
    expect(listed.requests).toBe(3);
  });
});

describe('lib text --all, a next offset that cannot be followed', () => {
  it.each([
    ['behind the chunk', -5, "the service's next offset (-5) is not past this chunk's start (0)"],
    ['the same again', 0, "the service's next offset (0) is not past this chunk's start (0)"],
    ['not a whole number', 1e300, "the service's next offset is not a whole number (1e+300)"],
    ['text', 'x', 'the service\'s next offset is not a whole number ("x")'],
  ])('%s: TEXT_LOOP (exit 1) after one request, the text printed so far', async (_name, nextOffset, said) => {
    server = await hostileServer(() => ({
      kind: 'answer',
      status: 200,
      body: { id: 'li_1', text: 'Hello', offset: 0, total: 10, nextOffset },
    }));
    const r = await runCli(['lib', 'text', 'li_1', '--all', '--base-url', server.baseUrl], {
      env: { KAGENT_API_KEY: KEY },
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('Hello');
    expect(r.stderr).toContain(`error: ${said}`);
    expect(r.stderr).toContain('(TEXT_LOOP)');
    expect(server.requests).toHaveLength(1);
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
