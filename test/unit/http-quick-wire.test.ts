// Node's own HTTP client as the wire for requests whose body is in memory
// (src/http/node-wire.ts), against real servers on loopback: what it returns,
// how its failures read (the same codes as undici's, so retries and messages
// are unchanged), keep-alive, and which requests stay on undici.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { closeQuickWire, sendQuick, takesQuickWire } from '../../src/http/node-wire.js';
import { classifyNetworkError, closeTransport, send } from '../../src/http/transport.js';

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
  closeQuickWire();
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

describe('which requests take Node’s own client', () => {
  const url = new URL('http://127.0.0.1:1/x');
  it('a body in memory, or none, going straight to the service', () => {
    expect(takesQuickWire({ url })).toBe(true);
    expect(takesQuickWire({ url, body: '{"a":1}' })).toBe(true);
    expect(takesQuickWire({ url: new URL('https://api.example.com/x'), body: Buffer.from('x') })).toBe(true);
  });
  it('not a streamed body (uploads stay on undici)', () => {
    expect(takesQuickWire({ url, body: Readable.from(['x']) })).toBe(false);
  });
  it('not a request the HTTP core sends through a proxy (undici’s proxy agent carries those)', () => {
    expect(takesQuickWire({ url, proxy: 'http://proxy:3128' })).toBe(false);
    expect(takesQuickWire({ url, body: '{"a":1}', proxy: 'http://user:pw@proxy:3128' })).toBe(false);
  });
});

describe('Node’s own client as the wire', () => {
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
    const response = await sendQuick({
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
    const error = await sendQuick({ url, method: 'GET', headers: {}, timeoutMs: 200 }).catch((e: unknown) => e);
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
    const response = await sendQuick({ url, method: 'GET', headers: {}, timeoutMs: 200 });
    const error = await response.text().catch((e: unknown) => e);
    expect(classifyNetworkError(error)).toMatchObject({ code: 'UND_ERR_BODY_TIMEOUT', transient: true });
  });

  it('a connection closed in the middle of the answer: a reset, transient', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"a":', () => (res.socket as Socket).destroy());
    });
    const response = await sendQuick({ url, method: 'GET', headers: {}, timeoutMs: 5_000 });
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
    const error = await sendQuick({ url, method: 'POST', headers: {}, body: '{}', timeoutMs: 5_000 }).catch(
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
    const pending = sendQuick({ url, method: 'GET', headers: {}, signal: waiting.signal, timeoutMs: 5_000 });
    setTimeout(() => waiting.abort(), 50);
    expect(classifyNetworkError(await pending.catch((e: unknown) => e)).interrupted).toBe(true);

    const reading = new AbortController();
    const response = await sendQuick({
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

  it('a streamed body still goes (by undici) through send()', async () => {
    let received = '';
    const url = await serve(async (req, res) => {
      received = await bodyOf(req);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
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
  });
});
