// The wire: undici's `request` on one keep-alive Agent for the whole process.
//
// Start-up cost matters (`kagent me` should be close to bare node), so:
// - undici is imported on the first request, not when the client is built;
// - only the Agent and the request API are imported, not the package root,
//   which would also evaluate fetch, WebSocket, the mock agent and caches
//   (about 25 ms more on a 2-core machine, measured);
// - on Node 22.1+ Node's compile cache keeps undici's compiled code (compile-cache.ts);
// - and most requests do not load undici at all: a body in memory (or none) goes
//   by Node's own client when no proxy is configured (node-wire.ts); undici
//   carries streamed uploads.
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { readCapped } from './body.js';
import { closeQuickWire, sendQuick, takesQuickWire } from './node-wire.js';
import { loadUndici, loadUndiciProxy } from '../lazy.js';

export type IncomingHeaders = Record<string, string | string[] | undefined>;

export interface WireRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer | Readable;
  signal?: AbortSignal;
  /** Time allowed for the answer's headers, and between chunks of its body. */
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

interface Undici {
  agent: Dispatcher;
  request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  /** One keep-alive ProxyAgent per proxy URL (and time allowed for its tunnel), made on first use. */
  proxies: Map<string, Promise<Dispatcher>>;
}

let loading: Promise<Undici> | undefined;

function undici(): Promise<Undici> {
  loading ??= (async () => {
    const { Agent, request } = await loadUndici();
    const agent = new Agent({ keepAliveTimeout: KEEP_ALIVE_MS, connect: { timeout: CONNECT_TIMEOUT_MS } });
    return { agent, request, proxies: new Map() };
  })();
  return loading;
}

/**
 * Through a proxy as curl goes: an http:// URL is asked of the proxy as an
 * absolute-URI request (`GET http://host/path`), an https:// one through a
 * CONNECT tunnel. The proxy agent's code is loaded only when a proxy is used.
 */
function proxyDispatcher(u: Undici, proxy: string, tunnelTimeoutMs: number): Promise<Dispatcher> {
  const id = `${tunnelTimeoutMs} ${proxy}`;
  let dispatcher = u.proxies.get(id);
  if (!dispatcher) {
    dispatcher = loadUndiciProxy().then(([{ default: ProxyAgent }, { default: Pool }, { default: connect }]) => {
      // The proxy agent opens tunnels with its client's `connect()`, an API undici's package root
      // adds to every dispatcher; kagent loads the parts without the root, so the client gets it here.
      // undici's own time for CONNECT is its headers timeout, five minutes, and the agent has no option for it.
      const clientFactory = (origin: URL, clientOptions: object) =>
        Object.assign(new Pool(origin, { ...clientOptions, headersTimeout: tunnelTimeoutMs }), { connect });
      return new ProxyAgent({
        uri: proxy,
        proxyTunnel: false,
        keepAliveTimeout: KEEP_ALIVE_MS,
        proxyTls: { timeout: CONNECT_TIMEOUT_MS },
        requestTls: { timeout: CONNECT_TIMEOUT_MS },
        clientFactory,
      });
    });
    u.proxies.set(id, dispatcher);
  }
  return dispatcher;
}

export async function send(req: WireRequest): Promise<WireResponse> {
  if (takesQuickWire(req)) return sendQuick(req);
  const u = await undici();
  const { request } = u;
  // A proxy must open its tunnel (answer CONNECT) within the time allowed for an answer.
  const agent = req.proxy === undefined ? u.agent : await proxyDispatcher(u, req.proxy, req.timeoutMs);
  const response = await abortable(
    request.call(agent, {
      origin: req.url.origin,
      path: req.url.pathname + req.url.search,
      method: req.method as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body ?? null,
      signal: req.signal,
      headersTimeout: req.timeoutMs,
      bodyTimeout: req.timeoutMs,
    }),
    req.signal,
  );
  return {
    status: response.statusCode,
    headers: response.headers,
    text: () => readCapped(response.body, response.headers['content-length'], req.maxBytes),
    discard: async () => {
      await response.body.dump().catch(() => undefined);
    },
  };
}

