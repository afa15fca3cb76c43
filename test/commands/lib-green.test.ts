// Green means the library matches the folder: `lib upload` and `lib sync`
// end with the space holding the folder's files, or exit non-zero saying why.
// The reproductions of the library-matches-folder issue, against the sandbox.
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountId, dirs, kagent, key, s, useLibSandbox, scratchFolder } from '../helpers/lib-sandbox.js';
import { tempDir } from '../helpers/run.js';
import { LIMIT_ASKED_FROM } from '../../src/upload/uploader.js';

let research: string;
let other: string;

useLibSandbox(async () => {
  research = (await s.t.call('POST', '/spaces', { key, body: { name: 'Research' } })).body.id;
  other = (await s.t.call('POST', '/spaces', { key, body: { name: 'Research2' } })).body.id;
});

interface Item {
  id: string;
  fileName?: string;
  spaceId: string;
  sha256?: string;
  note?: string | null;
  title?: string;
}
async function library(space?: string): Promise<Item[]> {
  const query: Record<string, string | number> = { kind: 'file', limit: 200 };
  if (space) query.space = space;
  return (await s.t.call('GET', '/library', { key, query, validate: false })).body.items;
}

const folder = (content: Record<string, string>) => scratchFolder('kagent-green-', content);

const DOCS = { 'a.md': '# A\n\nalpha\n', 'b.md': '# B\n\nbeta\n', 'sub/c.txt': 'gamma\n' };

describe('a deleted item is not "there"', () => {
  it('lib upload again after lib delete uploads the file anew (the replayed answer is checked)', async () => {
    const dir = folder({ 'r.md': '# R\n\nresearch notes\n' });
    const file = join(dir, 'r.md');
    const first = await kagent(['lib', 'upload', file, '--space', 'Research']);
    expect(first.code, first.stderr).toBe(0);
    const id = first.stdout.split('\t')[2] as string;
    expect((await kagent(['lib', 'delete', id, '--yes'])).code).toBe(0);
    const again = await kagent(['lib', 'upload', file, '--space', 'Research']);
    expect(again.code, again.stderr).toBe(0);
    const [status, , newId] = again.stdout.split('\t');
    expect(status).toBe('uploaded');
    expect(newId).not.toBe(id);
    expect((await library(research)).map((i) => i.id)).toEqual([newId]);
    // Deleted again, and again: each time a new request.
    expect((await kagent(['lib', 'delete', newId as string, '--yes'])).code).toBe(0);
    const third = await kagent(['lib', 'upload', file, '--space', 'Research']);
    expect(third.code, third.stderr).toBe(0);
    expect(await library(research)).toHaveLength(1);
  });

  it('lib sync: remove, sync --delete, restore, sync: the file is back in the space', async () => {
    const dir = folder(DOCS);
    expect((await kagent(['lib', 'sync', dir, '--space', 'Research'])).code).toBe(0);
    unlinkSync(join(dir, 'b.md'));
    const del = await kagent(['lib', 'sync', dir, '--space', 'Research', '--delete', '--yes']);
    expect(del.code, del.stderr).toBe(0);
    expect(await library(research)).toHaveLength(2);
    writeFileSync(join(dir, 'b.md'), DOCS['b.md']);
    const back = await kagent(['lib', 'sync', dir, '--space', 'Research']);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toMatch(/^uploaded\tb\.md/m);
    const shas = (await library(research)).map((i) => i.sha256);
    expect(shas).toHaveLength(3);
    expect(new Set(shas).size).toBe(3);
  });
});

describe('another space', () => {
  it('lib sync of the same folder into a second space fails for each file, naming where its item is (exit 1)', async () => {
    const dir = folder(DOCS);
    expect((await kagent(['lib', 'sync', dir, '--space', 'Research'])).code).toBe(0);
    const r = await kagent(['lib', 'sync', dir, '--space', 'Research2']);
    expect(r.code).toBe(1);
    const failed = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('\t'));
    expect(failed.map((row) => [row[0], row[3]])).toEqual([
      ['failed', 'IN_ANOTHER_SPACE'],
      ['failed', 'IN_ANOTHER_SPACE'],
      ['failed', 'IN_ANOTHER_SPACE'],
    ]);
    expect(r.stderr).toContain(`in space ${research}`);
    expect(r.stderr).toMatch(/^0 uploaded, 0 replaced, 0 deleted, 0 unchanged, 3 failed/m);
    expect(await library(other)).toHaveLength(0);
  });

  it('lib upload of a file held in another space fails for it (exit 1), never "exists"', async () => {
    const dir = folder({ 'r.md': '# R\n\nresearch notes\n' });
    expect((await kagent(['lib', 'upload', join(dir, 'r.md'), '--space', 'Research'])).code).toBe(0);
    const r = await kagent(['lib', 'upload', join(dir, 'r.md'), '--space', 'Research2']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^failed\t.*IN_ANOTHER_SPACE/);
    expect(r.stderr).toContain(research);
  });
});

