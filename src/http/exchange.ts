// One call through the HTTP core, from the first attempt to its answer or error:
// paced, sent, then one method per outcome (a 2xx, an error answer, a network
// failure), each deciding to return, to throw, or to wait and try again.
import type { Clock } from './clock.js';
import { CliError, ExitCode } from '../errors.js';
import { answerValues, bodyOf, formatBytes, MAX_ANSWER_VALUES, type WireBody } from './body.js';
import { parseApiError, withoutBom } from './api-error.js';
import { backoffDelay, parseRetryAfter, type BackoffOptions } from './backoff.js';
import type { CoreRequest, CoreResponse } from './core.js';
import {
  emptyAnswer,
  exhaustedHint,
  interruption,
  invalidAnswer,
  notJsonAnswer,
  networkError,
  pacingTooLong,
  redirectHint,
  SAFE_METHODS,
  seconds,
} from './failures.js';
import { PacingTooLong, type Pacer } from './pacer.js';
import type { ProxyRoute } from './proxy.js';
import type { Tracer } from './trace.js';
import type { ServiceClock } from './service-clock.js';
import { deadlinePassed, DeadlineError } from './deadline.js';
import { classifyNetworkError, send as sendOnWire, type IncomingHeaders, type WireResponse } from './transport.js';

/**
 * A Retry-After longer than this is not waited out, nor stored for later commands: the
 * command ends (exit 7) and the error says when to come back. One window of the
 * contract's per-minute limit: a longer wait is about something else.
 */
export const MAX_RETRY_AFTER_MS = 60_000;
/** A refused connection is tried once more after this long, then reported. */
export const REFUSED_RETRY_MS = 250;
const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);

/** What every call of one core shares. */
export interface ExchangeSettings {
  clock: Clock;
  pacer: Pacer;
  trace: Tracer;
  redact: (text: string) => string;
  /** Requests a minute, for messages. */
  rate: number;
  retries: number;
  timeoutMs: number;
  backoff: BackoffOptions;
  waitLimitMs: number | undefined;
  /** The command's deadline (epoch ms), when its signal carries one (deadline.ts): it replaces the per-call limit. */
  deadlineAt?: number | undefined;
  /** The most bytes read from one answer. */
  maxAnswerBytes: number;
  /** Says a long wait on stderr (once for waits that end together). */
  announce: (ms: number, reason: string) => void;
  /** Learns the service's clock from every answer (relative times are of the service's now). */
  serviceClock?: ServiceClock;
}

/** One request, as the core resolved it: final URL, headers, route and signal. */
export interface ExchangeRequest {
  req: CoreRequest;
  url: URL;
  method: string;
  headers: Record<string, string>;
  /** The API key goes with it. */
  authorised: boolean;
  proxy: ProxyRoute | undefined;
  signal: AbortSignal | undefined;
  /** Where the base URL came from, when the request goes to its origin (for the hint when nothing answers). */
  baseFrom?: string | undefined;
}

/** Runs one request to its end; `undefined` from an outcome method means "try again". */
export class Exchange {
  private readonly replayable: boolean;
  private readonly what: string;
  private readonly keyNote: string;
  private readonly via: string;
  private readonly deadline: number | undefined;
  private attempt = 0;
  private retry = 0;
  private refusedRetries = 0;
  private stalledRetries = 0;
  private inProgressWaits = 0;
  private unanswered = 0;

  constructor(
    private readonly s: ExchangeSettings,
    private readonly r: ExchangeRequest,
  ) {
    this.replayable = SAFE_METHODS.has(r.method) || r.req.idempotencyKey !== undefined;
    this.what = `${r.method} ${r.url.href}`;
    this.keyNote = r.req.idempotencyKey ? ` idempotency-key=${r.req.idempotencyKey}` : '';
    this.via = r.proxy ? ` via proxy ${r.proxy.display} (${r.proxy.variable})` : '';
    // --timeout counts from the start of the command (its signal's deadline), else of the call; never of each attempt.
    this.deadline = s.deadlineAt ?? (s.waitLimitMs === undefined ? undefined : s.clock.now() + s.waitLimitMs);
  }

