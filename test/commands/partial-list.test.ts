// A listing that fails part-way (a 500 on page 2, Ctrl-C while a page is on its
// way) still leaves stdout that parses: with --json a closed array of what came
// before, piped whole TSV lines only; the exit code is the error's own.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run.js';
import { tinyServer, type TinyServer } from '../helpers/tiny-server.js';

const item = (n: number) => ({
  id: `li_${n}`,
  kind: 'link',
  title: `Item ${n}`,
  url: `https://example.com/${n}`,
  note: null,
  spaceId: 'sp_1',
  summary: 'A summary',
  createdAt: '2026-01-01T00:00:00.000Z',
});

let server: TinyServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Page 1 holds two items and a cursor; page 2 is what `second` says. */
async function twoPages(second: { status: number; body?: unknown; delayMs?: number }): Promise<Record<string, string>> {
  server = await tinyServer((req) =>
    req.url?.includes('cursor=') ? second : { status: 200, body: { items: [item(1), item(2)], nextCursor: 'page-2' } },
  );
  return { KAGENT_BASE_URL: server.baseUrl, KAGENT_API_KEY: 'kak_tinyserverkey0001' };
}

describe('a listing that stops part-way', () => {
  it('--json: a 500 on page 2 leaves a closed JSON array of the items before it; exit 1, the error said on stderr', async () => {
    const env = await twoPages({ status: 500, body: { error: { code: 'INTERNAL', message: 'boom' } } });
    const r = await runCli(['lib', 'list', '--all', '--json'], { env });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).map((i: { id: string }) => i.id)).toEqual(['li_1', 'li_2']);
    expect(r.stderr).toContain('INTERNAL');
    expect(r.stderr).toMatch(/incomplete: 2 items/);
  });

  it('--json on a terminal (pretty): the same, closed', async () => {
    const env = await twoPages({ status: 404, body: { error: { code: 'CURSOR_NOT_FOUND', message: 'gone' } } });
    const r = await runCli(['lib', 'list', '--all', '--json'], { env, tty: true });
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout)).toHaveLength(2);
  });

  it('--json: Ctrl-C while page 2 is on its way still closes the array; exit 130', async () => {
    const env = await twoPages({ status: 200, delayMs: Infinity });
    const abort = new AbortController();
    const running = runCli(['lib', 'list', '--all', '--json'], { env, signal: abort.signal });
    while (!server!.requests.some((req) => req.url.includes('cursor=')))
      await new Promise((resolve) => setTimeout(resolve, 10));
    abort.abort();
    const r = await running;
    expect(r.code).toBe(130);
    expect(JSON.parse(r.stdout)).toHaveLength(2);
    // Piped to a program with --json: the envelope, whose hint says the list is not whole (not "an error").
    expect(JSON.parse(r.stderr).error.hint).toBe('the list printed is incomplete: 2 items came before it was stopped');
  });

  it('--json: an error before the first item prints nothing of the list', async () => {
    server = await tinyServer(() => ({ status: 500, body: { error: { code: 'INTERNAL', message: 'boom' } } }));
    const r = await runCli(['lib', 'list', '--json'], {
      env: { KAGENT_BASE_URL: server.baseUrl, KAGENT_API_KEY: 'kak_tinyserverkey0001' },
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
  });

  it('piped TSV: whole lines only, then the error', async () => {
    const env = await twoPages({ status: 500, body: { error: { code: 'INTERNAL', message: 'boom' } } });
    const r = await runCli(['lib', 'list', '--all'], { env });
    expect(r.code).toBe(1);
    expect(r.stdout.endsWith('\n')).toBe(true);
    expect(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((line) => line.split('\t')[0]),
    ).toEqual(['li_1', 'li_2']);
    expect(r.stderr).toMatch(/incomplete: 2 items/);
  });
});
