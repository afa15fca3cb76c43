// An empty success where the contract promises a body — a 200 of no bytes, or a
// 204 to a read — is no answer: it printed `.<TAB>` (or `null` with --json) with
// exit 0. It is INVALID_RESPONSE (exit 7), nothing on stdout, asked once (the
// service meant it: a retry would bring the same). A write that answers nothing
// is told that it probably took effect. Operations whose success is 204 still end 0.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run.js';
import { tinyServer, type TinyServer } from '../helpers/tiny-server.js';

let server: TinyServer;
beforeAll(async () => {
  server = await tinyServer((req) => {
    if (req.url?.startsWith('/api/v1/me')) return { status: 200 };
    if (req.url?.startsWith('/api/v1/docs/d_204')) return { status: 204 };
    if (req.method === 'POST' && req.url?.startsWith('/api/v1/docs')) return { status: 201 };
    if (req.method === 'DELETE') return { status: 204 };
    return { status: 404, body: { error: { code: 'NOT_FOUND', message: 'no such thing' } } };
  });
});
afterAll(() => server.close());

function kagent(args: string[]) {
  return runCli([...args, '--base-url', server.baseUrl], { env: { KAGENT_API_KEY: 'kak_empty0123456789' } });
}

describe('an empty success to a read', () => {
  it.each([[['me']], [['me', '--json']], [['me', '--jq', '.']]])(
    '`kagent %j` on a 200 of no bytes: INVALID_RESPONSE, exit 7, stdout empty, asked once',
    async (args) => {
      const before = server.requests.length;
      const r = await kagent(args);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/GET \/api\/v1\/me: the service answered 200 with no body, where the API promises one/);
      expect(r.stderr).toMatch(/INVALID_RESPONSE/);
      expect(r.code).toBe(7);
      expect(server.requests.length - before).toBe(1);
    },
  );

  it('a 204 to `doc show`: the same, exit 7, stdout empty', async () => {
    const r = await kagent(['doc', 'show', 'd_204', '--json']);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/GET \/api\/v1\/docs\/d_204: the service answered 204 with no body/);
    expect(r.code).toBe(7);
  });
});

describe('an empty success to a write that promises a body', () => {
  it('`doc create` answered 201 with nothing: exit 7, and the hint says it probably took effect', async () => {
    const r = await kagent(['doc', 'create', '--title', 'T', '--body', 'x', '--json']);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/POST \/api\/v1\/docs: the service answered 201 with no body/);
    expect(r.stderr).toMatch(/probably took effect/);
    expect(r.code).toBe(7);
  });
});

describe('an operation whose success is 204', () => {
  it('`doc delete --yes` ends 0', async () => {
    const r = await kagent(['doc', 'delete', 'd_1', '--yes']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
