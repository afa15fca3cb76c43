// kagent me against the sandbox, and every exit code a command reaches through
// the service's answers (scripted on a tiny loopback server where the sandbox
// would not give them on this command).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import me from '../../commands/me/index.js';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';
import { hasForeignEscapes, runCli } from '../helpers/run.js';
import { tinyServer, type Scripted, type TinyServer } from '../helpers/tiny-server.js';
import { pipedKeysOf } from '../helpers/piped-help.js';

let s: LoggedIn;
beforeAll(async () => {
  s = await loggedInSandbox();
});
afterAll(async () => {
  await s?.close();
});

describe('kagent me', () => {
  it('terminal: name, plan, credits by pool, limits and usage', async () => {
    const r = await s.kagent(['me'], { tty: true });
    expect(r.code).toBe(0);
    const plain = r.stdout.replace(/\x1b\[[0-9;]*m/g, '');
    expect(plain).toMatch(/^Sandbox User <you@sandbox\.test>\n/);
    expect(plain).toMatch(/Plan\s+Pro/);
    expect(plain).toMatch(/Credits\s+1,000 left/);
    expect(plain).toMatch(/ {2}monthly\s+1,000 of 1,000/);
    expect(plain).toMatch(/Follows\s+0 of 20/);
    expect(plain).toMatch(/Storage\s+0 B of 10 GiB/);
  });

  it('piped: key<TAB>value lines with raw values', async () => {
    const r = await s.kagent(['me']);
    expect(r.stdout).toContain('email\tyou@sandbox.test\n');
    expect(r.stdout).toContain('credits\t1000\n');
    expect(r.stdout).toContain('credits.monthly\t1000\n');
    expect(r.stdout).toContain('storage-limit-bytes\t10737418240\n');
    expect(r.stdout).not.toContain('\x1b');
  });

  it('the help names every key it prints piped (one field table gives both)', async () => {
    const r = await s.kagent(['me']);
    const keys = r.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t')[0]!);
    expect(keys).toContain('credits.monthly');
    const helpKeys = pipedKeysOf(me.description);
    for (const key of keys) expect(helpKeys).toContain(key.replace(/^credits\..*/, 'credits.<pool>'));
  });

  it("--json is the API's Me; --jq picks from it", async () => {
    const me = JSON.parse((await s.kagent(['me', '--json'])).stdout);
    expect(me).toEqual((await s.t.call('GET', '/me')).body);
    expect((await s.kagent(['me', '--jq', '.credits.total'])).stdout).toBe('1000\n');
    expect((await s.kagent(['me', '--jq', '.email'])).stdout).toBe('you@sandbox.test\n');
  });

  it('an account name full of escape sequences is shown clean', async () => {
    const created = await s.t.call('POST', '/_sandbox/accounts', {
      key: null,
      body: { name: '\x1b]0;owned\x07Mal\x1b[2Jlory\x9b2J', email: 'm@x.test' },
    });
    for (const tty of [true, false]) {
      const r = await runCli(['me'], {
        tty,
        env: { KAGENT_BASE_URL: s.t.baseUrl, KAGENT_API_KEY: created.body.apiKey },
      });
      expect(r.code).toBe(0);
      expect(hasForeignEscapes(r.stdout)).toBe(false);
      expect(r.stdout).toContain('Mallory');
    }
  });
});

describe("exit codes from the service's answers", () => {
  let server: TinyServer;
  let next: Scripted;
  beforeAll(async () => {
    server = await tinyServer(() => next);
  });
  afterAll(async () => {
    await server?.close();
  });
  const me = (extra: string[] = [], options: Parameters<typeof runCli>[1] = {}) =>
    runCli(['me', ...extra], {
      ...options,
      env: { KAGENT_BASE_URL: server.baseUrl, KAGENT_API_KEY: 'kak_tinyserverkey0001', ...options.env },
    });
  const envelope = (code: string, message: string, extra: Record<string, unknown> = {}) => ({
    error: { code, message, ...extra },
  });

  it.each([
    [401, 'UNAUTHENTICATED', 3],
    [402, 'CREDITS_EXHAUSTED', 6],
    [403, 'FOLLOW_LIMIT', 6],
    [404, 'NOT_FOUND', 4],
    [409, 'CONVERSATION_BUSY', 5],
    [413, 'STORAGE_FULL', 6],
    [422, 'IDEMPOTENCY_MISMATCH', 2],
    [500, 'INTERNAL', 1],
  ])('%i %s → exit %i, one error line with the code', async (status, code, exit) => {
    next = { status, body: envelope(code, `the service says ${code.toLowerCase()}`) };
    const r = await me();
    expect(r.code).toBe(exit);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe(`error: the service says ${code.toLowerCase()} (${code})`);
  });

  it('400 INVALID_INPUT lists the issues, exit 2; as JSON too', async () => {
    next = {
      status: 400,
      body: envelope('INVALID_INPUT', 'bad input', { issues: [{ path: 'name', message: 'is required' }] }),
    };
    const r = await me();
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: bad input (INVALID_INPUT)\n  name: is required\n');
    const json = await me(['--json']);
    expect(JSON.parse(json.stderr)).toEqual({
      error: { code: 'INVALID_INPUT', message: 'bad input', issues: [{ path: 'name', message: 'is required' }] },
    });
  });

  it('an RFC 9457 problem document is read the same way', async () => {
    next = {
      status: 404,
      headers: { 'content-type': 'application/problem+json' },
      body: { type: 'about:blank', title: 'Not found', status: 404, detail: 'no such thing', code: 'THING_NOT_FOUND' },
    };
    const r = await me();
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('(THING_NOT_FOUND)');
  });

  it('503 again and again (Retry-After: 0) → exit 7 after the retries', async () => {
    next = { status: 503, headers: { 'retry-after': '0' }, body: envelope('UNAVAILABLE', 'down for maintenance') };
    const before = server.requests.length;
    const r = await me();
    expect(r.code).toBe(7);
    expect(server.requests.length - before).toBeGreaterThan(1);
    expect(r.stderr).toContain('down for maintenance');
  });

  it('escape sequences in an error message are removed', async () => {
    next = { status: 409, body: envelope('BUSY', 'busy\x1b]0;owned\x07\x1b[2J now') };
    const r = await me(['--debug']);
    expect(r.code).toBe(5);
    expect(hasForeignEscapes(r.stderr)).toBe(false);
    expect(r.stderr).toContain('error: busy now (BUSY)');
  });

  it('unknown fields and missing ones never crash the output', async () => {
    next = {
      status: 200,
      body: {
        id: 'acc_1',
        email: 'x@y.test',
        brandNew: { nested: [1, 2] },
        plan: { id: 'p', name: 'Odd', extra: true },
      },
    };
    for (const tty of [true, false]) {
      const r = await me([], { tty });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('x@y.test');
    }
    const json = JSON.parse((await me(['--json'])).stdout);
    expect(json.brandNew).toEqual({ nested: [1, 2] });
  });

  it('Ctrl-C (the abort signal) stops a request that hangs: exit 130', async () => {
    next = { status: 200, delayMs: Infinity };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    const r = await me([], { signal: controller.signal });
    expect(r.code).toBe(130);
    expect(Date.now() - started).toBeLessThan(5000);
    // Ctrl-C is not an error: nothing is said when there is nothing to pick up again.
    expect(r.stderr).toBe('');
  });

  it('plain http:// to another host is refused without --insecure (exit 2)', async () => {
    const r = await runCli(['me'], {
      env: { KAGENT_BASE_URL: 'http://example.invalid/api/v1', KAGENT_API_KEY: 'kak_x' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--insecure');
  });
});
