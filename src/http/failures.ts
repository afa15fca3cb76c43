// The errors the HTTP core ends a call with: what each failure is called, which
// exit code it carries and what the hint tells the user to do next.
import { abortError, CliError, ExitCode, NetworkError } from '../errors.js';
import type { ProxyRoute } from './proxy.js';

/** Methods whose repetition changes nothing. Other writes need an Idempotency-Key to be retried once they reached the service. */
export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Ctrl-C (or a caller's abort), or the deadline's own error: the shared mapping (errors.ts). */
export const interruption = abortError;

export function networkError(
  failure: NetworkFailure,
  cause: unknown,
  {
    url,
    method,
    attempts,
    retried,
    proxy,
    baseFrom,
  }: {
    url: URL;
    method: string;
    attempts: number;
    retried: boolean;
    proxy: ProxyRoute | undefined;
    /** Where the base URL came from ("profile \"sandbox\"", "KAGENT_BASE_URL"), when the request went to it. */
    baseFrom?: string | undefined;
  },
): NetworkError {
  const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
  const proxyHost = proxy ? new URL(proxy.url).host : undefined;
  if (failure.code === 'ECONNREFUSED') {
    // Name who refused: the API's host, or the proxy in between.
    const who = proxyHost ? `proxy ${proxyHost}` : url.host;
    const hint = proxy
      ? `nothing is listening at the proxy ${proxy.display} (${proxy.variable}): check it, or list ${url.hostname} in NO_PROXY`
      : refusedHint(url, baseFrom);
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
    hint =
      'the request may have reached the service, so it was not repeated: check whether it took effect before running it again';
  else if (failure.transient) hint = 'the service may be unreachable or overloaded; try again later';
  return new NetworkError(`${method} ${url.pathname}: ${failure.description}${tries}`, cause, hint);
}

/**
 * Nobody at the service's address: say where that address came from (a profile is
 * checked with config, not with --base-url), and that on this machine the likely cause
 * is a local service, the sandbox, that is not running.
 */
function refusedHint(url: URL, baseFrom: string | undefined): string {
  const check = baseFrom
    ? `check the base URL (it comes from ${baseFrom})`
    : 'check the base URL (--base-url / KAGENT_BASE_URL)';
  const local = /^(localhost|127(\.\d+){3}|\[::1\])$/.test(url.hostname);
  return local
    ? `nothing is listening at ${url.origin}: a local service such as the sandbox may not be running (start it with \`kagent sandbox\`); or ${check}`
    : `nothing is listening at ${url.origin}: ${check}`;
}

/** `--timeout` is shorter than the wait for the rate budget: nothing was sent, nothing reserved. */
export function pacingTooLong(waitMs: number, rate: number, limitMs: number): CliError {
  return new CliError(
    `the rate limit (${rate} request${rate === 1 ? '' : 's'} a minute) lets the next request go in ${seconds(waitMs)}, later than --timeout (${seconds(limitMs)}) allows`,
    {
      exitCode: ExitCode.UNAVAILABLE,
      code: 'RATE_LIMITED',
      hint: `nothing was sent; run it again in ${seconds(waitMs)}, or give a longer --timeout`,
    },
  );
}

/** 42 s, 1.5 s, 250 ms. */
export function seconds(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  return `${s >= 10 ? Math.ceil(s) : Math.round(s * 10) / 10} s`;
}

export function invalidAnswer(method: string, url: URL, status: number, replayable: boolean): CliError {
  return new CliError(
    `${method} ${url.pathname}: the service answered ${status} but its body is not valid JSON (cut off?)`,
    {
      exitCode: ExitCode.UNAVAILABLE,
      code: 'INVALID_RESPONSE',
      hint: replayable
        ? 'the answer was still broken after retrying; try again later'
        : 'the request reached the service and probably took effect: check before running it again',
    },
  );
}

/** A 2xx with no body where the contract promises one: nothing to show, nor to act on. */
export function emptyAnswer(method: string, url: URL, status: number): CliError {
  return new CliError(
    `${method} ${url.pathname}: the service answered ${status} with no body, where the API promises one`,
    {
      exitCode: ExitCode.UNAVAILABLE,
      code: 'INVALID_RESPONSE',
      // A write answered, however oddly, was done: even under an idempotency key, its result is unknown.
      hint: SAFE_METHODS.has(method)
        ? 'the service (or something in between) misbehaves; try again later'
        : 'the request reached the service and probably took effect: check before running it again',
    },
  );
}

/**
 * A 3xx: kagent never follows one (the key would go where the service says, not where
 * the base URL does); the hint names where it points, without its query.
 */
export function redirectHint(url: URL, location: unknown): string {
  let target: URL | undefined;
  try {
    target = typeof location === 'string' ? new URL(location, url) : undefined;
  } catch {
    target = undefined;
  }
  const where = target && /^https?:$/.test(target.protocol) ? `${target.origin}${target.pathname}` : undefined;
  const shown = where && where.length > 200 ? `${where.slice(0, 199)}…` : where;
  return `${shown ? `the service points to ${shown}, but ` : ''}kagent does not follow redirects, so that the key goes only to the base URL: if the service has moved, change the base URL (--base-url / KAGENT_BASE_URL)`;
}

/** A 2xx whose Content-Type says it is not JSON (`type`, e.g. text/html): not the API's answer. */
export function notJsonAnswer(method: string, url: URL, status: number, type: string, replayable: boolean): CliError {
  return new CliError(`${method} ${url.pathname}: the service answered ${status} with ${type}, not JSON`, {
    exitCode: ExitCode.UNAVAILABLE,
    code: 'INVALID_RESPONSE',
    hint: notJsonHint(url, type, replayable),
  });
}

/** The hint for an answer that is not JSON: a write may have taken effect, so check before again; else the base URL is suspect (a web page most of all). */
function notJsonHint(url: URL, type: string, replayable: boolean): string {
  if (!replayable) return 'the request reached the service and probably took effect: check before running it again';
  if (type === 'text/html' || type === 'application/xhtml+xml')
    return `${url.origin} answered with a web page (a wrong base URL, or a network's sign-in page?): check the base URL (--base-url / KAGENT_BASE_URL)`;
  return 'check the base URL (--base-url / KAGENT_BASE_URL), or try again later';
}

export function exhaustedHint(status: number, attempts: number, rate: number): string {
  if (status === 429) {
    return `still rate-limited after ${attempts} attempts: the account allows about ${rate} requests a minute, shared by every client using this key; wait a minute and try again`;
  }
  return `the service is unavailable (still ${status} after ${attempts} attempts); try again later`;
}

/** A failure of the wire (transport.ts, tunnel.ts), with the code classifyNetworkError reads. */
export function failure(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** A proxy that would not carry the request: 407 asks for credentials, anything else did not open the way. */
export function proxyRefusal(status: number): Error {
  return Object.assign(
    failure(
      status === 407 ? 'PROXY_AUTH' : 'PROXY_ERROR',
      status === 407
        ? 'the proxy asks for credentials (407)'
        : `the proxy answered ${status} instead of opening a tunnel`,
    ),
    { status },
  );
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
  'PROXY_AUTH',
  'PROXY_ERROR',
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

/** An error's code, else its cause's (fetch wraps the system's error), else UNKNOWN. */
function errorCode(err: { code?: unknown; cause?: { code?: unknown } } | undefined): string {
  if (typeof err?.code === 'string') return err.code;
  if (typeof err?.cause?.code === 'string') return err.cause.code;
  return 'UNKNOWN';
}

/** What a failure of the wire means: retried or not, may a write have happened, and how it reads. */
export function classifyNetworkError(error: unknown): NetworkFailure {
  const err = error as
    { code?: unknown; name?: unknown; message?: unknown; status?: unknown; cause?: { code?: unknown } } | undefined;
  const code = errorCode(err);
  const message = typeof err?.message === 'string' ? err.message : String(error);
  if (code === 'PROXY_AUTH' || code === 'PROXY_ERROR') {
    // A gateway's trouble may pass; credentials asked for will be asked again.
    const transient = err?.status === 502 || err?.status === 503 || err?.status === 504;
    return { code, mayHaveReachedServer: false, transient, interrupted: false, description: message };
  }
  if (code === 'ANSWER_TOO_LARGE') {
    // Asking again brings the same flood: never retried.
    return { code, mayHaveReachedServer: true, transient: false, interrupted: false, description: message };
  }
  const interrupted = code === 'ABORT_ERR' || err?.name === 'AbortError';
  return {
    code,
    mayHaveReachedServer: !NEVER_SENT.has(code),
    transient: TRANSIENT.has(code),
    interrupted,
    description:
      DESCRIPTIONS[code] ?? (/certificate|ssl|tls/i.test(`${code} ${message}`) ? `TLS failure: ${message}` : message),
  };
}
