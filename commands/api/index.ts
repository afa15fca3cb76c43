// `kagent api METHOD PATH`: any request to the API with the profile's
// credentials, through the same HTTP core as every command (auth only to the
// configured origin, pacing, retries, error mapping to exit codes).
//   -f key=value   string field      -F key=value   typed field (number, true,
//   false, null, @file, @- for stdin) — fields make the JSON body, or the query
//   of a GET/DELETE/HEAD (or of any request with --input); `key[]=v` appends to
//   an array, `key[sub]=v` nests.
//   --input FILE|-   the JSON body from a file or stdin
//   -H 'Name: value' headers;  --idempotency-key;  --paginate (GET: follows
//   nextCursor, prints one merged JSON array);  -i/--include (status line and
//   headers first, on stdout, as `gh api -i` and `curl -i` do).
// Create-style operations of the contract get a random Idempotency-Key, as
// every kagent command sends, so their retries never duplicate work.
import type { Context } from '../../src/context.js';
import { ApiError, UsageError } from '../../src/errors.js';
import { defineGroup } from '../../src/kit/define.js';
import { idempotencyKeyOption } from '../../src/kit/options.js';
import { checkIdempotencyKey, replayOrigin } from '../../src/kit/idempotency-key.js';
import { checkHeader } from '../../src/http/headers.js';
import { MAX_ANSWER_DEPTH, nestedDeeperThan } from '../../src/api/depth.js';
import { joinPath, resolveRawPath } from '../../src/http/url.js';
import { operations } from '../../src/api/operations.js';
import { emit } from '../../src/io/streams.js';
import { sanitizeLine } from '../../src/io/sanitize.js';
import { printJson, printText, note, warn, printList } from '../../src/io/output.js';
import { paginate } from '../../src/http/paginate.js';
import { readBounded, inputBounds } from '../../src/io/input.js';
import { STATUS_CODES } from 'node:http';
import { randomUUID } from 'node:crypto';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
const QUERY_METHODS = new Set(['GET', 'DELETE', 'HEAD', 'OPTIONS']);

interface ApiOptions {
  method?: string;
  rawField?: string[];
  field?: string[];
  header?: string[];
  input?: string;
  paginate?: boolean;
  idempotencyKey?: string;
  include?: boolean;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

// ---------------------------------------------------------------- fields

/** `a[b][]` → ['a', 'b', '']: the path a field's value goes to ('' appends to an array). */
function keyPath(key: string, flag: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) throw new UsageError(`${flag} ${key}: a field name is "name", "name[]" or "name[sub]"`);
  const rest = [...(match[2] ?? '').matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] as string);
  return [match[1] as string, ...rest];
}

/** Puts a value at a key path, creating objects and arrays on the way. */
function setPath(target: Record<string, Json>, path: string[], value: Json, flag: string, key: string): void {
  let node: Record<string, Json> | Json[] = target;
  path.forEach((part, i) => {
    const last = i === path.length - 1;
    const nextIsArray = !last && path[i + 1] === '';
    if (Array.isArray(node)) {
      if (part !== '') throw new UsageError(`${flag} ${key}: "${path.slice(0, i).join('.')}" is a list, not an object`);
      if (last) node.push(value);
      else {
        const child: Json = nextIsArray ? [] : {};
        node.push(child);
        node = child as Record<string, Json> | Json[];
      }
      return;
    }
    if (part === '') throw new UsageError(`${flag} ${key}: [] must follow a name`);
    if (last) {
      node[part] = value;
      return;
    }
    const existing: Json | undefined = node[part];
    if (existing === undefined || existing === null || typeof existing !== 'object') node[part] = nextIsArray ? [] : {};
    else if (Array.isArray(existing) !== nextIsArray)
      throw new UsageError(`${flag} ${key}: "${part}" is already ${Array.isArray(existing) ? 'a list' : 'an object'}`);
    node = node[part] as Record<string, Json> | Json[];
  });
}

