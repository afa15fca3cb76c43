// `kagent doctor`: will kagent work here? Each check says ok, warn or fail, in
// one line, with the details that explain a problem. Nothing here throws for a
// problem found: the report carries it, and the command decides the exit code.
import type { Context } from '../context.js';
import type { Resolved } from '../config/resolve.js';
import { describeSource, maskKey } from '../config/resolve.js';
import { ApiError, CliError } from '../errors.js';
import type { Misfit } from '../api/misfit.js';
import { proxyRoute, type ProxyRoute } from '../http/proxy.js';

export type Status = 'ok' | 'warn' | 'fail';

export interface Check {
  name: string;
  status: Status;
  /** One line. */
  summary: string;
  /** One line per problem (or fact) behind the summary. */
  details: string[];
  /** Machine-readable facts for --json. */
  data?: Record<string, unknown>;
}

export interface DoctorReport {
  ok: boolean;
  checks: Check[];
}

export interface DoctorOptions {
  /** Where the service's OpenAPI document is (URL or file); else looked for at the usual places. */
  spec?: string;
  /** Clock skew beyond this is a problem. */
  maxSkewMs?: number;
}

const DEFAULT_MAX_SKEW_MS = 30_000;
const PROBE_TIMEOUT_MS = 10_000;

export async function runDoctor(ctx: Context, options: DoctorOptions = {}): Promise<DoctorReport> {
  const checks: Check[] = [];
  const add = (check: Check) => checks.push(check);
  // The runtime resolves every setting with its source (the rate limit's too).
  const config = ctx.config as Resolved;
  const env = ctx.io.env;

  // ---- configuration: what is in use, and where each value came from
  const profileFrom = describeSource(config.profileSource, { flag: '--profile', env: 'KAGENT_PROFILE' }, config.profile);
  const baseFrom = describeSource(config.baseUrlSource, { flag: '--base-url', env: 'KAGENT_BASE_URL' }, config.profile);
  const keyFrom = describeSource(config.apiKeySource, { env: 'KAGENT_API_KEY' }, config.profile);
  const rateFrom = describeSource(config.rateLimitSource, {}, config.profile);
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
  const configProblems: string[] = [];
  if (!config.baseUrl) configProblems.push('no base URL: set KAGENT_BASE_URL, run `kagent auth login --base-url URL`, or start `kagent sandbox`');
  if (!config.apiKey) configProblems.push('no API key: run `kagent auth login`, or set KAGENT_API_KEY');
  add({
    name: 'config',
    status: configProblems.length ? 'fail' : 'ok',
    summary: configProblems.length ? `configuration incomplete (profile ${config.profile})` : `profile ${config.profile} (${profileFrom}), ${config.baseUrl} (${baseFrom}), key ${maskKey(config.apiKey as string)} (${keyFrom})`,
    details: [...configProblems, ...configDetails],
    data: configData,
  });
  if (!config.baseUrl) return finish(checks);

  const base = new URL(config.baseUrl);

  // ---- network: DNS, proxy
  const { isIP } = await import('node:net');
  const host = base.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    add({ name: 'dns', status: 'ok', summary: `${host} is an address: no DNS needed`, details: [], data: { host, addresses: [host] } });
  } else {
    const { lookup } = await import('node:dns/promises');
    try {
      const addresses = (await lookup(host, { all: true })).map((a) => a.address);
      add({ name: 'dns', status: 'ok', summary: `${host} resolves to ${addresses.join(', ')}`, details: [], data: { host, addresses } });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'ERROR';
      add({ name: 'dns', status: 'fail', summary: `${host} does not resolve (${code})`, details: [`check the host name in the base URL (${baseFrom})`], data: { host, code } });
    }
  }

  let proxy: ProxyRoute | undefined;
  let proxyProblem: string | undefined;
  try {
    proxy = proxyRoute(base, env);
  } catch (error) {
    proxyProblem = (error as Error).message;
  }
  if (proxyProblem !== undefined) {
    add({ name: 'proxy', status: 'fail', summary: proxyProblem, details: ['kagent cannot use this proxy variable: fix it or unset it'], data: { proxy: null } });
  } else if (!proxy) {
    add({ name: 'proxy', status: 'ok', summary: 'no proxy for this URL (HTTPS_PROXY / HTTP_PROXY unset, or NO_PROXY matches)', details: [], data: { proxy: null } });
  } else {
    const reach = await tcpReach(proxy.url);
    add({
      name: 'proxy',
      status: reach.ok ? 'ok' : 'fail',
      summary: reach.ok ? `proxy ${proxy.display} (from ${proxy.variable}) accepts connections` : `proxy ${proxy.display} (from ${proxy.variable}) is not reachable: ${reach.error}`,
      details: ["kagent's requests to the service go through it"],
      data: { proxy: proxy.display, from: proxy.variable, reachable: reach.ok },
    });
  }

  // ---- the service: reachable (TLS), key accepted, clock, rate limit
  let misfit: Misfit | undefined;
  let meStatus: number | undefined;
  let headers: Record<string, string | string[] | undefined> | undefined;
  let receivedAt = 0;
  let elapsedMs = 0;
  let reachable = false;
  const tls = base.protocol === 'https:';
  try {
    const { createApiClient } = await import('../api/client.js');
    const client = createApiClient({
      baseUrl: config.baseUrl,
      apiKey: config.apiKey,
      userAgent: `kagent/${ctx.version}`,
      insecure: ctx.flags.insecure,
      env: ctx.io.env,
      retries: 0,
      requestTimeoutMs: ctx.flags.timeout !== undefined ? ctx.flags.timeout * 1000 : PROBE_TIMEOUT_MS,
      signal: ctx.signal,
      onMisfit: (m) => (misfit = m),
    });
    if (!config.apiKey) throw new CliError('no key to try', { code: 'NO_KEY' });
    const started = Date.now();
    const result = await client.callFull('getMe');
    elapsedMs = Date.now() - started;
    receivedAt = ctx.clock.now();
    meStatus = result.status;
    headers = result.headers;
    reachable = true;
  } catch (error) {
    if (error instanceof ApiError) {
      reachable = true;
      meStatus = error.status;
      headers = error.headers;
      receivedAt = ctx.clock.now();
    } else if ((error as CliError).code !== 'NO_KEY') {
      const message = error instanceof Error ? error.message : String(error);
      add({
        name: 'reachable',
        status: 'fail',
        summary: `${base.origin} is not reachable: ${message}`,
        details: [(error as CliError).hint ?? 'check the base URL and your network'].filter(Boolean),
        data: { url: base.href, error: (error as CliError).code ?? 'ERROR' },
      });
    }
  }
  if (reachable) {
    add({
      name: 'reachable',
      status: 'ok',
      summary: `${base.origin} answered${elapsedMs ? ` in ${elapsedMs} ms` : ''}${tls ? ' over TLS (certificate accepted)' : ' (plain http)'}`,
      details: [],
      data: { url: base.href, tls, elapsedMs },
    });
  }
  if (reachable && config.apiKey) {
    const accepted = meStatus !== undefined && meStatus >= 200 && meStatus < 300;
    add({
      name: 'key',
      status: accepted ? (misfit ? 'warn' : 'ok') : 'fail',
      summary: accepted
        ? `the API key is accepted (GET /me answered ${meStatus})`
        : meStatus === 401
          ? 'the API key is not accepted (401)'
          : `GET /me answered ${meStatus}`,
      details: accepted
        ? misfit
          ? [`the account answer differs from what kagent knows: see --debug`]
          : []
        : [meStatus === 401 ? `the key from ${keyFrom} was refused: run \`kagent auth login\` again, or check KAGENT_API_KEY` : 'the service refused the check'],
      data: { status: meStatus },
    });
  }
  if (headers) {
    add(clockCheck(headers, receivedAt, options.maxSkewMs ?? DEFAULT_MAX_SKEW_MS));
    add(rateCheck(headers, config.rateLimit, rateFrom));
  }

  // ---- the service's OpenAPI description against kagent's shapes
  add(await specCheck(ctx, base, options.spec, reachable));
  return finish(checks);
}