  async run(): Promise<CoreResponse> {
    for (this.attempt = 1; ; this.attempt++) {
      if (this.r.signal?.aborted) throw interruption(this.r.signal);
      await this.paced();
      const done = await this.attemptOnce();
      if (done) return done;
    }
  }

  /** Waits for the rate budget; a wait past --timeout fails at once, nothing sent. */
  private async paced(): Promise<void> {
    const { pacer, trace, rate, announce, waitLimitMs } = this.s;
    const signal = this.r.signal;
    try {
      await guard(signal, () =>
        pacer.take(signal, {
          deadline: this.deadline,
          onWait: (ms) => {
            trace.line(`waiting ${ms} ms for the rate budget (${rate}/min) before ${this.what}`);
            announce(ms, 'rate limit');
          },
        }),
      );
    } catch (error) {
      // No wait at all, and still too late: the deadline passed before the request (start-up took it).
      if (error instanceof PacingTooLong && error.waitMs <= 0) throw new DeadlineError(waitLimitMs ?? 0);
      if (error instanceof PacingTooLong) throw pacingTooLong(error.waitMs, rate, waitLimitMs ?? 0);
      throw error;
    }
  }

  private async attemptOnce(): Promise<CoreResponse | undefined> {
    const { req, url, method, headers, authorised, proxy, signal } = this.r;
    const body = bodyOf(req);
    this.s.trace.line(
      `→ ${this.what} attempt=${this.attempt}${this.keyNote}${authorised ? ' authorization=Bearer [redacted]' : ' (no authorization)'}${this.via}`,
    );
    const started = process.hrtime.bigint();
    let response: WireResponse;
    let text: string;
    try {
      response = await sendOnWire({
        url,
        method,
        headers,
        body,
        signal,
        timeoutMs: this.s.timeoutMs,
        proxy: proxy?.url,
        maxBytes: this.s.maxAnswerBytes,
      });
      text = response.status === 204 ? (await response.discard(), '') : await response.text();
    } catch (error) {
      return this.networkFailure(error, body, started);
    }
    const { status } = response;
    this.s.serviceClock?.observe(response.headers);
    const elapsed = msSince(started);
    const replayed = String(response.headers['idempotent-replayed']).toLowerCase() === 'true';
    this.s.trace.line(
      `← ${status} ${this.what} ${elapsed} ms attempt=${this.attempt}${this.keyNote}${replayed ? ' idempotent-replayed=true' : ''}`,
    );
    if (status >= 200 && status < 300) return this.answeredOk(status, response.headers, text, replayed);
    return this.answeredError(status, response.headers, text);
  }

  /** A 2xx: its body, or (cut off, garbled) another try when the request is replayable. */
  private async answeredOk(
    status: number,
    headers: IncomingHeaders,
    text: string,
    replayed: boolean,
  ): Promise<CoreResponse | undefined> {
    const { req, url, method } = this.r;
    // Nothing where the contract promises a body (a 204, or a 200 of no bytes): not a broken
    // answer that a retry might mend but one the service meant, and no value to print.
    if (text === '' && req.bodyRequired) throw emptyAnswer(method, url, status);
    const contentType = contentTypeOf(headers);
    const parsed = readBody(text, contentType, req.read);
    if (!parsed.ok && parsed.values !== undefined) {
      this.s.trace.line(`✗ ${this.what} answer holds over ${MAX_ANSWER_VALUES} values; not parsed`);
      throw this.tooManyValues();
    }
    if (parsed.ok) return { status, headers, body: parsed.value, replayed, unanswered: this.unanswered };
    this.unanswered++;
    // An answer that says it is something else (a web page at a wrong base URL, a portal's
    // login page) would come again: no retry. Cut off or garbled JSON may not, and the same
    // request again is harmless when replayable.
    const otherType = typeOtherThanJson(contentType);
    if (otherType) throw notJsonAnswer(method, url, status, otherType, this.replayable);
    if (this.replayable && this.retry < this.s.retries) {
      const delay = backoffDelay(++this.retry, this.s.backoff);
      await this.pauseBeforeRetry(
        delay,
        `✗ ${this.what} answer is not valid JSON; retry ${this.retry}/${this.s.retries} in ${delay} ms`,
        'a cut-off answer',
        () => invalidAnswer(method, url, status, this.replayable),
      );
      return undefined;
    }
    throw invalidAnswer(method, url, status, this.replayable);
  }

