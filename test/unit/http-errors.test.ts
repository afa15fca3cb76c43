// Error answers in every shape the service (or a proxy in front of it) may use,
// and answers with more than the contract shows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/api/client.js';
import { ApiError, ExitCode } from '../../src/errors.js';
import { parseApiError } from '../../src/http/api-error.js';
import type { Pacer } from '../../src/http/pacer.js';
import { createFakeClock, startFaultServer, type FaultServer } from '../helpers/fault-server.js';

const KEY = 'sk_test_errors_0123456789';
const unpaced: Pacer = { take: async () => 0, pause: () => undefined };
let server: FaultServer;
let api: ApiClient;

beforeAll(async () => {
  server = await startFaultServer();
  api = createApiClient({ baseUrl: server.baseUrl, apiKey: KEY, clock: createFakeClock(), pacer: unpaced });
});
afterAll(() => server.close());

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('the contract envelope {error:{code,message,issues}}', () => {
  it('INVALID_INPUT keeps its issues, exit 2', async () => {
    server.fail({
      type: 'status',
      status: 400,
      body: {
        error: {
          code: 'INVALID_INPUT',
          message: 'invalid input',
          issues: [{ path: '/name', message: 'must be at most 60 characters' }],
        },
      },
    });
    const error = await failure(api.call('createSpace', { body: { name: 'x'.repeat(61) } }));
    expect(error).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'invalid input',
      exitCode: ExitCode.USAGE,
    });
    expect(error.issues).toEqual([{ path: '/name', message: 'must be at most 60 characters' }]);
  });

  it('REVISION_CONFLICT keeps the whole body, with `latest`', async () => {
    const body = {
      error: { code: 'REVISION_CONFLICT', message: 'stale revision' },
      latest: { revision: 7, body: '# new' },
    };
    server.fail({ type: 'status', status: 409, body });
    const error = await failure(
      api.call('updateDoc', { params: { id: 'd_1' }, body: { title: 't', baseRevision: 6 } }),
    );
    expect(error).toMatchObject({ code: 'REVISION_CONFLICT', exitCode: ExitCode.CONFLICT });
    expect(error.body).toEqual(body);
  });

  it.each([
    [401, 'UNAUTHORIZED', ExitCode.AUTH, /kagent auth login/],
    [402, 'CREDITS_EXHAUSTED', ExitCode.QUOTA, /kagent me/],
    [403, 'FOLLOW_LIMIT', ExitCode.QUOTA, /plan limits/],
    [413, 'FILE_TOO_LARGE', ExitCode.QUOTA, /per-file limit/],
  ])('%i %s → exit %i with a hint', async (status, code, exitCode, hint) => {
    server.fail({ type: 'status', status, body: { error: { code, message: `${code} happened` } } });
    const error = await failure(api.call('getMe'));
    expect(error).toMatchObject({ status, code, exitCode, message: `${code} happened` });
    expect(error.hint).toMatch(hint);
  });
});

describe('RFC 9457 problem documents', () => {
  it('reads code, detail and errors', async () => {
    server.fail({
      type: 'problem',
      status: 422,
      problem: {
        type: 'https://api.example.com/problems/idempotency-mismatch',
        title: 'Idempotency key reused',
        status: 422,
        detail: 'the same key was used with a different body',
        code: 'IDEMPOTENCY_MISMATCH',
        errors: [{ pointer: '/title', detail: 'differs' }],
      },
    });
    const error = await failure(api.call('createDoc', { body: { title: 'a' } }));
    expect(error).toMatchObject({
      status: 422,
      code: 'IDEMPOTENCY_MISMATCH',
      message: 'the same key was used with a different body',
      exitCode: ExitCode.USAGE,
    });
    expect(error.issues).toEqual([{ path: '/title', message: 'differs' }]);
  });

  it('without a code, derives one from the type; without detail, uses the title', async () => {
    server.fail({
      type: 'problem',
      status: 429,
      problem: { type: 'https://x.example/probs/rate-limited', title: 'Too many requests', status: 429 },
    });
    const error = await failure(
      createApiClient({ baseUrl: server.baseUrl, apiKey: KEY, pacer: unpaced, retries: 0 }).call('getMe'),
    );
    expect(error).toMatchObject({ code: 'RATE_LIMITED', message: 'Too many requests', exitCode: ExitCode.UNAVAILABLE });
  });

  it('accepts issues as a map of field → messages', () => {
    const error = parseApiError({
      status: 400,
      contentType: 'application/problem+json; charset=utf-8',
      text: JSON.stringify({ title: 'Bad', errors: { name: ['too long', 'has a slash'] } }),
    });
    expect(error.issues).toEqual([
      { path: 'name', message: 'too long' },
      { path: 'name', message: 'has a slash' },
    ]);
    expect(error.code).toBe('HTTP_400');
  });
});

