// `kagent lib upload`: a file that cannot be sent fails on its own, with its
// own code, and the run goes on with the others — a name that is not UTF-8
// (UNREADABLE_NAME, shown with its odd bytes as \xNN, from a folder walk or a
// glob), a file that shrinks while it is being sent (FILE_CHANGED, never
// retried as a network failure), a name over the service's limit
// (NAME_TOO_LONG, checked here, no request). The summary counts what the
// service did, from its answers: a rerun whose attempts were turned away
// (503) and then replayed is "already there", not "uploaded".
import { randomBytes } from 'node:crypto';
import { truncateSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeProfile } from '../../src/config/store.js';
import { escapeName } from '../../src/upload/odd-names.js';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';
import { runCli, tempDir } from '../helpers/run.js';

let s: LoggedIn;
let key: string;

beforeAll(async () => {
  s = await loggedInSandbox();
});
afterAll(() => s.close());
beforeEach(async () => {
  ({ apiKey: key } = await s.t.newAccount({ credits: 10_000 }));
  await s.t.call('DELETE', '/_sandbox/stats', { key: null });
});

const kagent = (argv: string[], options: Parameters<LoggedIn['kagent']>[1] = {}) =>
  s.kagent(argv, { ...options, env: { KAGENT_API_KEY: key, ...options.env } });
const ndjson = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
async function storedNames(): Promise<string[]> {
  const items = (await s.t.call('GET', '/library', { key, query: { kind: 'file', limit: 200 } })).body.items as Array<{
    fileName: string | null;
    title: string;
  }>;
  return items.map((item) => item.fileName ?? item.title).sort();
}
async function uploadRequests(): Promise<number> {
  return (await s.t.call('GET', '/_sandbox/stats', { key: null })).body.requests.uploadFile ?? 0;
}

/** A folder with three good Markdown files and one whose name holds the bytes FF and FE (not UTF-8). */
function folderWithBadName(): string {
  const dir = tempDir('kagent-upload-');
  writeFileSync(join(dir, 'a.md'), `# A\n\n${randomBytes(16).toString('hex')}\n`);
  writeFileSync(join(dir, 'b.md'), `# B\n\n${randomBytes(16).toString('hex')}\n`);
  writeFileSync(join(dir, 'c.md'), `# C\n\n${randomBytes(16).toString('hex')}\n`);
  writeFileSync(
    Buffer.concat([Buffer.from(`${dir}/bad-`), Buffer.from([0xff, 0xfe]), Buffer.from('.md')]),
    '# Bad name\n',
  );
  return dir;
}

describe('escapeName', () => {
  it('keeps valid UTF-8 and shows every other byte as \\xNN', () => {
    expect(escapeName(Buffer.concat([Buffer.from('résumé-'), Buffer.from([0xff, 0xc3]), Buffer.from('研究.md')]))).toBe(
      'résumé-\\xFF\\xC3研究.md',
    );
  });
});

