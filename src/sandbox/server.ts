// The HTTP pipeline every API request goes through, in the order the contract
// implies: route → background work due → auth → rate limit → injected fault →
// input validation → idempotency → handler → answer (JSON envelope or problem).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { operations, type OperationId } from '../api/operations.js';
import { spec } from '../api/spec.js';
import { coerceQuery, validate } from '../api/validate.js';
import { handleAdmin } from './admin.js';
import { guardRequest } from './guard.js';
import { expectBody, holdContinue } from './continue.js';
import type { Faults, Fault } from './faults.js';
import { begin, checkKey, finish, fingerprint } from './idempotency.js';
import { openapiDocument } from './openapi.js';
import type { SandboxStats } from './public.js';
import type { RateLimiter } from './ratelimit.js';
import { HttpFail, type Reply, type RouteRequest, type Routes } from './types.js';
import type { World } from './world.js';

export interface ServerDeps {
  world: World;
  routes: Routes;
  limiter: RateLimiter;
  faults: Faults;
  errorFormat: 'envelope' | 'problem';
  log?: (line: string) => void;
  stats: SandboxStats;
}

export type { SandboxStats };

const JSON_BODY_MAX = 8 * 1024 * 1024;
const PREFIX = '/api/v1';

interface Route {
  op: OperationId;
  method: string;
  pattern: RegExp;
  names: string[];
}

const routeTable: Route[] = Object.entries(operations).map(([op, info]) => {
  const names: string[] = [];
  const source = info.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { op: op as OperationId, method: info.method, pattern: new RegExp(`^${source}/?$`), names };
});
// Literal paths win over parameters (`/watches/search` before `/watches/{slug}`).
routeTable.sort((a, b) => a.names.length - b.names.length);

function match(
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | { allowed: string[] } | undefined {
  const allowed: string[] = [];
  for (const route of routeTable) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    if (!allowed.includes(route.method)) allowed.push(route.method);
    if (route.method !== method) continue;
    const params: Record<string, string> = {};
    route.names.forEach((name, i) => (params[name] = safeDecode(m[i + 1] ?? '')));
    return { route, params };
  }
  return allowed.length > 0 ? { allowed } : undefined;
}

export function createHandler(deps: ServerDeps) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const started = performance.now();
    holdContinue(req, res);
    handle(deps, req, res)
      .catch((error: unknown) => {
        if (!res.headersSent) send(deps, res, errorReply(deps, error));
      })
      .finally(() => {
        deps.stats.statuses[res.statusCode] = (deps.stats.statuses[res.statusCode] ?? 0) + 1;
        deps.log?.(`${req.method} ${req.url} ${res.statusCode} ${(performance.now() - started).toFixed(1)}ms`);
      });
  };
}

async function handle(deps: ServerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { world } = deps;
  const url = new URL(req.url ?? '/', 'http://sandbox');
  const method = req.method ?? 'GET';
  // Every answer tells the sandbox's clock (its timestamps' clock): kagent's relative times
  // are of it (src/http/service-clock.ts); send() tells it again when the work is done.
  stampNow(deps, res);
  // Before anything else, on every route: only this machine's programs get in.
  guardRequest(method, url.pathname, req.headers);

  if (url.pathname.startsWith('/_sandbox/')) return handleAdminRequest(deps, req, res, method, url);
  if (method === 'GET' && (url.pathname === `${PREFIX}/openapi.json` || url.pathname === '/openapi.json')) {
    return send(deps, res, {
      status: 200,
      body: openapiDocument(`http://${req.headers.host ?? '127.0.0.1'}${PREFIX}`),
    });
  }
  const { route, params } = routeOf(method, url.pathname);
  const info = operations[route.op] as OperationTraits;
  deps.stats.requests[route.op] = (deps.stats.requests[route.op] ?? 0) + 1;

  world.runDue();
  // A read works on the state as it is, not through the change-tracking view of --state
  // (reads change nothing; background work that came due ran above, tracked).
  const view = method === 'GET' ? world.readView() : world;
  const account = authenticate(view, req);
  takeBudget(deps, account.id);

  const fault = deps.faults.pick(method, url.pathname);
  if (fault && failsBeforeWork(fault)) return injectFailure(deps, req, res, fault);

  const input = await readInput(route.op, info, method, url, req);
  const idempotencyKey = headerValue(req.headers['idempotency-key']);
  const started = startIdempotent(world, info, {
    op: route.op,
    params,
    input,
    req,
    accountId: account.id,
    key: idempotencyKey,
  });
  if (started && 'replay' in started) return send(deps, res, started.replay);
  const slot = started?.reserved;

  let reply = await runHandler(deps, info, slot, fault, {
    op: route.op,
    params,
    query: input.query,
    body: input.body ?? {},
    account,
    raw: req,
    headers: req.headers,
    idempotencyKey,
    world: view,
  });
  // With --state, a write is in the journal, fsync'd, before it is answered. A read does not
  // wait for the disk; what background work it set going is saved all the same.
  if (method === 'GET') saved(deps).catch(() => undefined);
  else await saved(deps);

  if (fault?.kind === 'truncate' || fault?.kind === 'reset-after') return injectFailure(deps, req, res, fault, reply);
  // Shape chaos changes only what is sent: the stored state and idempotent replays keep the true shape.
  if (fault?.kind === 'shape' && reply.body !== undefined && (reply.status ?? 200) < 300)
    reply = { ...reply, body: deps.faults.mangle(reply.body) };
  send(deps, res, reply);
}

