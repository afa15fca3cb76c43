// A real HTTP server on 127.0.0.1 (port 0) standing in for the service in the
// HTTP core's tests. It answers a few routes like the real API and can be told
// to misbehave on the next requests: reset the connection, rate-limit, fail
// with 5xx, answer slowly, cut its JSON short, report an idempotent request as
// still in progress, answer with problem+json or HTML. It implements
// Idempotency-Key like the service (replays the first answer) and counts how
// many times each key really created something, so tests can prove that no
// create ran twice.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Clock } from '../../src/http/clock.js';

export type Fault = (
  | { type: 'reset' }
  | { type: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  | { type: 'rateLimited'; retryAfter?: string }
  | { type: 'inProgress'; retryAfter?: string }
  | { type: 'problem'; status: number; problem: Record<string, unknown> }
  | { type: 'html'; status: number }
  /** `short`: a complete HTTP answer whose JSON is cut; `cut`: the connection closes mid-body. */
  | { type: 'truncated'; mode?: 'short' | 'cut' }
  | { type: 'slow'; delayMs: number }
  | { type: 'redirect'; location: string; status?: number }
) & {
  /** Only requests whose path starts with this take the fault. */
  path?: string;
  /** Do the work (a create counts) before misbehaving: the answer is lost, not the request. */
  afterWork?: boolean;
};

export interface RecordedRequest {
  method: string;
  url: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** When it arrived, by the server's clock (a test's fake clock when given). */
  at: number;
}

export interface FaultServerOptions {
  /** Documents served by GET /api/v1/docs, cursor-paged. */
  docs?: number;
  /** 0 (any free port) unless given. */
  port?: number;
  now?: () => number;
  /** Answers a request before the built-in routes do; return undefined to fall through. */
  handle?: (req: RecordedRequest) => Answer | undefined;
}

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface FaultServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** origin + /api/v1 */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Misbehave on the next matching requests, one fault per request, in order. */
  fail(...faults: Fault[]): void;
  /** How many times a request with this Idempotency-Key created something. */
  creations(key: string): number;
  /** Every creation, with or without a key. */
  totalCreations(): number;
  close(): Promise<void>;
}

