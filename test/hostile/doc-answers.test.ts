// Documents as the service should never send them — no body, a revision that is
// text or null, no answer at all, a save answered without its new revision. A
// pull writes nothing for such a document (no file, no sidecar kagent would later
// call damaged) and says so with exit 1; `--all` still pulls the others; a push
// leaves the file and its sidecar as they were.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hostileServer, type HostileServer } from '../helpers/hostile-server.js';
import { runCli } from '../helpers/run.js';

let server: HostileServer | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kagent-doc-answers-'));
  dirs.push(dir);
  return dir;
}

const doc = (id: string) => ({
  id,
  title: `T ${id}`,
  body: `# ${id}\n`,
  revision: 1,
  origin: 'user',
  folderId: null,
  updatedAt: '2026-01-15T09:00:00.000Z',
  space: null,
  publication: null,
});

/** GET /docs lists a, b and c; GET /docs/b answers `odd` (a Doc changed by the test); a save answers `saved`. */
async function serve(odd: unknown, saved: unknown = { id: 'a', revision: 2, updatedAt: '2026-01-16T09:00:00.000Z' }) {
  server = await hostileServer((req) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (path === '/api/v1/docs')
      return {
        kind: 'answer',
        status: 200,
        body: { items: ['a', 'b', 'c'].map((id) => ({ ...doc(id), body: undefined })), nextCursor: null },
      };
    const id = path.split('/').pop() ?? '';
    if (req.method !== 'GET') return { kind: 'answer', status: 200, body: saved };
    return { kind: 'answer', status: 200, body: id === 'b' ? odd : doc(id) };
  });
  return server;
}

const kagent = (argv: string[]) =>
  runCli(argv, { env: { KAGENT_BASE_URL: server?.baseUrl, KAGENT_API_KEY: 'k_test', NO_COLOR: '1' } });

const withoutBody = (() => {
  const { body: _body, ...rest } = doc('b');
  return rest;
})();

