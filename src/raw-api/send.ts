// `kagent api METHOD PATH`: any request to the API with the profile's
// credentials, through the same HTTP core as every command (auth only to the
// configured origin, pacing, retries, error mapping to exit codes), and its
// answer: the JSON body (through --jq), -i's status line and headers first, or
// with --paginate every page's items as one JSON array.
import { STATUS_CODES } from 'node:http';
import type { Context } from '../context.js';
import { ApiError, UsageError } from '../errors.js';
import { paginate } from '../http/paginate.js';
import { note, printJson, printList, printText, warn } from '../io/output.js';
import { sanitizeLine } from '../io/sanitize.js';
import { emit } from '../io/streams.js';
import { replayOrigin } from '../kit/idempotency-key.js';
import { readRequest, type RawRequestArgs, type RawRequestOptions } from './request.js';

export async function sendRawRequest(ctx: Context, opts: RawRequestOptions, args: RawRequestArgs): Promise<void> {
  const { method, path, body, headers, idempotencyKey, userKey, keyOptional } = await readRequest(ctx, opts, args);
  const api = await ctx.api({ keyOptional });
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
  if (origin === 'earlier-run')
    await note(
      ctx,
      'idempotent replay: the service answered from its cache (this key was used within the last 24 hours)',
    );
  else if (origin === 'either')
    await note(
      ctx,
      'idempotent replay: the work was done once under this key, by this run (its first answer was lost) or by an earlier run within the last 24 hours',
    );
  await printBody(ctx, result.body);
}

/** -i: the status line and headers, as `gh api -i` and `curl -i` print them, on stdout. */
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

/** `content-type` → `Content-Type`. */
function headerName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
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

/** --paginate: every page's items as one JSON array, streamed (one page in memory at a time). */
async function paginateAll(
  ctx: Context,
  path: string,
  send: (target: string) => Promise<{ body: unknown }>,
): Promise<void> {
  const first = (await send(path)).body;
  if (!isPage(first)) {
    await warn(ctx, '--paginate: the answer has no "items" list, so there are no pages to follow; printed as it is');
    return printBody(ctx, first);
  }
  const items = paginate<unknown>(
    async (cursor) => {
      const page = cursor === undefined ? first : (await send(withCursor(path, cursor))).body;
      if (!isPage(page)) throw new UsageError(`--paginate: a later page of ${path} has no "items" list`);
      return { items: page.items, nextCursor: typeof page.nextCursor === 'string' ? page.nextCursor : null };
    },
    { all: true },
  );
  // The merged array, through --jq when given: JSON whatever the terminal.
  await printList({ ...ctx, flags: { ...ctx.flags, json: true } }, items, { columns: [] });
}

function isPage(value: unknown): value is { items: unknown[]; nextCursor?: unknown } {
  return typeof value === 'object' && value !== null && Array.isArray((value as { items?: unknown }).items);
}

function withCursor(path: string, cursor: string): string {
  const [base, search = ''] = path.split(/\?(.*)/s, 2) as [string, string?];
  const params = new URLSearchParams(search);
  params.set('cursor', cursor);
  return `${base}?${params.toString()}`;
}