/**
 * A service in front of the sandbox that answers an upload with the item it made and then loses it
 * (`lose` files, by name): what a run reports must be checked against the space's listing.
 */
async function losingService(lose: (name: string) => boolean): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const target = new URL(s.t.baseUrl);
  const server = createServer((req, res) => {
    const forward = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          const name = decodeURIComponent(String(req.headers['x-file-name'] ?? ''));
          const done = () => {
            res.writeHead(answer.statusCode ?? 500, answer.headers);
            res.end(body);
          };
          if (req.method !== 'POST' || !req.url?.includes('/library/files') || !lose(name)) return done();
          const id = JSON.parse(body.toString()).item.id as string;
          s.t.call('DELETE', `/library/${id}`, { key }).then(done, done);
        });
      },
    );
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('the end state is checked', () => {
  it('lib sync: a file whose item is not in the space after the run is a failure (NOT_IN_SPACE, exit 1)', async () => {
    const dir = folder(DOCS);
    const service = await losingService((name) => name.endsWith('b.md'));
    try {
      const r = await kagent(['lib', 'sync', dir, '--space', 'Research', '--json'], {
        env: { KAGENT_BASE_URL: service.baseUrl },
      });
      expect(r.code).toBe(1);
      const lines = r.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line));
      expect(lines.filter((l) => l.status === 'failed').map((l) => [l.path, l.error.code])).toEqual([
        ['b.md', 'NOT_IN_SPACE'],
      ]);
      expect(r.stderr).toMatch(/^2 uploaded, 0 replaced, 0 deleted, 0 unchanged, 1 failed/m);
    } finally {
      await service.close();
    }
  });

  it('lib sync: a run that sent nothing sends only the listing', async () => {
    const dir = folder(DOCS);
    expect((await kagent(['lib', 'sync', dir, '--space', 'Research'])).code).toBe(0);
    await s.t.call('DELETE', '/_sandbox/stats', { key: null });
    expect((await kagent(['lib', 'sync', dir, '--space', 'Research'])).code).toBe(0);
    const { requests } = (await s.t.call('GET', '/_sandbox/stats', { key: null })).body;
    expect(requests).toEqual({ listSpaces: 1, listLibrary: 1 });
  });
});

describe('lib upload of a folder: the end state is checked', () => {
  it('a file whose item is not in the space after the run is a failure (NOT_IN_SPACE, exit 1)', async () => {
    const dir = folder(DOCS);
    const service = await losingService((name) => name === 'b.md');
    try {
      const r = await kagent(['lib', 'upload', dir, '--space', 'Research'], {
        env: { KAGENT_BASE_URL: service.baseUrl },
      });
      expect(r.code).toBe(1);
      const failed = r.stdout
        .split('\n')
        .filter((line) => line.startsWith('failed'))
        .map((line) => line.split('\t'));
      expect(failed.map((row) => [row[1]?.endsWith('b.md'), row[3]])).toEqual([[true, 'NOT_IN_SPACE']]);
      expect(r.stderr).toMatch(/^2 uploaded, 0 already there, 1 failed/m);
    } finally {
      await service.close();
    }
  });
});

