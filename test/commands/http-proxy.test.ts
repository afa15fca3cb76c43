// Proxies from the environment, as curl takes them: every request of a command,
// uploads included, goes through HTTP_PROXY (absolute-URI requests for http://)
// or HTTPS_PROXY (a CONNECT tunnel for https://), unless NO_PROXY lists the host.
// The proxy is a few lines of node:http in this file; the service is the sandbox.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bin, ensureBuilt } from '../helpers/binary.js';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';
import { tempDir } from '../helpers/run.js';

interface ForwardProxy {
  url: string;
  /** `GET http://host/path` for forwarded requests, `CONNECT host:port` for tunnels. */
  seen: string[];
  /** Local ports of the connections the proxy opened for tunnels. */
  tunnelPorts: Set<number>;
  close(): Promise<void>;
}

/** A forward proxy: absolute-URI requests are passed on, CONNECT opens a TCP tunnel. */
async function startProxy(): Promise<ForwardProxy> {
  const seen: string[] = [];
  const tunnelPorts = new Set<number>();
  const sockets = new Set<Socket>();
  const server: Server = createHttpServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? '');
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: target.pathname + target.search,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      tunnelPorts.add(upstream.localPort!);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    tunnelPorts,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

let s: LoggedIn;
let proxy: ForwardProxy;
let file: string;

async function operations(): Promise<Record<string, number>> {
  const stats = (await s.t.call('GET', '/_sandbox/stats')).body as { requests: Record<string, number> };
  return stats.requests;
}

beforeAll(async () => {
  s = await loggedInSandbox();
  proxy = await startProxy();
  file = join(tempDir('kagent-proxy-'), 'notes.md');
  writeFileSync(file, '# Notes\n\nSent through a proxy.\n');
});
afterAll(async () => {
  await proxy.close();
  await s.close();
});
beforeEach(async () => {
  proxy.seen.length = 0;
  await s.t.call('DELETE', '/_sandbox/stats');
});

