// Answers that are odd but not wrong, or wrong in a way that is not the user's
// plan: a BOM before the JSON is accepted at once (not retried, not "invalid");
// a 403 FORBIDDEN_HOST (the request named a Host the service refuses, as with
// `api -H 'Host: evil'`) is not a plan limit (exit 1, not 6, no plan hint).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run.js';
import { tinyServer, type TinyServer } from '../helpers/tiny-server.js';

let server: TinyServer;
beforeAll(async () => {
  server = await tinyServer((req) => {
    if (req.headers.host === 'evil')
      return { status: 403, body: { error: { code: 'FORBIDDEN_HOST', message: 'this Host is not served here' } } };
    return { status: 200, body: '\ufeff{"id":"acc_1","name":"Ada","limits":{}}' };
  });
});
afterAll(() => server.close());

function kagent(args: string[]) {
  return runCli(args, { env: { KAGENT_BASE_URL: server.baseUrl, KAGENT_API_KEY: 'kak_answers0123456789' } });
}

describe('a BOM-prefixed JSON answer', () => {
  it('is read at once: one request, exit 0', async () => {
    const before = server.requests.length;
    const r = await kagent(['me', '--jq', '.name']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('Ada\n');
    expect(r.code).toBe(0);
    expect(server.requests.length - before).toBe(1);
  });
});

describe("api -H 'Host: evil' answered 403 FORBIDDEN_HOST", () => {
  it('is exit 1 with a hint about the header, not exit 6 with a plan-limits hint', async () => {
    const r = await kagent(['api', '/me', '-H', 'Host: evil']);
    expect(r.stderr).toMatch(/FORBIDDEN_HOST/);
    expect(r.stderr).not.toMatch(/plan limits/);
    expect(r.stderr).toMatch(/Host/);
    expect(r.code).toBe(1);
  });
});
