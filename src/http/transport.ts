// The wire: every request kagent sends leaves here, by Node's own HTTP client
// (node:http / node:https) on keep-alive agents: API calls, streamed uploads,
// and requests through a proxy (tunnel.ts opens the way).
//
// One client, because it costs nothing to load: it is part of the node binary,
// compiled into its start-up snapshot, while undici (the design's choice of
// client) is 460 KB of JavaScript to load and compile on every run. The figures, and what the upload bench measured when uploads
// moved over, are in docs/performance.md ("One wire").
//
// getBuiltinModule, not an ESM `import 'node:http'`: building that module
// namespace runs its lazy getters (crypto, tls, http2, zlib, workers, undici),
// 40 ms more on Node 26, measured.
//
// Failures carry the codes failures.ts classifies (the names undici gave them,
// kept so that retries, messages and --debug lines read as before).
import type { Agent, ClientRequest, IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { collector, tooLarge } from './body.js';
import { failure, proxyRefusal } from './failures.js';
import { forwardOptions, tunnelAgent, type HttpModule } from './tunnel.js';

/** What a failure of this wire means (failures.ts reads the codes it gives). */
export { classifyNetworkError } from './failures.js';

export type IncomingHeaders = Record<string, string | string[] | undefined>;

export interface WireRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer | Readable;
  signal?: AbortSignal;
  /** Time allowed for the answer's headers, and between chunks of its body (or of a streamed body sent). */
  timeoutMs: number;
  /** The proxy to go through (proxy.ts decides), credentials included; none: direct. */
  proxy?: string;
  /** The most bytes of the answer's body read into memory; more fails with ANSWER_TOO_LARGE. */
  maxBytes?: number;
}

export interface WireResponse {
  status: number;
  headers: IncomingHeaders;
  text(): Promise<string>;
  /** Reads and discards the body so the connection can be reused. */
  discard(): Promise<void>;
}

const CONNECT_TIMEOUT_MS = 10_000;
const KEEP_ALIVE_MS = 10_000;

function httpModule(protocol: string): HttpModule {
  return process.getBuiltinModule(protocol === 'https:' ? 'node:https' : 'node:http') as HttpModule;
}

/** One keep-alive agent per protocol for direct requests and forwarded ones, one per proxy for tunnels. */
const agents = new Map<string, Agent>();

function agentFor(key: string, make: () => Agent): Agent {
  let agent = agents.get(key);
  if (!agent) {
    agent = make();
    agents.set(key, agent);
  }
  return agent;
}

/** How `req` leaves: straight to the service, to an http:// service's proxy (absolute URI), or through a CONNECT tunnel. */
function start(req: WireRequest): ClientRequest {
  const { url, method, headers, signal } = req;
  if (req.proxy === undefined || url.protocol === 'http:') {
    const via = req.proxy === undefined ? url : new URL(req.proxy);
    const agent = agentFor(
      via.protocol,
      () => new (httpModule(via.protocol).Agent)({ keepAlive: true, timeout: KEEP_ALIVE_MS }),
    );
    if (req.proxy === undefined) return httpModule(url.protocol).request(url, { method, headers, agent, signal });
    return httpModule(via.protocol).request({ ...forwardOptions(via, url, headers), method, agent, signal });
  }
  const agent = agentFor(`${req.timeoutMs} ${req.proxy}`, () =>
    tunnelAgent(new URL(req.proxy!), req.timeoutMs, KEEP_ALIVE_MS),
  );
  return httpModule('https:').request(url, { method, headers, agent, signal });
}

