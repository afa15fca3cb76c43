// Only programs on this machine may reach the sandbox. A web page in a browser
// can aim requests at 127.0.0.1 (cross-origin "simple" requests need no
// preflight) or at a name of its own that resolves to 127.0.0.1 (DNS
// rebinding). So, on every route: the Host header must be a loopback name or
// address; a request carrying an Origin that is not loopback is refused; and
// an admin route under /_sandbox/ refuses a body that is not JSON, which no
// CORS-simple request can send.
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import { HttpFail } from './types.js';

/** localhost, *.localhost, 127.0.0.0/8, ::1 (and its IPv4-mapped form). */
export function isLoopbackHost(hostname: string): boolean {
  const name = hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  const kind = isIP(name);
  if (kind === 4) return name.startsWith('127.');
  // As the URL parser writes them: [::1], and 127.x.y.z mapped into IPv6 as ::ffff:7fxx:yyzz.
  if (kind === 6)
    return name === '::1' || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(name) || /^::ffff:127\./.test(name);
  return false;
}

/** The hostname of a Host header value (port removed), or undefined when it does not parse. */
function hostnameOf(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

/** Throws 403 for a request from outside this machine's programs, 415 for an admin body that is not JSON. */
export function guardRequest(method: string, pathname: string, headers: IncomingHttpHeaders): void {
  const host = headers.host;
  const hostname = host === undefined ? undefined : hostnameOf(host);
  if (hostname === undefined || !isLoopbackHost(hostname)) {
    throw new HttpFail(
      403,
      'FORBIDDEN_HOST',
      `The sandbox answers only requests addressed to a loopback name or address (Host: ${host === undefined ? 'missing' : JSON.stringify(host.slice(0, 100))})`,
    );
  }
  const origin = headers.origin;
  if (origin !== undefined && !isLoopbackOrigin(origin)) {
    throw new HttpFail(
      403,
      'FORBIDDEN_ORIGIN',
      `The sandbox refuses requests from web pages of other origins (Origin: ${JSON.stringify(origin.slice(0, 100))})`,
    );
  }
  if (pathname.startsWith('/_sandbox/') && hasBody(method, headers) && !isJson(headers['content-type'])) {
    throw new HttpFail(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'Admin routes take a JSON body: send it with Content-Type: application/json',
    );
  }
}

function isLoopbackOrigin(origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    // "null" (sandboxed frames, file: pages) and anything else that is not an origin.
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHost(url.hostname);
}

function hasBody(method: string, headers: IncomingHttpHeaders): boolean {
  if (method === 'GET' || method === 'HEAD') return false;
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}

function isJson(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type === 'application/json' || (type !== undefined && /^application\/[\w.+-]+\+json$/.test(type));
}
