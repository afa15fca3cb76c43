// No secret is printed, by any command, on any path: a base URL's
// `user:password@`, a proxy's, and the API key never reach stdout or stderr
// (except the key from `kagent auth token`, which exists to print it). The
// redaction is one, at the output boundary (src/io/redact.ts), so these run
// commands that mask nothing themselves: doctor's config summary, details and
// the OpenAPI URLs it tried, --debug traces, a service error that quotes the
// key and the URL back, auth status.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { addSecrets, redactStream, redactText } from '../../src/io/redact.js';
import { runCli } from '../helpers/run.js';
import { tinyServer, type TinyServer } from '../helpers/tiny-server.js';

const PASSWORD = 'secret';
const KEY = 'kak_hostile0123456789wxyz';

let server: TinyServer;
let baseUrl: string;
beforeAll(async () => {
  server = await tinyServer((req) => {
    if (req.url?.endsWith('/me')) {
      // A service that echoes back what it was given: the key and the URL with its password.
      return {
        status: 401,
        body: {
          error: { code: 'UNAUTHORIZED', message: `key ${KEY} refused for http://user:${PASSWORD}@127.0.0.1/api/v1` },
        },
      };
    }
    return { status: 404, body: { error: { code: 'NOT_FOUND', message: `no ${req.url} here` } } };
  });
  baseUrl = server.baseUrl.replace('http://', `http://user:${PASSWORD}@`);
});
afterAll(() => server.close());

const env = () => ({ KAGENT_BASE_URL: baseUrl, KAGENT_API_KEY: KEY, HTTPS_PROXY: undefined });

function expectNoSecret(r: { stdout: string; stderr: string }, what: string): void {
  const all = `${r.stdout}\n${r.stderr}`;
  expect(all, what).not.toContain(PASSWORD);
  expect(all, what).not.toContain(KEY);
}

describe('a base URL with user:password@ and a known key', () => {
  it.each([
    [['doctor']],
    [['doctor', '--json']],
    [['doctor', '--debug']],
    [['auth', 'status']],
    [['auth', 'status', '--json']],
    [['me']],
    [['me', '--json']],
    [['me', '--debug']],
    [['api', '/me', '--debug']],
    [['config', 'get', 'base-url']],
  ])('%j prints neither the password nor the key (piped and on a terminal)', async (argv) => {
    for (const tty of [false, true]) {
      const r = await runCli(argv, { env: env(), tty });
      expectNoSecret(r, `${argv.join(' ')}${tty ? ' (terminal)' : ''}`);
      // What was printed is there, masked: the masking did not simply drop the output.
      expect(`${r.stdout}${r.stderr}`).toMatch(/\*\*\*@127\.0\.0\.1|kak_…wxyz|\*\*\*/);
    }
  });

  it('doctor names the OpenAPI URLs it tried, masked, in text and in --json', async () => {
    const text = await runCli(['doctor'], { env: env() });
    expect(text.stdout).toMatch(/openapi\thttp:\/\/\*\*\*@127\.0\.0\.1:\d+\/api\/v1\/openapi\.json: HTTP 404/);
    const json = JSON.parse((await runCli(['doctor', '--json'], { env: env() })).stdout);
    const config = json.checks.find((c: { name: string }) => c.name === 'config');
    expect(config.data.baseUrl.value).toMatch(/^http:\/\/\*\*\*@127\.0\.0\.1:\d+\/api\/v1$/);
    const openapi = json.checks.find((c: { name: string }) => c.name === 'openapi');
    expect(openapi.data.tried[0]).toMatch(/^http:\/\/\*\*\*@127\.0\.0\.1:\d+\/api\/v1\/openapi\.json: HTTP 404$/);
  });

  it('a service error that quotes the key and the URL is printed masked, in text and in the --json envelope', async () => {
    const r = await runCli(['me'], { env: env() });
    expect(r.code).toBe(3);
    // (The HTTP layer already says [redacted] for the key in a service's words; the URL is the boundary's.)
    expect(r.stderr).toMatch(/key (\[redacted\]|kak_…wxyz) refused for http:\/\/\*\*\*@127\.0\.0\.1\/api\/v1/);
    const json = await runCli(['me', '--json'], { env: env() });
    expect(JSON.parse(json.stderr).error.message).toMatch(
      /^key (\[redacted\]|kak_…wxyz) refused for http:\/\/\*\*\*@127\.0\.0\.1\/api\/v1$/,
    );
  });

  it('a proxy password is masked too', async () => {
    const r = await runCli(['doctor'], { env: { ...env(), HTTP_PROXY: `http://px:${PASSWORD}-proxy@127.0.0.1:9` } });
    expect(`${r.stdout}${r.stderr}`).not.toContain(`${PASSWORD}-proxy`);
    expect(r.stdout).toContain('proxy http://***@127.0.0.1:9');
  });

  it('auth token still prints the key: the one command that shows it', async () => {
    const r = await runCli(['auth', 'token'], { env: env() });
    expect(r.stdout).toBe(`${KEY}\n`);
    const json = await runCli(['auth', 'token', '--json'], { env: env() });
    expect(JSON.parse(json.stdout)).toEqual({ token: KEY });
  });
});

describe('redactText', () => {
  it('masks userinfo in text and JSON, and never spans a JSON string or a sentence', () => {
    expect(redactText('GET https://alice:s3cret@api.example.com/me; see http://tok@h:8080/x')).toBe(
      'GET https://***@api.example.com/me; see http://***@h:8080/x',
    );
    expect(redactText('{"url":"http://host/a","email":"ada@example.com"}')).toBe(
      '{"url":"http://host/a","email":"ada@example.com"}',
    );
    expect(redactText('{"url":"http://u:p@host/a","email":"ada@example.com"}')).toBe(
      '{"url":"http://***@host/a","email":"ada@example.com"}',
    );
    expect(redactText('mail me at a@b.test, https://example.com/a@b')).toBe(
      'mail me at a@b.test, https://example.com/a@b',
    );
    expect(
      redactText('the key kak_abcdefgh1234 again kak_abcdefgh1234', [
        { value: 'kak_abcdefgh1234', shown: 'kak_…1234' },
      ]),
    ).toBe('the key kak_…1234 again kak_…1234');
  });
});

describe('redactStream', () => {
  it('masks strings and bytes written to the stream (the pager writes bytes), leaves other bytes as they are', async () => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
    });
    redactStream(sink);
    addSecrets([sink], [{ value: KEY, shown: 'kak_…wxyz' }]);
    const pager = new Writable({ write: (chunk: Buffer, _e, callback) => void sink.write(chunk, callback) });
    redactStream(pager, sink);
    const binary = Buffer.from([0x00, 0xff, 0xfe, 0x40, 0x3a, 0x2f, 0x2f, 0x80]);
    sink.write(`a ${KEY} b\n`);
    pager.write(Buffer.from(`\u00e9t\u00e9 http://u:${PASSWORD}@h/x ${KEY}\n`));
    sink.write(binary);
    await new Promise<void>((resolve) => sink.write('', () => resolve()));
    const all = Buffer.concat(chunks);
    expect(all.toString()).toContain('a kak_…wxyz b\n\u00e9t\u00e9 http://***@h/x kak_…wxyz\n');
    expect(all.includes(Buffer.from(PASSWORD))).toBe(false);
    expect(all.subarray(all.length - binary.length).equals(binary)).toBe(true);
  });
});