  /** An error answer: thrown, or waited out and tried again (429, 502-504, an idempotent request still running). */
  private async answeredError(status: number, headers: IncomingHeaders, text: string): Promise<undefined> {
    const { clock, pacer, retries, backoff, rate, waitLimitMs } = this.s;
    const retryAfterMs = parseRetryAfter(headers['retry-after'], clock.now());
    const error = parseApiError({
      status,
      contentType: contentTypeOf(headers),
      text: this.s.redact(text),
      retryAfterMs,
    });
    error.headers = headers;
    if (status >= 300 && status < 400) error.hint ??= redirectHint(this.r.url, headers.location);
    const waitTooLong = retryAfterMs !== undefined && retryAfterMs > MAX_RETRY_AFTER_MS;
    // Every kagent process of this account holds back too — but only for a wait this command
    // would itself sit out: a longer one ends the command below and binds nobody else.
    if (status === 429 && !waitTooLong)
      pacer.pause(clock.now() + (retryAfterMs ?? backoffDelay(this.retry + 1, { ...backoff, random: () => 1 })));

    const key = this.r.req.idempotencyKey;
    if (status === 409 && error.code === 'IDEMPOTENCY_IN_PROGRESS' && key)
      return this.stillInProgress(error, retryAfterMs, key);

    // A 429 means the request was turned away unprocessed, so even a write without a key may repeat.
    const mayRetry = RETRYABLE_STATUS.has(status) && (status === 429 || this.replayable);
    if (!mayRetry) throw error;
    if (waitTooLong) {
      this.s.trace.line(
        `✗ ${this.what} got ${status} ${error.code} with Retry-After ${Math.ceil(retryAfterMs / 1000)} s, longer than ${MAX_RETRY_AFTER_MS / 1000} s; giving up`,
      );
      error.hint = `the service asked to wait ${Math.ceil(retryAfterMs / 1000)} s before trying again`;
      throw error;
    }
    if (this.retry >= retries) {
      error.hint = exhaustedHint(status, this.attempt, rate);
      throw error;
    }
    this.retry++;
    const delay = retryAfterMs ?? backoffDelay(this.retry, backoff);
    await this.pauseBeforeRetry(
      delay,
      `↻ ${this.what} got ${status} ${error.code}; retry ${this.retry}/${retries} in ${delay} ms${retryAfterMs !== undefined ? ' (Retry-After)' : ''}`,
      status === 429 ? 'rate limit' : `service unavailable (${status})`,
      () => {
        error.hint = `the ${retryAfterMs !== undefined ? 'service asked to wait' : 'next retry would come after'} ${seconds(delay)}, longer than --timeout (${seconds(waitLimitMs ?? 0)}) allows`;
        return error;
      },
    );
    return undefined;
  }

