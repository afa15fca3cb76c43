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
import { processPacer, type Pacer } from './pacer.js';
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
/** A Retry-After longer than this is not waited out silently: the error says when to come back. */
const MAX_RETRY_AFTER_MS = 120_000;
/** Methods whose repetition changes nothing. Other writes need an Idempotency-Key to be retried once they reached the service. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);

export function createHttpCore(options: HttpCoreOptions): HttpCore {
  const baseUrl = normaliseBaseUrl(options.baseUrl);
  const insecure = options.insecure ?? false;
  assertTransportAllowed(baseUrl, insecure);

  const clock = options.clock ?? systemClock;
  const apiKey = options.apiKey || undefined;
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

    let retry = 0;
    let inProgressWaits = 0;
    let unanswered = 0;
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw interruption(signal);
      const waited = await guard(signal, () => pacer.take(signal));
      if (waited > 0) trace.line(`waited ${waited} ms for the rate budget (${rate}/min)`);

      const body = req.json !== undefined ? JSON.stringify(req.json) : req.stream ? req.stream() : req.body;
      trace.line(`→ ${what} attempt=${attempt}${keyNote}${authorised ? ' authorization=Bearer [redacted]' : ' (no authorization)'}`);
      const started = process.hrtime.bigint();
      let response: WireResponse;
      let text: string;
      try {
        response = await sendOnWire({ url, method, headers: headersFor(req, authorised), body, signal, timeoutMs });
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
        if (mayRetry && retry < retries) {
          const delay = backoffDelay(++retry, backoff);
          await pauseBeforeRetry(delay, `✗ ${what} ${failure.code} after ${elapsed} ms attempt=${attempt}; retry ${retry}/${retries} in ${delay} ms`);
          continue;
        }
        trace.line(`✗ ${what} ${failure.code} after ${elapsed} ms attempt=${attempt}; giving up`);
        throw networkError(failure, error, { url, method, attempts: attempt, retried: mayRetry });
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
          await pauseBeforeRetry(delay, `✗ ${what} answer is not valid JSON; retry ${retry}/${retries} in ${delay} ms`);
          continue;
        }
        throw invalidAnswer(method, url, status, replayable);
      }

      const retryAfterMs = parseRetryAfter(headers['retry-after'], clock.now());
      const error = parseApiError({ status, contentType: contentTypeOf(headers), text: redact(text), retryAfterMs });
      error.headers = headers;
      if (status === 429) pacer.pause(clock.now() + (retryAfterMs ?? backoffDelay(retry + 1, { ...backoff, random: () => 1 })));

      if (status === 409 && error.code === 'IDEMPOTENCY_IN_PROGRESS' && req.idempotencyKey) {
        // The first request with this key is still running: wait for it, then ask again with the same key.
        if (inProgressWaits < retries) {
          // Never ask again at once (full jitter can pick ~0): at least half the base delay.
          const delay = Math.max(retryAfterMs ?? 0, backoff.baseMs / 2 + backoffDelay(++inProgressWaits, backoff));
          await pauseBeforeRetry(delay, `… ${what} still in progress under idempotency-key=${req.idempotencyKey}; asking again in ${delay} ms`);
          continue;
        }
        error.hint = `the first request with this key is still running; run the same command again later with --idempotency-key ${req.idempotencyKey}`;
        throw error;
      }

      // A 429 means the request was turned away unprocessed, so even a write without a key may repeat.
      const mayRetry = RETRYABLE_STATUS.has(status) && (status === 429 || replayable);
      if (!mayRetry) throw error;
      if (retryAfterMs !== undefined && retryAfterMs > MAX_RETRY_AFTER_MS) {
        error.hint = `the service asked to wait ${Math.ceil(retryAfterMs / 1000)} s before trying again`;
        throw error;
      }
      if (retry >= retries) {
        error.hint = exhaustedHint(status, attempt, rate);
        throw error;
      }
      retry++;
      const delay = retryAfterMs ?? backoffDelay(retry, backoff);
      await pauseBeforeRetry(delay, `↻ ${what} got ${status} ${error.code}; retry ${retry}/${retries} in ${delay} ms${retryAfterMs !== undefined ? ' (Retry-After)' : ''}`);
    }

    async function pauseBeforeRetry(delay: number, traceLine: string): Promise<void> {
      trace.line(traceLine);
      await guard(signal, () => clock.sleep(delay, signal));
    }
  }

  function headersFor(req: CoreRequest, authorised: boolean): Record<string, string> {
    const headers: Record<string, string> = { 'user-agent': userAgent, accept: 'application/json' };
    if (authorised) headers.authorization = `Bearer ${apiKey}`;
    if (req.json !== undefined) headers['content-type'] = 'application/json';
    if (req.stream || req.body !== undefined) headers['content-type'] = 'application/octet-stream';
    if (req.contentLength !== undefined) headers['content-length'] = String(req.contentLength);
    if (req.idempotencyKey) headers['idempotency-key'] = req.idempotencyKey;
    for (const [name, value] of Object.entries(req.headers ?? {})) headers[name.toLowerCase()] = value;
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
  { url, method, attempts, retried }: { url: URL; method: string; attempts: number; retried: boolean },
): NetworkError {
  const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
  let hint: string | undefined;
  if (failure.code === 'ECONNREFUSED') hint = `nothing is listening at ${url.origin}: check the base URL (--base-url / KAGENT_BASE_URL)`;
  else if (failure.code === 'ENOTFOUND') hint = `check the host name in the base URL (${url.host})`;
  else if (!retried && failure.transient && !SAFE_METHODS.has(method))
    hint = 'the request may have reached the service, so it was not repeated: check whether it took effect before running it again';
  else if (failure.transient) hint = 'the service may be unreachable or overloaded; try again later';
  return new NetworkError(`${method} ${url.pathname}: ${failure.description}${tries}`, cause, hint);
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
