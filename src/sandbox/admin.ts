// Sandbox-only admin routes under /_sandbox/ (never part of the API): create
// accounts and keys, set credits, verification and plan limits, move the clock,
// make the next requests fail, read request counts. No key needed: the sandbox
// only listens on loopback. With a bearer key, `/_sandbox/account` acts on that key's account.
import type { IncomingHttpHeaders } from 'node:http';
import { Type } from '@sinclair/typebox';
import { Me } from '../api/shapes.js';
import { validate } from '../api/validate.js';
import { FAULT_KINDS, type FaultKind } from './faults.js';
import type { ServerDeps } from './server.js';
import { HttpFail, type Account, type Reply } from './types.js';
import { dictionary, monthKey, publicView } from './world.js';

type Body = Record<string, any> | undefined;

export const adminRoutes = [
  'GET  /_sandbox/                       this list',
  'POST /_sandbox/accounts               {email?, name?, emailVerified?, lang?, credits?, limits?, apiKey?} → {account, apiKey}; an apiKey in use: 409 KEY_IN_USE',
  'GET  /_sandbox/accounts/{id}          the account as stored',
  'PATCH /_sandbox/accounts/{id}         {credits?, emailVerified?, limits?, watchesThisMonth?, storageUsed?, trial?, plan?, hideFields?}; credits: a number, or the pools in full [{pool, remaining, total, resetsAt}] as GET /me shows them (400 INVALID_INPUT otherwise)',
  '                                      hideFields: library item fields left out of answers, e.g. ["fileName"] ([] shows all)',
  'POST /_sandbox/accounts/{id}/keys     → {apiKey}: another key for the same account',
  '     /_sandbox/account[...]           the same, for the account of the bearer key',
  'GET  /_sandbox/clock                  {now, iso, speed}',
  'POST /_sandbox/clock/advance          {ms} or {seconds} or {minutes} or {hours} or {days}: runs the background work that comes due; at most 366 days at a time',
  'POST /_sandbox/clock/speed            {speed}: from 0.001 to 1000000',
  `POST /_sandbox/faults                 {kind: ${FAULT_KINDS.join('|')}, count? (1-10000), ms? (0-600000), method?, path?}: the next count requests fail`,
  'DELETE /_sandbox/faults               clear queued faults',
  'POST /_sandbox/rate-limit             {perMinute}: 0 turns it off, at most 1000000',
  'GET  /_sandbox/stats                  {requests, executions, statuses} per operation id',
  'DELETE /_sandbox/stats                reset the counts',
  'GET  /_sandbox/events                 background work still scheduled',
];

export async function handleAdmin(
  deps: ServerDeps,
  method: string,
  url: URL,
  body: Body,
  headers: IncomingHttpHeaders,
): Promise<Reply> {
  const parts = url.pathname.split('/').filter(Boolean).slice(1); // drop "_sandbox"
  const route = `${method} ${parts.join('/')}`;
  deps.world.runDue();

  if (route === 'GET ' || route === 'GET help') return ok({ routes: adminRoutes });
  const reply =
    parts[0] === 'accounts' || parts[0] === 'account'
      ? accountRoute(deps, method, parts, body, headers)
      : sandboxRoute(deps, route, body);
  if (reply) return reply;
  throw new HttpFail(404, 'NOT_FOUND', `No admin route ${method} ${url.pathname}; GET /_sandbox/ lists them`);
}

/** `/_sandbox/accounts[...]` and `/_sandbox/account[...]`; undefined when no route matches. */
function accountRoute(
  deps: ServerDeps,
  method: string,
  parts: string[],
  body: Body,
  headers: IncomingHttpHeaders,
): Reply | undefined {
  const { world } = deps;
  if (method === 'POST' && parts.length === 1 && parts[0] === 'accounts') {
    checkAccountInput(body ?? {});
    // A key names one account: taking it would move another account's callers to this one.
    if (typeof body?.apiKey === 'string' && world.accountForKey(body.apiKey))
      throw new HttpFail(
        409,
        'KEY_IN_USE',
        'This apiKey is already the key of another account; choose another or leave it out',
      );
    const { account, apiKey } = world.createAccount({
      email: body?.email,
      name: body?.name,
      emailVerified: body?.emailVerified,
      lang: body?.lang,
      credits: typeof body?.credits === 'number' ? body.credits : undefined,
      limits: body?.limits,
      apiKey: body?.apiKey,
    });
    if (Array.isArray(body?.credits)) account.credits = body.credits;
    return { status: 201, body: { account: accountView(account), apiKey } };
  }
  const [account, rest] = resolveAccount(deps, parts, headers);
  if (method === 'GET' && rest.length === 0) return ok(accountView(account));
  if (method === 'PATCH' && rest.length === 0) {
    checkAccountInput(body ?? {});
    patchAccount(account, body ?? {}, world.now());
    world.changed();
    return ok(accountView(account));
  }
  if (method === 'POST' && rest[0] === 'keys') return { status: 201, body: { apiKey: world.addKey(account.id) } };
  return undefined;
}