type OperationTraits = { idempotent?: boolean; binary?: boolean; success: number };

/** `/_sandbox/…`: the test's controls. */
async function handleAdminRequest(
  deps: ServerDeps,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  url: URL,
): Promise<void> {
  const body = method === 'GET' ? undefined : ((await readJson(req)) as Record<string, any> | undefined);
  const reply = await handleAdmin(deps, method, url, body, req.headers);
  // With --state, a change is durable before it is answered.
  if (method !== 'GET') await saved(deps);
  return send(deps, res, reply);
}

/** The operation a request is for: 404 outside the API or for an unknown path, 405 for a known path's wrong method. */
function routeOf(method: string, pathname: string): { route: Route; params: Record<string, string> } {
  if (!pathname.startsWith(`${PREFIX}/`))
    throw new HttpFail(404, 'NOT_FOUND', `No such endpoint: ${pathname} (the API lives under ${PREFIX})`);
  const found = match(method, pathname.slice(PREFIX.length));
  if (!found) throw new HttpFail(404, 'NOT_FOUND', `No such endpoint: ${method} ${pathname}`);
  if ('allowed' in found) {
    // RFC 9110 §15.5.6: a 405 lists the methods the resource does support.
    const allow = found.allowed.join(', ');
    throw new HttpFail(
      405,
      'METHOD_NOT_ALLOWED',
      `${method} is not allowed on ${pathname} (allowed: ${allow})`,
      {},
      { allow },
    );
  }
  return found;
}

function authenticate(view: World, req: IncomingMessage): NonNullable<ReturnType<World['accountForKey']>> {
  // Only the bearer key counts; cookies are never looked at.
  const key = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  const account = view.accountForKey(key);
  if (!account)
    throw new HttpFail(
      401,
      'UNAUTHENTICATED',
      key ? 'The API key is not valid' : 'Missing bearer API key (Authorization: Bearer <key>)',
    );
  return account;
}

/** The contract counts requests per account: all keys of one account share the budget. */
function takeBudget(deps: ServerDeps, accountId: string): void {
  const waitMs = deps.limiter.take(accountId);
  if (waitMs > 0) {
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    throw new HttpFail(
      429,
      'RATE_LIMITED',
      `More than ${deps.limiter.perMinute} requests per minute; retry in ${seconds} s`,
      {},
      { 'retry-after': String(seconds) },
    );
  }
}

interface Input {
  rawQuery: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
}