/** `-F` values: numbers, true, false, null; `@path` (or `@-`) is that file's text; anything else stays a string. */
async function typedValue(ctx: Context, value: string, key: string): Promise<Json> {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (value === 'null') return null;
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(value)) return Number(value);
  if (value.startsWith('@')) {
    return readBounded(ctx, value.slice(1), `-F ${key}=@`, (await inputBounds()).apiInput);
  }
  return value;
}

interface Field {
  key: string;
  path: string[];
  value: Json;
}

async function parseFields(ctx: Context, opts: ApiOptions): Promise<Field[]> {
  const fields: Field[] = [];
  const split = (entry: string, flag: string): [string, string] => {
    const at = entry.indexOf('=');
    if (at <= 0) throw new UsageError(`${flag} ${entry}: expected key=value`, `e.g. ${flag} title=Notes`);
    return [entry.slice(0, at), entry.slice(at + 1)];
  };
  for (const entry of opts.rawField ?? []) {
    const [key, value] = split(entry, '-f');
    fields.push({ key, path: keyPath(key, '-f'), value });
  }
  for (const entry of opts.field ?? []) {
    const [key, value] = split(entry, '-F');
    fields.push({ key, path: keyPath(key, '-F'), value: await typedValue(ctx, value, key) });
  }
  return fields;
}

function bodyOf(fields: Field[]): Record<string, Json> {
  const body: Record<string, Json> = {};
  for (const field of fields) setPath(body, field.path, field.value, '-f/-F', field.key);
  return body;
}

/** Fields as query parameters: `key=value`, arrays as repeated keys, objects as JSON. */
function withQuery(path: string, fields: Field[]): string {
  if (fields.length === 0) return path;
  const params = new URLSearchParams();
  for (const field of fields) {
    const name = field.path.filter((part) => part !== '').join('.') || field.key;
    params.append(
      name,
      field.value === null ? '' : typeof field.value === 'object' ? JSON.stringify(field.value) : String(field.value),
    );
  }
  return `${path}${path.includes('?') ? '&' : '?'}${params.toString()}`;
}

function parseHeaders(entries: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const entry of entries) {
    const at = entry.indexOf(':');
    const name = at > 0 ? entry.slice(0, at).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw new UsageError(`-H ${entry}: expected "Name: value"`, "e.g. -H 'Accept-Language: zh'");
    headers[name.toLowerCase()] = entry.slice(at + 1).trim();
    checkHeader(name, headers[name.toLowerCase()]!, '-H');
  }
  return headers;
}

// ---------------------------------------------------------------- what the path is

/** Whether PATH is the API's published description, `{base_url}/openapi.json`, which needs no key. */
async function isPublishedDescription(ctx: Context, path: string): Promise<boolean> {
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
async function isCreateStyle(method: string, path: string): Promise<boolean> {
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

// ---------------------------------------------------------------- output

function headerName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
}

async function printHead(
  ctx: Context,
  status: number,
  headers: Record<string, string | string[] | undefined> | undefined,
): Promise<void> {
  let text = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd() + '\n';
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) text += `${headerName(name)}: ${sanitizeLine(one)}\n`;
  }
  await emit(ctx.io.stdout, `${text}\n`);
}

async function printBody(ctx: Context, body: unknown): Promise<void> {
  if (body === undefined) return;
  if (typeof body === 'string') {
    if (ctx.flags.jq !== undefined) throw new UsageError('--jq needs a JSON answer, and this one is text');
    await printText(ctx, body);
    return;
  }
  await printJson(ctx, body);
}

// ---------------------------------------------------------------- the command

/**
 * The method and path, as `gh api` reads them: -X/--method, else a METHOD before
 * the PATH, else POST when fields or --input make a request body, else GET.
 */
