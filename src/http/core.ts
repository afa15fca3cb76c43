// The HTTP core: one `send` that every API call and `kagent api` request goes
// through. It adds auth and identification, paces, retries what is safe to
// retry, keeps idempotency keys stable across attempts, traces, and turns every
// failure into a CliError with the documented exit code.
import type { Readable } from 'node:stream';
import type { Clock } from './clock.js';
import { ApiError } from '../errors.js';
import { defaultBackoff, type BackoffOptions } from './backoff.js';
import { systemClock } from './clock.js';
import { Exchange, type ExchangeSettings } from './exchange.js';
import { deadlineOf } from './deadline.js';
import { checkApiKey, checkHeader } from './headers.js';
import type { ServiceClock } from './service-clock.js';
import { processPacer, type Pacer } from './pacer.js';
import type { ProxyRoute } from './proxy.js';
import { createSharedPacer } from './shared-pacer.js';
import { createTracer, redactor, type DebugSink } from './trace.js';
import type { IncomingHeaders } from './transport.js';
import { assertTransportAllowed, normaliseBaseUrl, withQuery, type QueryValue } from './url.js';
import { proxyRoute } from './proxy.js';

export interface HttpCoreOptions {
  /** With or without the trailing /api/v1. */
  baseUrl: string;
  apiKey: string | undefined;
  /** `kagent/<version>`. */
  userAgent?: string;
  /** Allow plain http:// to a host other than loopback. */
  insecure?: boolean;
  /** Receives one line per request, response and retry (`--debug`). */
  debug?: DebugSink;
  /** The account's budget; 60 by default. */
  ratePerMinute?: number;
  /** Per attempt: time allowed for the answer's headers, and between chunks of its body. */
  requestTimeoutMs?: number;
  /**
   * `--timeout`: no wait (for the rate budget, a Retry-After, a backoff) may end later than
   * this long after the call began — or, when `signal` is a command's signal with a deadline
   * (deadline.ts), later than that deadline; one that would fails the call at once (exit 7).
   */
  waitLimitMs?: number;
  /** Receives "waiting 42 s: rate limit" for every wait longer than NOTICE_AFTER_MS (stderr, unless --quiet). */
  notice?: (line: string) => void;
  /** Where the API key came from, for the message when it cannot be sent (KAGENT_API_KEY, a profile). */
  apiKeySource?: string;
  /** Where the base URL came from (`profile "work"`, KAGENT_BASE_URL, the --base-url flag), for the hint when nothing answers there. */
  baseUrlSource?: string;
  /** Proxy variables (HTTPS_PROXY, HTTP_PROXY, NO_PROXY); process.env by default. */
  env?: NodeJS.ProcessEnv;
  /** Retries after the first attempt (default 5). */
  retries?: number;
  clock?: Clock;
  /** Learns the service's clock from the answers (service-clock.ts). */
  serviceClock?: ServiceClock;
  /** Aborted on Ctrl-C, and at the command's deadline (`--timeout`, deadline.ts). */
  signal?: AbortSignal;
  /** Injected pacing; by default one in-process bucket per account. */
  pacer?: Pacer;
  /** Share the rate budget with other kagent processes through a state file in this directory. */
  sharedPacingDir?: string;
  backoff?: Partial<BackoffOptions>;
  /** The most bytes read from one answer (MAX_ANSWER_BYTES unless a test says otherwise). */
  maxAnswerBytes?: number;
}

export interface CoreRequest {
  method: string;
  url: URL;
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  /** A JSON body. */
  json?: unknown;
  /** A raw body given whole. */
  body?: string | Buffer;
  /** A raw body streamed from a source opened afresh for every attempt. */
  stream?: () => Readable;
  contentLength?: number;
  /** Sent as Idempotency-Key, the same on every attempt; makes a write safe to retry. */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** `json`: the answer must be JSON (operations). `auto`: JSON if labelled so, else text (`kagent api`). */
  read: 'json' | 'auto';
  /** The contract answers this request with a body (an operation whose success is not 204): an empty answer is no answer. */
  bodyRequired?: boolean;
}

