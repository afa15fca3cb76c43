// Answers that are not what an HTTP/1.1 JSON API sends, written byte for byte on a
// raw socket: a 101 Switching Protocols kagent never asked for, a connection closed
// after the request without a byte. Each ends the command with a network error
// (exit 7) at once, never a wait for an answer that will not come nor a success
// with nothing printed.
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import { ExitCode, NetworkError } from '../../src/errors.js';
import type { Pacer } from '../../src/http/pacer.js';
import { closeTransport } from '../../src/http/transport.js';
import { ensureBuilt, runBinary } from '../helpers/binary.js';
import { createFakeClock } from '../helpers/fault-server.js';

const KEY = 'sk_test_0123456789abcdef';
const unpaced: Pacer = { take: async () => 0, pause: () => undefined };
const UPGRADE = 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n';

interface RawPeer {
  baseUrl: string;
  requests: () => number;
  close: () => Promise<void>;
}

/** A server that, once a request has arrived, writes `reply` (or, with none, closes the connection). */
async function rawPeer(reply: string | undefined): Promise<RawPeer> {
  const sockets = new Set<Socket>();
  let requests = 0;
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    socket.once('data', () => {
      requests++;
      if (reply === undefined) socket.destroy();
      else socket.write(reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

let peers: RawPeer[] = [];
afterEach(async () => {
  await closeTransport();
  await Promise.all(peers.map((peer) => peer.close()));
  peers = [];
});

async function peer(reply: string | undefined): Promise<RawPeer> {
  const made = await rawPeer(reply);
  peers.push(made);
  return made;
}

describe('a 101 Switching Protocols', () => {
  it('is a network error at once, not tried again (the HTTP core)', async () => {
    const p = await peer(UPGRADE);
    const api = createApiClient({ baseUrl: p.baseUrl, apiKey: KEY, clock: createFakeClock(), pacer: unpaced });
    const error = await api.call('getMe').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).exitCode).toBe(ExitCode.UNAVAILABLE);
    expect((error as NetworkError).message).toBe(
      'GET /api/v1/me: the service answered 101 Switching Protocols, which kagent never asks for',
    );
    expect(p.requests()).toBe(1);
  });

  it('ends `kagent me --json` with exit 7 and the error on stderr, stdout empty', async () => {
    ensureBuilt();
    const p = await peer(UPGRADE);
    const home = mkdtempSync(join(tmpdir(), 'kagent-protocol-'));
    const r = await runBinary(['me', '--json'], {
      PATH: process.env.PATH,
      HOME: home,
      KAGENT_CONFIG_DIR: home,
      KAGENT_CACHE_DIR: home,
      KAGENT_BASE_URL: p.baseUrl,
      KAGENT_API_KEY: KEY,
    });
    expect(r.status).toBe(ExitCode.UNAVAILABLE);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr)).toEqual({
      error: {
        code: 'NETWORK_ERROR',
        message: 'GET /api/v1/me: the service answered 101 Switching Protocols, which kagent never asks for',
      },
    });
  });
});

describe('a connection closed after the request, without a byte', () => {
  it('is retried like a dropped connection, then a network error (exit 7)', async () => {
    const p = await peer(undefined);
    const api = createApiClient({ baseUrl: p.baseUrl, apiKey: KEY, clock: createFakeClock(), pacer: unpaced });
    const error = await api.call('getMe').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).exitCode).toBe(ExitCode.UNAVAILABLE);
    expect((error as NetworkError).message).toMatch(/^GET \/api\/v1\/me: .* after 6 attempts$/);
    expect(p.requests()).toBe(6);
  });
});
