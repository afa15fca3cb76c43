// How long to wait before trying again.

export interface BackoffOptions {
  baseMs: number;
  capMs: number;
  /** 0 ≤ random() < 1; injectable so tests are deterministic. */
  random: () => number;
}

export const defaultBackoff: BackoffOptions = { baseMs: 500, capMs: 20_000, random: Math.random };

/**
 * Capped exponential backoff with full jitter: a uniform pick in [0, min(cap, base·2^(n-1))].
 * The jitter spreads out clients that failed together so they do not come back together.
 */
export function backoffDelay(retry: number, options: BackoffOptions = defaultBackoff): number {
  const ceiling = Math.min(options.capMs, options.baseMs * 2 ** Math.max(0, retry - 1));
  return Math.round(options.random() * ceiling);
}

/**
 * `Retry-After: 3` or `Retry-After: Wed, 21 Oct 2015 07:28:00 GMT` → milliseconds from now.
 * Anything else (`-5`, `3, 4`, `abc`) is no Retry-After at all: undefined, and the caller
 * backs off as usual, never "retry at once" (Date.parse reads `-5` and `3, 4` as dates).
 */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | undefined {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Math.round(Number(raw) * 1000);
  if (!HTTP_DATE.test(raw)) return undefined;
  const at = Date.parse(raw);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/**
 * The three forms of an HTTP-date (RFC 9110 §5.6.7), each led by a day name:
 * `Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94 08:49:37 GMT`, `Sun Nov  6 08:49:37 1994`.
 */
const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? [\w -]+ \d{1,2}:\d{2}:\d{2}( GMT| \d{4})$/i;
