// The HTTP core: one `send` that every API call and `kagent api` request goes
// through. It adds auth and identification, paces, retries what is safe to
// retry, keeps idempotency keys stable across attempts, traces, and turns every
// failure into a CliError with the documented exit code.
import type { Readable } from 'node:stream';
import type { Clock } from '../context.js';
import { CliError, ExitCode, InterruptedError, NetworkError } from '../errors.js';
import { parseApiError } from './api-error.js';
import { backoffDelay, defaultBackoff, parseRetryAfter, type BackoffOptions } from './backoff.js';
import { systemClock } from './clock.js';
import { checkApiKey, checkHeader } from './headers.js';
import { PacingTooLong, processPacer, type Pacer } from './pacer.js';
import type { ProxyRoute } from './proxy.js';
import { createSharedPacer } from './shared-pacer.js';
import { createTracer, redactor, type DebugSink } from './trace.js';
import { classifyNetworkError, send as sendOnWire, type IncomingHeaders, type NetworkFailure, type WireResponse } from './transport.js';
import { assertTransportAllowed, normaliseBaseUrl, withQuery, type QueryValue } from './url.js';

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
   * this long after the call began; one that would fails the call at once (exit 7) instead.
   */
  waitLimitMs?: number;
  /** Receives "waiting 42 s: rate limit" for every wait longer than NOTICE_AFTER_MS (stderr, unless --quiet). */
  notice?: (line: string) => void;
  /** Where the API key came from, for the message when it cannot be sent (KAGENT_API_KEY, a profile). */
  apiKeySource?: string;
  /** Proxy variables (HTTPS_PROXY, HTTP_PROXY, NO_PROXY); process.env by default. */
  env?: NodeJS.ProcessEnv;
  /** Retries after the first attempt (default 5). */
  retries?: number;
  clock?: Clock;
  /** Aborted on Ctrl-C. */
  signal?: AbortSignal;
  /** Injected pacing; by default one in-process bucket per account. */
  pacer?: Pacer;
  /** Share the rate budget with other kagent processes through a state file in this directory. */
  sharedPacingDir?: string;
  backoff?: Partial<BackoffOptions>;
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
const DEFAULT_TIMEOUT_MS = 60_000;
/**
 * A Retry-After longer than this is not waited out, nor stored for later commands: the
 * command ends (exit 7) and the error says when to come back. One window of the
 * contract's per-minute limit: a longer wait is about something else.
 */
export const MAX_RETRY_AFTER_MS = 60_000;
/** Waits longer than this are said on stderr ("waiting 42 s: rate limit"). */
export const NOTICE_AFTER_MS = 2_000;
/** A refused connection is tried once more after this long, then reported. */
export const REFUSED_RETRY_MS = 250;
/** Methods whose repetition changes nothing. Other writes need an Idempotency-Key to be retried once they reached the service. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);
/** The variables that can send a request through a proxy (proxy.ts says how). */
const PROXY_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'];

