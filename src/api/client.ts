// The typed API: one call per operationId, built on the HTTP core.
// (Interface first; the implementation lives below the types.)
import type { Readable } from 'node:stream';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { createHttpCore, type CoreRequest, type HttpCore, type HttpCoreOptions } from '../http/core.js';
import { listing, paginate as paginatePages, type Listing } from '../http/paginate.js';
import { joinPath, resolveRawPath } from '../http/url.js';
import { fillPath, operations, type OperationId, type OperationInfo } from './operations.js';
import { checkAnswerDepth } from './depth.js';
import { markMisfit, NotAListError, type Misfit } from './misfit.js';
import { loadShapes } from '../lazy.js';
export { NotAListError } from './misfit.js';
import type { PagedOperation, PageItem, Responses } from './operation-types.js';
export type { PagedOperation, PageItem, Responses } from './operation-types.js';

export interface CallArgs {
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Raw body for binary operations (uploadFile): streamed, never buffered. */
  stream?: () => Readable;
  contentLength?: number;
  headers?: Record<string, string>;
  /** Overrides the random key create-style calls get (content-derived keys for uploads, --idempotency-key). */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** The caller reads the answer field by field and stops on what it cannot read: no comparison with the shape. */
  unchecked?: boolean;
}

export interface CallResult<T> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  /** The service answered from its idempotency cache (`idempotent-replayed: true`). */
  replayed: boolean;
  /** Earlier attempts that may have reached the service without an answer (see CoreResponse). */
  unanswered: number;
}

export interface ApiClient {
  call<K extends OperationId>(op: K, args?: CallArgs): Promise<Responses[K]>;
  callFull<K extends OperationId>(op: K, args?: CallArgs): Promise<CallResult<Responses[K]>>;
  /** Raw request for `kagent api`: any method and path under the base URL. */
  raw(method: string, path: string, args?: Omit<CallArgs, 'params'>): Promise<CallResult<unknown>>;
  /** Follows cursors: yields items one by one; stops after `limit` items unless `all`. */
  paginate<K extends PagedOperation>(
    op: K,
    args?: CallArgs,
    options?: { limit?: number; all?: boolean },
  ): Listing<PageItem<K>>;
  readonly baseUrl: string;
}

// ---------------------------------------------------------------- implementation

export interface ApiClientOptions extends HttpCoreOptions {
  /**
   * Told of every answer that does not fit the shape kagent assumes for it (after
   * the answer is marked, before the caller gets it). The caller still gets the
   * answer as it came: views and --json decide what to do with it.
   */
  onMisfit?: (misfit: Misfit) => void;
  /**
   * Compare answers with their shapes (default true). Off for --json without --debug:
   * the answer is printed as it came either way, and the shapes (about 100 ms of
   * start-up) are then loaded only if a command fails on an answer.
   */
  checkAnswers?: boolean;
  /** Told of every answer (cheap): the last one is what a failing command falls back to. */
  onAnswer?: (op: OperationId, body: unknown) => void;
}

/** The contract's bound on Idempotency-Key. */
const IDEMPOTENCY_KEY_MAX = 200;

/**
 * Builds the client. Cheap and synchronous: nothing is loaded or connected until the
 * first call. Throws a CliError (exit 2) for a malformed base URL, or for plain http://
 * to a host other than loopback without `insecure`.
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const core = createHttpCore(options);

  async function callFull<K extends OperationId>(op: K, args: CallArgs = {}): Promise<CallResult<Responses[K]>> {
    const info: OperationInfo = operations[op];
    checkCall(core, info, args);
    const response = await core.send(await operationRequest(core, info, args));
    checkAnswerDepth(op, response.body);
    await checkAnswer(op, response.body, info.success === 204, args.unchecked !== true);
    return {
      status: response.status,
      headers: response.headers,
      body: response.body as Responses[K],
      replayed: response.replayed,
      unanswered: response.unanswered,
    };
  }

  /** Tolerant reading: the answer is compared with its shape; one that differs is marked and reported, never rejected. */
  async function checkAnswer(op: OperationId, body: unknown, empty: boolean, compare: boolean): Promise<void> {
    if (empty) return;
    options.onAnswer?.(op, body);
    if (options.checkAnswers === false || !compare) return;
    const verdict = (await loadShapes()).verdictFor(op, body);
    if (!verdict || (verdict.fits && !verdict.notAList && verdict.differences.length === 0)) return;
    const misfit: Misfit = { ...verdict, body };
    markMisfit(misfit);
    options.onMisfit?.(misfit);
  }

  return {
    baseUrl: core.baseUrl.href,

    async call(op, args) {
      return (await callFull(op, args)).body;
    },

    callFull,

    async raw(method, path, args = {}) {
      const response = await core.send({
        method,
        url: resolveRawPath(core.baseUrl, path),
        query: args.query,
        headers: args.headers,
        json: args.body,
        stream: args.stream,
        contentLength: args.contentLength,
        idempotencyKey: args.idempotencyKey,
        signal: args.signal,
        read: 'auto',
      });
      checkAnswerDepth(`${method.toUpperCase()} ${path}`, response.body);
      return response;
    },

    paginate: (op, args, pageOptions) => paginateOperation(callFull, op, args, pageOptions),
  };
}