  /** The first request with this key is still running: wait for it, then ask again with the same key. */
  private async stillInProgress(error: CliError, retryAfterMs: number | undefined, key: string): Promise<undefined> {
    const hint = `the first request with this key is still running; run the same command again later with \`--idempotency-key ${key}\``;
    if (this.inProgressWaits < this.s.retries) {
      // Never ask again at once (full jitter can pick ~0): at least half the base delay.
      const delay = Math.max(
        retryAfterMs ?? 0,
        this.s.backoff.baseMs / 2 + backoffDelay(++this.inProgressWaits, this.s.backoff),
      );
      await this.pauseBeforeRetry(
        delay,
        `… ${this.what} still in progress under idempotency-key=${key}; asking again in ${delay} ms`,
        'the same request, still running',
        () => {
          error.hint = hint;
          return error;
        },
      );
      return undefined;
    }
    error.hint = hint;
    throw error;
  }

  /** No answer: the body's own failure, an interruption, or a network failure retried when that is safe. */
  private async networkFailure(error: unknown, body: WireBody, started: bigint): Promise<undefined> {
    const { url, method, proxy, signal } = this.r;
    const { trace, retries, backoff, waitLimitMs } = this.s;
    // The body's own source failed (a file that changed while being sent): not the network's doing, never retried.
    const local =
      body && typeof body === 'object' && 'localFailure' in body
        ? (body as { localFailure?: Error }).localFailure
        : undefined;
    if (body && typeof body === 'object' && 'destroy' in body) body.destroy();
    if (local && !signal?.aborted) {
      trace.line(`✗ ${this.what} the body could not be read: ${local.message}`);
      throw local;
    }
    const failure = classifyNetworkError(error);
    if (failure.mayHaveReachedServer) this.unanswered++;
    const deadline = deadlinePassed(signal);
    if (deadline) {
      trace.line(`✗ ${this.what} --timeout ran out after ${msSince(started)} ms attempt=${this.attempt}`);
      throw this.deadlineError(deadline.limitMs);
    }
    if (failure.interrupted || signal?.aborted) throw interruption(signal, error);
    if (failure.code === 'ANSWER_TOO_LARGE') {
      trace.line(`✗ ${this.what} answer larger than ${formatBytes(this.s.maxAnswerBytes)}; stopped reading`);
      throw this.answerTooLarge();
    }
    const elapsed = msSince(started);
    // A write that may have reached the service is only repeated under an idempotency key.
    const mayRetry = failure.transient && (this.replayable || !failure.mayHaveReachedServer);
    // Nothing listening: one quick second try (a service restarting), not a minute of backoff.
    const refused = failure.code === 'ECONNREFUSED';
    // A connection that went silent (no byte for the idle bound): one fresh try, not five more silences.
    const stalled = failure.code === 'UND_ERR_HEADERS_TIMEOUT' || failure.code === 'UND_ERR_BODY_TIMEOUT';
    const attempt = this.attempt;
    const fail = networkError(failure, error, {
      url,
      method,
      attempts: attempt,
      retried: mayRetry,
      proxy,
      baseFrom: this.r.baseFrom,
    });
    if (
      mayRetry &&
      this.retry < retries &&
      (!refused || this.refusedRetries < 1) &&
      (!stalled || this.stalledRetries < 1)
    ) {
      if (refused) this.refusedRetries++;
      if (stalled) this.stalledRetries++;
      const delay = refused ? REFUSED_RETRY_MS : backoffDelay(this.retry + 1, backoff);
      this.retry++;
      await this.pauseBeforeRetry(
        delay,
        `✗ ${this.what} ${failure.code} after ${elapsed} ms attempt=${attempt}; retry ${this.retry}/${retries} in ${delay} ms`,
        failure.description,
        () => {
          fail.hint = `${fail.hint ? `${fail.hint}; ` : ''}the next retry would come after --timeout (${seconds(waitLimitMs ?? 0)})`;
          return fail;
        },
      );
      return undefined;
    }
    trace.line(`✗ ${this.what} ${failure.code} after ${elapsed} ms attempt=${attempt}; giving up`);
    throw fail;
  }

