// What the HTTP layer says and refuses at the command line: local mistakes are
// usage errors (exit 2) naming the flag or variable, found before any request;
// a wait over 2 s is said on stderr (not with --quiet) and traced with --debug;
// a long Retry-After ends the command with exit 7 and the next one runs at once.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeProfile } from '../../src/config/store.js';
import { runCli, tempDir } from '../helpers/run.js';
import { tinyServer, type Scripted, type TinyServer } from '../helpers/tiny-server.js';

const ME = { id: 'u_1', email: 'ada@example.com', name: 'Ada', plan: 'pro' };
let answers: Scripted[];
let server: TinyServer;
let env: Record<string, string>;

beforeAll(async () => {
  server = await tinyServer(() => answers.shift() ?? { status: 200, body: ME });
});
afterAll(() => server.close());
beforeEach(() => {
  answers = [];
  server.requests.length = 0;
  // One cache dir for the whole test: the shared pacing state lives there, as for commands run one after another.
  env = {
    KAGENT_BASE_URL: server.baseUrl,
    KAGENT_API_KEY: 'sk_local_0123456789',
    KAGENT_CACHE_DIR: tempDir('kagent-cache-'),
  };
});

describe('local mistakes are exit 2, not network errors', () => {
  it('a -H header with a CR/LF in its value', async () => {
    const r = await runCli(['api', '-H', 'X-Note: one\r\nX-Injected: two', '/me'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: -H: the value of header X-Note contains a line break \(CR or LF\) \(USAGE\)$/m);
    expect(server.requests).toEqual([]);
  });

  it('an API key with a newline inside, naming where it came from', async () => {
    const r = await runCli(['me'], { env: { ...env, KAGENT_API_KEY: 'sk_local\n0123456789' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: the API key from KAGENT_API_KEY contains a line break \(CR or LF\) \(USAGE\)$/m);
    expect(server.requests).toEqual([]);
  });

  it.each(['0', '-1', '3000000', 'soon'])('--timeout %s', async (value) => {
    const r = await runCli(['me', '--timeout', value], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--timeout ".*": must be a number greater than 0 and at most 2147483 \(USAGE\)/);
    expect(server.requests).toEqual([]);
  });
});

describe('waits', () => {
  it('a wait over 2 s is said on stderr and traced with --debug; --quiet silences the notice only', async () => {
    answers = [
      {
        status: 429,
        headers: { 'retry-after': '2.5' },
        body: { error: { code: 'RATE_LIMITED', message: 'slow down' } },
      },
    ];
    const r = await runCli(['me', '--json', '--debug'], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^waiting 3 s: rate limit$/m);
    expect(r.stderr).toMatch(/^debug: ↻ GET .*\/me got 429 RATE_LIMITED; retry 1\/5 in 2500 ms \(Retry-After\)$/m);
    expect(server.requests).toHaveLength(2);

    answers = [
      {
        status: 429,
        headers: { 'retry-after': '2.5' },
        body: { error: { code: 'RATE_LIMITED', message: 'slow down' } },
      },
    ];
    const quiet = await runCli(['me', '--json', '--quiet'], { env });
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(server.requests).toHaveLength(4);
  }, 20_000);

  it('a long Retry-After ends the command with exit 7, and the next command runs at once', async () => {
    answers = [
      {
        status: 429,
        headers: { 'retry-after': '3600' },
        body: { error: { code: 'RATE_LIMITED', message: 'slow down' } },
      },
    ];
    const r = await runCli(['me', '--json'], { env });
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/RATE_LIMITED/);
    expect(r.stderr).toMatch(/asked to wait 3600 s/);
    // Nothing was stored: --debug would trace any wait ("waiting N ms for the rate budget").
    const next = await runCli(['me', '--json', '--debug'], { env });
    expect(next.code).toBe(0);
    expect(next.stderr).toMatch(/debug: → GET/);
    expect(next.stderr).not.toMatch(/waiting/);
    expect(server.requests).toHaveLength(2);
  });

  it('--timeout bounds the wait for the rate window: exit 7 at once, nothing sent', async () => {
    const configDir = tempDir('kagent-config-');
    await writeProfile(
      configDir,
      'default',
      { baseUrl: server.baseUrl, apiKey: 'sk_local_0123456789', rateLimit: 1 },
      { makeCurrent: true },
    );
    const paced = { KAGENT_CACHE_DIR: env.KAGENT_CACHE_DIR! };
    expect((await runCli(['me', '--json'], { configDir, env: paced })).code).toBe(0);
    const r = await runCli(['me', '--timeout', '5'], { configDir, env: paced });
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(
      /the rate limit \(1 request a minute\) lets the next request go in 6\d s, later than --timeout \(5 s\) allows \(RATE_LIMITED\)/,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('a refused connection to the configured host: one quick retry, then exit 7 with the host named', async () => {
    const r = await runCli(['space', 'list', '--debug'], {
      env: { ...env, KAGENT_BASE_URL: 'http://127.0.0.1:1/api/v1' },
    });
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(
      /^error: GET \/api\/v1\/spaces: connection refused by 127\.0\.0\.1:1 after 2 attempts \(NETWORK_ERROR\)$/m,
    );
    expect(r.stderr.match(/^debug: → GET /gm)).toHaveLength(2);
  });
});
