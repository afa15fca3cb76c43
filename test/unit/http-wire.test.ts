// The one wire (src/http/transport.ts, Node's own HTTP client), against real
// servers on loopback: what it returns, how its failures read (the codes
// failures.ts classifies), keep-alive, streamed bodies, and the two ways
// through a proxy (src/http/tunnel.ts): absolute URI and CONNECT.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { classifyNetworkError } from '../../src/http/failures.js';
import { closeTransport, send } from '../../src/http/transport.js';

let server: Server | undefined;
let connections = 0;

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<URL> {
  connections = 0;
  server = createServer(handler);
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/me`);
}

afterEach(async () => {
  await closeTransport();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

const bodyOf = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => resolve(text));
  });

describe('the wire', () => {
  it('sends method, headers and body; returns status, headers (repeated ones as a list) and text', async () => {
    let seen: { method?: string; auth?: string; type?: string; body?: string } = {};
    const url = await serve(async (req, res) => {
      seen = {
        method: req.method,
        auth: req.headers.authorization,
        type: req.headers['content-type'],
        body: await bodyOf(req),
      };
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res
        .writeHead(201, { 'content-type': 'application/json', 'idempotent-replayed': 'true' })
        .end('{"id":"sp_1","name":"Ünïcode ✓"}');
    });
    const response = await send({
      url,
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: '{"name":"x"}',
      timeoutMs: 5_000,
    });
    expect(response.status).toBe(201);
    expect(response.headers['idempotent-replayed']).toBe('true');
    expect(response.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(JSON.parse(await response.text())).toEqual({ id: 'sp_1', name: 'Ünïcode ✓' });
    expect(seen).toEqual({ method: 'POST', auth: 'Bearer k', type: 'application/json', body: '{"name":"x"}' });
  });

  it('keeps one connection alive across requests, read or discarded', async () => {
    const url = await serve((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
    );
    for (let i = 0; i < 3; i++) {
      const response = await send({ url, method: 'GET', headers: {}, timeoutMs: 5_000 });
      if (i === 1) await response.discard();
      else expect(await response.text()).toBe('{"ok":true}');
    }
    expect(connections).toBe(1);
  });

  it('no answer within the time allowed: UND_ERR_HEADERS_TIMEOUT, transient', async () => {
    const url = await serve(() => undefined);
    const error = await send({ url, method: 'GET', headers: {}, timeoutMs: 200 }).catch((e: unknown) => e);
    const failure = classifyNetworkError(error);
    expect(failure).toMatchObject({
      code: 'UND_ERR_HEADERS_TIMEOUT',
      transient: true,
      mayHaveReachedServer: true,
      interrupted: false,
    });
    expect(failure.description).toBe('timed out waiting for an answer');
  });

  it('an answer that stalls between chunks: UND_ERR_BODY_TIMEOUT from text()', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"a":');
    });
    const response = await send({ url, method: 'GET', headers: {}, timeoutMs: 200 });
    const error = await response.text().catch((e: unknown) => e);
    expect(classifyNetworkError(error)).toMatchObject({ code: 'UND_ERR_BODY_TIMEOUT', transient: true });
  });

  it('a connection closed in the middle of the answer: a reset, transient', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"a":', () => (res.socket as Socket).destroy());
    });
    const response = await send({ url, method: 'GET', headers: {}, timeoutMs: 5_000 });
    const error = await response.text().catch((e: unknown) => e);
    expect(classifyNetworkError(error)).toMatchObject({
      code: 'ECONNRESET',
      transient: true,
      mayHaveReachedServer: true,
      description: 'connection reset',
    });
  });

  it('nothing listening: ECONNREFUSED, never sent', async () => {
    const url = await serve(() => undefined);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    const error = await send({ url, method: 'POST', headers: {}, body: '{}', timeoutMs: 5_000 }).catch(
      (e: unknown) => e,
    );
    expect(classifyNetworkError(error)).toMatchObject({
      code: 'ECONNREFUSED',
      mayHaveReachedServer: false,
      transient: true,
      description: 'connection refused',
    });
  });

  it('aborted while waiting, or while reading: interrupted', async () => {
    const url = await serve((req, res) => {
      if (req.url?.endsWith('/body')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"a":');
      }
    });
    const waiting = new AbortController();
    const pending = send({ url, method: 'GET', headers: {}, signal: waiting.signal, timeoutMs: 5_000 });
    setTimeout(() => waiting.abort(), 50);
    expect(classifyNetworkError(await pending.catch((e: unknown) => e)).interrupted).toBe(true);

    const reading = new AbortController();
    const response = await send({
      url: new URL('body', `${url.href}/`),
      method: 'GET',
      headers: {},
      signal: reading.signal,
      timeoutMs: 5_000,
    });
    const text = response.text();
    reading.abort();
    expect(classifyNetworkError(await text.catch((e: unknown) => e)).interrupted).toBe(true);
  });

  it('a streamed body is sent as it is read, its length announced', async () => {
    let received = '';
    const url = await serve(async (req, res) => {
      framing = [req.headers['content-length'], req.headers['transfer-encoding']];
      received = await bodyOf(req);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    let framing: (string | undefined)[] = [];
    const response = await send({
      url,
      method: 'POST',
      headers: { 'content-length': '6' },
      body: Readable.from([Buffer.from('abc'), Buffer.from('def')]),
      timeoutMs: 5_000,
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"ok":true}');
    expect(received).toBe('abcdef');
    expect(framing).toEqual(['6', undefined]);
  });

  it('a streamed body whose source fails ends the request with the source’s own error', async () => {
    const url = await serve((req) => req.resume());
    const broken = new Error('the file changed while being sent');
    const body = new Readable({
      read() {
        this.push(Buffer.alloc(1024));
        setTimeout(() => this.destroy(broken), 20);
      },
    });
    const error = await send({
      url,
      method: 'POST',
      headers: { 'content-length': '4096' },
      body,
      timeoutMs: 5_000,
    }).catch((e: unknown) => e);
    expect(error).toBe(broken);
  });

  it('a streamed body taken slowly but steadily is not cut by the time allowed for an answer', async () => {
    let received = 0;
    const size = 24 * 1024 * 1024;
    const url = await serve((req, res) => {
      // Slowly up to the last 8 MiB (more than the sockets' buffers hold), then at once, so
      // that no wait between two steps of the transfer comes near the time allowed.
      req.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > size - 8 * 1024 * 1024) return;
        req.pause();
        setTimeout(() => req.resume(), 6);
      });
      req.on('end', () => res.writeHead(200).end('{}'));
    });
    const started = Date.now();
    const response = await send({
      url,
      method: 'POST',
      headers: { 'content-length': String(size) },
      body: Readable.from(Array.from({ length: size / (256 * 1024) }, () => Buffer.alloc(256 * 1024))),
      timeoutMs: 1_000,
    });
    expect(response.status).toBe(200);
    expect(received).toBe(size);
    // Longer than the time allowed: the wait restarted as the service took the body.
    expect(Date.now() - started).toBeGreaterThan(1_000);
  });

  it('a service that stops reading a streamed body: timed out, not a wait for ever', async () => {
    const url = await serve((req) => req.pause());
    let sent = 0;
    const body = new Readable({
      read() {
        sent += 256 * 1024;
        this.push(sent > 1024 ** 3 ? null : Buffer.alloc(256 * 1024));
      },
    });
    const started = Date.now();
    const error = await send({
      url,
      method: 'POST',
      headers: { 'content-length': String(1024 ** 3) },
      body,
      timeoutMs: 300,
    }).catch((e: unknown) => e);
    body.destroy();
    expect(classifyNetworkError(error)).toMatchObject({ code: 'UND_ERR_HEADERS_TIMEOUT', transient: true });
    expect(sent).toBeLessThan(1024 ** 3);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('through a proxy', () => {
  it('an http:// service is asked of the proxy with an absolute URI and the proxy’s credentials', async () => {
    let seen: { line?: string; host?: string; auth?: string } = {};
    const proxy = await serve((req, res) => {
      seen = { line: `${req.method} ${req.url}`, host: req.headers.host, auth: req.headers['proxy-authorization'] };
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"via":"proxy"}');
    });
    const response = await send({
      url: new URL('http://api.example.test:8080/api/v1/me?x=1'),
      method: 'GET',
      headers: {},
      timeoutMs: 5_000,
      proxy: `http://ada:s%40cret@${proxy.host}`,
    });
    expect(await response.text()).toBe('{"via":"proxy"}');
    expect(seen).toEqual({
      line: 'GET http://api.example.test:8080/api/v1/me?x=1',
      host: 'api.example.test:8080',
      auth: `Basic ${Buffer.from('ada:s@cret').toString('base64')}`,
    });
  });

  it('a forward proxy’s 407 is its refusal, not the service’s answer: PROXY_AUTH, never sent on', async () => {
    const proxy = await serve((_req, res) => res.writeHead(407, { 'proxy-authenticate': 'Basic' }).end());
    const error = await send({
      url: new URL('http://api.example.test/api/v1/me'),
      method: 'GET',
      headers: {},
      timeoutMs: 5_000,
      proxy: `http://${proxy.host}`,
    }).catch((e: unknown) => e);
    expect(classifyNetworkError(error)).toEqual({
      code: 'PROXY_AUTH',
      mayHaveReachedServer: false,
      transient: false,
      interrupted: false,
      description: 'the proxy asks for credentials (407)',
    });
  });

  it.each([
    [407, 'PROXY_AUTH', false],
    [403, 'PROXY_ERROR', false],
    [502, 'PROXY_ERROR', true],
  ])('CONNECT answered %i: %s (transient: %s)', async (status, code, transient) => {
    const proxy = await serve(() => undefined);
    let asked = '';
    server!.on('connect', (req, socket: Socket) => {
      asked = `${req.method} ${req.url} ${req.headers.host}`;
      socket.end(`HTTP/1.1 ${status} No\r\ncontent-length: 0\r\n\r\n`);
    });
    const error = await send({
      url: new URL('https://api.example.test/api/v1/me'),
      method: 'GET',
      headers: {},
      timeoutMs: 5_000,
      proxy: `http://${proxy.host}`,
    }).catch((e: unknown) => e);
    expect(classifyNetworkError(error)).toMatchObject({ code, transient, mayHaveReachedServer: false });
    expect(asked).toBe('CONNECT api.example.test:443 api.example.test:443');
  });

  it('an https:// service is reached inside the CONNECT tunnel: TLS with the service runs through it', async () => {
    const tls = fileURLToPath(new URL('../helpers/tls', import.meta.url));
    const service = createHttpsServer(
      { key: readFileSync(join(tls, 'localhost.key')), cert: readFileSync(join(tls, 'localhost.crt')) },
      (_req, res) => res.writeHead(200).end('{}'),
    );
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const port = (service.address() as AddressInfo).port;
    const proxy = await serve(() => undefined);
    const tunnels: string[] = [];
    server!.on('connect', (req, client: Socket) => {
      tunnels.push(req.url ?? '');
      const upstream = connect(port, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.pipe(client);
        client.pipe(upstream);
      });
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    try {
      // The test's certificate is not trusted in this process (the CLI's test trusts it through
      // NODE_EXTRA_CA_CERTS): the service's own certificate, checked through the tunnel, is refused.
      const error = await send({
        url: new URL(`https://localhost:${port}/api/v1/me`),
        method: 'GET',
        headers: {},
        timeoutMs: 5_000,
        proxy: `http://${proxy.host}`,
      }).catch((e: unknown) => e);
      expect(classifyNetworkError(error).description).toMatch(/^TLS failure: self[- ]signed certificate/);
      expect(tunnels).toEqual([`localhost:${port}`]);
    } finally {
      service.closeAllConnections();
      await new Promise<void>((resolve) => service.close(() => resolve()));
    }
  });
});