describe('doc pull of a document that cannot be kept in step', () => {
  it.each([
    ['no body', withoutBody, 'text (body)'],
    ['a revision that is text', { ...doc('b'), revision: '7' }, 'revision as a whole number'],
    ['a revision that is null', { ...doc('b'), revision: null }, 'revision as a whole number'],
    ['null', null, 'id and no text (body) and no revision as a whole number'],
    ['a body that is an object', { ...doc('b'), body: { a: 1 } }, 'text (body)'],
  ])('%s: exit 1, nothing written, a message naming what is missing', async (_name, odd, missing) => {
    await serve(odd);
    const dir = tempDir();
    const r = await kagent(['doc', 'pull', 'b', '-o', join(dir, 'b.md'), '--quiet']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: the service's answer for document b has no ${missing}: kagent cannot keep it in step, and wrote nothing (UNEXPECTED_ANSWER)\n` +
        'hint: `kagent doc show b --json` shows the answer as it came; try again later\n',
    );
    expect(r.stdout).toBe('');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('--all: that one fails, the ones after it are still pulled, exit 1', async () => {
    await serve(withoutBody);
    const dir = tempDir();
    const r = await kagent(['doc', 'pull', '--all', '-o', dir, '--json', 'id,status', '--quiet']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual([
      { id: 'a', status: 'pulled' },
      { id: 'b', status: 'failed' },
      { id: 'c', status: 'pulled' },
    ]);
    expect(readdirSync(dir).sort()).toEqual(['.kagent', 't-a.md', 't-c.md']);
    expect(readdirSync(join(dir, '.kagent', 'docs')).sort()).toEqual(['t-a.md.json', 't-c.md.json']);
    const [warning, error] = r.stderr.trim().split('\n');
    expect(warning).toBe(
      "warning: the service's answer for document b has no text (body): kagent cannot keep it in step, and wrote nothing",
    );
    expect(JSON.parse(error!).error.code).toBe('WRITE_FAILED');
  });
});

describe('doc push answered without the new revision', () => {
  it('says the save took effect, leaves the file and its sidecar as they were, exit 1', async () => {
    await serve(doc('b'), {});
    const dir = tempDir();
    const file = join(dir, 'a.md');
    expect((await kagent(['doc', 'pull', 'a', '-o', file, '--quiet'])).code).toBe(0);
    const sidecar = join(dir, '.kagent', 'docs', 'a.md.json');
    const before = readFileSync(sidecar, 'utf8');
    writeFileSync(file, '# a\nmore\n');
    const r = await kagent(['doc', 'push', file, '--quiet']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "error: doc a was saved, but the service's answer does not say its new revision: the file and what kagent remembers of it are left as they were (UNEXPECTED_ANSWER)\n" +
        'hint: `kagent doc pull a -o FILE --force` brings the saved text and its revision\n',
    );
    expect(r.stdout).toBe('');
    expect(readFileSync(sidecar, 'utf8')).toBe(before);
    expect(readFileSync(file, 'utf8')).toBe('# a\nmore\n');
  });
});

describe('a sidecar whose revision is not a whole number', () => {
  it('is damaged, and the hint names the document it still names', async () => {
    await serve(doc('b'));
    const dir = tempDir();
    mkdirSync(join(dir, '.kagent', 'docs'), { recursive: true });
    writeFileSync(join(dir, 'a.md'), '# a\n');
    writeFileSync(join(dir, '.kagent', 'docs', 'a.md.json'), '{"id":"a","revision":"7","base":"# a\\n"}\n');
    const r = await kagent(['doc', 'status', join(dir, 'a.md')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is damaged: it does not say which document and revision a.md was pulled from');
    expect(r.stderr).toContain(`hint: pull it again: \`kagent doc pull a -o ${join(dir, 'a.md')} --force\``);
    expect(existsSync(join(dir, 'a.md'))).toBe(true);
  });
});

describe('doc pull -o with an empty name', () => {
  it('is a usage error (exit 2) naming the flag, nothing asked or written', async () => {
    await serve(doc('b'));
    for (const args of [['b'], ['--all']]) {
      const r = await kagent(['doc', 'pull', ...args, '-o', '']);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe('error: -o needs a file or a directory (got an empty name) (USAGE)\n');
    }
    expect(server!.requests).toEqual([]);
  });
});

describe('a document list without revisions', () => {
  it('doc status and doc pull --all read each document instead, and say so once', async () => {
    server = await hostileServer((req) => {
      const path = new URL(req.url, 'http://x').pathname;
      if (path === '/api/v1/docs') {
        const items = ['a', 'b', 'c'].map((id) => ({ ...doc(id), body: undefined, revision: undefined }));
        return { kind: 'answer', status: 200, body: { items, nextCursor: null } };
      }
      return { kind: 'answer', status: 200, body: doc(path.split('/').pop() ?? '') };
    });
    const dir = tempDir();
    const pull = await kagent(['doc', 'pull', '--all', '-o', dir, '--json', 'id,status']);
    expect(pull.code).toBe(0);
    expect(JSON.parse(pull.stdout)).toEqual(['a', 'b', 'c'].map((id) => ({ id, status: 'pulled' })));
    expect(pull.stderr).toBe(
      'warning: the document list gave no revision for 3 of the documents: reading each of them to know\n',
    );
    const gets = () => server!.requests.filter((r) => r.url.startsWith('/api/v1/docs/')).length;
    expect(gets()).toBe(3);

    const status = await kagent(['doc', 'status', dir]);
    expect(status.code).toBe(0);
    expect(
      status.stdout
        .trim()
        .split('\n')
        .map((row) => row.split('\t')[0]),
    ).toEqual(['unchanged', 'unchanged', 'unchanged']);
    expect(status.stderr.split('\n').filter((line) => line.startsWith('warning:'))).toEqual([
      'warning: the document list gave no revision for 3 of the documents: reading them one by one',
    ]);
    expect(gets()).toBe(6);
  });
});
