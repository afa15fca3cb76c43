// `kagent api METHOD PATH` against the sandbox, in-process: the JSON answer
// (compact piped, pretty on a terminal, --jq), -f/-F fields as body or query,
// --input, -H, --idempotency-key and the automatic key of create-style
// operations, --paginate, -i, and errors mapped to exit codes like every command.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';
import { runCli, tempDir } from '../helpers/run.js';

let s: LoggedIn;
let key: string;
const dir = tempDir('kagent-api-');

beforeAll(async () => {
  s = await loggedInSandbox();
});
afterAll(() => s.close());
beforeEach(async () => {
  ({ apiKey: key } = await s.t.newAccount({ credits: 1000 }));
});

const kagent = (argv: string[], options: Parameters<LoggedIn['kagent']>[1] = {}) =>
  s.kagent(argv, { ...options, env: { KAGENT_API_KEY: key, ...options.env } });

async function requests(): Promise<Record<string, number>> {
  return (await s.t.call('GET', '/_sandbox/stats', { key: null })).body.requests;
}

describe('kagent api: the published description needs no key', () => {
  it('GET /openapi.json (or /api/v1/openapi.json) with no key configured is sent, without an Authorization header', async () => {
    const served = (await s.t.call('GET', '/api/v1/openapi.json', { key: null })).body;
    for (const path of ['/openapi.json', 'openapi.json', '/api/v1/openapi.json']) {
      const r = await runCli(['api', path, '--jq', '.openapi'], { env: { KAGENT_BASE_URL: s.t.baseUrl } });
      expect(r.stderr, path).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`${served.openapi}\n`);
    }
    const traced = await runCli(['api', '/openapi.json', '--debug'], { env: { KAGENT_BASE_URL: s.t.baseUrl } });
    expect(traced.code).toBe(0);
    expect(traced.stderr).toMatch(
      /→ GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/openapi\.json attempt=1 \(no authorization\)/,
    );
    // Anything else still needs a key, and nothing is sent without one.
    const me = await runCli(['api', '/me'], { env: { KAGENT_BASE_URL: s.t.baseUrl } });
    expect(me.code).toBe(3);
    expect(me.stderr).toContain('(NOT_AUTHENTICATED)');
    const post = await runCli(['api', 'POST', '/openapi.json'], { env: { KAGENT_BASE_URL: s.t.baseUrl } });
    expect(post.code).toBe(3);
  });
});

describe('kagent api: answers', () => {
  it('GET: compact JSON piped, pretty on a terminal, through --jq; a lone PATH is a GET', async () => {
    const me = (await s.t.call('GET', '/me', { key })).body;
    const piped = await kagent(['api', 'GET', '/me']);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe(`${JSON.stringify(me)}\n`);
    expect((await kagent(['api', '/me'])).stdout).toBe(piped.stdout);
    expect((await kagent(['api', 'get', 'me'])).stdout).toBe(piped.stdout);
    expect((await kagent(['api', '/api/v1/me'])).stdout).toBe(piped.stdout);
    const tty = await kagent(['api', '/me'], { tty: true });
    expect(tty.stdout).toBe(`${JSON.stringify(me, null, 2)}\n`);
    expect((await kagent(['api', '/me', '--jq', '.credits.total'])).stdout).toBe('1000\n');
  });

  it.each(['/../../_sandbox/', 'docs/../../x', '/%2e%2e/admin', './me'])(
    'a path with a . or .. segment (%s) is refused (exit 2), nothing sent: it would leave the base URL',
    async (path) => {
      const before = (await s.t.call('GET', '/_sandbox/stats')).body as { requests: Record<string, number> };
      const r = await kagent(['api', path]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `error: the path ${path} has a . or .. segment, which would leave the base URL (/api/v1) (USAGE)\n` +
          'hint: give the path under the base URL, or a full URL (https://…) for another place on the service\n',
      );
      const after = (await s.t.call('GET', '/_sandbox/stats')).body as { requests: Record<string, number> };
      expect(after.requests).toEqual(before.requests);
    },
  );

  it('a 204 prints nothing', async () => {
    const space = (await s.t.call('POST', '/spaces', { key, body: { name: 'Temp' } })).body;
    const r = await kagent(['api', 'DELETE', `/spaces/${space.id}`]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
  });

  it('-i prints the status line and headers first (as gh api -i and curl -i)', async () => {
    const r = await kagent(['api', '-i', '/me']);
    expect(r.code).toBe(0);
    const [head, body] = r.stdout.split('\n\n');
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\n/);
    expect(head).toMatch(/\nContent-Type: application\/json/);
    expect(JSON.parse(body!).id).toBeDefined();
  });
});

