// Base URL handling: where requests go, and whether it is safe to send a key there.
import { CliError, ExitCode, UsageError } from '../errors.js';

const API_PREFIX = '/api/v1';

/**
 * `https://host`, `https://host/`, `https://host/api/v1/` → `https://host/api/v1`.
 * A base that already ends in /api/v1 is kept; anything else gets it appended.
 */
export function normaliseBaseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new CliError(`invalid base URL: ${raw}`, {
      exitCode: ExitCode.USAGE,
      code: 'INVALID_BASE_URL',
      hint: 'use a full URL such as https://example.com/api/v1',
    });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new CliError(`unsupported base URL scheme ${url.protocol} in ${raw}`, {
      exitCode: ExitCode.USAGE,
      code: 'INVALID_BASE_URL',
    });
  }
  let path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith(API_PREFIX)) path += API_PREFIX;
  url.pathname = path;
  url.search = '';
  url.hash = '';
  return url;
}

/** localhost, *.localhost, 127.0.0.0/8 and ::1: traffic that never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  if (/^::ffff:127\.\d+\.\d+\.\d+$/.test(host)) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** A key sent over plain HTTP can be read by anyone on the path; only loopback is exempt. */
export function assertTransportAllowed(url: URL, insecure: boolean): void {
  if (url.protocol === 'http:' && !insecure && !isLoopbackHost(url.hostname)) {
    throw new CliError(`refusing to send requests over plain http:// to ${url.host}`, {
      exitCode: ExitCode.USAGE,
      code: 'INSECURE_URL',
      hint: 'use https://, or pass --insecure if you really mean to send your API key unencrypted',
    });
  }
}

/** The base path joined with an operation path: (https://h/api/v1, /docs/x) → https://h/api/v1/docs/x. */
export function joinPath(base: URL, path: string): URL {
  const url = new URL(base.href);
  const [pathname, search] = splitQuery(path);
  url.pathname = base.pathname + (pathname.startsWith('/') ? pathname : `/${pathname}`);
  if (search) url.search = search;
  return url;
}

/**
 * `kagent api` paths: `/me`, `me`, `/api/v1/me` and `me?x=1` are all under the base URL;
 * a full URL is taken as it is (and gets the key only if it is the configured origin).
 */
export function resolveRawPath(base: URL, path: string): URL {
  if (/^https?:\/\//i.test(path)) return new URL(path);
  // The URL parser takes `\` for `/` in an http(s) path: so does kagent, so that what is checked is what is sent.
  const [pathname, search] = splitQuery(path);
  const slashed = pathname.replace(/\\/g, '/') + search;
  let rest = slashed.startsWith('/') ? slashed : `/${slashed}`;
  // A `.` or `..` segment is resolved away by the URL, out from under the base URL: a full URL says that plainly.
  if (hasDotSegment(splitQuery(rest)[0]))
    throw new UsageError(
      `the path ${path} has a . or .. segment, which would leave the base URL (${base.pathname})`,
      'give the path under the base URL, or a full URL (https://…) for another place on the service',
    );
  if (rest === API_PREFIX || rest.startsWith(`${API_PREFIX}/`) || rest.startsWith(`${API_PREFIX}?`)) {
    rest = rest.slice(API_PREFIX.length) || '/';
  }
  return joinPath(base, rest);
}

/**
 * A `.` or `..` segment in any spelling the URL parser resolves: it drops tabs and newlines, takes `\` for `/`
 * (http and https), reads `%2e` as a dot, and resolves segments past a `#` too (the path setter escapes it).
 */
function hasDotSegment(pathname: string): boolean {
  return pathname
    .replace(/[\t\n\r]/g, '')
    .split(/[/\\]/)
    .some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment));
}

export type QueryValue = string | number | boolean | undefined | null;

/** Adds query parameters, skipping undefined ones; booleans and numbers as their text. */
export function withQuery(url: URL, query: Record<string, QueryValue> | undefined): URL {
  if (!query) return url;
  const out = new URL(url.href);
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    out.searchParams.set(name, String(value));
  }
  return out;
}

function splitQuery(path: string): [string, string] {
  const at = path.indexOf('?');
  return at < 0 ? [path, ''] : [path.slice(0, at), path.slice(at)];
}

// `scheme://user:password@host`: the user-info part of any URL in a text.
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi;

/** Every URL in `text` with its user and password replaced by `***` (debug lines, errors, settings shown). */
export function redactUrlCredentials(text: string): string {
  return text.includes('@') ? text.replace(URL_USERINFO, '$1***@') : text;
}
