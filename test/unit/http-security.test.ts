// Where the key goes and where it never shows: auth only to the configured
// origin, no plain http:// off the machine, a debug trace without the key.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/api/client.js';
import { CliError, ExitCode } from '../../src/errors.js';
import type { Pacer } from '../../src/http/pacer.js';
import { isLoopbackHost, normaliseBaseUrl } from '../../src/http/url.js';
import { createFakeClock, startFaultServer, type FaultServer } from '../helpers/fault-server.js';

const KEY = 'sk_live_s3cr3t/with+odd=chars';
const unpaced: Pacer = { take: async () => 0, pause: () => undefined };
let server: FaultServer;
let other: FaultServer;

function client(extra: Partial<Parameters<typeof createApiClient>[0]> = {}): ApiClient {
  return createApiClient({
    baseUrl: server.baseUrl,
    apiKey: KEY,
    clock: createFakeClock(),
    pacer: unpaced,
    backoff: { random: () => 0 },
    ...extra,
  });
}

beforeAll(async () => {
  server = await startFaultServer();
  other = await startFaultServer();
});
afterAll(async () => {
  await server.close();
  await other.close();
});
beforeEach(() => {
  server.requests.length = 0;
  other.requests.length = 0;
});

describe('Authorization', () => {
  it('is sent to the configured origin with the User-Agent', async () => {
    await client({ userAgent: 'kagent/1.2.3' }).call('getMe');
    const [req] = server.requests;
    expect(req!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req!.headers['user-agent']).toBe('kagent/1.2.3');
    expect(req!.headers.accept).toBe('application/json');
  });

  it('is never sent to another origin, even by `kagent api` with a full URL', async () => {
    const api = client();
    await api.raw('GET', `${other.baseUrl}/me`);
    await api.raw('GET', `${server.baseUrl}/me`);
    expect(other.requests).toHaveLength(1);
    expect(other.requests[0]!.headers.authorization).toBeUndefined();
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('without a key, API calls stop before any request with exit 3', async () => {
    const error = await createApiClient({ baseUrl: server.baseUrl, apiKey: undefined, pacer: unpaced })
      .call('getMe')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: ExitCode.AUTH, code: 'NOT_AUTHENTICATED' });
    expect((error as CliError).hint).toMatch(/kagent auth login/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('plain http://', () => {
  it('is refused to a host that is not loopback (exit 2, hint about --insecure)', () => {
    let error: unknown;
    try {
      createApiClient({ baseUrl: 'http://api.example.com', apiKey: KEY });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CliError);
    expect(error).toMatchObject({ exitCode: ExitCode.USAGE, code: 'INSECURE_URL' });
    expect((error as CliError).hint).toMatch(/--insecure/);
  });

  it('is allowed with insecure, and always to loopback; https always', () => {
    expect(createApiClient({ baseUrl: 'http://api.example.com', apiKey: KEY, insecure: true }).baseUrl).toBe(
      'http://api.example.com/api/v1',
    );
    expect(createApiClient({ baseUrl: 'http://localhost:4010', apiKey: KEY }).baseUrl).toBe(
      'http://localhost:4010/api/v1',
    );
    expect(createApiClient({ baseUrl: 'https://api.example.com', apiKey: KEY }).baseUrl).toBe(
      'https://api.example.com/api/v1',
    );
  });

  it('is refused for a raw request to a full http:// URL off the machine', async () => {
    await expect(client().raw('GET', 'http://api.example.com/api/v1/me')).rejects.toMatchObject({
      code: 'INSECURE_URL',
      exitCode: ExitCode.USAGE,
    });
  });

  it('knows loopback hosts', () => {
    for (const host of ['localhost', 'api.localhost', '127.0.0.1', '127.8.9.10', '[::1]'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['example.com', '128.0.0.1', '10.0.0.1', '[::2]', 'localhost.example.com'])
      expect(isLoopbackHost(host), host).toBe(false);
  });
});

describe('base URL and paths', () => {
  it.each([
    ['https://h.example', 'https://h.example/api/v1'],
    ['https://h.example/', 'https://h.example/api/v1'],
    ['https://h.example/api/v1', 'https://h.example/api/v1'],
    ['https://h.example/api/v1/', 'https://h.example/api/v1'],
    ['https://h.example/prefix', 'https://h.example/prefix/api/v1'],
  ])('%s → %s', (raw, normalised) => {
    expect(normaliseBaseUrl(raw).href).toBe(normalised);
  });

  it('rejects a base URL that is not one (exit 2)', () => {
    expect(() => createApiClient({ baseUrl: 'not a url', apiKey: KEY })).toThrow(
      expect.objectContaining({ exitCode: ExitCode.USAGE }),
    );
  });

  it('works with a base URL given without /api/v1', async () => {
    await createApiClient({ baseUrl: server.origin, apiKey: KEY, pacer: unpaced }).call('getMe');
    expect(server.requests[0]!.path).toBe('/api/v1/me');
  });

  it('fills and encodes path parameters', async () => {
    await client().call('deleteDoc', { params: { id: 'a b/c' } });
    expect(server.requests[0]!.path).toBe('/api/v1/docs/a%20b%2Fc');
  });

  it('raw paths: with or without /api/v1 or the slash, with a query', async () => {
    const api = client();
    for (const path of ['/me', 'me', '/api/v1/me']) await api.raw('GET', path);
    await api.raw('GET', '/docs?cursor=c0', { query: { limit: 2, skipped: undefined } });
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/v1/me',
      '/api/v1/me',
      '/api/v1/me',
      '/api/v1/docs?cursor=c0&limit=2',
    ]);
  });

  it('raw returns JSON parsed and other content as text, and sends JSON bodies', async () => {
    const api = client();
    const json = await api.raw('GET', '/me');
    expect(json.body).toMatchObject({ id: 'u_1' });
    server.fail({ type: 'html', status: 200 });
    const html = await api.raw('GET', '/page');
    expect(html.body).toMatch(/^<html>/);
    await api.raw('POST', '/things', { body: { a: 1 } });
    expect(server.requests.at(-1)!.body).toBe('{"a":1}');
    expect(server.requests.at(-1)!.headers['content-type']).toBe('application/json');
  });
});

describe('--debug trace', () => {
  it('has one line per request, response and retry, and never the key', async () => {
    const lines: string[] = [];
    // The server echoes the key back in its error message; the trace and the error must not show it.
    server.fail(
      { type: 'status', status: 503 },
      {
        type: 'status',
        status: 401,
        path: '/api/v1/me',
        body: { error: { code: 'UNAUTHORIZED', message: `key ${KEY} is revoked` } },
      },
    );
    const api = client({ debug: (line) => lines.push(line) });
    await api.call('createDoc', { body: {}, idempotencyKey: 'trace-key-1' });
    await api.call('createDoc', { body: {}, idempotencyKey: 'trace-key-1' });
    const error = (await api.call('getMe').catch((e: unknown) => e)) as CliError;
    await api.raw('GET', `/me?token=${encodeURIComponent(KEY)}`);

    const trace = lines.join('\n');
    expect(trace).not.toContain(KEY);
    expect(trace).not.toContain(encodeURIComponent(KEY));
    expect(error.message).toBe('key [redacted] is revoked');
    expect(trace).toContain('[redacted]');

    expect(lines[0]).toMatch(/→ POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/docs attempt=1 idempotency-key=trace-key-1/);
    expect(lines[1]).toMatch(/← 503 POST .*\/docs \d+ ms attempt=1/);
    expect(lines[2]).toMatch(/↻ .*503.*retry 1\/5 in \d+ ms/);
    expect(lines[3]).toMatch(/→ POST .* attempt=2 idempotency-key=trace-key-1/);
    expect(lines[4]).toMatch(/← 201 POST .* attempt=2/);
    expect(lines[6]).toMatch(/← 201 .* idempotent-replayed=true/);
    expect(lines.filter((l) => l.includes('← 401'))).toHaveLength(1);
  });

  it('stays silent without a sink', async () => {
    await client({ debug: undefined }).call('getMe');
    expect(server.requests).toHaveLength(1);
  });
});