/** The clock, faults, rate limit, stats and events; undefined when no route matches. */
function sandboxRoute(deps: ServerDeps, route: string, body: Body): Reply | undefined {
  const { world } = deps;
  switch (route) {
    case 'GET clock':
      return ok(clockView(deps));
    case 'POST clock/advance': {
      const ms = durationMs(body, world.now());
      world.advance(ms);
      return ok(clockView(deps));
    }
    case 'POST clock/speed': {
      const speed = bounded(body?.speed, 'speed', BOUNDS.speed);
      world.clock.setSpeed(speed);
      return ok(clockView(deps));
    }
    case 'POST faults': {
      const kind = String(body?.kind) as FaultKind;
      if (!FAULT_KINDS.includes(kind))
        throw new HttpFail(400, 'INVALID_INPUT', `kind must be one of ${FAULT_KINDS.join(', ')}`);
      const count = body?.count === undefined ? undefined : bounded(body.count, 'count', BOUNDS.faultCount);
      const ms = body?.ms === undefined ? undefined : bounded(body.ms, 'ms', BOUNDS.faultMs);
      deps.faults.inject({ kind, count, ms, method: body?.method, path: body?.path });
      return ok({ queued: true });
    }
    case 'DELETE faults':
      deps.faults.clear();
      return { status: 204 };
    case 'POST rate-limit': {
      const perMinute = bounded(body?.perMinute, 'perMinute', BOUNDS.perMinute);
      deps.limiter.perMinute = perMinute;
      deps.limiter.reset();
      return ok({ perMinute });
    }
    case 'GET stats':
      return ok(deps.stats);
    case 'DELETE stats':
      for (const table of [deps.stats.requests, deps.stats.executions, deps.stats.statuses])
        for (const k of Object.keys(table)) delete table[k];
      return { status: 204 };
    case 'GET events':
      return ok({ events: world.state.events });
  }
  return undefined;
}

function resolveAccount(deps: ServerDeps, parts: string[], headers: IncomingHttpHeaders): [Account, string[]] {
  if (parts[0] === 'account') {
    const key = /^Bearer\s+(\S+)/i.exec(headers.authorization ?? '')?.[1];
    const account = deps.world.accountForKey(key);
    if (!account) throw new HttpFail(401, 'UNAUTHENTICATED', '/_sandbox/account needs the bearer key of an account');
    return [account, parts.slice(1)];
  }
  // An own key only (the record is a dictionary too): `__proto__` is no account.
  const id = parts[1] ?? '';
  const account = Object.hasOwn(deps.world.state.accounts, id) ? deps.world.state.accounts[id] : undefined;
  if (!account) throw new HttpFail(404, 'ACCOUNT_NOT_FOUND', `No account ${parts[1]}`);
  return [account, parts.slice(2)];
}

/**
 * What the admin routes may set on an account, taken from the shapes GET /me serves (the
 * single source), so that no setting can make the sandbox break its own answers: credit
 * pools in full (`resetsAt` included, null for a pool that never resets), plan, trial,
 * limits, language. `credits` as a number is one monthly pool.
 */
const M = Me.properties;
const AccountInput = Type.Object({
  email: Type.Optional(M.email),
  name: Type.Optional(M.name),
  apiKey: Type.Optional(Type.String({ minLength: 1 })),
  emailVerified: Type.Optional(M.emailVerified),
  lang: Type.Optional(M.lang),
  plan: Type.Optional(M.plan),
  trial: Type.Optional(M.trial),
  limits: Type.Optional(Type.Partial(M.limits)),
  storageUsed: Type.Optional(Type.Integer({ minimum: 0 })),
  watchesThisMonth: Type.Optional(Type.Integer({ minimum: 0 })),
});
const CreditsAsNumber = Type.Number({ minimum: 0 });