describe('kagent api: fields and bodies', () => {
  it('-f strings and -F typed values make the JSON body of a POST', async () => {
    const r = await kagent(['api', 'POST', '/docs', '-f', 'title=Notes', '-f', 'markdown=# 42']);
    expect(r.code).toBe(0);
    const created = JSON.parse(r.stdout);
    expect(created).toEqual({ id: expect.any(String), revision: 1 });
    expect((await s.t.call('GET', `/docs/${created.id}`, { key })).body).toMatchObject({
      title: 'Notes',
      body: '# 42',
    });
    // -F: a number stays a number (the service checks the type): baseRevision 1 is accepted
    const patch = await kagent(['api', 'PATCH', `/docs/${created.id}`, '-f', 'title=Renamed', '-F', 'baseRevision=1']);
    expect(patch.code).toBe(0);
    expect(JSON.parse(patch.stdout).revision).toBe(2);
    // -f keeps it a string, which the service refuses
    const wrong = await kagent(['api', 'PATCH', `/docs/${created.id}`, '-f', 'title=x', '-f', 'baseRevision=2']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('(INVALID_INPUT)');
  });

  it('-F true/false/null, @file and @- (stdin); name[] appends to a list, name[sub] nests', async () => {
    const md = join(dir, 'body.md');
    writeFileSync(md, '# From a file\n');
    const fromFile = JSON.parse(
      (await kagent(['api', 'POST', '/docs', '-F', `markdown=@${md}`, '-F', 'folderId=null'])).stdout,
    );
    expect((await s.t.call('GET', `/docs/${fromFile.id}`, { key })).body).toMatchObject({
      body: '# From a file\n',
      folderId: null,
    });
    const fromStdin = JSON.parse(
      (await kagent(['api', 'POST', '/docs', '-F', 'markdown=@-'], { stdin: 'piped' })).stdout,
    );
    expect((await s.t.call('GET', `/docs/${fromStdin.id}`, { key })).body.body).toBe('piped');

    const watch = await kagent([
      'api',
      'POST',
      '/watches',
      '-f',
      'intent=Rust compiler releases',
      '-f',
      'type=sources',
      '-f',
      'urls[]=https://blog.rust-lang.org/',
      '-f',
      'urls[]=https://this-week-in-rust.org/',
      '--jq',
      '.watch.urls',
    ]);
    expect(watch.code).toBe(0);
    expect(JSON.parse(watch.stdout)).toEqual(['https://blog.rust-lang.org/', 'https://this-week-in-rust.org/']);
    const conversation = await kagent([
      'api',
      'POST',
      '/conversations/messages',
      '-f',
      'text=Hello',
      '-f',
      'context[path]=/docs',
      '-F',
      'context[refs][][kind]=doc',
      '--jq',
      '.conversationId',
    ]);
    expect(conversation.code, conversation.stderr).toBe(2);
    expect(conversation.stderr).toContain('context.refs.0.id');
    const ok = await kagent([
      'api',
      'POST',
      '/conversations/messages',
      '-f',
      'text=Hello',
      '-f',
      'context[path]=/docs',
    ]);
    expect(ok.code).toBe(0);
    const follow = await kagent(['api', 'PUT', '/watches/ai-chips/follow', '-F', 'spaceId=null']);
    expect(JSON.parse(follow.stdout)).toMatchObject({ slug: 'ai-chips', following: true });
  });

  it('fields of a GET are the query: -F limit=1', async () => {
    for (let i = 0; i < 3; i++) await s.t.call('POST', '/docs', { key, body: { title: `D${i}` } });
    const r = await kagent(['api', 'GET', '/docs', '-F', 'limit=1']);
    const page = JSON.parse(r.stdout);
    expect(page.items).toHaveLength(1);
    expect(page.nextCursor).toEqual(expect.any(String));
    const search = await kagent(['api', '-X', 'GET', '/docs/search', '-f', 'q=D1', '--jq', '.items[0].title']);
    expect(search.stdout).toBe('D1\n');
    const long = await kagent(['api', '/docs/search', '--method', 'get', '-f', 'q=D2', '--jq', '.items[0].title']);
    expect(long.stdout).toBe('D2\n');
  });

  it('fields without a method make a POST (as gh api); -X names the method; two methods that differ are exit 2', async () => {
    await s.t.call('DELETE', '/_sandbox/stats', { key: null });
    const created = await kagent(['api', '/spaces', '-f', 'name=Posted by fields']);
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ id: expect.stringMatching(/^sp_/), name: 'Posted by fields' });
    expect(await requests()).toEqual({ createSpace: 1 });
    const put = await kagent(['api', '-X', 'PUT', '/watches/ai-chips/follow', '-F', 'spaceId=null']);
    expect(JSON.parse(put.stdout)).toMatchObject({ following: true });
    await s.t.call('DELETE', '/_sandbox/stats', { key: null });
    const both = await kagent(['api', '-X', 'PUT', 'GET', '/me']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('two methods: GET and -X PUT');
    const bad = await kagent(['api', '-X', 'FETCH', '/me']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('-X/--method must be one of GET, POST');
    expect(await requests()).toEqual({});
  });

  it('--input FILE or - is the JSON body (fields then go to the query); invalid JSON is exit 2 before sending', async () => {
    const doc = (await s.t.call('POST', '/docs', { key, body: { title: 'Before' } })).body;
    const patch = join(dir, 'patch.json');
    writeFileSync(patch, JSON.stringify({ title: 'After', baseRevision: 1 }));
    const r = await kagent(['api', 'PATCH', `/docs/${doc.id}`, '--input', patch]);
    expect(r.code).toBe(0);
    expect((await s.t.call('GET', `/docs/${doc.id}`, { key })).body.title).toBe('After');
    const stdin = await kagent(['api', 'POST', '/docs', '--input', '-'], { stdin: '{"title":"stdin"}' });
    expect(stdin.code).toBe(0);
    await s.t.call('DELETE', '/_sandbox/stats', { key: null });
    const bad = await kagent(['api', 'POST', '/docs', '--input', '-'], { stdin: '{nope' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--input (stdin) is not valid JSON');
    expect((await kagent(['api', 'POST', '/docs', '--input', join(dir, 'missing.json')])).code).toBe(2);
    expect(await requests()).toEqual({});
  });

  it('the global --no-input is not `api --input`: the request goes without a body', async () => {
    for (const argv of [
      ['api', 'GET', '/me', '--no-input'],
      ['--no-input', 'api', 'GET', '/me'],
    ]) {
      const r = await kagent(argv);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ id: expect.any(String) });
    }
  });

  it('malformed fields and headers are usage errors', async () => {
    for (const [argv, message] of [
      [['-f', 'novalue'], '-f novalue: expected key=value'],
      [['-F', '=x'], '-F =x: expected key=value'],
      [['-f', 'a]b=1'], 'a field name is "name", "name[]" or "name[sub]"'],
      [['-H', 'no colon'], '-H no colon: expected "Name: value"'],
    ] as Array<[string[], string]>) {
      const r = await kagent(['api', 'POST', '/docs', ...argv]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });
});

describe('kagent api: idempotency, headers, pages', () => {
  it('create-style operations get an Idempotency-Key of their own; other writes do not', async () => {
    const create = await kagent(['api', 'POST', '/docs', '-f', 'title=x', '--debug']);
    expect(create.stderr).toMatch(/→ POST \S+\/docs attempt=1 idempotency-key=[0-9a-f-]{36}/);
    const id = JSON.parse(create.stdout).id;
    const edit = await kagent(['api', 'POST', `/docs/${id}/edits`, '--input', '-', '--debug'], {
      stdin: '{"edits":[{"op":"append","content":"y"}]}',
    });
    expect(edit.code).toBe(0);
    expect(edit.stderr).toMatch(/→ POST \S+\/edits attempt=1 authorization/);
    expect(edit.stderr).not.toContain('idempotency-key=');
  });

  it('--idempotency-key (or -H Idempotency-Key) makes a rerun return the first result', async () => {
    const first = await kagent(['api', 'POST', '/docs', '-f', 'title=Once', '--idempotency-key', 'k-1']);
    const again = await kagent(['api', 'POST', '/docs', '-f', 'title=Once', '-H', 'Idempotency-Key: k-1']);
    expect(again.stdout).toBe(first.stdout);
    expect(again.stderr).toContain('idempotent replay');
    expect((await s.t.call('GET', '/docs', { key })).body.items).toHaveLength(1);
    const mismatch = await kagent(['api', 'POST', '/docs', '-f', 'title=Different', '--idempotency-key', 'k-1']);
    expect(mismatch.code).toBe(2);
    const long = await kagent(['api', 'POST', '/docs', '--idempotency-key', 'k'.repeat(201)]);
    expect(long.code).toBe(2);
    expect(long.stderr).toContain('--idempotency-key must be 1 to 200 characters (got 201)');
    const docs = (await s.t.call('GET', '/docs', { key })).body.items.length;
    for (const odd of [' ', ' k-1', 'k-1 ', 'k\t1']) {
      const r = await kagent(['api', 'POST', '/docs', '-f', 'title=Odd', '--idempotency-key', odd]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        '--idempotency-key must not start or end with white space, nor hold control characters (a header would not carry them)',
      );
    }
    expect((await s.t.call('GET', '/docs', { key })).body.items).toHaveLength(docs);
  });

  it('-H sends a header', async () => {
    // A key sent with -H replaces the profile's: a wrong one is a 401 (exit 3).
    const r = await kagent(['api', '/me', '-H', 'Authorization: Bearer wrong']);
    expect(r.code).toBe(3);
    // KAGENT_API_KEY (here set, and good) was not sent: the hint is about the header, not the variable.
    expect(r.stderr).toContain('hint: the Authorization header given (-H) was not accepted');
    expect(r.stderr).not.toContain('KAGENT_API_KEY');
    expect(r.stderr).not.toContain('auth login');
    const lower = await kagent(['api', '/me', '-H', 'authorization: Bearer wrong']);
    expect(lower.stderr).toContain('hint: the Authorization header given (-H) was not accepted');
  });

  it('--paginate follows nextCursor and prints one array; --jq sees it whole', async () => {
    for (let i = 0; i < 5; i++) await s.t.call('POST', '/docs', { key, body: { title: `Page ${i}` } });
    await s.t.call('DELETE', '/_sandbox/stats', { key: null });
    const r = await kagent(['api', 'GET', '/docs', '-F', 'limit=2', '--paginate']);
    expect(r.code).toBe(0);
    const all = JSON.parse(r.stdout);
    expect(all.map((d: any) => d.title).sort()).toEqual(['Page 0', 'Page 1', 'Page 2', 'Page 3', 'Page 4']);
    expect((await requests()).listDocs).toBe(3);
    expect((await kagent(['api', '/docs?limit=2', '--paginate', '--jq', 'length'])).stdout).toBe('5\n');
    const tty = await kagent(['api', '/docs', '--paginate'], { tty: true });
    expect(JSON.parse(tty.stdout)).toHaveLength(5);
  });

  it('--paginate on an answer without items prints it as it is, with a warning; only for GET', async () => {
    const r = await kagent(['api', '/me', '--paginate']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).id).toBeDefined();
    expect(r.stderr).toContain('warning: --paginate: the answer has no "items" list');
    expect((await kagent(['api', 'POST', '/docs', '--paginate'])).code).toBe(2);
    expect((await kagent(['api', '/docs', '--paginate', '-i'])).code).toBe(2);
  });
});

describe('kagent api: errors', () => {
  it('errors exit like every command: 404 → 4, 409 → 5, 400 → 2, 402 → 6, no key → 3', async () => {
    const missing = await kagent(['api', '/docs/doc_nope']);
    expect(missing.code).toBe(4);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe('error: Doc doc_nope not found (DOC_NOT_FOUND)\n');
    const doc = (await s.t.call('POST', '/docs', { key, body: { title: 'x' } })).body;
    await s.t.call('PATCH', `/docs/${doc.id}`, { key, body: { title: 'y' } });
    const conflict = await kagent(['api', 'PATCH', `/docs/${doc.id}`, '-f', 'title=z', '-F', 'baseRevision=1']);
    expect(conflict.code).toBe(5);
    expect(conflict.stderr).toContain('(REVISION_CONFLICT)');
    const invalid = await kagent(['api', 'POST', '/spaces', '-f', 'name=']);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('name must be 1 to 60 characters (got 0) (INVALID_INPUT)');
    const poor = (await s.t.newAccount({ credits: 0 })).apiKey;
    const quota = await kagent(['api', 'POST', '/conversations/messages', '-f', 'text=hi'], {
      env: { KAGENT_API_KEY: poor },
    });
    expect(quota.code).toBe(6);
    const json = await kagent(['api', '/docs/doc_nope', '--json']);
    expect(JSON.parse(json.stderr).error.code).toBe('DOC_NOT_FOUND');
    const nokey = await kagent(['api', '/me'], {
      configDir: tempDir(),
      env: { KAGENT_API_KEY: undefined, KAGENT_BASE_URL: s.t.baseUrl },
    });
    expect(nokey.code).toBe(3);
    expect(nokey.stderr).toContain('not logged in: no API key (NOT_AUTHENTICATED)');
  });

  it('-i on an error prints its status, headers and body on stdout, then the error', async () => {
    const r = await kagent(['api', '-i', 'DELETE', '/docs/doc_nope']);
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/^HTTP\/1\.1 404 Not Found\n/);
    expect(r.stdout).toContain('\n\n{"error":{"code":"DOC_NOT_FOUND","message":"Doc doc_nope not found"}}\n');
    expect(r.stderr).toContain('(DOC_NOT_FOUND)');
  });

  it('a bad METHOD, a missing PATH: exit 2 before any request', async () => {
    await s.t.call('DELETE', '/_sandbox/stats', { key: null });
    const bad = await kagent(['api', 'FETCH', '/me']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('METHOD must be one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS (got "FETCH")');
    const noPath = await kagent(['api', 'POST']);
    expect(noPath.code).toBe(2);
    expect(noPath.stderr).toContain('PATH is missing: `kagent api POST PATH`');
    expect(await requests()).toEqual({});
  });

  it('the public API description needs no key; a full URL to another origin is sent without the key', async () => {
    const spec = await kagent(['api', '/openapi.json', '--jq', '.info.version'], {
      env: { KAGENT_API_KEY: 'kak_not_a_real_key' },
    });
    expect(spec.code).toBe(0);
    expect(spec.stdout).toBe('1.0.0\n');
    const other = s.t.baseUrl.replace('127.0.0.1', 'localhost');
    const elsewhere = await kagent(['api', `${other}/me`, '--debug']);
    expect(elsewhere.stderr).toMatch(/→ GET http:\/\/localhost:\d+\/api\/v1\/me attempt=1 \(no authorization\)/);
    expect(elsewhere.code).toBe(3);
  });
});