function methodAndPath(
  opts: ApiOptions,
  args: { method: string; path?: string | undefined },
): { method: string; path: string } {
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

export default defineGroup({
  name: 'api',
  summary: 'Make an authenticated request to any API path',
  description: [
    'Sends METHOD PATH (relative to the base URL: /me, docs/doc_8f2k3xq9mz, /api/v1/media?limit=5) with your API key, and prints the JSON answer: pretty on a terminal, compact when piped, filtered by --jq. ' +
      'The method is -X/--method, or the METHOD before PATH; without either it is POST when fields (-f, -F) or --input give a body, else GET, as with `gh api`. Errors exit like every command (404 → 4, 409 → 5, …) with `error: <message> (<CODE>)` on stderr.',
    'Fields build the JSON body: -f key=value sends a string, -F key=value a typed value (numbers, true, false, null; @file or @- reads a file or stdin as a string). ' +
      '`key[]=value` appends to a list, `key[sub]=value` nests. With fields and no method the request is a POST; for GET, DELETE and HEAD (-X GET), and whenever --input gives the body, fields become query parameters instead.',
    '--paginate follows nextCursor for a GET that answers {items, nextCursor} and prints every item as one JSON array. ' +
      '-i prints the status line and headers first (also for an error answer, with its body). ' +
      'Create-style operations (POST /docs, /media, /spaces, …) get a random Idempotency-Key unless you give one (--idempotency-key or -H), so retries never do the work twice. ' +
      'The published description, GET /openapi.json, needs no key: it is fetched even when none is configured.',
  ].join('\n\n'),
  arguments: [
    {
      name: 'method',
      description:
        'GET, POST, PUT, PATCH, DELETE, HEAD or OPTIONS (or the PATH alone: then -X, else POST with fields, else GET)',
    },
    { name: 'path', description: 'the path under the base URL, with a query string if you like', optional: true },
  ],
  options: [
    { flags: '-X, --method <method>', description: 'the HTTP method (default: POST with fields or --input, else GET)' },
    { flags: '-f, --raw-field <key=value>', description: 'a string field (repeatable)', repeatable: true },
    {
      flags: '-F, --field <key=value>',
      description: 'a typed field: number, true, false, null, or @file (repeatable)',
      repeatable: true,
    },
    { flags: '-H, --header <header>', description: 'an extra header, "Name: value" (repeatable)', repeatable: true },
    { flags: '--input <file>', description: 'the JSON body from this file, or - for stdin' },
    { flags: '--paginate', description: 'GET every page (following nextCursor) and print all items as one JSON array' },
    idempotencyKeyOption('sent as Idempotency-Key; reruns within 24 h return the first result', 'api'),
    { flags: '-i, --include', description: 'print the status line and response headers before the body' },
  ],
  examples: [
    'kagent api /me',
    'kagent api GET /docs -F limit=5 --jq ".items[].title"',
    '# fields without a method make a POST, as with gh api',
    'kagent api /spaces -f name=Research',
    'kagent api -X GET /docs/search -f q=battery',
    'kagent api POST /docs -f title="Notes" -f markdown="# Notes"',
    'kagent api POST /watches -f intent="Rust releases" -f type=sources -f "urls[]=https://blog.rust-lang.org/"',
    'kagent api PATCH /docs/doc_8f2k3xq9mz --input patch.json',
    'kagent api GET /library --paginate --jq "length"',
    'kagent api -i DELETE /docs/doc_8f2k3xq9mz',
  ],
  async run(ctx, opts, args) {
    const request = methodAndPath(opts, args);
    const method = request.method;
    let path = request.path;
    if (opts.paginate && method !== 'GET') throw new UsageError('--paginate follows pages of a GET only');
    if (opts.paginate && opts.include) throw new UsageError('use --include or --paginate, not both');

    const headers = parseHeaders(opts.header ?? []);
    const userKey = opts.idempotencyKey ?? headers['idempotency-key'];
    let idempotencyKey = userKey;
    delete headers['idempotency-key'];
    await checkIdempotencyKey(
      idempotencyKey,
      opts.idempotencyKey !== undefined ? '--idempotency-key' : '-H Idempotency-Key',
    );

    const fields = await parseFields(ctx, opts);
    let body: unknown;
    if (opts.input !== undefined) {
      const text = await readBounded(ctx, opts.input, '--input', (await inputBounds()).apiInput);
      try {
        body = JSON.parse(text);
      } catch (error) {
        throw new UsageError(
          `--input ${opts.input === '-' ? '(stdin)' : opts.input} is not valid JSON: ${(error as Error).message}`,
        );
      }
      // Writing it out again (the request body) recurses: a body deeper than any answer kagent reads is refused here.
      if (nestedDeeperThan(body, MAX_ANSWER_DEPTH))
        throw new UsageError(
          `--input ${opts.input === '-' ? '(stdin)' : opts.input} is nested deeper than ${MAX_ANSWER_DEPTH} levels`,
        );
      path = withQuery(path, fields);
    } else if (QUERY_METHODS.has(method)) {
      path = withQuery(path, fields);
    } else if (fields.length > 0) {
      body = bodyOf(fields);
    }
    if (idempotencyKey === undefined && (await isCreateStyle(method, path))) {
      idempotencyKey = randomUUID();
    }

    // The published description needs no key (the contract, Authentication 4): sent without one when none is set.
    const api = await ctx.api({ keyOptional: method === 'GET' && (await isPublishedDescription(ctx, path)) });
    const send = (target: string) => api.raw(method, target, { body, headers, idempotencyKey, signal: ctx.signal });
    if (opts.paginate) return paginateAll(ctx, path, send);

    let result;
    try {
      result = await send(path);
    } catch (error) {
      if (opts.include && error instanceof ApiError) {
        await printHead(ctx, error.status, error.headers);
        if (error.body !== undefined) await printBody(ctx, error.body);
      }
      throw error;
    }
    if (opts.include) await printHead(ctx, result.status, result.headers);
    const origin = replayOrigin(result, userKey);
    if (origin === 'earlier-run' || origin === 'either') {
      await note(
        ctx,
        origin === 'earlier-run'
          ? 'idempotent replay: the service answered from its cache (this key was used within the last 24 hours)'
          : 'idempotent replay: the work was done once under this key, by this run (its first answer was lost) or by an earlier run within the last 24 hours',
      );
    }
    await printBody(ctx, result.body);
  },
});

/** --paginate: every page's items as one JSON array, streamed (one page in memory at a time). */
async function paginateAll(
  ctx: Context,
  path: string,
  send: (target: string) => Promise<{ body: unknown }>,
): Promise<void> {
  const first = (await send(path)).body;
  const isPage = (value: unknown): value is { items: unknown[]; nextCursor?: unknown } =>
    typeof value === 'object' && value !== null && Array.isArray((value as { items?: unknown }).items);
  if (!isPage(first)) {
    await warn(ctx, '--paginate: the answer has no "items" list, so there are no pages to follow; printed as it is');
    return printBody(ctx, first);
  }
  const items = paginate<unknown>(
    async (cursor) => {
      if (cursor === undefined)
        return { items: first.items, nextCursor: typeof first.nextCursor === 'string' ? first.nextCursor : null };
      const page = (await send(withCursor(path, cursor))).body;
      if (!isPage(page)) throw new UsageError(`--paginate: a later page of ${path} has no "items" list`);
      return { items: page.items, nextCursor: typeof page.nextCursor === 'string' ? page.nextCursor : null };
    },
    { all: true },
  );
  // The merged array, through --jq when given: JSON whatever the terminal.
  await printList({ ...ctx, flags: { ...ctx.flags, json: true } }, items, { columns: [] });
}

function withCursor(path: string, cursor: string): string {
  const [base, search = ''] = path.split(/\?(.*)/s, 2) as [string, string?];
  const params = new URLSearchParams(search);
  params.set('cursor', cursor);
  return `${base}?${params.toString()}`;
}
