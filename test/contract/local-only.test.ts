// Only this machine's programs reach the sandbox: a web page cannot use it
// through the browser. On every route the Host header must be a loopback name
// or address (no DNS rebinding), a foreign Origin is refused with 403, and the
// admin routes refuse a body that is not JSON (no CORS-simple request changes
// anything). Requests are sent with node:http so every header is exactly ours.
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopbackHost } from '../../src/sandbox/guard.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

interface Answer {
  status: number;
  body: any;
}

function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: t.sandbox.port,
        method,
        path,
        headers: { ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}), ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const local = () => `127.0.0.1:${t.sandbox.port}`;
const keyCount = () => Object.keys(t.sandbox.world.state.keys).length;

describe('cross-origin requests from a web page', () => {
  it('a text/plain POST from another origin cannot mint a key (403 FORBIDDEN_ORIGIN)', async () => {
    const before = keyCount();
    const res = await send(
      'POST',
      `/_sandbox/accounts/${t.sandbox.accountId}/keys`,
      { host: local(), origin: 'https://evil.example', 'content-type': 'text/plain;charset=UTF-8' },
      '{}',
    );
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN_ORIGIN');
    expect(res.body.error.message).toContain('https://evil.example');
    expect(keyCount()).toBe(before);
  });

  it('a foreign Origin is refused on API routes too, even with a valid key', async () => {
    for (const origin of ['https://evil.example', 'null', 'http://127.0.0.1.evil.example:8787']) {
      const res = await send('GET', '/api/v1/me', { host: local(), origin, authorization: `Bearer ${t.apiKey}` });
      expect(res.status, origin).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN_ORIGIN');
    }
    const post = await send(
      'POST',
      '/api/v1/spaces',
      {
        host: local(),
        origin: 'https://evil.example',
        authorization: `Bearer ${t.apiKey}`,
        'content-type': 'text/plain',
      },
      '{"name":"Evil"}',
    );
    expect(post.status).toBe(403);
    expect(t.sandbox.world.state.accounts[t.sandbox.accountId]!.spaces.map((s) => s.name)).not.toContain('Evil');
  });

  it('a page served from this machine (a loopback Origin) is let in', async () => {
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:5173', 'http://[::1]:8080']) {
      const res = await send('GET', '/api/v1/me', { host: local(), origin, authorization: `Bearer ${t.apiKey}` });
      expect(res.status, origin).toBe(200);
    }
  });
});

describe('admin bodies must be JSON', () => {
  it('refuses text/plain and form bodies with 415 and changes nothing', async () => {
    const before = keyCount();
    const clock = (await t.call('GET', '/_sandbox/clock', { key: null })).body.now;
    const plain = await send(
      'POST',
      `/_sandbox/accounts/${t.sandbox.accountId}/keys`,
      { host: local(), 'content-type': 'text/plain' },
      '{}',
    );
    expect(plain.status).toBe(415);
    expect(plain.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const form = await send(
      'POST',
      '/_sandbox/clock/advance',
      { host: local(), 'content-type': 'application/x-www-form-urlencoded' },
      '{"hours":24}',
    );
    expect(form.status).toBe(415);
    const multipart = await send(
      'POST',
      '/_sandbox/accounts',
      { host: local(), 'content-type': 'multipart/form-data; boundary=x' },
      '--x--',
    );
    expect(multipart.status).toBe(415);
    expect(keyCount()).toBe(before);
    // Real time moves the clock a little; the refused advance would have moved it a day.
    expect((await t.call('GET', '/_sandbox/clock', { key: null })).body.now - clock).toBeLessThan(60_000);
  });

  it('takes application/json (with a charset) and bodiless admin calls', async () => {
    const before = keyCount();
    const res = await send(
      'POST',
      `/_sandbox/accounts/${t.sandbox.accountId}/keys`,
      { host: local(), 'content-type': 'application/json; charset=utf-8' },
      '{}',
    );
    expect(res.status).toBe(201);
    expect(res.body.apiKey).toMatch(/^kak_/);
    const bare = await send('POST', `/_sandbox/accounts/${t.sandbox.accountId}/keys`, { host: local() });
    expect(bare.status).toBe(201);
    expect(keyCount()).toBe(before + 2);
  });
});

describe('the Host header (DNS rebinding)', () => {
  it('a foreign Host is refused on every kind of route (403 FORBIDDEN_HOST)', async () => {
    const host = `evil.example:${t.sandbox.port}`;
    const routes: Array<[string, string, Record<string, string>]> = [
      ['GET', '/api/v1/me', { authorization: `Bearer ${t.apiKey}` }],
      ['GET', '/api/v1/openapi.json', {}],
      ['GET', '/_sandbox/', {}],
      ['GET', '/_sandbox/stats', {}],
      ['GET', '/nowhere', {}],
    ];
    for (const [method, path, headers] of routes) {
      const res = await send(method, path, { host, ...headers });
      expect(res.status, path).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN_HOST');
      expect(res.body.error.message).toContain('evil.example');
    }
    const before = keyCount();
    const mint = await send(
      'POST',
      `/_sandbox/accounts/${t.sandbox.accountId}/keys`,
      { host, 'content-type': 'application/json' },
      '{}',
    );
    expect(mint.status).toBe(403);
    expect(keyCount()).toBe(before);
  });

  it('loopback names and addresses are served', async () => {
    for (const host of [
      local(),
      `localhost:${t.sandbox.port}`,
      'localhost',
      `[::1]:${t.sandbox.port}`,
      `app.localhost:${t.sandbox.port}`,
      '127.1.2.3',
    ]) {
      const res = await send('GET', '/api/v1/me', { host, authorization: `Bearer ${t.apiKey}` });
      expect(res.status, host).toBe(200);
    }
  });

  it('a request without a Host header is refused', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(t.sandbox.port, '127.0.0.1', () => socket.end('GET /_sandbox/clock HTTP/1.0\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.[01] 403/);
    expect(answer).toContain('FORBIDDEN_HOST');
  });

  it('tells loopback from look-alikes', () => {
    for (const name of [
      'localhost',
      'LOCALHOST',
      'a.localhost',
      '127.0.0.1',
      '127.255.0.9',
      '[::1]',
      '::1',
      '[::ffff:7f00:1]',
    ])
      expect(isLoopbackHost(name), name).toBe(true);
    for (const name of [
      'evil.example',
      'localhost.evil.example',
      '127.0.0.1.nip.io',
      '10.0.0.1',
      '0.0.0.0',
      '[::ffff:a00:1]',
      '[::]',
      '',
    ])
      expect(isLoopbackHost(name), name).toBe(false);
  });
});
