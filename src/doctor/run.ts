// `kagent doctor`: will kagent work here? Each check says ok, warn or fail, in
// one line, with the details that explain a problem. Nothing here throws for a
// problem found: the report carries it, and the command decides the exit code.
import type { Context } from '../context.js';
import type { Resolved } from '../config/resolve.js';
import { ApiError, CliError } from '../errors.js';
import {
  check,
  configCheck,
  dnsCheck,
  PROBE_TIMEOUT_MS,
  probeService,
  proxyCheck,
  serviceChecks,
  sourcesOf,
} from './checks.js';
import { createHttpCore } from '../http/core.js';
import { compareWithSpec, describeSpecDifferences, SpecTooComplexError } from './openapi.js';
import { readPlainText } from '../io/local-file.js';

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

export async function runDoctor(ctx: Context, options: DoctorOptions = {}): Promise<DoctorReport> {
  // The runtime resolves every setting with its source (the rate limit's too).
  const config = ctx.config as Resolved;
  const sources = sourcesOf(config);
  const checks: Check[] = [configCheck(config, sources)];
  if (!config.baseUrl) return finish(checks);
  const base = new URL(config.baseUrl);
  // The network, then the service: reachable (TLS), key accepted, clock, rate limit.
  checks.push(await dnsCheck(base, sources.baseFrom));
  checks.push(await proxyCheck(base, ctx.io.env));
  const probe = await probeService(ctx, config, base);
  checks.push(...serviceChecks(probe, base, config, sources.keyFrom));
  if (probe.headers) {
    checks.push(clockCheck(probe.headers, probe.receivedAt, options.maxSkewMs ?? DEFAULT_MAX_SKEW_MS));
    checks.push(rateCheck(probe.headers, config.rateLimit, sources.rateFrom));
  }
  // The service's OpenAPI description against kagent's shapes.
  checks.push(await specCheck(ctx, base, options.spec, probe.reachable));
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
    return check('clock', 'warn', 'the service sent no Date header: clock skew unknown', { skewMs: null });
  }
  // Date has whole seconds: up to a second of difference is rounding.
  const skewMs = localMs - serviceMs;
  const seconds = Math.round(Math.abs(skewMs) / 1000);
  const direction = skewMs > 0 ? 'ahead of' : 'behind';
  const ok = Math.abs(skewMs) <= maxSkewMs;
  return {
    name: 'clock',
    status: ok ? 'ok' : 'fail',
    summary: ok
      ? `this clock is within ${Math.max(1, seconds)} s of the service's`
      : `this clock is ${seconds} s ${direction} the service's (Date: ${date})`,
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
    return check(
      'rate-limit',
      'ok',
      `the service sends no rate-limit headers; kagent keeps under ${rate} requests/minute (${rateFrom})`,
      { limit: null, remaining: null, pacing: rate },
    );
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
    : [
        ...new Set([
          `${base.href.replace(/\/+$/, '')}/openapi.json`,
          `${base.origin}/openapi.json`,
          `${base.origin}/.well-known/openapi.json`,
        ]),
      ];
  if (!given && !reachable) return check('openapi', 'warn', 'not checked: the service is not reachable', { url: null });
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
      summary: given
        ? `no OpenAPI document at ${given}`
        : 'the service publishes no OpenAPI document at the usual places',
      details: [...tried, ...(given ? [] : ['name it with --spec URL'])],
      data: { url: null, tried },
    };
  }
  let compared: Awaited<ReturnType<typeof compareWithSpec>>;
  try {
    compared = await compareWithSpec(document, ctx.signal);
  } catch (error) {
    if (!(error instanceof SpecTooComplexError)) throw error;
    return check('openapi', 'warn', `not compared: ${error.message} (${from})`, { url: from, tooComplex: true });
  }
  const differing = compared.filter((c) => c.differences.some((d) => d.kind !== 'extra'));
  const undescribed = compared.filter((c) => c.undescribed);
  const details = [
    ...differing.map(
      (c) =>
        `${c.op}: the service's ${c.shape} differs (${describeSpecDifferences(c.differences.filter((d) => d.kind !== 'extra'))})`,
    ),
    ...(undescribed.length ? [`not described by the service: ${undescribed.map((c) => c.op).join(', ')}`] : []),
  ];
  const described = compared.length - undescribed.length;
  let status: Status = undescribed.length ? 'warn' : 'ok';
  if (differing.length) status = 'fail';
  return {
    name: 'openapi',
    status,
    summary: differing.length
      ? `${differing.length} of ${described} shapes differ from what kagent assumes (${from})`
      : `the ${described} shapes the service describes match what kagent assumes (${from})`,
    details,
    data: {
      url: from,
      version: typeof document.info?.version === 'string' ? document.info.version : null,
      differing: differing.map((c) => ({ operation: c.op, shape: c.shape, differences: c.differences })),
      undescribed: undescribed.map((c) => c.op),
    },
  };
}

/** The most of an OpenAPI document read from a file (the largest public ones are a few MB). */
export const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

async function fetchDocument(
  ctx: Context,
  where: string,
): Promise<{ ok: true; document: Record<string, any> } | { ok: false; error: string }> {
  let document: unknown;
  try {
    if (/^https?:\/\//i.test(where)) {
      // Through the HTTP core, as every answer goes (the proxy, the bound on an answer's size), never retried, and
      // without the key: the description is public, and may be on another host.
      const url = new URL(where);
      const core = createHttpCore({
        baseUrl: url.origin,
        apiKey: undefined,
        userAgent: `kagent/${ctx.version}`,
        insecure: true,
        env: ctx.io.env,
        retries: 0,
        requestTimeoutMs: PROBE_TIMEOUT_MS,
        signal: ctx.signal,
      });
      const res = await core.send({ method: 'GET', url, headers: { accept: 'application/json' }, read: 'auto' });
      document = typeof res.body === 'string' ? JSON.parse(res.body) : res.body;
    } else {
      // A plain file only (a FIFO, /dev/zero or /dev/urandom is refused, not waited on nor read), and not a huge one.
      const text = await readPlainText(where, MAX_DOCUMENT_BYTES).catch((error: Error & { code?: string }) => {
        if (error.code === 'ETOOLARGE') throw new Error(`larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB: not read`);
        throw error;
      });
      if (text === undefined) return { ok: false, error: `no such file: ${where}` };
      document = JSON.parse(text);
    }
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, error: `HTTP ${error.status}` };
    if (error instanceof SyntaxError) return { ok: false, error: 'not JSON (only JSON descriptions are read)' };
    if (error instanceof CliError && error.code === 'INTERRUPTED') throw error;
    return { ok: false, error: (error as Error).message || String(error) };
  }
  if (
    typeof document !== 'object' ||
    document === null ||
    typeof (document as Record<string, unknown>).paths !== 'object'
  )
    return { ok: false, error: 'not an OpenAPI document (no paths)' };
  return { ok: true, document: document as Record<string, any> };
}