export interface CoreResponse {
  status: number;
  headers: IncomingHeaders;
  body: unknown;
  replayed: boolean;
  /**
   * Attempts of this request that may have reached the service and got no usable answer (a
   * connection lost after sending, a cut-off answer): a replayed answer after one of them may be
   * this run's own work. 0 when every earlier attempt was turned away with an answer (429, 503…).
   */
  unanswered: number;
}

export interface HttpCore {
  readonly baseUrl: URL;
  readonly hasKey: boolean;
  send(request: CoreRequest): Promise<CoreResponse>;
}

const DEFAULT_RATE = 60;
const DEFAULT_RETRIES = 5;
/**
 * Without --timeout, how long a connection may stay silent (no header, no byte of the body)
 * before the attempt is given up; a silent attempt is tried once more (exchange.ts), so a
 * dead connection ends a command in about a minute. With --timeout, that is the bound.
 * Half a minute: the contract's long work runs in the background (tasks, turns, media,
 * followed by polling), so a synchronous answer that sends nothing for 30 s is dead, not
 * slow; and one retry of it still ends within the rate window's minute.
 */
export const IDLE_TIMEOUT_MS = 30_000;
/**
 * The most bytes read from one answer: more ends the call (exit 7, ANSWER_TOO_LARGE) and is
 * never retried. Every answer through the core is read whole into memory (operations' JSON,
 * `kagent api`); large content comes in pages (lists, `lib text`, transcripts) or goes out as
 * uploads, so no answer of the contract comes near. 64 MiB is far above any of them and keeps
 * a misbehaving service's flood to a few hundred MB of memory.
 */
export const MAX_ANSWER_BYTES = 64 * 1_048_576;
export { MAX_RETRY_AFTER_MS, REFUSED_RETRY_MS } from './exchange.js';
/** Waits longer than this are said on stderr ("waiting 42 s: rate limit"). */
export const NOTICE_AFTER_MS = 2_000;
/** The variables that can send a request through a proxy (proxy.ts says how). */
const PROXY_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'];

export function createHttpCore(options: HttpCoreOptions): HttpCore {
  const baseUrl = normaliseBaseUrl(options.baseUrl);
  const insecure = options.insecure ?? false;
  assertTransportAllowed(baseUrl, insecure);

  const clock = options.clock ?? systemClock;
  const apiKey = options.apiKey || undefined;
  if (apiKey !== undefined) checkApiKey(apiKey, options.apiKeySource ?? 'the configuration');
  const routeFor = proxyRoutes(options.env ?? process.env);
  const rate = options.ratePerMinute ?? DEFAULT_RATE;
  const userAgent = options.userAgent ?? 'kagent';
  const settings: ExchangeSettings = {
    clock,
    rate,
    retries: Math.max(0, options.retries ?? DEFAULT_RETRIES),
    timeoutMs: options.requestTimeoutMs ?? IDLE_TIMEOUT_MS,
    backoff: { ...defaultBackoff, ...options.backoff },
    waitLimitMs: options.waitLimitMs,
    deadlineAt: deadlineOf(options.signal),
    maxAnswerBytes: options.maxAnswerBytes ?? MAX_ANSWER_BYTES,
    trace: createTracer(options.debug, [apiKey]),
    redact: redactor([apiKey]),
    pacer:
      options.pacer ??
      (options.sharedPacingDir && apiKey
        ? createSharedPacer({ dir: options.sharedPacingDir, baseUrl: baseUrl.href, apiKey, ratePerMinute: rate, clock })
        : processPacer(`${baseUrl.href}\n${apiKey ?? ''}`, rate, clock)),
    announce: announcer(clock, options.notice),
    serviceClock: options.serviceClock,
  };

  async function send(req: CoreRequest): Promise<CoreResponse> {
    const url = withQuery(req.url, req.query);
    assertTransportAllowed(url, insecure);
    const method = req.method.toUpperCase();
    // The key goes only where it was configured for: never to another origin.
    const authorised = url.origin === baseUrl.origin && apiKey !== undefined;
    const signal = combineSignals(options.signal, req.signal);
    const headers = headersFor(req, authorised ? apiKey : undefined, userAgent);
    const proxy = await routeFor(url);
    try {
      // A request to the base URL's origin: a refusal there is told with where the URL came from.
      const baseFrom = url.origin === baseUrl.origin ? options.baseUrlSource : undefined;
      return await new Exchange(settings, { req, url, method, headers, authorised, proxy, signal, baseFrom }).run();
    } catch (error) {
      // An Authorization header of the caller's (`kagent api -H`) replaced the key: a refusal is of that header.
      const ownHeader = Object.keys(req.headers ?? {}).some((name) => name.toLowerCase() === 'authorization');
      if (ownHeader) blameOwnHeader(error);
      else if (authorised) blameKeySource(error, options.apiKeySource);
      throw error;
    }
  }

  return { baseUrl, hasKey: apiKey !== undefined, send };
}

