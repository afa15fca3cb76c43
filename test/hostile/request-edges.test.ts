// What kagent is about to send is checked before anything goes: a path that the
// URL parser would resolve out from under the base URL (a dot segment in any
// spelling: backslashes, %2e, a tab inside, past a `#`), and header values a
// header cannot carry (a character past U+00FF in -H, --idempotency-key or the
// API key) are usage errors, exit 2, with nothing sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run.js';
import { tinyServer, type TinyServer } from '../helpers/tiny-server.js';

let server: TinyServer;
beforeAll(async () => {
  server = await tinyServer(() => ({ status: 200, body: { ok: true } }));
});
afterAll(() => server.close());

function kagent(args: string[], env: Record<string, string> = {}) {
  return runCli(args, { env: { KAGENT_BASE_URL: server.baseUrl, KAGENT_API_KEY: 'kak_edges0123456789', ...env } });
}

describe('kagent api: a dot segment in any spelling is refused, nothing sent', () => {
  const paths = [
    '\\..\\..\\..\\_sandbox\\account',
    '/..\\_sandbox/account',
    'docs\\..\\..\\_sandbox\\account',
    '/.\t./_sandbox/account',
    '/%2E%2e/_sandbox/account',
    '/.%2E/x',
    '/me#/../../_sandbox/account',
    '/docs/.\\x',
  ];
  for (const path of paths) {
    it(JSON.stringify(path), async () => {
      const before = server.requests.length;
      const r = await kagent(['api', path]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/\. or \.\. segment/);
      expect(server.requests.length).toBe(before);
    });
  }

  it('a backslash that is no dot segment still reaches the path under the base URL', async () => {
    const before = server.requests.length;
    const r = await kagent(['api', '\\me']);
    expect(r.code).toBe(0);
    expect(server.requests.slice(before).map((q) => q.url)).toEqual(['/api/v1/me']);
  });
});

describe('header values outside Latin-1 are a usage error, nothing sent', () => {
  const cases: Array<[string, string[], Record<string, string>, RegExp]> = [
    ['--idempotency-key', ['api', '-X', 'POST', '/spaces', '--idempotency-key', '日本'], {}, /--idempotency-key/],
    ['-H', ['api', '/me', '-H', 'X-A: 日本'], {}, /-H.*X-A.*U\+65E5/],
    ['KAGENT_API_KEY', ['me'], { KAGENT_API_KEY: 'kak_日本0123456789' }, /API key from KAGENT_API_KEY.*U\+65E5/],
    ['KAGENT_API_KEY, api', ['api', '/me'], { KAGENT_API_KEY: 'kak_日本0123456789' }, /API key from KAGENT_API_KEY/],
  ];
  for (const [name, args, env, message] of cases) {
    it(name, async () => {
      const before = server.requests.length;
      const r = await kagent(args, env);
      expect(r.stderr).toMatch(message);
      expect(r.code).toBe(2);
      expect(server.requests.length).toBe(before);
    });
  }

  it('a Latin-1 value (é) still goes', async () => {
    const before = server.requests.length;
    const r = await kagent(['api', '/me', '-H', 'X-A: café']);
    expect(r.code).toBe(0);
    expect(server.requests.length).toBe(before + 1);
  });
});
