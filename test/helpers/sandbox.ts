// Starts the sandbox in-process on an ephemeral port and talks to it over real
// HTTP on loopback. Every contract test goes through this helper:
//
//   const t = await startTestSandbox();            // autoAdvance off: time moves only when told
//   const res = await t.call('POST', '/spaces', { body: { name: 'Work' } });
//   await t.advance(60_000);                       // runs the background work that comes due
//   const other = await t.newAccount({ credits: 0 });
//   await t.call('GET', '/me', { key: other.apiKey });
//   await t.close();
//
// Paths are relative to /api/v1 unless they start with /_sandbox/ or /api/.
//
// Every API answer is checked against the OpenAPI document the sandbox serves
// (status listed for the operation, body valid against its schema); a mismatch
// fails the call. Pass `validate: false` for answers that are broken on purpose.
import type { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { OpenApiChecker } from './openapi.js';

export interface CallOptions {
  /** JSON body (serialised), or raw bytes / a stream for uploads. */
  body?: unknown;
  /** Raw body: sent as is with the given headers (uploads). */
  raw?: Buffer | string | Readable;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  /** API key to use; `null` sends no Authorization header. Defaults to the sandbox's default account. */
  key?: string | null;
  /** Check the answer against the served OpenAPI document (default true). */
  validate?: boolean;
  /** Aborts the request (the client goes away). */
  signal?: AbortSignal;
}

export interface CallResult<T = any> {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON, or undefined for an empty body. */
  body: T;
  text: string;
}

export interface TestSandbox {
  sandbox: Sandbox;
  baseUrl: string;
  origin: string;
  apiKey: string;
  call<T = any>(method: string, path: string, options?: CallOptions): Promise<CallResult<T>>;
  /** Moves the sandbox clock forward and runs what came due. */
  advance(ms: number): Promise<void>;
  /** The next `count` matching requests fail with `kind` (503, reset, slow, truncate, ...). */
  inject(fault: { kind: string; count?: number; ms?: number; method?: string; path?: string }): Promise<void>;
  /** A fresh account with its own key. */
  newAccount(options?: {
    credits?: number;
    emailVerified?: boolean;
    limits?: Record<string, number>;
    lang?: 'zh' | 'en';
  }): Promise<{ accountId: string; apiKey: string }>;
  /** Changes an account through the admin route (credits, limits, verification...). */
  patchAccount(accountId: string, patch: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

export async function startTestSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const sandbox = await startSandbox({
    quiet: true,
    autoAdvance: false,
    rateLimit: 0,
    startTime: Date.UTC(2026, 0, 15, 9, 0, 0),
    ...options,
  });
  // One keep-alive pool per sandbox, closed with it.
  const dispatcher = new Agent({ keepAliveTimeout: 1000, connections: 16 });

  async function call<T = any>(method: string, path: string, opts: CallOptions = {}): Promise<CallResult<T>> {
    const url = new URL(
      path.startsWith('/_sandbox/') || path.startsWith('/api/')
        ? `${sandbox.origin}${path}`
        : `${sandbox.baseUrl}${path}`,
    );
    for (const [name, value] of Object.entries(opts.query ?? {}))
      if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { ...opts.headers };
    const key = opts.key === undefined ? sandbox.apiKey : opts.key;
    if (key !== null && !hasHeader(headers, 'authorization')) headers.authorization = `Bearer ${key}`;
    let body: Buffer | string | Readable | undefined = opts.raw;
    if (body === undefined && opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      if (!hasHeader(headers, 'content-type')) headers['content-type'] = 'application/json';
    }
    const res = await request(url, { method: method as any, headers, body, dispatcher, signal: opts.signal });
    const text = await res.body.text();
    const flat: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers))
      if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
    let parsed: unknown;
    if (text.length > 0) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    if (opts.validate !== false && url.pathname.startsWith('/api/v1/') && !url.pathname.endsWith('/openapi.json')) {
      await conform(method, url.pathname.slice('/api/v1'.length), res.statusCode, flat['content-type'], parsed, text);
    }
    return { status: res.statusCode, headers: flat, body: parsed as T, text };
  }

  async function conform(
    method: string,
    path: string,
    status: number,
    contentType: string | undefined,
    body: unknown,
    text: string,
  ): Promise<void> {
    // Injected 5xx faults and RFC 9457 problem bodies are outside the operations' documented answers.
    if (status >= 500 || contentType?.includes('application/problem+json')) return;
    checker ??= await loadChecker(sandbox.origin);
    const problems = checker.check(method.toUpperCase(), path, status, contentType, body, text);
    if (problems.length > 0)
      throw new Error(
        `answer does not conform to the served OpenAPI document: ${method} ${path} → ${status}\n  ${problems.join('\n  ')}\n  body: ${text.slice(0, 500)}`,
      );
  }

  async function admin(method: string, path: string, body?: unknown): Promise<any> {
    const res = await call(method, `/_sandbox/${path}`, { body, key: null });
    if (res.status >= 400) throw new Error(`admin ${method} ${path} failed: ${res.status} ${res.text}`);
    return res.body;
  }

  return {
    sandbox,
    baseUrl: sandbox.baseUrl,
    origin: sandbox.origin,
    apiKey: sandbox.apiKey,
    call,
    async advance(ms) {
      await admin('POST', 'clock/advance', { ms });
    },
    async inject(fault) {
      await admin('POST', 'faults', fault);
    },
    async newAccount(opts = {}) {
      const created = await admin('POST', 'accounts', opts);
      return { accountId: created.account.id as string, apiKey: created.apiKey as string };
    },
    async patchAccount(accountId, patch) {
      await admin('PATCH', `accounts/${accountId}`, patch);
    },
    async close() {
      await dispatcher.close();
      await sandbox.close();
    },
  };
}

/** One checker per test process: every sandbox serves the same document. */
let checker: OpenApiChecker | undefined;

async function loadChecker(origin: string): Promise<OpenApiChecker> {
  const res = await request(`${origin}/api/v1/openapi.json`);
  return new OpenApiChecker((await res.body.json()) as Record<string, any>);
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((h) => h.toLowerCase() === name);
}