/** Before anything is sent: a key for an operation that needs one, and no empty id in the path. */
function checkCall(core: HttpCore, info: OperationInfo, args: CallArgs): void {
  if (!core.hasKey && !info.public) {
    throw new CliError('no API key configured', {
      exitCode: ExitCode.AUTH,
      code: 'NOT_AUTHENTICATED',
      hint: 'run `kagent auth login`, or set KAGENT_API_KEY',
    });
  }
  // An empty id or slug (`kagent doc show ''`, an unset shell variable) is the user's mistake, not a bug.
  for (const [name, value] of Object.entries(args.params ?? {})) {
    if (value.trim() === '')
      throw new UsageError(`the ${name} is empty`, `give the ${name} of what you mean; the list commands show them`);
  }
}

/** The core's request for one operation: its path filled, its body as JSON or raw, a key when it is idempotent. */
async function operationRequest(core: HttpCore, info: OperationInfo, args: CallArgs): Promise<CoreRequest> {
  return {
    method: info.method,
    url: joinPath(core.baseUrl, fillPath(info.path, args.params)),
    query: args.query,
    headers: args.headers,
    json: info.binary ? undefined : args.body,
    body: info.binary && (typeof args.body === 'string' || Buffer.isBuffer(args.body)) ? args.body : undefined,
    stream: args.stream,
    contentLength: args.contentLength,
    idempotencyKey: info.idempotent ? await idempotencyKeyFor(args) : args.idempotencyKey,
    signal: args.signal,
    read: 'json',
    bodyRequired: info.success !== 204,
  };
}

/** Every item of a paged operation, page after page, within --limit/--all. */
function paginateOperation<K extends PagedOperation>(
  callFull: ApiClient['callFull'],
  op: K,
  args: CallArgs = {},
  options: { limit?: number; all?: boolean } = {},
): Listing<PageItem<K>> {
  const state = { cut: false, onePage: !options.all && options.limit === undefined };
  const items = (async function* () {
    const maxPageSize = options.limit !== undefined || options.all ? await maxPageSizeOf(op) : undefined;
    const pages = paginatePages<PageItem<K>>(
      async (cursor, pageSize) => {
        const query = {
          ...args.query,
          ...(pageSize !== undefined ? { limit: pageSize } : {}),
          ...(cursor !== undefined ? { cursor } : {}),
        };
        const page = (await callFull(op, { ...args, query })).body as unknown as {
          items: Array<PageItem<K>>;
          nextCursor: string | null;
        };
        if (typeof page !== 'object' || page === null || !Array.isArray(page.items)) throw new NotAListError(op, page);
        return page;
      },
      { limit: options.limit, all: options.all, maxPageSize },
    );
    yield* pages;
    state.cut = pages.cut;
  })();
  return listing(items, state);
}

/** A fresh random key per call (the same on every retry of it), or the one given. */
async function idempotencyKeyFor(args: CallArgs): Promise<string> {
  // node:crypto only when a write needs a key: loading it costs every API call's start-up.
  const key = args.idempotencyKey ?? process.getBuiltinModule('node:crypto').randomUUID();
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX) {
    throw new UsageError(`--idempotency-key must be 1 to ${IDEMPOTENCY_KEY_MAX} characters`);
  }
  return key;
}

/**
 * The largest `limit` an operation accepts, from the single source of shapes. Loaded only
 * when paging with --limit/--all, so plain reads never pay for the schema module.
 */
async function maxPageSizeOf(op: OperationId): Promise<number | undefined> {
  const query = (
    (await loadShapes()).Queries as Record<string, { properties?: Record<string, { maximum?: unknown }> }>
  )[op];
  const maximum = query?.properties?.limit?.maximum;
  return typeof maximum === 'number' ? maximum : undefined;
}