  /** No complete answer before --timeout ran out. */
  private deadlineError(limitMs: number): DeadlineError {
    const { url, method, proxy } = this.r;
    return new DeadlineError(
      limitMs,
      `${method} ${url.pathname}: no complete answer within --timeout (${seconds(limitMs)})${this.attempt > 1 ? ` (${this.attempt} attempts)` : ''}`,
      proxy
        ? `the service, or the proxy ${proxy.display} (${proxy.variable}), did not answer in time; give a longer --timeout, or check them with \`kagent doctor\``
        : 'the service did not answer in time; give a longer --timeout, or check it with `kagent doctor`',
    );
  }

  /** An answer past kagent's cap on one answer: reading stopped. */
  private answerTooLarge(): CliError {
    const { url, method } = this.r;
    return new CliError(
      `${method} ${url.pathname}: the answer is larger than ${formatBytes(this.s.maxAnswerBytes)}, kagent's cap on one answer; stopped reading it`,
      {
        exitCode: ExitCode.UNAVAILABLE,
        code: 'ANSWER_TOO_LARGE',
        hint: 'no answer of the API comes near that size: the service (or something in between) misbehaves; try again later',
      },
    );
  }

  /** An answer within the byte cap that holds more values than kagent parses (body.ts, MAX_ANSWER_VALUES). */
  private tooManyValues(): CliError {
    const { url, method } = this.r;
    return new CliError(
      `${method} ${url.pathname}: the answer holds more than ${MAX_ANSWER_VALUES.toLocaleString('en')} values (a key of an object of over 1,000 keys counting as 10), kagent's cap on one answer; it was not read`,
      {
        exitCode: ExitCode.UNAVAILABLE,
        code: 'ANSWER_TOO_LARGE',
        hint: 'no answer of the API comes near that many: the service (or something in between) misbehaves; try again later',
      },
    );
  }

  /** A wait before trying again: bounded by --timeout (`tooLong` is thrown instead of waiting), said when long, traced. */
  private async pauseBeforeRetry(
    delay: number,
    traceLine: string,
    reason: string,
    tooLong: () => CliError,
  ): Promise<void> {
    const { clock, trace, announce } = this.s;
    if (this.deadline !== undefined && clock.now() + delay > this.deadline) {
      trace.line(`${traceLine}: past --timeout, giving up`);
      throw tooLong();
    }
    trace.line(traceLine);
    announce(delay, reason);
    await guard(this.r.signal, () => clock.sleep(delay, this.r.signal));
  }
}

/** Not ok: not JSON, or (`values`) JSON holding more values than MAX_ANSWER_VALUES, left unparsed. */
type Parsed = { ok: true; value: unknown } | { ok: false; values?: number };

/** For the trace. (process.hrtime, not `performance`: the latter loads a dozen modules on first touch.) */
function msSince(start: bigint): number {
  return Math.round(Number(process.hrtime.bigint() - start) / 1e6);
}

function readBody(text: string, contentType: string, mode: 'json' | 'auto'): Parsed {
  if (text === '') return { ok: true, value: undefined };
  if (mode === 'auto' && !/[/+]json\b/i.test(contentType)) return { ok: true, value: text };
  // Counted before parsing: past the cap, parsing alone would take gigabytes.
  const values = answerValues(text);
  if (values !== undefined && values > MAX_ANSWER_VALUES) return { ok: false, values };
  try {
    // A byte order mark before the JSON is accepted, not retried as a broken answer.
    return { ok: true, value: JSON.parse(withoutBom(text)) };
  } catch {
    return { ok: false };
  }
}

/** `text/html` for an answer that says it is not JSON; undefined for JSON or no type said. */
function typeOtherThanJson(contentType: string): string | undefined {
  const type = /^\s*([\w.+-]+\/[\w.+-]+)/.exec(contentType)?.[1]?.toLowerCase();
  return type && !/[/+]json$/.test(type) ? type : undefined;
}

function contentTypeOf(headers: IncomingHeaders): string {
  const value = headers['content-type'];
  return (Array.isArray(value) ? value[0] : value) ?? '';
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