describe('a name that is not UTF-8', () => {
  it('in a folder: that file fails (UNREADABLE_NAME, escaped), the others are uploaded, exit 2', async () => {
    const dir = folderWithBadName();
    const r = await kagent(['lib', 'upload', dir, '--json']);
    expect(r.code).toBe(2);
    // Results come as files finish: the refused one (no request) first.
    const results = ndjson(r.stdout).sort((x, y) => (x.path < y.path ? -1 : 1));
    expect(results.map((x) => [x.path.slice(dir.length), x.status])).toEqual([
      ['/a.md', 'uploaded'],
      ['/b.md', 'uploaded'],
      ['/bad-\\xFF\\xFE.md', 'failed'],
      ['/c.md', 'uploaded'],
    ]);
    expect(results[2].error.code).toBe('UNREADABLE_NAME');
    expect(r.stderr).toMatch(/^3 uploaded, 0 already there, 1 failed/m);
    expect(await storedNames()).toEqual(['a.md', 'b.md', 'c.md']);
    expect(await uploadRequests()).toBe(3);
  });

  it('piped: the failure line names the file escaped, with its code', async () => {
    const dir = folderWithBadName();
    const r = await kagent(['lib', 'upload', dir]);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain(`failed\t${dir}/bad-\\xFF\\xFE.md\t\tUNREADABLE_NAME\n`);
    expect(r.stderr).toContain(`error: ${dir}/bad-\\xFF\\xFE.md: the name is not UTF-8`);
    expect(r.stdout.match(/^uploaded\t/gm)).toHaveLength(3);
  });

  it('--dry-run refuses it as the real run does (UNREADABLE_NAME, exit 2), not as an empty file', async () => {
    const dir = folderWithBadName();
    const r = await kagent(['lib', 'upload', dir, '--dry-run', '--json']);
    expect(r.code).toBe(2);
    const rows = ndjson(r.stdout) as Array<{ path?: string; status?: string; error?: { code: string } }>;
    expect(rows.filter((x) => x.status === 'fail').map((x) => [x.path?.slice(dir.length), x.error?.code])).toEqual([
      ['/bad-\\xFF\\xFE.md', 'UNREADABLE_NAME'],
    ]);
    expect(await uploadRequests()).toBe(0);
  });

  it('matched by a glob: reported as failed, not skipped in silence', async () => {
    const dir = folderWithBadName();
    const r = await kagent(['lib', 'upload', `${dir}/*.md`, '--json']);
    expect(r.code).toBe(2);
    const results = ndjson(r.stdout);
    expect(results.filter((x) => x.status === 'uploaded')).toHaveLength(3);
    expect(results.filter((x) => x.status === 'failed').map((x) => [x.path.slice(dir.length), x.error.code])).toEqual([
      ['/bad-\\xFF\\xFE.md', 'UNREADABLE_NAME'],
    ]);
  });
});

describe('a name over the service limit', () => {
  it('lib upload - --name of 300 characters: refused here with NAME_TOO_LONG (exit 2), no request', async () => {
    const r = await kagent(['lib', 'upload', '-', '--name', `${'n'.repeat(297)}.md`, '--json'], { stdin: '# Notes\n' });
    expect(r.code).toBe(2);
    const [result] = ndjson(r.stdout);
    expect(result).toMatchObject({
      status: 'failed',
      error: { code: 'NAME_TOO_LONG', message: 'the name is 300 characters; the service takes at most 255' },
    });
    expect(await uploadRequests()).toBe(0);
  });
});