export function createHttpCore(options: HttpCoreOptions): HttpCore {
  const baseUrl = normaliseBaseUrl(options.baseUrl);
  const insecure = options.insecure ?? false;
  assertTransportAllowed(baseUrl, insecure);

  const clock = options.clock ?? systemClock;
  const apiKey = options.apiKey || undefined;
  if (apiKey !== undefined) checkApiKey(apiKey, options.apiKeySource ?? 'the configuration');
  const env = options.env ?? process.env;
  const waitLimitMs = options.waitLimitMs;
  const routes = new Map<string, ProxyRoute | undefined>();
  /** The proxy for this URL's origin, decided once per origin; proxy.ts is loaded only when a proxy variable is set. */
  const routeFor = async (url: URL): Promise<ProxyRoute | undefined> => {
    if (!PROXY_VARIABLES.some((name) => (env[name] ?? '').trim() !== '')) return undefined;
    if (!routes.has(url.origin)) {
      const { proxyRoute } = await import('./proxy.js');
      routes.set(url.origin, proxyRoute(url, env));
    }
    return routes.get(url.origin);
  };
  const retries = Math.max(0, options.retries ?? DEFAULT_RETRIES);
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  const backoff: BackoffOptions = { ...defaultBackoff, ...options.backoff };
  const userAgent = options.userAgent ?? 'kagent';
  const rate = options.ratePerMinute ?? DEFAULT_RATE;
  const trace = createTracer(options.debug, [apiKey]);
  const redact = redactor([apiKey]);
  const pacer =
    options.pacer ??
    (options.sharedPacingDir && apiKey
      ? createSharedPacer({ dir: options.sharedPacingDir, baseUrl: baseUrl.href, apiKey, ratePerMinute: rate, clock })
      : processPacer(`${baseUrl.href}\n${apiKey ?? ''}`, rate, clock));

  async function send(req: CoreRequest): Promise<CoreResponse> {
    const url = withQuery(req.url, req.query);
    assertTransportAllowed(url, insecure);
    const method = req.method.toUpperCase();
    // The key goes only where it was configured for: never to another origin.
    const authorised = url.origin === baseUrl.origin && apiKey !== undefined;
    const signal = combineSignals(options.signal, req.signal);
    const replayable = SAFE_METHODS.has(method) || req.idempotencyKey !== undefined;
    const what = `${method} ${url.href}`;
    const keyNote = req.idempotencyKey ? ` idempotency-key=${req.idempotencyKey}` : '';
    const sendHeaders = headersFor(req, authorised);
    const proxy = await routeFor(url);
    const via = proxy ? ` via proxy ${proxy.display} (${proxy.variable})` : '';
    const deadline = waitLimitMs === undefined ? undefined : clock.now() + waitLimitMs;

    let retry = 0;
    let refusedRetries = 0;
    let inProgressWaits = 0;
    let unanswered = 0;
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw interruption(signal);
      try {
        await guard(signal, () =>
          pacer.take(signal, {
            deadline,
            onWait: (ms) => {
              trace.line(`waiting ${ms} ms for the rate budget (${rate}/min) before ${what}`);
              announce(ms, 'rate limit');
            },
          }),
        );
      } catch (error) {
        if (error instanceof PacingTooLong) throw pacingTooLong(error.waitMs, rate, waitLimitMs ?? 0);
        throw error;
      }

      const body = req.json !== undefined ? JSON.stringify(req.json) : req.stream ? req.stream() : req.body;
      trace.line(`→ ${what} attempt=${attempt}${keyNote}${authorised ? ' authorization=Bearer [redacted]' : ' (no authorization)'}${via}`);
      const started = process.hrtime.bigint();
      let response: WireResponse;
      let text: string;
      try {
        response = await sendOnWire({ url, method, headers: sendHeaders, body, signal, timeoutMs, proxy: proxy?.url });
        text = response.status === 204 ? (await response.discard(), '') : await response.text();
      } catch (error) {
        // The body's own source failed (a file that changed while being sent): not the network's doing, never retried.
        const local = body && typeof body === 'object' && 'localFailure' in body ? (body as { localFailure?: Error }).localFailure : undefined;
        if (body && typeof body === 'object' && 'destroy' in body) body.destroy();
        if (local && !signal?.aborted) {
          trace.line(`✗ ${what} the body could not be read: ${local.message}`);
          throw local;
        }
        const failure = classifyNetworkError(error);
        if (failure.mayHaveReachedServer) unanswered++;
        if (failure.interrupted || signal?.aborted) throw interruption(signal, error);
        const elapsed = msSince(started);
        // A write that may have reached the service is only repeated under an idempotency key.
        const mayRetry = failure.transient && (replayable || !failure.mayHaveReachedServer);
        // Nothing listening: one quick second try (a service restarting), not a minute of backoff.
        const refused = failure.code === 'ECONNREFUSED';
        if (mayRetry && retry < retries && (!refused || refusedRetries < 1)) {
          if (refused) refusedRetries++;
          const delay = refused ? REFUSED_RETRY_MS : backoffDelay(retry + 1, backoff);
          retry++;
          const fail = networkError(failure, error, { url, method, attempts: attempt, retried: mayRetry, proxy });
          await pauseBeforeRetry(delay, `✗ ${what} ${failure.code} after ${elapsed} ms attempt=${attempt}; retry ${retry}/${retries} in ${delay} ms`, failure.description, () => {
            fail.hint = `${fail.hint ? `${fail.hint}; ` : ''}the next retry would come after --timeout (${seconds(waitLimitMs ?? 0)})`;
            return fail;
          });
          continue;
        }
        trace.line(`✗ ${what} ${failure.code} after ${elapsed} ms attempt=${attempt}; giving up`);
        throw networkError(failure, error, { url, method, attempts: attempt, retried: mayRetry, proxy });
      }

      const { status, headers } = response;
      const elapsed = msSince(started);
      const replayed = String(headers['idempotent-replayed']).toLowerCase() === 'true';
      trace.line(`← ${status} ${what} ${elapsed} ms attempt=${attempt}${keyNote}${replayed ? ' idempotent-replayed=true' : ''}`);

      if (status >= 200 && status < 300) {
        const parsed = readBody(text, contentTypeOf(headers), req.read);
        if (parsed.ok) return { status, headers, body: parsed.value, replayed, unanswered };
        // Cut off or garbled: the same request again is harmless only when replayable.
        unanswered++;
        if (replayable && retry < retries) {
          const delay = backoffDelay(++retry, backoff);
          await pauseBeforeRetry(delay, `✗ ${what} answer is not valid JSON; retry ${retry}/${retries} in ${delay} ms`, 'a cut-off answer', () =>
            invalidAnswer(method, url, status, replayable),
          );
          continue;
        }
        throw invalidAnswer(method, url, status, replayable);
      }

      const answerHeaders = response.headers;
      const retryAfterMs = parseRetryAfter(answerHeaders['retry-after'], clock.now());
      const error = parseApiError({ status, contentType: contentTypeOf(answerHeaders), text: redact(text), retryAfterMs });
      error.headers = answerHeaders;
      const waitTooLong = retryAfterMs !== undefined && retryAfterMs > MAX_RETRY_AFTER_MS;
      // Every kagent process of this account holds back too — but only for a wait this command
      // would itself sit out: a longer one ends the command below and binds nobody else.
      if (status === 429 && !waitTooLong) pacer.pause(clock.now() + (retryAfterMs ?? backoffDelay(retry + 1, { ...backoff, random: () => 1 })));

      if (status === 409 && error.code === 'IDEMPOTENCY_IN_PROGRESS' && req.idempotencyKey) {
        // The first request with this key is still running: wait for it, then ask again with the same key.
        if (inProgressWaits < retries) {
          // Never ask again at once (full jitter can pick ~0): at least half the base delay.
          const delay = Math.max(retryAfterMs ?? 0, backoff.baseMs / 2 + backoffDelay(++inProgressWaits, backoff));
          await pauseBeforeRetry(delay, `… ${what} still in progress under idempotency-key=${req.idempotencyKey}; asking again in ${delay} ms`, 'the same request, still running', () => {
            error.hint = `the first request with this key is still running; run the same command again later with --idempotency-key ${req.idempotencyKey}`;
            return error;
          });
          continue;
        }
        error.hint = `the first request with this key is still running; run the same command again later with --idempotency-key ${req.idempotencyKey}`;
        throw error;
      }

      // A 429 means the request was turned away unprocessed, so even a write without a key may repeat.
      const mayRetry = RETRYABLE_STATUS.has(status) && (status === 429 || replayable);
      if (!mayRetry) throw error;
      if (waitTooLong) {
        trace.line(`✗ ${what} got ${status} ${error.code} with Retry-After ${Math.ceil(retryAfterMs / 1000)} s, longer than ${MAX_RETRY_AFTER_MS / 1000} s; giving up`);
        error.hint = `the service asked to wait ${Math.ceil(retryAfterMs / 1000)} s before trying again`;
        throw error;
      }
      if (retry >= retries) {
        error.hint = exhaustedHint(status, attempt, rate);
        throw error;
      }
      retry++;
      const delay = retryAfterMs ?? backoffDelay(retry, backoff);
      await pauseBeforeRetry(
        delay,
        `↻ ${what} got ${status} ${error.code}; retry ${retry}/${retries} in ${delay} ms${retryAfterMs !== undefined ? ' (Retry-After)' : ''}`,
        status === 429 ? 'rate limit' : `service unavailable (${status})`,
        () => {
          error.hint = `the ${retryAfterMs !== undefined ? 'service asked to wait' : 'next retry would come after'} ${seconds(delay)}, longer than --timeout (${seconds(waitLimitMs ?? 0)}) allows`;
          return error;
        },
      );
    }

    /** A wait before trying again: bounded by --timeout (`tooLong` is thrown instead of waiting), said when long, traced. */
    async function pauseBeforeRetry(delay: number, traceLine: string, reason: string, tooLong: () => CliError): Promise<void> {
      if (deadline !== undefined && clock.now() + delay > deadline) {
        trace.line(`${traceLine}: past --timeout, giving up`);
        throw tooLong();
      }
      trace.line(traceLine);
      announce(delay, reason);
      await guard(signal, () => clock.sleep(delay, signal));
    }
  }

  /**
   * Says a long wait once: concurrent requests (an upload's files) waiting for the same
   * moment, or moments close together, make one notice, not one each.
   */
  let announcedUntil = -Infinity;
  function announce(ms: number, reason: string): void {
    if (ms <= NOTICE_AFTER_MS) return;
    const until = clock.now() + ms;
    if (until <= announcedUntil + NOTICE_AFTER_MS) return;
    announcedUntil = until;
    options.notice?.(`waiting ${Math.ceil(ms / 1000)} s: ${reason}`);
  }

  function headersFor(req: CoreRequest, authorised: boolean): Record<string, string> {
    const headers: Record<string, string> = { 'user-agent': userAgent, accept: 'application/json' };
    if (authorised) headers.authorization = `Bearer ${apiKey}`;
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

  return { baseUrl, hasKey: apiKey !== undefined, send };
}