/** The query and JSON body, checked against the operation's shapes (400 with every issue). */
async function readInput(
  op: OperationId,
  info: OperationTraits,
  method: string,
  url: URL,
  req: IncomingMessage,
): Promise<Input> {
  const operation = spec[op];
  const rawQuery = Object.fromEntries(url.searchParams.entries());
  const query = operation.query ? coerceQuery(operation.query, rawQuery) : {};
  let body: unknown;
  if (!info.binary && method !== 'GET' && method !== 'DELETE') body = await readJson(req);
  const issues = [
    ...(operation.query ? validate(operation.query, query) : []),
    ...(operation.body ? validate(operation.body, body ?? {}) : []),
  ];
  if (issues.length > 0)
    throw new HttpFail(
      400,
      'INVALID_INPUT',
      `Invalid input: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
      { issues },
    );
  return { rawQuery, query, body };
}

/** An idempotent operation with a key: the stored answer to replay, or the slot reserved for this run; nothing without a key. */
function startIdempotent(
  world: World,
  info: OperationTraits,
  {
    op,
    params,
    input,
    req,
    accountId,
    key,
  }: {
    op: OperationId;
    params: Record<string, string>;
    input: Input;
    req: IncomingMessage;
    accountId: string;
    key: string | undefined;
  },
): { replay: Reply } | { reserved: string } | undefined {
  if (!info.idempotent || key === undefined) return undefined;
  checkKey(key);
  const print = info.binary
    ? fingerprint([op, input.rawQuery, req.headers['x-file-name'], req.headers['content-length']])
    : fingerprint([op, params, input.rawQuery, input.body ?? null]);
  const outcome = begin(world, `${accountId} ${op} ${key}`, print);
  if ('replay' in outcome && info.binary) req.resume();
  return outcome;
}

/** Runs the operation's handler; its reply (or its failure) settles the idempotency slot. */
async function runHandler(
  deps: ServerDeps,
  info: OperationTraits,
  slot: string | undefined,
  fault: Fault | undefined,
  args: RouteRequest,
): Promise<Reply> {
  let reply: Reply;
  try {
    if (fault?.kind === 'slow') await delay(fault.ms ?? 2000);
    const handler = deps.routes[args.op];
    if (!handler) throw new HttpFail(501, 'NOT_IMPLEMENTED', `${args.op} is not implemented by this sandbox`);
    deps.stats.executions[args.op] = (deps.stats.executions[args.op] ?? 0) + 1;
    reply = await handler(args);
    reply = { status: reply.status ?? info.success, body: reply.body, headers: reply.headers };
  } catch (error) {
    if (slot) finish(deps.world, slot, undefined);
    throw error;
  }
  if (slot) finish(deps.world, slot, reply);
  return reply;
}

/** Waits until every change so far is durable (--state); a failure to save is a 500 that says so. */
async function saved(deps: ServerDeps): Promise<void> {
  try {
    await deps.world.commit();
  } catch (error) {
    const message = `The sandbox could not save this change to its state file: ${(error as Error).message}`;
    deps.log?.(`warning: ${message}`);
    throw new HttpFail(500, 'STATE_NOT_SAVED', message);
  }
}

function failsBeforeWork(fault: Fault): boolean {
  return fault.kind !== 'slow' && fault.kind !== 'truncate' && fault.kind !== 'reset-after' && fault.kind !== 'shape';
}

/** The error code of an injected 5xx; a 500 is INTERNAL. */
const INJECTED_CODES: Record<number, string> = {
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

function injectFailure(deps: ServerDeps, req: IncomingMessage, res: ServerResponse, fault: Fault, reply?: Reply): void {
  req.resume();
  switch (fault.kind) {
    case 'reset':
    case 'reset-after':
      req.socket.destroy();
      return;
    case 'truncate': {
      // The work was done; only the answer is cut short.
      const text = JSON.stringify(reply?.body ?? { truncated: true });
      res.writeHead(reply?.status ?? 200, {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(text)),
      });
      res.write(text.slice(0, Math.max(1, Math.floor(text.length / 2))));
      setImmediate(() => req.socket.destroy());
      return;
    }
    case '429':
      return send(
        deps,
        res,
        errorReply(deps, new HttpFail(429, 'RATE_LIMITED', 'Injected rate limit', {}, { 'retry-after': '1' })),
      );
    default: {
      const status = Number(fault.kind);
      const code = INJECTED_CODES[status] ?? 'INTERNAL';
      return send(deps, res, errorReply(deps, new HttpFail(status, code, `Injected ${status}`)));
    }
  }
}

export function errorReply(deps: Pick<ServerDeps, 'errorFormat'>, error: unknown): Reply {
  const fail =
    error instanceof HttpFail
      ? error
      : new HttpFail(500, 'INTERNAL', `Internal sandbox error: ${(error as Error)?.message ?? String(error)}`);
  if (!(error instanceof HttpFail)) console.error(error);
  const { issues, ...extra } = fail.extra as { issues?: unknown };
  if (deps.errorFormat === 'problem') {
    return {
      status: fail.status,
      headers: { ...fail.headers, 'content-type': 'application/problem+json' },
      body: {
        type: 'about:blank',
        title: fail.code,
        status: fail.status,
        detail: fail.message,
        code: fail.code,
        ...(issues ? { issues } : {}),
        ...extra,
      },
    };
  }
  return {
    status: fail.status,
    headers: fail.headers,
    body: { error: { code: fail.code, message: fail.message, ...(issues ? { issues } : {}) }, ...extra },
  };
}

/** The sandbox's now, to the millisecond: the Date header has whole seconds and real time. */
function stampNow(deps: ServerDeps, res: ServerResponse): void {
  if (!res.headersSent) res.setHeader('sandbox-now', deps.world.clock.iso());
}

function send(deps: ServerDeps, res: ServerResponse, reply: Reply): void {
  stampNow(deps, res);
  const status = reply.status ?? 200;
  const headers: Record<string, string> = { ...reply.headers };
  if (status === 204 || reply.body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(reply.body);
  headers['content-type'] ??= 'application/json; charset=utf-8';
  headers['content-length'] = String(Buffer.byteLength(text));
  res.writeHead(status, headers);
  res.end(text);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  expectBody(req);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > JSON_BODY_MAX)
      throw new HttpFail(413, 'PAYLOAD_TOO_LARGE', `JSON bodies are limited to ${JSON_BODY_MAX} bytes`);
    chunks.push(chunk);
  }
  if (size === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpFail(400, 'INVALID_INPUT', 'The request body is not valid JSON', {
      issues: [{ path: '(body)', message: 'must be valid JSON' }],
    });
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
