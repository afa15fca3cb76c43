// What `kagent api` sends, read from its arguments: the method and path, the
// headers, the body (fields or --input) or the query, and the Idempotency-Key
// (the user's, else a random one for a create-style operation of the contract,
// as every kagent command sends, so that retries never duplicate work).
import { randomUUID } from 'node:crypto';
import { MAX_ANSWER_DEPTH, nestedDeeperThan } from '../api/depth.js';
import { operations } from '../api/operations.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { checkHeader } from '../http/headers.js';
import { joinPath, resolveRawPath } from '../http/url.js';
import { inputBounds, readBounded } from '../io/input.js';
import { checkIdempotencyKey } from '../kit/idempotency-key.js';
import { bodyOf, parseFields, withQuery } from './fields.js';

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
const QUERY_METHODS = new Set(['GET', 'DELETE', 'HEAD', 'OPTIONS']);

/** The options of `kagent api`, as its command declares them. */
export interface RawRequestOptions {
  method?: string;
  rawField?: string[];
  field?: string[];
  header?: string[];
  input?: string;
  paginate?: boolean;
  idempotencyKey?: string;
  include?: boolean;
}

export interface RawRequestArgs {
  method: string;
  path?: string | undefined;
}

export interface RawRequest {
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string>;
  idempotencyKey: string | undefined;
  /** The key the user gave (--idempotency-key or -H), if any: what a replay note speaks of. */
  userKey: string | undefined;
  /** GET of the published API description, which needs no key. */
  keyOptional: boolean;
}

export async function readRequest(ctx: Context, opts: RawRequestOptions, args: RawRequestArgs): Promise<RawRequest> {
  const { method, path: given } = methodAndPath(opts, args);
  if (opts.paginate && method !== 'GET') throw new UsageError('--paginate follows pages of a GET only');
  if (opts.paginate && opts.include) throw new UsageError('use --include or --paginate, not both');

  const headers = parseHeaders(opts.header ?? []);
  const userKey = opts.idempotencyKey ?? headers['idempotency-key'];
  delete headers['idempotency-key'];
  await checkIdempotencyKey(userKey, opts.idempotencyKey !== undefined ? '--idempotency-key' : '-H Idempotency-Key');

  const fields = await parseFields(ctx, opts.rawField ?? [], opts.field ?? []);
  let path = given;
  let body: unknown;
  if (opts.input !== undefined) {
    body = await readInput(ctx, opts.input);
    path = withQuery(path, fields);
  } else if (QUERY_METHODS.has(method)) {
    path = withQuery(path, fields);
  } else if (fields.length > 0) {
    body = bodyOf(fields);
  }
  const idempotencyKey = userKey ?? (isCreateStyle(method, path) ? randomUUID() : undefined);
  // The published description needs no key (the contract, Authentication 4): sent without one when none is set.
  const keyOptional = method === 'GET' && isPublishedDescription(ctx, path);
  return { method, path, body, headers, idempotencyKey, userKey, keyOptional };
}

/**
 * The method and path, as `gh api` reads them: -X/--method, else a METHOD before
 * the PATH, else POST when fields or --input make a request body, else GET.
 */
function methodAndPath(opts: RawRequestOptions, args: RawRequestArgs): { method: string; path: string } {
  const isMethod = (word: string) => (METHODS as readonly string[]).includes(word.toUpperCase());
  const flag = opts.method?.toUpperCase();
  if (flag !== undefined && !isMethod(flag))
    throw new UsageError(`-X/--method must be one of ${METHODS.join(', ')} (got "${opts.method}")`);
  if (args.path === undefined) {
    if (isMethod(args.method))
      throw new UsageError(
        `PATH is missing: \`kagent api ${args.method.toUpperCase()} PATH\``,
        'for example: `kagent api GET /me`',
      );
    const hasBody = (opts.rawField ?? []).length + (opts.field ?? []).length > 0 || opts.input !== undefined;
    return { method: flag ?? (hasBody ? 'POST' : 'GET'), path: args.method };
  }
  const given = args.method.toUpperCase();
  if (!isMethod(given)) throw new UsageError(`METHOD must be one of ${METHODS.join(', ')} (got "${args.method}")`);
  if (flag !== undefined && flag !== given)
    throw new UsageError(`two methods: ${given} and -X ${flag}`, `give one: \`kagent api -X ${flag} ${args.path}\``);
  return { method: given, path: args.path };
}

function parseHeaders(entries: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const entry of entries) {
    const at = entry.indexOf(':');
    const name = at > 0 ? entry.slice(0, at).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw new UsageError(`-H ${entry}: expected "Name: value"`, "e.g. -H 'Accept-Language: zh'");
    const value = entry.slice(at + 1).trim();
    checkHeader(name, value, '-H');
    headers[name.toLowerCase()] = value;
  }
  return headers;
}

/** --input FILE|-: the JSON body. */
async function readInput(ctx: Context, input: string): Promise<unknown> {
  const named = input === '-' ? '(stdin)' : input;
  const text = await readBounded(ctx, input, '--input', (await inputBounds()).apiInput);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--input ${named} is not valid JSON: ${(error as Error).message}`);
  }
  // Writing it out again (the request body) recurses: a body deeper than any answer kagent reads is refused here.
  if (nestedDeeperThan(body, MAX_ANSWER_DEPTH))
    throw new UsageError(`--input ${named} is nested deeper than ${MAX_ANSWER_DEPTH} levels`);
  return body;
}

/** Whether PATH is the API's published description, `{base_url}/openapi.json`, which needs no key. */
function isPublishedDescription(ctx: Context, path: string): boolean {
  if (!ctx.config.baseUrl) return false;
  try {
    const base = new URL(ctx.config.baseUrl);
    const url = resolveRawPath(base, path);
    const description = joinPath(base, '/openapi.json');
    return url.origin === description.origin && url.pathname === description.pathname;
  } catch {
    return false;
  }
}

/** Whether METHOD PATH is a create-style operation of the contract (it accepts an Idempotency-Key). */
function isCreateStyle(method: string, path: string): boolean {
  const pathname =
    path
      .replace(/^https?:\/\/[^/]+/i, '')
      .split('?')[0]
      ?.replace(/^\/?(api\/v1)?\/?/, '/')
      .replace(/\/+$/, '') ?? '';
  return Object.values(operations).some((info) => {
    if (!('idempotent' in info) || !info.idempotent || info.method !== method) return false;
    const pattern = new RegExp(`^${info.path.replace(/\{\w+\}/g, '[^/]+')}$`);
    return pattern.test(pathname);
  });
}