function finish(checks: Check[]): DoctorReport {
  return { ok: checks.every((c) => c.status !== 'fail'), checks };
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function clockCheck(headers: Record<string, string | string[] | undefined>, localMs: number, maxSkewMs: number): Check {
  const date = header(headers, 'date');
  const serviceMs = date ? Date.parse(date) : Number.NaN;
  if (!date || Number.isNaN(serviceMs)) {
    return { name: 'clock', status: 'warn', summary: 'the service sent no Date header: clock skew unknown', details: [], data: { skewMs: null } };
  }
  // Date has whole seconds: up to a second of difference is rounding.
  const skewMs = localMs - serviceMs;
  const seconds = Math.round(Math.abs(skewMs) / 1000);
  const direction = skewMs > 0 ? 'ahead of' : 'behind';
  const ok = Math.abs(skewMs) <= maxSkewMs;
  return {
    name: 'clock',
    status: ok ? 'ok' : 'fail',
    summary: ok ? `this clock is within ${Math.max(1, seconds)} s of the service's` : `this clock is ${seconds} s ${direction} the service's (Date: ${date})`,
    details: ok ? [] : ['relative times and waits will be off: set the system clock (NTP)'],
    data: { skewMs, serviceDate: date },
  };
}

function rateCheck(headers: Record<string, string | string[] | undefined>, rate: number, rateFrom: string): Check {
  const limit = header(headers, 'ratelimit-limit') ?? header(headers, 'x-ratelimit-limit');
  const remaining = header(headers, 'ratelimit-remaining') ?? header(headers, 'x-ratelimit-remaining');
  const reset = header(headers, 'ratelimit-reset') ?? header(headers, 'x-ratelimit-reset');
  const combined = header(headers, 'ratelimit');
  if (remaining === undefined && combined === undefined) {
    return {
      name: 'rate-limit',
      status: 'ok',
      summary: `the service sends no rate-limit headers; kagent keeps under ${rate} requests/minute (${rateFrom})`,
      details: [],
      data: { limit: null, remaining: null, pacing: rate },
    };
  }
  const left = remaining !== undefined ? Number(remaining) : Number(/r=(\d+)/.exec(combined ?? '')?.[1]);
  const exhausted = Number.isFinite(left) && left <= 0;
  return {
    name: 'rate-limit',
    status: exhausted ? 'warn' : 'ok',
    summary: `${Number.isFinite(left) ? left : '?'} requests left${limit ? ` of ${limit}` : ''}${reset ? `, resets in ${reset} s` : ''}; kagent keeps under ${rate}/minute`,
    details: exhausted ? ['the budget is spent: commands will wait or fail with exit 7 until it resets'] : [],
    data: { limit: limit ?? null, remaining: Number.isFinite(left) ? left : null, reset: reset ?? null, pacing: rate },
  };
}

async function specCheck(ctx: Context, base: URL, given: string | undefined, reachable: boolean): Promise<Check> {
  const candidates = given
    ? [given]
    : [...new Set([`${base.href.replace(/\/+$/, '')}/openapi.json`, `${base.origin}/openapi.json`, `${base.origin}/.well-known/openapi.json`])];
  if (!given && !reachable) return { name: 'openapi', status: 'warn', summary: 'not checked: the service is not reachable', details: [], data: { url: null } };
  const tried: string[] = [];
  let document: Record<string, any> | undefined;
  let from: string | undefined;
  for (const where of candidates) {
    const got = await fetchDocument(ctx, where);
    if (got.ok) {
      document = got.document;
      from = where;
      break;
    }
    tried.push(`${where}: ${got.error}`);
  }
  if (!document || !from) {
    return {
      name: 'openapi',
      status: given ? 'fail' : 'warn',
      summary: given ? `no OpenAPI document at ${given}` : 'the service publishes no OpenAPI document at the usual places',
      details: [...tried, ...(given ? [] : ['name it with --spec URL'])],
      data: { url: null, tried },
    };
  }
  const { compareWithSpec, describeSpecDifferences } = await import('./openapi.js');
  const compared = compareWithSpec(document);
  const differing = compared.filter((c) => c.differences.some((d) => d.kind !== 'extra'));
  const undescribed = compared.filter((c) => c.undescribed);
  const details = [
    ...differing.map((c) => `${c.op}: the service's ${c.shape} differs (${describeSpecDifferences(c.differences.filter((d) => d.kind !== 'extra'))})`),
    ...(undescribed.length ? [`not described by the service: ${undescribed.map((c) => c.op).join(', ')}`] : []),
  ];
  const described = compared.length - undescribed.length;
  return {
    name: 'openapi',
    status: differing.length ? 'fail' : undescribed.length ? 'warn' : 'ok',
    summary: differing.length
      ? `${differing.length} of ${described} shapes differ from what kagent assumes (${from})`
      : `the ${described} shapes the service describes match what kagent assumes (${from})`,
    details,
    data: {
      url: from,
      version: document.info?.version ?? null,
      differing: differing.map((c) => ({ operation: c.op, shape: c.shape, differences: c.differences })),
      undescribed: undescribed.map((c) => c.op),
    },
  };
}

async function fetchDocument(ctx: Context, where: string): Promise<{ ok: true; document: Record<string, any> } | { ok: false; error: string }> {
  let text: string;
  try {
    if (/^https?:\/\//i.test(where)) {
      const { send } = await import('../http/transport.js');
      const url = new URL(where);
      // The description is public: no key goes with it (through the proxy every request takes).
      const res = await send({
        url,
        proxy: proxyRoute(url, ctx.io.env)?.url,
        method: 'GET',
        headers: { accept: 'application/json', 'user-agent': `kagent/${ctx.version}` },
        signal: ctx.signal,
        timeoutMs: PROBE_TIMEOUT_MS,
      });
      text = await res.text();
      if (res.status !== 200) return { ok: false, error: `HTTP ${res.status}` };
    } else {
      const { readFile } = await import('node:fs/promises');
      text = await readFile(where, 'utf8');
    }
  } catch (error) {
    return { ok: false, error: (error as Error).message || String(error) };
  }
  try {
    const document = JSON.parse(text) as unknown;
    if (typeof document !== 'object' || document === null || typeof (document as Record<string, unknown>).paths !== 'object') return { ok: false, error: 'not an OpenAPI document (no paths)' };
    return { ok: true, document: document as Record<string, any> };
  } catch {
    return { ok: false, error: 'not JSON (only JSON descriptions are read)' };
  }
}

async function tcpReach(url: string): Promise<{ ok: true } | { ok: false; error: string }> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { ok: false, error: 'not a URL' };
  }
  const { connect } = await import('node:net');
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

