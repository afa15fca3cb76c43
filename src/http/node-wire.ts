// The quick wire: Node's own HTTP client (node:http / node:https) for requests
// whose body is already in memory — every API call but file uploads.
//
// Node's client is part of the node binary, compiled into its start-up
// snapshot, while undici is 460 KB of JavaScript to load and compile on every
// run: one GET from a fresh process, measured as CPU time against `node -e 0`
// (2026-11-25, 2 cores): Node 20 +9 ms with node:http against +26 ms with the
// bundled undici; Node 22 +8 against +21; Node 26 +11 against +26. Node's
// global fetch (undici again, inside the binary) was dearer still on Node 26
// (+56 ms), and an ESM `import 'node:http'` costs 40 ms more there than
// process.getBuiltinModule, because building the module namespace runs its lazy
// getters (crypto, tls, http2, zlib, workers, undici).
//
// Streamed bodies (uploads) stay on undici (transport.ts), which sends large
// files much faster with its big chunks; so does a request that goes through a
// proxy (the HTTP core decides which do, NO_PROXY included), which undici's proxy
// agent carries.
import type { Agent, ClientRequest, IncomingMessage } from 'node:http';
import type { IncomingHeaders, WireRequest, WireResponse } from './transport.js';
import { collector, tooLarge } from './body.js';

const CONNECT_TIMEOUT_MS = 10_000;
const KEEP_ALIVE_MS = 10_000;

/** Whether `req` goes by Node's own client: a body in memory (or none), straight to the service. */
export function takesQuickWire(req: Pick<WireRequest, 'url' | 'body' | 'proxy'>): boolean {
  if (req.body !== undefined && typeof req.body !== 'string' && !Buffer.isBuffer(req.body)) return false;
  if (req.url.protocol !== 'http:' && req.url.protocol !== 'https:') return false;
  return req.proxy === undefined;
}

type HttpModule = typeof import('node:http');

const agents = new Map<string, Agent>();

function client(protocol: string): { http: HttpModule; agent: Agent } {
  // getBuiltinModule, not import: see the top of this file.
  const http = process.getBuiltinModule(protocol === 'https:' ? 'node:https' : 'node:http') as HttpModule;
  let agent = agents.get(protocol);
  if (!agent) {
    agent = new http.Agent({ keepAlive: true, timeout: KEEP_ALIVE_MS });
    agents.set(protocol, agent);
  }
  return { http, agent };
}

/** An error that classifyNetworkError (transport.ts) reads as undici's own of the same kind. */
function failure(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

function aborted(): Error {
  return Object.assign(new Error('the request was aborted'), { name: 'AbortError', code: 'ABORT_ERR' });
}

export function sendQuick(req: WireRequest): Promise<WireResponse> {
  const { http, agent } = client(req.url.protocol);
  return new Promise((resolve, reject) => {
    let request: ClientRequest;
    let connectTimer: NodeJS.Timeout | undefined;
    let answerTimer: NodeJS.Timeout | undefined;
    const stopTimers = () => {
      clearTimeout(connectTimer);
      clearTimeout(answerTimer);
    };
    try {
      request = http.request(req.url, { method: req.method, headers: req.headers, agent, signal: req.signal });
    } catch (error) {
      reject(error);
      return;
    }
    request.on('error', (error) => {
      stopTimers();
      reject(error);
    });
    request.on('socket', (socket) => {
      const waitForAnswer = () => {
        clearTimeout(connectTimer);
        answerTimer = setTimeout(
          () => request.destroy(failure('UND_ERR_HEADERS_TIMEOUT', `no answer within ${req.timeoutMs} ms`)),
          req.timeoutMs,
        );
      };
      if (socket.connecting) {
        connectTimer = setTimeout(
          () =>
            request.destroy(failure('UND_ERR_CONNECT_TIMEOUT', `could not connect within ${CONNECT_TIMEOUT_MS} ms`)),
          CONNECT_TIMEOUT_MS,
        );
        socket.once(req.url.protocol === 'https:' ? 'secureConnect' : 'connect', waitForAnswer);
      } else {
        waitForAnswer();
      }
    });
    request.on('response', (response) => {
      stopTimers();
      resolve(answer(response, req.timeoutMs, req.signal, req.maxBytes));
    });
    // A 101 kagent never asked for: Node hands it to an 'upgrade' listener or silently drops
    // the connection, and then no answer and no error would ever come.
    request.on('upgrade', (_response, socket) => {
      socket.destroy();
      stopTimers();
      reject(
        failure('UNEXPECTED_UPGRADE', 'the service answered 101 Switching Protocols, which kagent never asks for'),
      );
    });
    // Closed without an answer or an error (whatever the cause): a failure, never a wait for nothing.
    request.on('close', () => {
      stopTimers();
      reject(
        req.signal?.aborted ? aborted() : failure('UND_ERR_SOCKET', 'the connection closed before the answer arrived'),
      );
    });
    request.end(req.body);
  });
}

function answer(
  response: IncomingMessage,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  maxBytes: number | undefined,
): WireResponse {
  // Time allowed between chunks of the body, as undici's bodyTimeout.
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

/** Closes the idle keep-alive connections. */
export function closeQuickWire(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}