export async function startFaultServer(options: FaultServerOptions = {}): Promise<FaultServer> {
  const now = options.now ?? Date.now;
  const faults: Fault[] = [];
  const requests: RecordedRequest[] = [];
  const creationsByKey = new Map<string, number>();
  const replays = new Map<string, Answer>();
  let created = 0;
  const docs = Array.from({ length: options.docs ?? 0 }, (_, i) => ({
    id: `d_${i + 1}`,
    title: `Doc ${i + 1}`,
    revision: 1,
    futureField: i,
  }));
  const sockets = new Set<Socket>();

  /** What the service does for a request, apart from faults. */
  function work(req: RecordedRequest): Answer {
    const custom = options.handle?.(req);
    if (custom) return custom;
    const url = new URL(req.url, 'http://x');
    const key = req.headers['idempotency-key'];
    if (req.method === 'POST' && typeof key === 'string') {
      const replay = replays.get(key);
      if (replay) return { ...replay, headers: { ...replay.headers, 'idempotent-replayed': 'true' } };
    }
    if (req.method === 'GET' && url.pathname === '/api/v1/me') {
      return {
        status: 200,
        body: {
          id: 'u_1',
          email: 'ada@example.com',
          name: 'Ada',
          plan: { id: 'pro', name: 'Pro' },
          somethingNew: { nested: true },
        },
      };
    }
    if (req.method === 'GET' && url.pathname === '/api/v1/docs') {
      const offset = Number(url.searchParams.get('cursor')?.replace(/^c/, '') ?? 0);
      const limit = Number(url.searchParams.get('limit') ?? 100);
      const items = docs.slice(offset, offset + limit);
      const next = offset + limit < docs.length ? `c${offset + limit}` : null;
      return { status: 200, body: { items, nextCursor: next } };
    }
    if (req.method === 'POST') {
      created++;
      const answer: Answer = { status: 201, body: { id: `r_${created}`, revision: 1 } };
      if (typeof key === 'string') {
        creationsByKey.set(key, (creationsByKey.get(key) ?? 0) + 1);
        replays.set(key, answer);
      }
      return answer;
    }
    if (req.method === 'DELETE' || req.method === 'PATCH') return { status: 204 };
    return {
      status: 404,
      body: { error: { code: 'NOT_FOUND', message: `no route for ${req.method} ${url.pathname}` } },
    };
  }

  function takeFault(path: string): Fault | undefined {
    const index = faults.findIndex((f) => f.path === undefined || path.startsWith(f.path));
    return index < 0 ? undefined : faults.splice(index, 1)[0];
  }

  async function respond(req: RecordedRequest, res: ServerResponse): Promise<void> {
    const fault = takeFault(req.path);
    if (fault?.type === 'slow') await new Promise((r) => setTimeout(r, fault.delayMs));
    const answer = !fault || fault.type === 'slow' || fault.afterWork ? work(req) : undefined;
    if (!fault || fault.type === 'slow') return send(res, answer!);

    switch (fault.type) {
      case 'reset':
        res.socket?.destroy();
        return;
      case 'status':
        return send(res, { status: fault.status, body: fault.body, headers: fault.headers });
      case 'rateLimited':
        return send(res, {
          status: 429,
          body: { error: { code: 'RATE_LIMITED', message: 'more than 60 requests per minute' } },
          headers: fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter },
        });
      case 'inProgress':
        return send(res, {
          status: 409,
          body: { error: { code: 'IDEMPOTENCY_IN_PROGRESS', message: 'a request with this key is still running' } },
          headers: fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter },
        });
      case 'problem':
        return send(res, {
          status: fault.status,
          body: fault.problem,
          headers: { 'content-type': 'application/problem+json' },
        });
      case 'html':
        res.writeHead(fault.status, { 'content-type': 'text/html' });
        res.end(`<html><body><h1>${fault.status}</h1>nginx</body></html>`);
        return;
      case 'truncated': {
        const text = JSON.stringify(answer?.body ?? { id: 'u_1', email: 'ada@example.com', items: [1, 2, 3] });
        const cut = text.slice(0, Math.floor(text.length / 2));
        if (fault.mode === 'cut') {
          res.writeHead(answer?.status ?? 200, {
            'content-type': 'application/json',
            'content-length': String(text.length),
          });
          res.write(cut);
          setTimeout(() => res.socket?.destroy(), 5);
          return;
        }
        res.writeHead(answer?.status ?? 200, {
          'content-type': 'application/json',
          'content-length': String(cut.length),
        });
        res.end(cut);
        return;
      }
      case 'redirect':
        res.writeHead(fault.status ?? 302, { location: fault.location });
        res.end();
        return;
    }
  }

  const server = createServer((incoming, res) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (c: Buffer) => chunks.push(c));
    incoming.on('end', () => {
      const req: RecordedRequest = {
        method: incoming.method ?? 'GET',
        url: incoming.url ?? '/',
        path: (incoming.url ?? '/').split('?')[0]!,
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: now(),
      };
      requests.push(req);
      respond(req, res).catch((error: unknown) => {
        res.writeHead(500);
        res.end(String(error));
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    baseUrl: `${origin}/api/v1`,
    requests,
    fail: (...more) => void faults.push(...more),
    creations: (key) => creationsByKey.get(key) ?? 0,
    totalCreations: () => created,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function send(res: ServerResponse, answer: Answer): void {
  const headers: Record<string, string> = { ...answer.headers };
  if (answer.body === undefined) {
    res.writeHead(answer.status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(answer.body);
  headers['content-type'] ??= 'application/json';
  res.writeHead(answer.status, headers);
  res.end(text);
}

// ---------------------------------------------------------------- a clock tests drive

export interface FakeClock extends Clock {
  /** Every duration asked of sleep(), in order. */
  sleeps: number[];
}

/**
 * Virtual time: sleep() returns at once, in wake-up order, moving `now` to the
 * sleeper's wake-up time. Concurrent sleepers wake in the order of their deadlines.
 */
export function createFakeClock(start = 1_700_000_000_000): FakeClock {
  let now = start;
  const timers: Array<{ at: number; seq: number; wake: () => void }> = [];
  let seq = 0;
  let pumping = false;
  const pump = () => {
    pumping = false;
    timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
    const timer = timers.shift();
    if (!timer) return;
    now = Math.max(now, timer.at);
    timer.wake();
    if (timers.length) schedule();
  };
  const schedule = () => {
    if (!pumping) {
      pumping = true;
      setImmediate(pump);
    }
  };
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep(ms, signal) {
      sleeps.push(ms);
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const timer = { at: now + Math.max(0, ms), seq: seq++, wake: () => resolve() };
        timers.push(timer);
        signal?.addEventListener(
          'abort',
          () => {
            const index = timers.indexOf(timer);
            if (index >= 0) timers.splice(index, 1);
            reject(signal.reason);
          },
          { once: true },
        );
        schedule();
      });
    },
  };
}
