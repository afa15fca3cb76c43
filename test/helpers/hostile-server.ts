// Hostile peers on 127.0.0.1 (port 0), for proving that kagent ends whatever the
// other side does. One small configurable node:http server answers each request
// as a test's `behave` says:
//   - silent: accept, read the request, never answer;
//   - trickle: headers at once, then the body one byte every `everyMs` (and never done);
//   - endless: headers at once, then body chunks as fast as the socket takes them, forever;
//   - answer: a status, headers (Retry-After, say) and a body, which may be huge
//     (`bytes` gives a Buffer, sent with its content-length).
// And a CONNECT proxy that accepts the connection and never answers (`silentProxy`).
// Every connection is destroyed by close(), so nothing outlives a test.
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';

export type Behaviour =
  | { kind: 'silent' }
  | { kind: 'trickle'; everyMs: number; status?: number; headers?: Record<string, string> }
  | { kind: 'endless'; status?: number; headers?: Record<string, string> }
  | { kind: 'answer'; status: number; headers?: Record<string, string>; body?: unknown; bytes?: Buffer };

export interface HostileRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

export interface HostileServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** origin + /api/v1 */
  baseUrl: string;
  requests: HostileRequest[];
  /** Connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

function track(server: Server): { sockets: Set<Socket>; count: () => number } {
  const sockets = new Set<Socket>();
  let count = 0;
  server.on('connection', (socket: Socket) => {
    count++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  return { sockets, count: () => count };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closer(server: Server, sockets: Set<Socket>, timers: Set<NodeJS.Timeout>): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
}

export async function hostileServer(behave: (req: HostileRequest) => Behaviour): Promise<HostileServer> {
  const requests: HostileRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = createHttpServer((incoming, res) => {
    const req: HostileRequest = { method: incoming.method ?? '', url: incoming.url ?? '', headers: incoming.headers };
    requests.push(req);
    incoming.resume();
    res.on('error', () => undefined);
    const behaviour = behave(req);
    switch (behaviour.kind) {
      case 'silent':
        return;
      case 'trickle': {
        res.writeHead(behaviour.status ?? 200, {
          'content-type': 'application/json',
          'content-length': '1000000',
          ...behaviour.headers,
        });
        res.flushHeaders();
        const timer = setInterval(() => res.write(' '), behaviour.everyMs);
        timers.add(timer);
        res.on('close', () => {
          clearInterval(timer);
          timers.delete(timer);
        });
        return;
      }
      case 'endless': {
        res.writeHead(behaviour.status ?? 200, { 'content-type': 'application/json', ...behaviour.headers });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const pump = () => {
          while (!res.destroyed && res.write(chunk));
        };
        res.on('drain', pump);
        res.write('{"items":[');
        pump();
        return;
      }
      case 'answer': {
        const body =
          behaviour.bytes ??
          (behaviour.body === undefined
            ? Buffer.alloc(0)
            : Buffer.from(typeof behaviour.body === 'string' ? behaviour.body : JSON.stringify(behaviour.body)));
        res.writeHead(behaviour.status, {
          'content-type': 'application/json',
          'content-length': String(body.length),
          ...behaviour.headers,
        });
        res.end(body);
        return;
      }
    }
  });
  const { sockets, count } = track(server);
  const origin = await listen(server);
  return { origin, baseUrl: `${origin}/api/v1`, requests, connections: count, close: closer(server, sockets, timers) };
}

export interface SilentProxy {
  /** http://127.0.0.1:<port>, for HTTPS_PROXY. */
  url: string;
  /** Connections accepted (each would carry a CONNECT that is never answered). */
  connections(): number;
  close(): Promise<void>;
}

/** A proxy that accepts every connection, reads what it is sent (a CONNECT) and never answers. */
export async function silentProxy(): Promise<SilentProxy> {
  const server = createNetServer((socket) => {
    socket.on('data', () => undefined);
  });
  const { sockets, count } = track(server);
  const url = await listen(server);
  return { url, connections: count, close: closer(server, sockets, new Set()) };
}

/** `{ "id": "u_1", …, "<field>": "xxxx…" }` of `size` bytes, for answers too big to be sensible. */
export function bigMe(size: number, field = 'extra'): Buffer {
  const head = Buffer.from(
    `{"id":"u_1","email":"ada@example.com","name":"Ada","plan":{"id":"pro","name":"Pro"},"${field}":"`,
  );
  const tail = Buffer.from('"}');
  const body = Buffer.alloc(Math.max(size, head.length + tail.length), 0x78);
  head.copy(body, 0);
  tail.copy(body, body.length - tail.length);
  return body;
}