/** A key from KAGENT_API_KEY that the service refuses: the hint names the variable, which wins over any saved key. */
function blameKeySource(error: unknown, source: string | undefined): void {
  if (!(error instanceof ApiError) || error.status !== 401 || source !== 'KAGENT_API_KEY') return;
  error.hint =
    'the API key in KAGENT_API_KEY was not accepted (it wins over the saved key): fix it, or `unset KAGENT_API_KEY` to use the saved one';
}

/** A 401 to a request that carried its own Authorization header: neither the saved key nor KAGENT_API_KEY was sent. */
function blameOwnHeader(error: unknown): void {
  if (!(error instanceof ApiError) || error.status !== 401) return;
  error.hint =
    'the Authorization header given (-H) was not accepted; it replaced the configured key, which was not sent: fix the header, or leave it out to use the key';
}

/** The proxy for a URL's origin, decided once per origin; proxy.ts is loaded only when a proxy variable is set. */
function proxyRoutes(env: NodeJS.ProcessEnv): (url: URL) => Promise<ProxyRoute | undefined> {
  const routes = new Map<string, ProxyRoute | undefined>();
  return async (url) => {
    if (!PROXY_VARIABLES.some((name) => (env[name] ?? '').trim() !== '')) return undefined;
    if (!routes.has(url.origin)) {
      routes.set(url.origin, proxyRoute(url, env));
    }
    return routes.get(url.origin);
  };
}

/**
 * Says a long wait once: concurrent requests (an upload's files) waiting for the same
 * moment, or moments close together, make one notice, not one each.
 */
function announcer(clock: Clock, notice: ((line: string) => void) | undefined): (ms: number, reason: string) => void {
  let announcedUntil = -Infinity;
  return (ms, reason) => {
    if (ms <= NOTICE_AFTER_MS) return;
    const until = clock.now() + ms;
    if (until <= announcedUntil + NOTICE_AFTER_MS) return;
    announcedUntil = until;
    notice?.(`waiting ${Math.ceil(ms / 1000)} s: ${reason}`);
  };
}

/** `apiKey` only when the request may carry it. */
function headersFor(req: CoreRequest, apiKey: string | undefined, userAgent: string): Record<string, string> {
  const headers: Record<string, string> = { 'user-agent': userAgent, accept: 'application/json' };
  if (apiKey !== undefined) headers.authorization = `Bearer ${apiKey}`;
  if (req.json !== undefined) headers['content-type'] = 'application/json';
  if (req.stream || req.body !== undefined) headers['content-type'] = 'application/octet-stream';
  if (req.contentLength !== undefined) headers['content-length'] = String(req.contentLength);
  if (req.idempotencyKey) headers['idempotency-key'] = req.idempotencyKey;
  for (const [name, value] of Object.entries(req.headers ?? {})) {
    checkHeader(name, value, 'request header');
    headers[name.toLowerCase()] = value;
  }
  if (req.idempotencyKey) checkHeader('idempotency-key', req.idempotencyKey, 'the idempotency key');
  return headers;
}

function combineSignals(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  if (!a) return b;
  if (!b) return a;
  return AbortSignal.any([a, b]);
}