type Parsed = { ok: true; value: unknown } | { ok: false };

/** For the trace. (process.hrtime, not `performance`: the latter loads a dozen modules on first touch.) */
function msSince(start: bigint): number {
  return Math.round(Number(process.hrtime.bigint() - start) / 1e6);
}

function readBody(text: string, contentType: string, mode: 'json' | 'auto'): Parsed {
  if (text === '') return { ok: true, value: undefined };
  if (mode === 'auto' && !/[/+]json\b/i.test(contentType)) return { ok: true, value: text };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function contentTypeOf(headers: IncomingHeaders): string {
  const value = headers['content-type'];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

function combineSignals(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  if (!a) return b;
  if (!b) return a;
  return AbortSignal.any([a, b]);
}

/** Runs a wait; an abort during it becomes an InterruptedError. */
async function guard<T>(signal: AbortSignal | undefined, wait: () => Promise<T>): Promise<T> {
  try {
    return await wait();
  } catch (error) {
    if (signal?.aborted) throw interruption(signal, error);
    throw error;
  }
}

/** Ctrl-C (or a caller's abort): a CliError given as the reason is passed on as it is. */
function interruption(signal: AbortSignal | undefined, cause?: unknown): CliError {
  const reason: unknown = signal?.reason;
  if (reason instanceof CliError) return reason;
  const error = new InterruptedError('interrupted');
  if (cause !== undefined) (error as { cause?: unknown }).cause = cause;
  return error;
}

function networkError(
  failure: NetworkFailure,
  cause: unknown,
  { url, method, attempts, retried, proxy }: { url: URL; method: string; attempts: number; retried: boolean; proxy: ProxyRoute | undefined },
): NetworkError {
  const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
  const proxyHost = proxy ? new URL(proxy.url).host : undefined;
  if (failure.code === 'ECONNREFUSED') {
    // Name who refused: the API's host, or the proxy in between.
    const who = proxyHost ? `proxy ${proxyHost}` : url.host;
    const hint = proxy
      ? `nothing is listening at the proxy ${proxy.display} (${proxy.variable}): check it, or list ${url.hostname} in NO_PROXY`
      : `nothing is listening at ${url.origin}: check the base URL (--base-url / KAGENT_BASE_URL)`;
    return new NetworkError(`${method} ${url.pathname}: connection refused by ${who}${tries}`, cause, hint);
  }
  if (failure.code === 'PROXY_AUTH' || failure.code === 'PROXY_ERROR') {
    const hint =
      failure.code === 'PROXY_AUTH'
        ? `give the proxy's credentials in ${proxy?.variable ?? 'the proxy variable'} (http://user:password@host:port)`
        : `the proxy ${proxy?.display ?? ''} could not reach ${url.host}; or list ${url.hostname} in NO_PROXY`;
    return new NetworkError(`${method} ${url.pathname}: ${failure.description}${tries}`, cause, hint);
  }
  let hint: string | undefined;
  if (failure.code === 'ENOTFOUND' && proxyHost) hint = `check the proxy's host name in ${proxy?.variable}`;
  else if (failure.code === 'ENOTFOUND') hint = `check the host name in the base URL (${url.host})`;
  else if (!retried && failure.transient && !SAFE_METHODS.has(method))
    hint = 'the request may have reached the service, so it was not repeated: check whether it took effect before running it again';
  else if (failure.transient) hint = 'the service may be unreachable or overloaded; try again later';
  return new NetworkError(`${method} ${url.pathname}: ${failure.description}${tries}`, cause, hint);
}

/** `--timeout` is shorter than the wait for the rate budget: nothing was sent, nothing reserved. */
function pacingTooLong(waitMs: number, rate: number, limitMs: number): CliError {
  return new CliError(`the rate limit (${rate} request${rate === 1 ? '' : 's'} a minute) lets the next request go in ${seconds(waitMs)}, later than --timeout (${seconds(limitMs)}) allows`, {
    exitCode: ExitCode.UNAVAILABLE,
    code: 'RATE_LIMITED',
    hint: `nothing was sent; run it again in ${seconds(waitMs)}, or give a longer --timeout`,
  });
}

/** 42 s, 1.5 s, 250 ms. */
function seconds(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  return `${s >= 10 ? Math.ceil(s) : Math.round(s * 10) / 10} s`;
}

function invalidAnswer(method: string, url: URL, status: number, replayable: boolean): CliError {
  return new CliError(`${method} ${url.pathname}: the service answered ${status} but its body is not valid JSON (cut off?)`, {
    exitCode: ExitCode.UNAVAILABLE,
    code: 'INVALID_RESPONSE',
    hint: replayable
      ? 'the answer was still broken after retrying; try again later'
      : 'the request reached the service and probably took effect: check before running it again',
  });
}

function exhaustedHint(status: number, attempts: number, rate: number): string {
  if (status === 429) {
    return `still rate-limited after ${attempts} attempts: the account allows about ${rate} requests a minute, shared by every client using this key; wait a minute and try again`;
  }
  return `the service is unavailable (still ${status} after ${attempts} attempts); try again later`;
}