describe('HTTP_PROXY for an http:// service', () => {
  it('carries every request of a command, an upload included, as absolute-URI requests', async () => {
    const env = { HTTP_PROXY: proxy.url };
    expect((await s.kagent(['space', 'list', '--json'], { env })).code).toBe(0);
    const r = await s.kagent(['lib', 'upload', file], { env });
    expect(r.stderr).toMatch(/^1 uploaded, 0 already there, 0 failed/m);
    expect(r.code).toBe(0);
    const origin = new URL(s.t.baseUrl).origin;
    expect(proxy.seen).toContain(`GET ${origin}/api/v1/spaces`);
    expect(proxy.seen).toContain(`POST ${origin}/api/v1/library/files`);
    // Everything the service received came through the proxy.
    const received = Object.values(await operations()).reduce((a, b) => a + b, 0);
    expect(received).toBeGreaterThanOrEqual(2);
    expect(proxy.seen).toHaveLength(received);
    expect(proxy.seen.every((line) => line.startsWith(`GET ${origin}/`) || line.startsWith(`POST ${origin}/`))).toBe(
      true,
    );
  });

  it('lower-case http_proxy works too, and --debug names the proxy with its credentials hidden', async () => {
    const withUser = proxy.url.replace('http://', 'http://ada:s3cret@');
    const r = await s.kagent(['me', '--json', '--debug'], { env: { http_proxy: withUser } });
    expect(r.code).toBe(0);
    expect(proxy.seen).toHaveLength(1);
    expect(r.stderr).toContain(`via proxy ${proxy.url.replace('http://', 'http://***@')} (http_proxy)`);
    expect(r.stderr).not.toContain('s3cret');
  });

  it.each([
    ['a NO_PROXY list entry', { NO_PROXY: 'example.com, 127.0.0.1' }],
    ['a no_proxy CIDR entry', { no_proxy: '10.0.0.0/8,127.0.0.0/8' }],
    ['NO_PROXY=*', { NO_PROXY: '*' }],
  ])('%s sends the request direct', async (_name, noProxy) => {
    const r = await s.kagent(['me', '--json'], { env: { HTTP_PROXY: proxy.url, ...noProxy } });
    expect(r.code).toBe(0);
    expect(proxy.seen).toEqual([]);
    expect(await operations()).toEqual({ getMe: 1 });
  });

  it('without NO_PROXY, loopback goes through the proxy too (as with curl)', async () => {
    const r = await s.kagent(['me', '--json'], { env: { HTTP_PROXY: proxy.url, NO_PROXY: 'localhost' } });
    expect(r.code).toBe(0);
    expect(proxy.seen).toEqual([`GET ${new URL(s.t.baseUrl).origin}/api/v1/me`]);
  });

  it('a proxy that is not listening: exit 7, the proxy named, one quick retry', async () => {
    const r = await s.kagent(['me', '--debug'], { env: { HTTP_PROXY: 'http://127.0.0.1:1' } });
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/connection refused by proxy 127\.0\.0\.1:1 after 2 attempts \(NETWORK_ERROR\)/);
    expect(r.stderr).toMatch(/hint: nothing is listening at the proxy http:\/\/127\.0\.0\.1:1 \(HTTP_PROXY\)/);
    expect(r.stderr.match(/debug: → GET/g)).toHaveLength(2);
  });

  it('a proxy that asks for credentials (407): exit 7, saying so, with the variable to fix', async () => {
    const gate = createHttpServer((req, res) => {
      req.resume();
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="corp"' }).end();
    });
    await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
    try {
      const r = await s.kagent(['me'], {
        env: { HTTP_PROXY: `http://127.0.0.1:${(gate.address() as AddressInfo).port}` },
      });
      expect(r.code).toBe(7);
      expect(r.stderr).toMatch(/^error: GET \/api\/v1\/me: the proxy asks for credentials \(407\) \(NETWORK_ERROR\)$/m);
      expect(r.stderr).toMatch(/^hint: give the proxy's credentials in HTTP_PROXY/m);
    } finally {
      gate.closeAllConnections();
      await new Promise<void>((resolve) => gate.close(() => resolve()));
    }
  });

  it('a proxy variable kagent cannot use is exit 2, naming it', async () => {
    const r = await s.kagent(['me'], { env: { HTTP_PROXY: 'socks5://127.0.0.1:1080' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/HTTP_PROXY: kagent goes through http:\/\/ and https:\/\/ proxies only/);
  });
});

describe('HTTPS_PROXY for an https:// service', () => {
  it('tunnels every request with CONNECT, an upload included (the built binary)', async () => {
    ensureBuilt();
    const tls = fileURLToPath(new URL('../helpers/tls', import.meta.url));
    // A TLS front for the sandbox, recording from which port each request came.
    const fromPorts: number[] = [];
    const front = createHttpsServer(
      { key: readFileSync(join(tls, 'localhost.key')), cert: readFileSync(join(tls, 'localhost.crt')) },
      (req, res) => {
        fromPorts.push(req.socket.remotePort!);
        const target = new URL(s.t.origin);
        const upstream = httpRequest(
          { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        req.pipe(upstream);
      },
    );
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    const port = (front.address() as AddressInfo).port;
    try {
      const env = {
        PATH: process.env.PATH,
        HOME: tempDir('kagent-home-'),
        KAGENT_CONFIG_DIR: tempDir('kagent-config-'),
        KAGENT_CACHE_DIR: tempDir('kagent-cache-'),
        KAGENT_BASE_URL: `https://localhost:${port}/api/v1`,
        KAGENT_API_KEY: s.t.apiKey,
        HTTPS_PROXY: proxy.url,
        NODE_EXTRA_CA_CERTS: join(tls, 'localhost.crt'),
      };
      const run = (args: string[]) =>
        new Promise<{ code: number | null; stderr: string }>((resolve) => {
          const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
          let stderr = '';
          child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
          child.on('close', (code) => resolve({ code, stderr }));
        });
      const me = await run(['me', '--json']);
      expect(me.stderr).toBe('');
      expect(me.code).toBe(0);
      const upload = await run(['lib', 'upload', file, '--json']);
      expect(upload.code).toBe(0);
      expect(proxy.seen.length).toBeGreaterThanOrEqual(2);
      expect(proxy.seen.every((line) => line === `CONNECT localhost:${port}`)).toBe(true);
      // Every request the service's front received arrived through one of the proxy's tunnels.
      expect(fromPorts.length).toBeGreaterThanOrEqual(3);
      expect(fromPorts.every((p) => proxy.tunnelPorts.has(p))).toBe(true);
      // The test above sent the same file: the service replays its answer, which kagent confirms with one read.
      expect(Object.keys(await operations()).sort()).toEqual(['getLibraryItem', 'getMe', 'uploadFile']);
    } finally {
      await new Promise<void>((resolve) => front.close(() => resolve()));
    }
  }, 30_000);
});
