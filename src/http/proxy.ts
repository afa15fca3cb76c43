// Which proxy a request goes through, from the environment, as curl decides it:
// - `https_proxy` / `HTTPS_PROXY` for https:// URLs, `http_proxy` / `HTTP_PROXY`
//   for http:// ones (the lower-case spelling wins when both are set, as in curl
//   and Go); an empty value is unset;
// - a proxy given without a scheme is http:// (curl); its port defaults to 80
//   (443 for an https:// proxy); user:password in it becomes Proxy-Authorization
//   and is never printed;
// - `no_proxy` / `NO_PROXY`: a comma-separated list; `*` alone matches every
//   host; a name matches itself and every name under it (`example.com` and
//   `.example.com` both cover `api.example.com`); an IP address matches itself
//   and a CIDR block (`10.0.0.0/8`, `::1/128`) the addresses in it; an entry may
//   end in `:port` to match that port only (as Go does). Loopback is not special:
//   as with curl, `localhost` and 127.0.0.1 go through the proxy unless listed.
// How the request then travels (absolute-URI for http://, CONNECT for https://)
// is transport.ts's business.
import { UsageError } from '../errors.js';
import { redactUrlCredentials } from './url.js';

export interface ProxyRoute {
  /** The proxy's URL as undici needs it, credentials included. */
  url: string;
  /** The same for people: credentials replaced by `***`, as in every URL kagent prints (redactUrlCredentials). */
  display: string;
  /** The variable it came from, spelled as it was set. */
  variable: string;
}

/**
 * The proxy that applies to `url` (NO_PROXY honoured), with any credentials in
 * it redacted, for printing (`kagent doctor`, `--debug`); undefined when the
 * request goes direct. Throws a UsageError (exit 2) naming the variable when
 * the proxy variable cannot be used.
 */
export function proxyFor(url: string, env: NodeJS.ProcessEnv): string | undefined {
  return proxyRoute(new URL(url), env)?.display;
}

/** The variables that name a proxy, by the URL's scheme; other schemes go direct. */
const PROXY_VARIABLES: Record<string, string[]> = {
  'https:': ['https_proxy', 'HTTPS_PROXY'],
  'http:': ['http_proxy', 'HTTP_PROXY'],
};

/** The proxy for this URL with the variable it came from; undefined for a direct request. */
export function proxyRoute(url: URL, env: NodeJS.ProcessEnv): ProxyRoute | undefined {
  const names = PROXY_VARIABLES[url.protocol] ?? [];
  const variable = names.find((name) => (env[name] ?? '').trim() !== '');
  if (variable === undefined) return undefined;
  if (bypassed(url, env)) return undefined;
  return parseProxy((env[variable] ?? '').trim(), variable);
}

/** True when NO_PROXY (either case) says `url` goes direct. */
export function bypassed(url: URL, env: NodeJS.ProcessEnv): boolean {
  const list = env.no_proxy ?? env.NO_PROXY ?? '';
  const entries = list
    .split(/[,\s]+/)
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return false;
  if (entries.includes('*')) return true;
  const host = unbracket(url.hostname).toLowerCase().replace(/\.$/, '');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return entries.some((entry) => matches(entry, host, port));
}

function matches(raw: string, host: string, port: number): boolean {
  const { BlockList, isIP } = net();
  let entry = raw.toLowerCase();
  let entryPort: number | undefined;
  // `host:port`, `[v6]:port`; a bare IPv6 address has colons of its own.
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) {
    entry = bracketed[1]!;
    entryPort = bracketed[2] === undefined ? undefined : Number(bracketed[2]);
  } else if (!isIP(entry.split('/')[0]!)) {
    const withPort = /^(.*):(\d+)$/.exec(entry);
    if (withPort) {
      entry = withPort[1]!;
      entryPort = Number(withPort[2]);
    }
  }
  if (entryPort !== undefined && entryPort !== port) return false;

  const hostFamily = isIP(host);
  const [address, bits] = entry.split('/');
  const entryFamily = isIP(address!);
  if (hostFamily !== 0 || entryFamily !== 0) {
    // Addresses match addresses only (curl): an IP entry never matches a name, nor a name an IP.
    if (hostFamily === 0 || entryFamily === 0) return false;
    if (bits === undefined) return sameAddress(address!, host, entryFamily, hostFamily);
    const prefix = Number(bits);
    if (!/^\d+$/.test(bits) || prefix > (entryFamily === 4 ? 32 : 128) || entryFamily !== hostFamily) return false;
    const block = new BlockList();
    block.addSubnet(address!, prefix, entryFamily === 4 ? 'ipv4' : 'ipv6');
    return block.check(host, hostFamily === 4 ? 'ipv4' : 'ipv6');
  }
  const name = entry.replace(/^\*?\./, '').replace(/\.$/, '');
  return name !== '' && (host === name || host.endsWith(`.${name}`));
}

function sameAddress(a: string, b: string, familyA: number, familyB: number): boolean {
  if (familyA !== familyB) return false;
  const block = new (net().BlockList)();
  block.addAddress(a, familyA === 4 ? 'ipv4' : 'ipv6');
  return block.check(b, familyB === 4 ? 'ipv4' : 'ipv6');
}

/** node:net, taken only when NO_PROXY has an entry to match: every API call reads this file. */
function net(): typeof import('node:net') {
  return process.getBuiltinModule('node:net');
}

function unbracket(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

function parseProxy(value: string, variable: string): ProxyRoute {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new UsageError(
      `${variable} is not a proxy URL: "${redactText(value)}"`,
      `e.g. ${variable}=http://proxy.example.com:3128`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(
      `${variable}: kagent goes through http:// and https:// proxies only (got ${url.protocol}//)`,
      `unset ${variable}, or list the API's host in NO_PROXY`,
    );
  }
  if (url.hostname === '') throw new UsageError(`${variable} names no proxy host: "${redactText(value)}"`);
  const base = `${url.protocol}//${url.host}`;
  const credentials = url.username !== '' || url.password !== '';
  return {
    url: credentials
      ? `${url.protocol}//${url.username}${url.password !== '' ? `:${url.password}` : ''}@${url.host}`
      : base,
    display: credentials ? redactUrlCredentials(`${url.protocol}//x@${url.host}`) : base,
    variable,
  };
}

/** user:password@ in text about a proxy value that could not even be parsed (a scheme may be missing). */
function redactText(value: string): string {
  return redactUrlCredentials(value).replace(/^[^/:@]*:[^/@]*@/, '***@');
}