describe('a file that changes while it is being sent', () => {
  let proxy: Server;
  let configDir: string;
  let dir: string;
  const attempts: Record<string, number> = {};

  beforeAll(async () => {
    // In front of the sandbox: when "shrinks.txt" starts arriving it is cut short on disk; when
    // "changes.txt" does, it is rewritten with other bytes of the same size (what arrived is then
    // passed on); everything else is passed through.
    const upstream = new URL(s.t.baseUrl);
    proxy = createServer(async (req, res) => {
      const headers = { ...req.headers };
      delete headers.host;
      delete headers.connection;
      const name = String(req.headers['x-file-name']);
      attempts[name] = (attempts[name] ?? 0) + 1;
      let body: unknown = req.method === 'GET' ? undefined : req;
      if (name === 'changes.txt') {
        const chunks: Buffer[] = [];
        for await (const chunk of req) {
          if (chunks.length === 0) writeFileSync(join(dir, 'changes.txt'), 'y'.repeat(32 * 1024 * 1024));
          chunks.push(chunk as Buffer);
        }
        body = Buffer.concat(chunks);
      }
      if (name === 'shrinks.txt') {
        req.once('data', () => truncateSync(join(dir, 'shrinks.txt'), 1000));
        req.resume();
        req.on('end', () =>
          res
            .writeHead(400, { 'content-type': 'application/json' })
            .end('{"error":{"code":"INVALID_INPUT","message":"short body"}}'),
        );
        return;
      }
      const answer = await request(`${upstream.origin}${req.url}`, {
        method: req.method as 'GET',
        headers,
        body: body as Buffer | undefined,
      });
      const out: Record<string, string> = {};
      for (const [name, value] of Object.entries(answer.headers))
        if (typeof value === 'string' && !['transfer-encoding', 'connection'].includes(name)) out[name] = value;
      res.writeHead(answer.statusCode, out);
      res.end(Buffer.from(await answer.body.arrayBuffer()));
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    configDir = tempDir('kagent-config-');
    await writeProfile(
      configDir,
      'default',
      { baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/v1`, rateLimit: 100_000 },
      { makeCurrent: true },
    );
  });
  afterAll(async () => {
    proxy.closeAllConnections();
    await new Promise((resolve) => proxy.close(resolve));
  });

  it('shrinks: that file fails with FILE_CHANGED after one attempt; the other files are uploaded (exit 1)', async () => {
    dir = tempDir('kagent-upload-');
    writeFileSync(join(dir, 'a.md'), '# A\n');
    // Larger than the socket buffers, so most of it is still to be read from disk when it is cut.
    writeFileSync(join(dir, 'shrinks.txt'), 'x'.repeat(32 * 1024 * 1024));
    writeFileSync(join(dir, 'z.md'), '# Z\n');
    const r = await runCli(['lib', 'upload', dir, '--json', '--concurrency', '1'], {
      configDir,
      env: { KAGENT_API_KEY: key },
    });
    const results = ndjson(r.stdout).sort((x, y) => (x.name < y.name ? -1 : 1));
    expect(results.map((x) => [x.name, x.status, x.error?.code])).toEqual([
      ['a.md', 'uploaded', undefined],
      ['shrinks.txt', 'failed', 'FILE_CHANGED'],
      ['z.md', 'uploaded', undefined],
    ]);
    expect(results[1].error.message).toMatch(/^the file got shorter while it was being sent/);
    expect(r.stderr).toMatch(/^2 uploaded, 0 already there, 1 failed/m);
    expect(r.code).toBe(1);
    // Not taken for a network failure: never retried.
    expect(attempts['shrinks.txt']).toBe(1);
    expect(await storedNames()).toEqual(['a.md', 'z.md']);
  });

  it('same size, other bytes: FILE_CHANGED, naming the item that holds what the service received; the others go on', async () => {
    dir = tempDir('kagent-upload-');
    writeFileSync(join(dir, 'a.md'), '# A\n');
    writeFileSync(join(dir, 'changes.txt'), 'x'.repeat(32 * 1024 * 1024));
    writeFileSync(join(dir, 'z.md'), '# Z\n');
    const r = await runCli(['lib', 'upload', dir, '--json', '--concurrency', '1'], {
      configDir,
      env: { KAGENT_API_KEY: key },
    });
    const results = ndjson(r.stdout).sort((x, y) => (x.name < y.name ? -1 : 1));
    expect(results.map((x) => [x.name, x.status, x.error?.code])).toEqual([
      ['a.md', 'uploaded', undefined],
      ['changes.txt', 'failed', 'FILE_CHANGED'],
      ['z.md', 'uploaded', undefined],
    ]);
    expect(results[1].error.message).toBe(
      `the file changed while it was being sent; the library holds what it received as ${results[1].item.id}`,
    );
    expect(r.code).toBe(1);
  });
});

describe('the summary counts what the service did', () => {
  it('a rerun whose first attempts are turned away (503) and then replayed: 0 uploaded, all already there', async () => {
    const dir = tempDir('kagent-upload-');
    for (const name of ['a.md', 'b.md', 'c.md', 'd.md'])
      writeFileSync(join(dir, name), `# ${name}\n\n${randomBytes(16).toString('hex')}\n`);
    const first = await kagent(['lib', 'upload', dir]);
    expect(first.stderr).toMatch(/^4 uploaded, 0 already there, 0 failed/m);
    for (let i = 0; i < 4; i++)
      await s.t.inject({ kind: '503', count: 1, method: 'POST', path: '/api/v1/library/files' });
    const again = await kagent(['lib', 'upload', dir, '--json', '--concurrency', '1']);
    expect(again.code).toBe(0);
    expect(ndjson(again.stdout).map((x) => x.status)).toEqual(['exists', 'exists', 'exists', 'exists']);
    expect(again.stderr).toMatch(/^0 uploaded, 4 already there, 0 failed/m);
    expect((await s.t.call('GET', '/_sandbox/stats', { key: null })).body.statuses['503']).toBe(4);
  });
});
