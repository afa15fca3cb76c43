// Bounded work on any answer: a service answering JSON nested 100,000 levels
// deep (`{"a":[[[[…]]]]}`, 200 KB) used to end every command in "Maximum call
// stack size exceeded (UNEXPECTED)" — sanitising, rendering, JSON.stringify for
// --json and for jq all recurse. Now the client measures the depth once, without
// recursion, and such an answer is a clear error (ANSWER_TOO_DEEP, exit 1);
// an error answer nested so deep is read by its status alone. Answers up to
// the bound (128 levels, which jq reads too) are printed as they came.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ANSWER_DEPTH, nestedDeeperThan } from '../../src/api/depth.js';
import { runCli } from '../helpers/run.js';
import { tinyServer, type Scripted, type TinyServer } from '../helpers/tiny-server.js';

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const DEEP = `{"id":"u_1","email":"ada@example.com","a":${nested(100_000)}}`;
const FAIR = `{"id":"u_1","email":"ada@example.com","a":${nested(MAX_ANSWER_DEPTH - 1)}}`;

let server: TinyServer;
beforeAll(async () => {
  server = await tinyServer((req): Scripted => {
    const url = req.url ?? '';
    if (url.includes('/fair/')) return { status: 200, body: FAIR };
    if (url.includes('/bad-issues/'))
      return {
        status: 400,
        body: `{"error":{"code":"INVALID_INPUT","message":"bad","issues":[{"path":"x","message":${nested(100_000)}}]}}`,
      };
    if (url.includes('/bad-problem/'))
      return {
        status: 422,
        body: `{"title":"t","detail":${nested(100_000)},"errors":${nested(100_000)}}`,
        headers: { 'content-type': 'application/problem+json' },
      };
    return { status: 200, body: DEEP, headers: { date: new Date().toUTCString() } };
  });
});
afterAll(() => server.close());

const env = (path = '') => ({
  KAGENT_BASE_URL: `${server.baseUrl.replace(/\/api\/v1$/, '')}${path}/api/v1`,
  KAGENT_API_KEY: 'kak_deep0123456789abcd',
});

function expectNoCrash(r: { stdout: string; stderr: string }): void {
  expect(`${r.stdout}${r.stderr}`).not.toContain('Maximum call stack');
  expect(`${r.stdout}${r.stderr}`).not.toContain('UNEXPECTED');
}

describe('an answer nested 100,000 levels', () => {
  it.each([
    [['me']],
    [['me', '--json']],
    [['me', '--jq', '.a']],
    [['me', '--debug']],
    [['api', '/me']],
    [['api', '/me', '--jq', '.']],
  ])('%j: a clear error, exit 1, on a terminal and piped', async (argv) => {
    for (const tty of [false, true]) {
      const r = await runCli(argv, { env: env(), tty });
      expectNoCrash(r);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`the service's answer is nested deeper than ${MAX_ANSWER_DEPTH} levels`);
      expect(r.stderr).toContain('ANSWER_TOO_DEEP');
    }
  });

  it('doctor: the service answered, and its answer is the problem', async () => {
    const r = await runCli(['doctor'], { env: env() });
    expectNoCrash(r);
    expect(r.stdout).toMatch(/^ok\treachable\t/m);
    expect(r.stdout).toMatch(
      /^fail\tkey\tGET \/me answered with nothing kagent can read: getMe: the service's answer is nested deeper than 128 levels/m,
    );
  });

  it('an error answer nested that deep is told by its status', async () => {
    const issues = await runCli(['api', '/x'], { env: env('/bad-issues') });
    expectNoCrash(issues);
    expect(issues.code).toBe(2);
    expect(issues.stderr).toContain('error: the service answered 400');
    const problem = await runCli(['me', '--json'], { env: env('/bad-problem') });
    expectNoCrash(problem);
    expect(problem.code).toBe(2);
    expect(JSON.parse(problem.stderr).error.message).toContain('422');
  });
});

describe(`an answer nested ${MAX_ANSWER_DEPTH} levels (the bound)`, () => {
  it('--json prints it as it came, jq reads it, a terminal shows it', async () => {
    const json = await runCli(['me', '--json'], { env: env('/fair') });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse(FAIR));
    const jq = await runCli(['me', '--jq', '[.a | paths] | length'], { env: env('/fair') });
    expect(jq.code).toBe(0);
    expect(jq.stdout).toBe(`${MAX_ANSWER_DEPTH - 2}\n`);
    const tty = await runCli(['me'], { env: env('/fair'), tty: true });
    expectNoCrash(tty);
    expect(tty.stdout).toContain('ada@example.com');
  });
});

describe('nestedDeeperThan', () => {
  it('counts levels without recursion, a million deep included', () => {
    expect(nestedDeeperThan(JSON.parse(nested(1_000_000)), 128)).toBe(true);
    expect(nestedDeeperThan(JSON.parse(nested(128)), 128)).toBe(false);
    expect(nestedDeeperThan(JSON.parse(nested(129)), 128)).toBe(true);
    expect(nestedDeeperThan({ a: { b: [1, { c: 'x' }] }, d: null }, 4)).toBe(false);
    expect(nestedDeeperThan({ a: { b: [1, { c: [] }] } }, 4)).toBe(true);
    expect(nestedDeeperThan('text', 0)).toBe(false);
  });
});