/**
 * undici notices an abort only once the request has a connection: one queued behind a
 * proxy's CONNECT that never comes back (or a connection still being made) would wait for
 * undici's own timers. Ctrl-C and the --timeout deadline end the wait at once instead; the
 * request, should it still get an answer, has its body discarded.
 */
function abortable(
  pending: Promise<Dispatcher.ResponseData>,
  signal: AbortSignal | undefined,
): Promise<Dispatcher.ResponseData> {
  if (!signal) return pending;
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      pending.then(
        (late) => late.body.dump().catch(() => undefined),
        () => undefined,
      );
      reject(
        Object.assign(new Error('the request was aborted'), {
          name: 'AbortError',
          code: 'ABORT_ERR',
          cause: signal.reason,
        }),
      );
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (response) => {
        signal.removeEventListener('abort', onAbort);
        resolve(response);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Closes idle keep-alive connections (tests, and long-lived embedders). */
export async function closeTransport(): Promise<void> {
  closeQuickWire();
  const current = loading;
  loading = undefined;
  if (!current) return;
  const u = await current;
  await Promise.all([u.agent.close(), ...[...u.proxies.values()].map(async (proxy) => (await proxy).close())]);
}

export interface NetworkFailure {
  code: string;
  /** The request may have reached the service (so a write may have happened). */
  mayHaveReachedServer: boolean;
  /** Worth trying again. */
  transient: boolean;
  interrupted: boolean;
  /** What happened, for people. */
  description: string;
}

const NEVER_SENT = new Set([
  'ECONNREFUSED',
  'EAI_AGAIN',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const TRANSIENT = new Set([
  'ECONNREFUSED',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);
const DESCRIPTIONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed while sending',
  UND_ERR_SOCKET: 'connection closed by the other side',
  UND_ERR_CONNECT_TIMEOUT: 'timed out connecting',
  UND_ERR_HEADERS_TIMEOUT: 'timed out waiting for an answer',
  UND_ERR_BODY_TIMEOUT: 'timed out reading the answer',
  ETIMEDOUT: 'timed out',
};

export function classifyNetworkError(error: unknown): NetworkFailure {
  const err = error as { code?: unknown; name?: unknown; message?: unknown; cause?: { code?: unknown } } | undefined;
  const code =
    typeof err?.code === 'string' ? err.code : typeof err?.cause?.code === 'string' ? err.cause.code : 'UNKNOWN';
  const message = typeof err?.message === 'string' ? err.message : String(error);
  // undici reports a proxy's refusal as an abort (CONNECT) or an invalid argument (407 to a plain request).
  const proxyStatus = /Proxy response \((\d{3})\) !== 200|Proxy Authentication Required \((407)\)/.exec(message);
  if (proxyStatus) {
    const status = Number(proxyStatus[1] ?? proxyStatus[2]);
    return {
      code: status === 407 ? 'PROXY_AUTH' : 'PROXY_ERROR',
      mayHaveReachedServer: false,
      transient: status === 502 || status === 503 || status === 504,
      interrupted: false,
      description:
        status === 407
          ? 'the proxy asks for credentials (407)'
          : `the proxy answered ${status} instead of opening a tunnel`,
    };
  }
  if (code === 'ANSWER_TOO_LARGE') {
    // Asking again brings the same flood: never retried.
    return { code, mayHaveReachedServer: true, transient: false, interrupted: false, description: message };
  }
  const interrupted = code === 'UND_ERR_ABORTED' || code === 'ABORT_ERR' || err?.name === 'AbortError';
  return {
    code,
    mayHaveReachedServer: !NEVER_SENT.has(code),
    transient: TRANSIENT.has(code),
    interrupted,
    description:
      DESCRIPTIONS[code] ?? (/certificate|ssl|tls/i.test(`${code} ${message}`) ? `TLS failure: ${message}` : message),
  };
}
