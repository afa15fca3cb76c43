// The checks of `kagent doctor` that run before the service's description is
// compared: configuration, DNS, proxy, and one probe of the service (reachable,
// key accepted). One function per check; each returns its Check, never throws
// for a problem found.
import type { Context } from '../context.js';
import type { Resolved } from '../config/resolve.js';
import { describeSource, maskKey } from '../config/resolve.js';
import { ApiError, CliError } from '../errors.js';
import type { Misfit } from '../api/misfit.js';
import { proxyRoute, type ProxyRoute } from '../http/proxy.js';
import type { Check, Status } from './run.js';
import { createApiClient } from '../api/client.js';
import { isIP, connect } from 'node:net';
import { lookup } from 'node:dns/promises';
import { timeoutMs } from '../http/deadline.js';

export const PROBE_TIMEOUT_MS = 10_000;

/** A check's result: what every check returns, its details (the lines that explain it) often none. */
export function check(
  name: string,
  status: Status,
  summary: string,
  data: Record<string, unknown>,
  details: string[] = [],
): Check {
  return { name, status, summary, details, data };
}

/** Where each setting in use came from, said for people ("KAGENT_BASE_URL", "profile work"). */
export interface Sources {
  profileFrom: string;
  baseFrom: string;
  keyFrom: string;
  rateFrom: string;
}

export function sourcesOf(config: Resolved): Sources {
  return {
    profileFrom: describeSource(config.profileSource, { flag: '--profile', env: 'KAGENT_PROFILE' }, config.profile),
    baseFrom: describeSource(config.baseUrlSource, { flag: '--base-url', env: 'KAGENT_BASE_URL' }, config.profile),
    keyFrom: describeSource(config.apiKeySource, { env: 'KAGENT_API_KEY' }, config.profile),
    rateFrom: describeSource(config.rateLimitSource, {}, config.profile),
  };
}

/** What is in use, and where each value came from. */
export function configCheck(config: Resolved, { profileFrom, baseFrom, keyFrom, rateFrom }: Sources): Check {
  const configDetails = [
    `config file: ${config.configPath}`,
    `profile: ${config.profile} (${profileFrom})`,
    `base URL: ${config.baseUrl ?? '(none)'}${config.baseUrl ? ` (${baseFrom})` : ''}`,
    `API key: ${config.apiKey ? `${maskKey(config.apiKey)} (${keyFrom})` : '(none)'}`,
    `rate limit: ${config.rateLimit}/min (${rateFrom})`,
  ];
  const configData = {
    configPath: config.configPath,
    profile: { value: config.profile, source: config.profileSource },
    baseUrl: { value: config.baseUrl ?? null, source: config.baseUrlSource },
    apiKey: { value: config.apiKey ? maskKey(config.apiKey) : null, source: config.apiKeySource },
    rateLimit: { value: config.rateLimit, source: config.rateLimitSource },
  };
  // On the summary line, a value from the profile named at its start needs no `(profile "…")` of its own.
  const from = (source: string) => (source === `profile "${config.profile}"` ? '' : ` (${source})`);
  const configProblems: string[] = [];
  if (!config.baseUrl)
    configProblems.push(
      'no base URL: set KAGENT_BASE_URL, run `kagent auth login --base-url URL`, or start `kagent sandbox`',
    );
  if (!config.apiKey) configProblems.push('no API key: run `kagent auth login`, or set KAGENT_API_KEY');
  return {
    name: 'config',
    status: configProblems.length ? 'fail' : 'ok',
    summary: configProblems.length
      ? `configuration incomplete (profile ${config.profile})`
      : `profile ${config.profile}${from(profileFrom)}, ${config.baseUrl}${from(baseFrom)}, key ${maskKey(config.apiKey as string)}${from(keyFrom)}`,
    details: [...configProblems, ...configDetails],
    data: configData,
  };
}

export async function dnsCheck(base: URL, baseFrom: string): Promise<Check> {
  const host = base.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return check('dns', 'ok', `${host} is an address: no DNS needed`, { host, addresses: [host] });
  try {
    const addresses = (await lookup(host, { all: true })).map((a) => a.address);
    return check('dns', 'ok', `${host} resolves to ${addresses.join(', ')}`, { host, addresses });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'ERROR';
    return {
      name: 'dns',
      status: 'fail',
      summary: `${host} does not resolve (${code})`,
      details: [`check the host name in the base URL (${baseFrom})`],
      data: { host, code },
    };
  }
}

export async function proxyCheck(base: URL, env: NodeJS.ProcessEnv): Promise<Check> {
  let proxy: ProxyRoute | undefined;
  try {
    proxy = proxyRoute(base, env);
  } catch (error) {
    return check('proxy', 'fail', (error as Error).message, { proxy: null }, [
      'kagent cannot use this proxy variable: fix it or unset it',
    ]);
  }
  if (!proxy)
    return check('proxy', 'ok', 'no proxy for this URL (HTTPS_PROXY / HTTP_PROXY unset, or NO_PROXY matches)', {
      proxy: null,
    });
  const reach = await tcpReach(proxy.url);
  return {
    name: 'proxy',
    status: reach.ok ? 'ok' : 'fail',
    summary: reach.ok
      ? `proxy ${proxy.display} (from ${proxy.variable}) accepts connections`
      : `proxy ${proxy.display} (from ${proxy.variable}) is not reachable: ${reach.error}`,
    details: ["kagent's requests to the service go through it"],
    data: { proxy: proxy.display, from: proxy.variable, reachable: reach.ok },
  };
}