describe('anything else', () => {
  it('an HTML error page becomes HTTP_<status> with a short message', async () => {
    server.fail({ type: 'html', status: 500 });
    const error = await failure(api.call('getMe'));
    expect(error).toMatchObject({
      status: 500,
      code: 'HTTP_500',
      message: 'the service answered 500 Internal Server Error',
      exitCode: ExitCode.ERROR,
    });
    expect(error.message).not.toMatch(/html/i);
  });

  it('an empty body becomes HTTP_<status>', async () => {
    server.fail({ type: 'status', status: 404 });
    const error = await failure(api.call('getDoc', { params: { id: 'nope' } }));
    expect(error).toMatchObject({ status: 404, code: 'HTTP_404', exitCode: ExitCode.NOT_FOUND });
  });

  it.each([
    ['a JSON array', '[1,2]'],
    ['a string', '"oops"'],
    ['an error that is a string', '{"error":"nope"}'],
    ['fields of the wrong types', '{"error":{"code":7,"message":{"a":1},"issues":"x"}}'],
    ['null', 'null'],
  ])('never crashes on %s', (_name, text) => {
    const error = parseApiError({ status: 418, contentType: 'application/json', text });
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('HTTP_418');
    expect(typeof error.message).toBe('string');
  });

  it('a redirect is not followed (the key must not travel) and is reported', async () => {
    server.fail({ type: 'redirect', location: 'https://elsewhere.example/api/v1/me?token=abc' });
    const error = await failure(api.call('getMe'));
    expect(error).toMatchObject({ status: 302, code: 'HTTP_302' });
    expect(server.requests.at(-1)!.path).toBe('/api/v1/me');
    // Where it points, without the query, and what to do about it.
    expect(error.hint).toBe(
      'the service points to https://elsewhere.example/api/v1/me, but kagent does not follow redirects, so that the key goes only to the base URL: if the service has moved, change the base URL (--base-url / KAGENT_BASE_URL)',
    );
  });

  it.each([
    ['a relative Location', '/v2/me?x=1', 'the service points to ORIGIN/v2/me, but kagent'],
    ['a Location that is no URL', 'http://[bad', 'kagent does not follow'],
    ['a Location of another scheme', 'file:///etc/passwd', 'kagent does not follow'],
    [
      'a Location with a user and password',
      'https://u:p@elsewhere.example/me',
      'the service points to https://elsewhere.example/me, but kagent',
    ],
  ])('a redirect with %s: the hint names only an http(s) place', async (_name, location, start) => {
    server.fail({ type: 'redirect', location });
    const error = await failure(api.call('getMe'));
    expect(error.hint!.startsWith(start.replace('ORIGIN', server.origin))).toBe(true);
  });
});

describe('a 2xx that is not JSON', () => {
  it('a web page (a wrong base URL, a sign-in page) is named at once, not tried again', async () => {
    const before = server.requests.length;
    server.fail({ type: 'html', status: 200 }, { type: 'html', status: 200 });
    const error = (await api.call('getMe').catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({
      code: 'INVALID_RESPONSE',
      exitCode: ExitCode.UNAVAILABLE,
      message: 'GET /api/v1/me: the service answered 200 with text/html, not JSON',
    });
    expect(error.hint).toBe(
      `${server.origin} answered with a web page (a wrong base URL, or a network's sign-in page?): check the base URL (--base-url / KAGENT_BASE_URL)`,
    );
    expect(server.requests.length - before).toBe(1);
    // The second fault was not used by a retry: the next call takes it.
    await expect(api.call('getMe')).rejects.toMatchObject({ code: 'INVALID_RESPONSE' });
  });

  it('a keyless write answered that way says it probably took effect', async () => {
    server.fail({ type: 'html', status: 200 });
    const error = (await api.call('undoAction', { params: { id: 'a_1' } }).catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe('INVALID_RESPONSE');
    expect(error.hint).toMatch(/probably took effect/);
  });
});

describe('successful answers', () => {
  it('keeps unknown fields and ignores them', async () => {
    const me = (await api.call('getMe')) as unknown as Record<string, unknown>;
    expect(me.email).toBe('ada@example.com');
    expect(me.somethingNew).toEqual({ nested: true });
  });

  it('204 gives undefined', async () => {
    await expect(api.call('deleteDoc', { params: { id: 'd_1' } })).resolves.toBeUndefined();
  });

  it('a 2xx that is not the documented one is still a success', async () => {
    server.fail({ type: 'status', status: 200, body: { id: 'd_2', revision: 1 } });
    await expect(api.call('createDoc', { body: {} })).resolves.toEqual({ id: 'd_2', revision: 1 });
  });

  it('reports replays of idempotent requests', async () => {
    const first = await api.callFull('createDoc', { body: {}, idempotencyKey: 'replay-1' });
    const second = await api.callFull('createDoc', { body: {}, idempotencyKey: 'replay-1' });
    expect(first.replayed).toBe(false);
    expect(second.replayed).toBe(true);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
  });
});