describe('--max-deletes counts the items of gone files only', () => {
  it('edit 3 files and remove 2: the dry run says 3 to replace and 2 to delete; --max-deletes 2 goes, 1 refuses with those numbers', async () => {
    const files = { 'a.md': '# a\n', 'b.md': '# b\n', 'c.md': '# c\n', 'd.md': '# d\n', 'e.md': '# e\n' };
    const dir = folder(files);
    expect((await kagent(['lib', 'sync', dir, '--space', 'Research'])).code).toBe(0);
    for (const name of ['a.md', 'b.md', 'c.md']) writeFileSync(join(dir, name), `# ${name} edited\n`);
    for (const name of ['d.md', 'e.md']) unlinkSync(join(dir, name));
    const dry = await kagent(['lib', 'sync', dir, '--space', 'Research', '--delete', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout.split('\n').filter((l) => l.startsWith('replace'))).toHaveLength(3);
    expect(dry.stdout.split('\n').filter((l) => l.startsWith('delete'))).toHaveLength(2);
    const refused = await kagent([
      'lib',
      'sync',
      dir,
      '--space',
      'Research',
      '--delete',
      '--yes',
      '--max-deletes',
      '1',
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/would delete 2 items, more than --max-deletes 1/);
    expect(refused.stderr).toMatch(/the 3 earlier versions of changed files are not counted/);
    expect(refused.stderr).toMatch(/--dry-run lists the 2 to delete/);
    expect(await library(research)).toHaveLength(5);
    const r = await kagent(['lib', 'sync', dir, '--space', 'Research', '--delete', '--yes', '--max-deletes', '2']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^0 uploaded, 3 replaced, 2 deleted, 0 unchanged, 0 failed/m);
    expect(await library(research)).toHaveLength(3);
  });
});

describe('names people read', () => {
  it('--prefix acme/handbook: titles are the files’ own names, with no percent-encoding or ":" joins; lib list shows them', async () => {
    const dir = folder({ 'guide/page2.md': '# Page two\n', 'README.md': '# Read me\n' });
    const r = await kagent(['lib', 'sync', dir, '--space', 'Research', '--prefix', 'acme/handbook']);
    expect(r.code, r.stderr).toBe(0);
    const items = await library(research);
    expect(items.map((i) => i.title).sort()).toEqual(['README', 'page2']);
    for (const item of items) expect(item.title).not.toMatch(/[%:]/);
    const list = await kagent(['lib', 'list', '--space', 'Research']);
    expect(list.stdout).toMatch(/\bpage2\b/);
    expect(list.stdout).not.toMatch(/%2F|acme.handbook:/);
  });

  it('a renamed file: its new name shows once --delete lets the old item go; without --delete the old one is kept and said', async () => {
    const dir = folder({ 'api/ep1.txt': 'endpoint one\n', 'other.md': '# other\n' });
    expect((await kagent(['lib', 'sync', dir, '--space', 'Research'])).code).toBe(0);
    const [old] = (await library(research)).filter((i) => i.fileName === 'ep1.txt');
    mkdirSync(join(dir, 'api'), { recursive: true });
    writeFileSync(join(dir, 'api/endpoint1.txt'), 'endpoint one\n');
    unlinkSync(join(dir, 'api/ep1.txt'));
    const kept = await kagent(['lib', 'sync', dir, '--space', 'Research']);
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stdout).toMatch(/^kept\tapi\/ep1\.txt/m);
    const r = await kagent(['lib', 'sync', dir, '--space', 'Research', '--delete', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^deleted\\tapi/ep1\\.txt\\t${old?.id}`, 'm'));
    expect(r.stdout).toMatch(/^uploaded\tapi\/endpoint1\.txt/m);
    const items = await library(research);
    expect(items.map((i) => i.fileName).sort()).toEqual(['endpoint1.txt', 'other.md']);
    expect(items.find((i) => i.fileName === 'endpoint1.txt')?.note).toBe('kagent lib sync "docs" "api/endpoint1.txt"');
  });

  it('items of the earlier naming scheme (<prefix>:a:b.md) migrate once on the next run, reported as such; nothing duplicated', async () => {
    const dir = folder({ 'guide/intro.md': '# Intro\n', 'README.md': '# Readme\n', 'gone.md': '# gone\n' });
    // What an earlier kagent left: names joined with ':' and no note.
    for (const [rel, legacy] of [
      ['guide/intro.md', 'docs:guide:intro.md'],
      ['README.md', 'docs:README.md'],
      ['gone.md', 'docs:gone.md'],
    ] as const) {
      await s.t.call('POST', '/library/files', {
        key,
        raw: readFileSync(join(dir, rel)),
        headers: { 'x-file-name': encodeURIComponent(legacy), 'content-type': 'application/octet-stream' },
        query: { space: research },
      });
    }
    const before = await library(research);
    unlinkSync(join(dir, 'gone.md'));
    const r = await kagent(['lib', 'sync', dir, '--space', 'Research', '--delete', '--yes', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(lines.map((l) => [l.path, l.status]).sort()).toEqual([
      ['README.md', 'replaced'],
      ['gone.md', 'deleted'],
      ['guide/intro.md', 'replaced'],
    ]);
    expect(lines.find((l) => l.path === 'guide/intro.md').reason).toBe(
      'migrated once from the name docs:guide:intro.md',
    );
    expect(r.stderr).toMatch(/2 items of an earlier kagent were renamed to their file's own name/);
    const after = await library(research);
    expect(after.map((i) => i.fileName).sort()).toEqual(['README.md', 'intro.md']);
    expect(after.some((i) => before.some((b) => b.id === i.id))).toBe(false);
    const again = await kagent(['lib', 'sync', dir, '--space', 'Research', '--delete', '--yes']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/^0 uploaded, 0 replaced, 0 deleted, 2 unchanged, 0 failed/m);
  });
});

describe('credits run out', () => {
  const thirty = () => folder(Object.fromEntries(Array.from({ length: 30 }, (_, n) => [`f${n}.md`, `# file ${n}\n`])));

  for (const verb of ['upload', 'sync'] as const) {
    it(`lib ${verb}: the first 402 CREDITS_EXHAUSTED starts no new file; exit 6, the count not attempted and GET /me's numbers in the hint`, async () => {
      const { apiKey } = await s.t.newAccount({ credits: 6 });
      await s.t.call('POST', '/spaces', { key: apiKey, body: { name: 'Research' } });
      await s.t.call('DELETE', '/_sandbox/stats', { key: null });
      const r = await kagent(['lib', verb, thirty(), '--space', 'Research'], { env: { KAGENT_API_KEY: apiKey } });
      expect(r.code, r.stderr).toBe(6);
      const { requests } = (await s.t.call('GET', '/_sandbox/stats', { key: null })).body;
      expect(requests.uploadFile).toBeLessThanOrEqual(3 + 4);
      // One GET /me, for the hint: small files are sent without asking the plan's per-file limit.
      expect(requests.getMe).toBe(1);
      expect(r.stderr).toMatch(/CREDITS_EXHAUSTED/);
      expect(r.stderr).toMatch(/hint: \d+ files were not attempted; credits left: 0/);
    });

    it(`lib ${verb} in GitHub Actions: running out of credits is an ::error annotation for the run and a line in the step summary`, async () => {
      const { apiKey } = await s.t.newAccount({ credits: 6 });
      await s.t.call('POST', '/spaces', { key: apiKey, body: { name: 'Research' } });
      const summary = join(tempDir('kagent-credits-ci-'), 'summary.md');
      dirs.push(join(summary, '..'));
      const env = { KAGENT_API_KEY: apiKey, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary };
      const r = await kagent(['lib', verb, thirty(), '--space', 'Research'], { env });
      expect(r.code, r.stderr).toBe(6);
      expect(r.stderr).toMatch(
        new RegExp(
          `^::error title=kagent lib ${verb} refused \\(CREDITS_EXHAUSTED\\)::the account ran out of credits`,
          'm',
        ),
      );
      expect(readFileSync(summary, 'utf8')).toMatch(
        new RegExp(`### kagent lib ${verb}\n\n❌ Refused \\(\`CREDITS_EXHAUSTED\`\\): the account ran out of credits`),
      );
    });
  }
});

describe('lib upload re-runs cost the listing', () => {
  it('a second lib upload of 30 unchanged files sends no upload, only the listing; one deleted item is sent again', async () => {
    const dir = folder(Object.fromEntries(Array.from({ length: 30 }, (_, n) => [`f${n}.md`, `# file ${n}\n`])));
    // One large enough that a run sending it asks the plan's per-file limit first.
    writeFileSync(join(dir, 'large.md'), `# large\n${'x'.repeat(LIMIT_ASKED_FROM)}\n`);
    expect((await kagent(['lib', 'upload', dir, '--space', 'Research'])).code).toBe(0);
    await s.t.call('DELETE', '/_sandbox/stats', { key: null });
    const again = await kagent(['lib', 'upload', dir, '--space', 'Research']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/^0 uploaded, 31 already there, 0 failed/m);
    // The space by name and the listing: no upload, and no GET /me, as no file is to be sent.
    const { requests } = (await s.t.call('GET', '/_sandbox/stats', { key: null })).body;
    expect(requests).toEqual({ listSpaces: 1, listLibrary: 1 });
    const [victim] = await library(research);
    await s.t.call('DELETE', `/library/${victim?.id}`, { key });
    await s.t.call('DELETE', '/_sandbox/stats', { key: null });
    const third = await kagent(['lib', 'upload', dir, '--space', 'Research']);
    expect(third.code, third.stderr).toBe(0);
    expect(third.stderr).toMatch(/^1 uploaded, 30 already there, 0 failed/m);
    // Its key replays the deleted item (checked, gone), then a fresh key adds it: two requests.
    expect((await s.t.call('GET', '/_sandbox/stats', { key: null })).body.requests.uploadFile).toBe(2);
    expect(await library(research)).toHaveLength(31);
  });

  it('a listing without SHA-256: every file is sent, said once', async () => {
    const dir = folder(DOCS);
    expect((await kagent(['lib', 'upload', dir, '--space', 'Research'])).code).toBe(0);
    await s.t.patchAccount(accountId, { hideFields: ['sha256'] });
    await s.t.call('DELETE', '/_sandbox/stats', { key: null });
    const again = await kagent(['lib', 'upload', dir, '--space', 'Research']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr.match(/does not give items' SHA-256: every file is sent/g)).toHaveLength(1);
    expect((await s.t.call('GET', '/_sandbox/stats', { key: null })).body.requests.uploadFile).toBe(3);
    expect(await library(research)).toHaveLength(3);
  });
});