/** What one GET /me told: whether anything answered, with what, and when. */
export interface Probe {
  reachable: boolean;
  status?: number;
  headers?: Record<string, string | string[] | undefined>;
  receivedAt: number;
  elapsedMs: number;
  misfit?: Misfit;
  /** The answer came and cannot be read (nested too deep): what kagent says of it. */
  unreadable?: string;
  /** The failed "reachable" check, when nothing answered. */
  failure?: Check;
}

/** One GET /me (without a key: GET /openapi.json), never retried: an error answer still tells that the service is there. */
export async function probeService(ctx: Context, config: Resolved, base: URL): Promise<Probe> {
  const probe: Probe = { reachable: false, receivedAt: 0, elapsedMs: 0 };
  try {
    const client = createApiClient({
      baseUrl: config.baseUrl as string,
      apiKey: config.apiKey,
      baseUrlSource: sourcesOf(config).baseFrom,
      userAgent: `kagent/${ctx.version}`,
      insecure: ctx.flags.insecure,
      env: ctx.io.env,
      retries: 0,
      requestTimeoutMs: timeoutMs(ctx.flags) ?? PROBE_TIMEOUT_MS,
      signal: ctx.signal,
      onMisfit: (m) => (probe.misfit = m),
    });
    const started = Date.now();
    // Without a key, the published description (which needs none) tells whether the service is there.
    const result = config.apiKey
      ? await client.callFull('getMe')
      : await client.raw('GET', '/openapi.json', { signal: ctx.signal });
    probe.elapsedMs = Date.now() - started;
    probe.receivedAt = ctx.clock.now();
    probe.status = result.status;
    probe.headers = result.headers;
    probe.reachable = true;
  } catch (error) {
    if (error instanceof ApiError) {
      probe.reachable = true;
      probe.status = error.status;
      probe.headers = error.headers;
      probe.receivedAt = ctx.clock.now();
    } else if ((error as CliError).code === 'ANSWER_TOO_DEEP') {
      // It answered: reachable, and the answer is the problem.
      probe.reachable = true;
      probe.unreadable = (error as CliError).message;
      probe.receivedAt = ctx.clock.now();
    } else {
      probe.failure = unreachableCheck(base, error);
    }
  }
  return probe;
}

function unreachableCheck(base: URL, error: unknown): Check {
  const message = error instanceof Error ? error.message : String(error);
  return {
    name: 'reachable',
    status: 'fail',
    summary: `${base.origin} is not reachable: ${message}`,
    details: [(error as CliError).hint ?? 'check the base URL and your network'].filter(Boolean),
    data: { url: base.href, error: (error as CliError).code ?? 'ERROR' },
  };
}

/** What the probe says: not reachable; or reachable, and (with a key) whether the key is accepted. */
export function serviceChecks(probe: Probe, base: URL, config: Resolved, keyFrom: string): Check[] {
  if (probe.failure) return [probe.failure];
  if (!probe.reachable) return [];
  const tls = base.protocol === 'https:';
  const reachable: Check = {
    name: 'reachable',
    status: 'ok',
    summary: `${base.origin} answered${probe.elapsedMs ? ` in ${probe.elapsedMs} ms` : ''}${tls ? ' over TLS (certificate accepted)' : ' (plain http)'}`,
    details: [],
    data: { url: base.href, tls, elapsedMs: probe.elapsedMs },
  };
  if (probe.unreadable)
    return [
      reachable,
      check('key', 'fail', `GET /me answered with nothing kagent can read: ${probe.unreadable}`, { status: null }),
    ];
  return config.apiKey ? [reachable, keyCheck(probe.status, probe.misfit, keyFrom)] : [reachable];
}

/** GET /me's answer to the key: accepted (a warning when the account answer misfits), refused (401), or another answer. */
function keyCheck(meStatus: number | undefined, misfit: Misfit | undefined, keyFrom: string): Check {
  const data = { status: meStatus };
  if (meStatus !== undefined && meStatus >= 200 && meStatus < 300) {
    const details = misfit ? ['the account answer differs from what kagent knows: see --debug'] : [];
    return check(
      'key',
      misfit ? 'warn' : 'ok',
      `the API key is accepted (GET /me answered ${meStatus})`,
      data,
      details,
    );
  }
  if (meStatus === 401)
    return check('key', 'fail', 'the API key is not accepted (401)', data, [
      `the key from ${keyFrom} was refused: run \`kagent auth login\` again, or check KAGENT_API_KEY`,
    ]);
  return check('key', 'fail', `GET /me answered ${meStatus}`, data, ['the service refused the check']);
}

async function tcpReach(url: string): Promise<{ ok: true } | { ok: false; error: string }> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { ok: false, error: 'not a URL' };
  }
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  return new Promise((resolve) => {
    const socket = connect({ host: target.hostname.replace(/^\[|\]$/g, ''), port });
    const done = (result: { ok: true } | { ok: false; error: string }) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(PROBE_TIMEOUT_MS, () => done({ ok: false, error: 'timed out' }));
    socket.once('connect', () => done({ ok: true }));
    socket.once('error', (error: NodeJS.ErrnoException) => done({ ok: false, error: error.code ?? error.message }));
  });
}