export function send(req: WireRequest): Promise<WireResponse> {
  return new Promise((resolveSent, rejectSent) => {
    let request: ClientRequest;
    // Node notices an abort only once the request has its connection: one waiting for a proxy's
    // tunnel would wait for the tunnel's own timer. Ctrl-C and --timeout end the wait at once.
    const onAbort = () => {
      clearTimeout(timer);
      rejectSent(aborted());
    };
    req.signal?.addEventListener('abort', onAbort, { once: true });
    const resolve = (response: WireResponse) => {
      req.signal?.removeEventListener('abort', onAbort);
      resolveSent(response);
    };
    const reject = (error: unknown) => {
      req.signal?.removeEventListener('abort', onAbort);
      rejectSent(error);
    };
    // One timer: connecting, then waiting for the answer (re-armed while a streamed body is taken).
    let timer: NodeJS.Timeout | undefined;
    const arm = (code: string, message: string, ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => request.destroy(failure(code, message)), ms);
    };
    const waitForAnswer = () => arm('UND_ERR_HEADERS_TIMEOUT', `no answer within ${req.timeoutMs} ms`, req.timeoutMs);
    try {
      request = start(req);
    } catch (error) {
      reject(error);
      return;
    }
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.on('socket', (socket) => {
      if (!socket.connecting) return waitForAnswer();
      arm('UND_ERR_CONNECT_TIMEOUT', `could not connect within ${CONNECT_TIMEOUT_MS} ms`, CONNECT_TIMEOUT_MS);
      socket.once(request.protocol === 'https:' ? 'secureConnect' : 'connect', waitForAnswer);
    });
    request.on('response', (response) => {
      clearTimeout(timer);
      // A forward proxy's own refusal is not the service's answer.
      if (req.proxy !== undefined && response.statusCode === 407) {
        response.resume();
        reject(proxyRefusal(407));
        return;
      }
      resolve(answer(response, req));
    });
    // A 101 kagent never asked for: Node hands it to an 'upgrade' listener or silently drops
    // the connection, and then no answer and no error would ever come.
    request.on('upgrade', (_response, socket) => {
      socket.destroy();
      clearTimeout(timer);
      reject(
        failure('UNEXPECTED_UPGRADE', 'the service answered 101 Switching Protocols, which kagent never asks for'),
      );
    });
    // Closed without an answer or an error (whatever the cause): a failure, never a wait for nothing.
    request.on('close', () => {
      clearTimeout(timer);
      reject(
        req.signal?.aborted ? aborted() : failure('UND_ERR_SOCKET', 'the connection closed before the answer arrived'),
      );
    });
    sendBody(request, req.body, waitForAnswer);
  });
}

/**
 * A body in memory goes at once. A streamed one: its own failure (a file changed while being
 * sent) ends the request, and the wait for the answer restarts at every drain of the socket
 * (the service took more of it) and once the body is sent.
 */
function sendBody(request: ClientRequest, body: WireRequest['body'], waitForAnswer: () => void): void {
  if (body === undefined || typeof body === 'string' || Buffer.isBuffer(body)) {
    request.end(body);
    return;
  }
  body.once('error', (error) => request.destroy(error));
  const progressed = () => {
    if (!request.socket?.connecting) waitForAnswer();
  };
  request.on('drain', progressed);
  request.on('finish', progressed);
  body.pipe(request);
}

function aborted(): Error {
  return Object.assign(new Error('the request was aborted'), { name: 'AbortError', code: 'ABORT_ERR' });
}

function answer(response: IncomingMessage, req: WireRequest): WireResponse {
  const { timeoutMs, signal, maxBytes } = req;
  // Time allowed between chunks of the body, as for the headers.
  let idle: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(idle);
    idle = setTimeout(
      () => response.destroy(failure('UND_ERR_BODY_TIMEOUT', `the answer stalled for ${timeoutMs} ms`)),
      timeoutMs,
    );
  };
  const settled = new Promise<string>((resolve, reject) => {
    const length = response.headers['content-length'];
    const announced = length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined;
    // Past the cap, announced or read: stop reading (the error names the cap).
    const refused = announced !== undefined && maxBytes !== undefined && announced > maxBytes;
    const body = collector(refused ? undefined : announced, maxBytes);
    arm();
    response.on('data', (chunk: Buffer) => {
      try {
        body.add(chunk);
      } catch (error) {
        response.destroy(error as Error);
        return;
      }
      arm();
    });
    response.on('end', () => {
      clearTimeout(idle);
      resolve(body.text());
    });
    response.on('error', (error) => {
      clearTimeout(idle);
      reject(signal?.aborted ? aborted() : error);
    });
    response.on('close', () => {
      clearTimeout(idle);
      if (response.complete) return;
      reject(
        signal?.aborted
          ? aborted()
          : failure('UND_ERR_SOCKET', 'the connection closed before the whole answer arrived'),
      );
    });
    if (refused) response.destroy(tooLarge(maxBytes));
  });
  // Read at once (kagent's answers are JSON of bounded size), so a slow consumer never stalls the socket.
  settled.catch(() => undefined);
  return {
    status: response.statusCode ?? 0,
    headers: response.headers as IncomingHeaders,
    text: () => settled,
    discard: async () => {
      await settled.catch(() => undefined);
    },
  };
}

/** Closes the idle keep-alive connections (tests, and long-lived embedders). */
export function closeTransport(): Promise<void> {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
  return Promise.resolve();
}