/** 400 INVALID_INPUT with every issue, before anything is changed. */
function checkAccountInput(body: Record<string, any>): void {
  const issues = validate(AccountInput, body);
  if (body.credits !== undefined) {
    issues.push(
      ...validate(
        typeof body.credits === 'number' ? CreditsAsNumber : M.credits.properties.pools,
        body.credits,
        'credits',
      ),
    );
  }
  for (const path of numbersOutOfBounds(body, ''))
    issues.push({ path, message: `must be from ${-Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}` });
  if (issues.length > 0) {
    throw new HttpFail(
      400,
      'INVALID_INPUT',
      `Invalid account settings: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
      { issues },
    );
  }
}

/** Where the body holds a number beyond the safe integers (credits, limits, counters: sums stay exact). */
function numbersOutOfBounds(value: unknown, path: string): string[] {
  if (typeof value === 'number') return Math.abs(value) <= Number.MAX_SAFE_INTEGER ? [] : [path || '/'];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => numbersOutOfBounds(inner, `${path}/${key}`));
}

function patchAccount(account: Account, body: Record<string, any>, now: number): void {
  if (body.credits !== undefined) {
    if (typeof body.credits === 'number') {
      account.credits = [
        {
          pool: 'monthly',
          remaining: body.credits,
          total: body.credits,
          resetsAt: account.credits[0]?.resetsAt ?? null,
        },
      ];
    } else if (Array.isArray(body.credits)) {
      account.credits = body.credits;
    }
  }
  if (typeof body.emailVerified === 'boolean') account.emailVerified = body.emailVerified;
  if (body.limits && typeof body.limits === 'object') account.limits = { ...account.limits, ...body.limits };
  if (typeof body.storageUsed === 'number') account.storageUsed = body.storageUsed;
  if (typeof body.watchesThisMonth === 'number')
    account.watchesByMonth = dictionary({ [monthKey(now)]: body.watchesThisMonth });
  if (body.trial !== undefined) account.trial = body.trial;
  if (body.plan && typeof body.plan === 'object') account.plan = body.plan;
  if (body.lang === 'zh' || body.lang === 'en') account.lang = body.lang;
  if (body.hideFields !== undefined) {
    if (
      !Array.isArray(body.hideFields) ||
      body.hideFields.some((field: unknown) => typeof field !== 'string' || field === 'id')
    ) {
      throw new HttpFail(
        400,
        'INVALID_INPUT',
        'hideFields must be a list of library item field names (id cannot be hidden)',
      );
    }
    account.hideFields = body.hideFields;
  }
}

function accountView(account: Account) {
  return publicView(account);
}

function clockView(deps: ServerDeps) {
  const now = deps.world.now();
  return {
    now,
    iso: deps.world.iso(now),
    speed: deps.world.clock.multiplier,
    pendingEvents: deps.world.state.events.length,
  };
}

/**
 * Every number the admin routes take has a bound, named in its 400: an unbounded
 * speed pegged the process, an advance of 100,000 days with a daily watch ran it out
 * of memory. (The speed's bounds are the --speed flag's.)
 */
const DAY_MS = 86_400_000;
const BOUNDS = {
  speed: { min: 0.001, max: 1_000_000 },
  advanceMs: { min: 0, max: 366 * DAY_MS },
  faultCount: { min: 1, max: 10_000, integer: true },
  faultMs: { min: 0, max: 600_000, integer: true },
  perMinute: { min: 0, max: 1_000_000, integer: true },
} as const;
/** The latest time the clock may show: ISO 8601 with a four-digit year. */
const LAST_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

function bounded(value: unknown, name: string, bound: { min: number; max: number; integer?: boolean }): number {
  const n = typeof value === 'number' ? value : Number.NaN;
  if (!Number.isFinite(n) || n < bound.min || n > bound.max || (bound.integer && !Number.isInteger(n)))
    throw new HttpFail(
      400,
      'INVALID_INPUT',
      `${name} must be ${bound.integer ? 'a whole number' : 'a number'} from ${bound.min} to ${bound.max}`,
      { issues: [{ path: name, message: `must be from ${bound.min} to ${bound.max}` }] },
    );
  return n;
}

const UNITS = { ms: 1, seconds: 1000, minutes: 60_000, hours: 3_600_000, days: DAY_MS } as const;

function durationMs(body: Body, now: number): number {
  const b = body ?? {};
  let ms = 0;
  for (const [unit, size] of Object.entries(UNITS)) {
    if (b[unit] === undefined) continue;
    ms += bounded(b[unit], unit, { min: 0, max: BOUNDS.advanceMs.max / size }) * size;
  }
  if (ms > BOUNDS.advanceMs.max)
    throw new HttpFail(400, 'INVALID_INPUT', `an advance is at most 366 days (${BOUNDS.advanceMs.max} ms) at a time`);
  if (now + ms > LAST_TIME) throw new HttpFail(400, 'INVALID_INPUT', 'the clock cannot pass the year 9999');
  return ms;
}

function ok(body: unknown): Reply {
  return { status: 200, body };
}
