// `kagent lib sync DIR --space S` against the sandbox, in-process: first sync,
// a re-sync that sends nothing but the listing, a changed file replaced (the
// earlier item deleted only once the new one exists), removed files kept or
// deleted (--delete, --yes, a prompt on a terminal, --max-deletes), items that
// did not come from DIR untouched, files sharing bytes, a service that does not
// give file names or SHA-256, --dry-run sending only reads, output in every
// mode, CI reports, and bad input.
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LoggedIn } from '../helpers/logged-in.js';
import {
  accountId,
  dirs,
  kagent,
  key,
  resetStats,
  s,
  useLibSandbox,
  scratchFolder,
  writeInto,
} from '../helpers/lib-sandbox.js';
import { tempDir } from '../helpers/run.js';
import { xmllint } from '../helpers/junit.js';
import { writeProfile } from '../../src/config/store.js';
import { pathOfName, pathOfNote, syncName, syncNote } from '../../src/upload/sync-plan.js';

let space: string;

useLibSandbox(async () => {
  space = (await s.t.call('POST', '/spaces', { key, body: { name: 'Handbook' } })).body.id;
});

const sync = (dir: string, extra: string[] = [], options: Parameters<LoggedIn['kagent']>[1] = {}) =>
  kagent(['lib', 'sync', dir, '--space', 'Handbook', ...extra], options);

async function requests(): Promise<Record<string, number>> {
  return (await s.t.call('GET', '/_sandbox/stats', { key: null })).body.requests;
}
/** The file items of the account: id, fileName, note, spaceId (read without the hidden-fields setting's effect on the check). */
async function library(): Promise<
  Array<{ id: string; fileName?: string; note?: string | null; spaceId: string; sha256?: string }>
> {
  return (await s.t.call('GET', '/library', { key, query: { kind: 'file', limit: 200 }, validate: false })).body.items;
}
async function hide(fields: string[]) {
  await s.t.patchAccount(accountId, { hideFields: fields });
}

const folder = (content: Record<string, string>) => scratchFolder('kagent-sync-', content);
const write = writeInto;
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');
const rows = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t'));
const ndjson = (stdout: string) =>
  stdout
    .trimEnd()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
const countLine = (stderr: string) => stderr.split('\n').find((line) => /^\d+ uploaded, /.test(line));
/** The items of the folder synced as `docs`, by the path their note records. */
const byName = async () => new Map((await library()).map((item) => [pathOfNote('docs', item.note ?? ''), item]));

const DOCS = {
  'README.md': '# Handbook\n\nHow we work.\n',
  'guide/intro.md': '# Intro\n\nStart here.\n',
  'guide/setup.txt': 'install the tools\n',
};

describe('names', () => {
  it('a path becomes one name without a slash, and reads back to exactly that path; other names are not from the folder', () => {
    expect(syncName('docs', 'guide/intro.md')).toBe('docs:guide:intro.md');
    expect(syncName('org/repo', 'a:b/100%.md')).toBe('org%2Frepo:a%3Ab:100%25.md');
    for (const rel of ['README.md', 'guide/intro.md', 'a:b/100%.md', 'x\\y/z.txt', 'é/ü.md']) {
      expect(pathOfName('org/repo', syncName('org/repo', rel))).toBe(rel);
      expect(pathOfName('docs', syncName('docs', rel))).toBe(rel);
    }
    // Another prefix, a plain upload's name, a name written otherwise than sync writes it, an empty or dot part.
    for (const name of [
      'site:README.md',
      'README.md',
      'docs',
      'docs:',
      'docs:a%3ab.md',
      'docs:a%41.md',
      'docs:guide::x.md',
      'docs:..:x.md',
      'docsx:README.md',
    ]) {
      expect(pathOfName('docs', name)).toBeUndefined();
    }
  });
});

describe('kagent lib sync', () => {
  it('first sync: every file uploaded under <prefix>:<path>; piped one row per file; the count line on stderr', async () => {
    const dir = folder(DOCS);
    const r = await sync(dir);
    expect(r.code, r.stderr).toBe(0);
    expect(
      rows(r.stdout)
        .map((row) => [row[0], row[1]])
        .sort(),
    ).toEqual([
      ['uploaded', 'README.md'],
      ['uploaded', 'guide/intro.md'],
      ['uploaded', 'guide/setup.txt'],
    ]);
    expect(countLine(r.stderr)).toMatch(/^3 uploaded, 0 replaced, 0 deleted, 0 unchanged, 0 failed/);
    const items = await library();
    // Titles a person reads: the file's own name; the path under the folder is in the note.
    expect(items.map((i) => i.fileName).sort()).toEqual(['README.md', 'intro.md', 'setup.txt']);
    expect(items.map((i) => i.note).sort()).toEqual([
      'kagent lib sync "docs" "README.md"',
      'kagent lib sync "docs" "guide/intro.md"',
      'kagent lib sync "docs" "guide/setup.txt"',
    ]);
    expect(items.every((i) => i.spaceId === space)).toBe(true);
  });

  it('a re-sync of an unchanged folder sends only the listing: zero uploads, zero deletes, nothing added', async () => {
    const dir = folder(DOCS);
    expect((await sync(dir)).code).toBe(0);
    const before = await library();
    await resetStats();
    const r = await sync(dir);
    expect(r.code, r.stderr).toBe(0);
    // Piped, a no-op run prints nothing on stdout (as rclone and aws); --verbose lists the unchanged files.
    expect(r.stdout).toBe('');
    const listed = await sync(dir, ['--verbose']);
    expect(rows(listed.stdout).map((row) => row[0])).toEqual(['unchanged', 'unchanged', 'unchanged']);
    expect(countLine(r.stderr)).toMatch(/^0 uploaded, 0 replaced, 0 deleted, 3 unchanged, 0 failed/);
    const sent = await requests();
    expect(sent.uploadFile ?? 0).toBe(0);
    expect(sent.deleteLibraryItem ?? 0).toBe(0);
    expect(Object.keys(sent).sort()).toEqual(['listLibrary', 'listSpaces']);
    expect(await library()).toEqual(before);
  });

  it('a changed file: the new version uploaded, then the earlier item deleted; the others untouched', async () => {
    const dir = folder(DOCS);
    await sync(dir);
    const old = (await byName()).get('guide/intro.md')!;
    write(dir, 'guide/intro.md', '# Intro\n\nStart here, then read the setup.\n');
    await resetStats();
    const r = await sync(dir, ['--json']);
    expect(r.code, r.stderr).toBe(0);
    const lines = ndjson(r.stdout);
    const replaced = lines.find((l) => l.path === 'guide/intro.md');
    expect(replaced).toMatchObject({ status: 'replaced', name: 'intro.md', previous: [old.id] });
    expect(replaced.item.id).not.toBe(old.id);
    expect(
      lines
        .filter((l) => l.status === 'unchanged')
        .map((l) => l.path)
        .sort(),
    ).toEqual(['README.md', 'guide/setup.txt']);
    const after = await byName();
    expect(after.get('guide/intro.md')!.id).toBe(replaced.item.id);
    expect([...after.values()].some((i) => i.id === old.id)).toBe(false);
    expect(after.size).toBe(3);
    expect((await requests()).uploadFile).toBe(1);
    expect((await requests()).deleteLibraryItem).toBe(1);
    expect(countLine(r.stderr)).toMatch(/^0 uploaded, 1 replaced, 0 deleted, 2 unchanged, 0 failed/);
  });

  it('a changed file whose upload fails: the earlier item stays (nothing lost), exit 7; the next run replaces it', async () => {
    const dir = folder(DOCS);
    await sync(dir);
    const old = (await byName()).get('README.md')!;
    write(dir, 'README.md', '# Handbook\n\nHow we work, now.\n');
    // Injected 429s carry Retry-After: 1: the five retries take five seconds.
    await s.t.inject({ kind: '429', count: 6, method: 'POST', path: '/api/v1/library/files' });
    const failed = await sync(dir);
    expect(failed.code).toBe(7);
    expect(failed.stderr).toMatch(/run the same command again/);
    expect((await byName()).get('README.md')!.id).toBe(old.id);
    expect((await requests()).deleteLibraryItem ?? 0).toBe(0);
    const again = await sync(dir);
    expect(again.code, again.stderr).toBe(0);
    expect(rows(again.stdout).find((row) => row[1] === 'README.md')).toEqual([
      'replaced',
      'README.md',
      expect.stringMatching(/^li_/),
      old.id,
    ]);
    expect((await library()).filter((i) => i.note === syncNote('docs', 'README.md'))).toHaveLength(1);
  });

  it('a replace cut short (the new version there, the earlier one not yet deleted): the next run deletes the earlier one', async () => {
    const dir = folder(DOCS);
    await sync(dir);
    const old = (await byName()).get('guide/setup.txt')!;
    // What a run killed between the upload and the delete leaves: both versions under the one name.
    write(dir, 'guide/setup.txt', 'install the tools, then the hooks\n');
    await s.t.call('POST', '/library/files', {
      key,
      raw: Buffer.from('install the tools, then the hooks\n'),
      headers: {
        'x-file-name': encodeURIComponent('setup.txt'),
        'content-type': 'application/octet-stream',
      },
      query: { space, note: syncNote('docs', 'guide/setup.txt') },
    });
    await resetStats();
    const r = await sync(dir, ['--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(ndjson(r.stdout).find((l) => l.path === 'guide/setup.txt')).toMatchObject({
      status: 'replaced',
      previous: [old.id],
    });
    expect((await requests()).uploadFile ?? 0).toBe(0);
    expect((await library()).some((i) => i.id === old.id)).toBe(false);
  });

  it('a removed file: kept without --delete (said, exit 0); --delete without --yes and no terminal: exit 2 before any request; with --yes: deleted', async () => {
    const dir = folder(DOCS);
    await sync(dir);
    const gone = (await byName()).get('guide/setup.txt')!;
    unlinkSync(join(dir, 'guide/setup.txt'));

    const kept = await sync(dir);
    expect(kept.code, kept.stderr).toBe(0);
    expect(rows(kept.stdout).find((row) => row[1] === 'guide/setup.txt')).toEqual([
      'kept',
      'guide/setup.txt',
      gone.id,
      '',
    ]);
    expect(kept.stderr).toMatch(/1 item of files no longer in .* kept: --delete deletes them/);
    expect((await library()).some((i) => i.id === gone.id)).toBe(true);

    await resetStats();
    const refused = await sync(dir, ['--delete']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--delete deletes library items: without a terminal to ask on, it needs --yes/);
    expect(await requests()).toEqual({});

    const deleted = await sync(dir, ['--delete', '--yes']);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(rows(deleted.stdout).find((row) => row[1] === 'guide/setup.txt')).toEqual([
      'deleted',
      'guide/setup.txt',
      gone.id,
      '',
    ]);
    expect(countLine(deleted.stderr)).toMatch(/^0 uploaded, 0 replaced, 1 deleted, 2 unchanged, 0 failed/);
    expect((await library()).some((i) => i.id === gone.id)).toBe(false);
  });

  it('on a terminal --delete asks first: answering no deletes nothing (exit 1, nothing sent), yes deletes', async () => {
    const dir = folder(DOCS);
    await sync(dir);
    unlinkSync(join(dir, 'README.md'));
    await resetStats();
    const no = await sync(dir, ['--delete'], { tty: true, answers: [false] });
    expect(no.code).toBe(1);
    expect(no.prompts).toEqual([
      expect.stringMatching(/^Delete 1 library item whose file is no longer in .*docs\? This cannot be undone\.$/),
    ]);
    expect((await requests()).deleteLibraryItem ?? 0).toBe(0);
    expect((await library()).length).toBe(3);
    const yes = await sync(dir, ['--delete'], { tty: true, answers: [true] });
    expect(yes.code, yes.stderr).toBe(0);
    expect(plain(yes.stdout)).toMatch(/- deleted README\.md \(li_/);
    expect((await library()).length).toBe(2);
  });

  it('--max-deletes: a run that would delete more is refused before anything is sent (exit 1); at the limit it goes', async () => {
    const dir = folder({ ...DOCS, 'a.md': '# a\n', 'b.md': '# b\n' });
    await sync(dir);
    for (const name of ['a.md', 'b.md', 'README.md']) unlinkSync(join(dir, name));
    write(dir, 'new.md', '# new\n');
    await resetStats();
    const over = await sync(dir, ['--delete', '--yes', '--max-deletes', '2', '--json']);
    expect(over.code).toBe(1);
    expect(JSON.parse(over.stderr.trimEnd().split('\n').pop()!).error).toMatchObject({
      code: 'TOO_MANY_DELETES',
      message: expect.stringMatching(/would delete 3 items, more than --max-deletes 2/),
    });
    const sent = await requests();
    expect(sent.uploadFile ?? 0).toBe(0);
    expect(sent.deleteLibraryItem ?? 0).toBe(0);
    expect((await library()).length).toBe(5);
    const dry = await sync(dir, ['--delete', '--max-deletes', '2', '--dry-run']);
    expect(dry.code).toBe(1);
    const at = await sync(dir, ['--delete', '--yes', '--max-deletes', '3']);
    expect(at.code, at.stderr).toBe(0);
    expect(countLine(at.stderr)).toMatch(/^1 uploaded, 0 replaced, 3 deleted, 2 unchanged, 0 failed/);
  });

  it('items that did not come from the folder are never touched: plain uploads, another prefix, the same prefix in another space, links', async () => {
    const dir = folder(DOCS);
    const other = folder({ 'README.md': '# Other project\n' });
    expect((await kagent(['lib', 'sync', other, '--space', 'Handbook', '--prefix', 'site'])).code).toBe(0);
    const plain = folder({ 'README.md': '# A README uploaded by hand\n' });
    expect((await kagent(['lib', 'upload', join(plain, 'README.md'), '--space', 'Handbook'])).code).toBe(0);
    await s.t.call('POST', '/spaces', { key, body: { name: 'Elsewhere' } });
    expect(
      (await kagent(['lib', 'sync', folder({ 'gone.md': '# in another space\n' }), '--space', 'Elsewhere'])).code,
    ).toBe(0);
    await s.t.call('POST', '/library', { key, body: { url: 'https://example.com/page', spaceId: space } });
    const foreign = (await library()).map((i) => i.id);

    await sync(dir);
    unlinkSync(join(dir, 'README.md'));
    write(dir, 'guide/intro.md', '# Intro, changed\n');
    const r = await sync(dir, ['--delete', '--yes', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(
      ndjson(r.stdout)
        .map((l) => [l.path, l.status])
        .sort(),
    ).toEqual([
      ['README.md', 'deleted'],
      ['guide/intro.md', 'replaced'],
      ['guide/setup.txt', 'unchanged'],
    ]);
    const ids = new Set(
      (await s.t.call('GET', '/library', { key, query: { limit: 200 } })).body.items.map((i: { id: string }) => i.id),
    );
    for (const id of foreign) expect(ids.has(id)).toBe(true);
  });

  it('a file with the bytes of an item already in the space (another file of the folder, or a plain upload): unchanged, and never deleted while a file has its bytes', async () => {
    const dir = folder({ 'a.md': '# same\n', 'b.md': '# same\n', 'c.md': '# by hand too\n' });
    const plain = folder({ 'c.md': '# by hand too\n' });
    await kagent(['lib', 'upload', join(plain, 'c.md'), '--space', 'Handbook']);
    // One at a time, so that a.md is the one sent first (b.md then meets its bytes).
    const first = await sync(dir, ['--json', '--concurrency', '1']);
    expect(first.code, first.stderr).toBe(0);
    expect(
      ndjson(first.stdout)
        .map((l) => [l.path, l.status])
        .sort(),
    ).toEqual([
      ['a.md', 'uploaded'],
      ['b.md', 'unchanged'],
      ['c.md', 'unchanged'],
    ]);
    await resetStats();
    const again = await sync(dir, ['--verbose']);
    expect(rows(again.stdout).map((row) => row[0])).toEqual(['unchanged', 'unchanged', 'unchanged']);
    expect((await requests()).uploadFile ?? 0).toBe(0);
    // a.md goes: its item holds b.md's bytes, so without --delete it stays, named a.
    unlinkSync(join(dir, 'a.md'));
    const kept = await sync(dir, ['--json']);
    expect(kept.code, kept.stderr).toBe(0);
    expect(ndjson(kept.stdout).find((l) => l.path === 'a.md')).toMatchObject({
      status: 'kept',
      reason: 'its bytes are those of b.md',
    });
    // With --delete, a.md's item goes and b.md goes up under its own name (its title shows b).
    const removed = await sync(dir, ['--delete', '--yes', '--json']);
    expect(removed.code, removed.stdout + removed.stderr).toBe(0);
    expect(ndjson(removed.stdout).map((l) => [l.path, l.status])).toEqual([
      ['c.md', 'unchanged'],
      ['a.md', 'deleted'],
      ['b.md', 'uploaded'],
    ]);
    expect((await byName()).get('b.md')?.fileName).toBe('b.md');
    expect((await library()).length).toBe(2);
  });

  it('a service whose listing gives no notes: uploads go, nothing is deleted, the run says so; with --delete exit 1', async () => {
    const dir = folder(DOCS);
    await sync(dir);
    await hide(['note']);
    write(dir, 'README.md', '# Handbook\n\nChanged.\n');
    unlinkSync(join(dir, 'guide/setup.txt'));
    await resetStats();
    const r = await sync(dir, ['--delete', '--yes', '--json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /warning: nothing was deleted: the library listing does not give items' notes \(note\), so kagent cannot tell which items came from/,
    );
    expect(JSON.parse(r.stderr.trimEnd().split('\n').pop()!).error.code).toBe('MAPPING_UNAVAILABLE');
    expect((await requests()).deleteLibraryItem ?? 0).toBe(0);
    expect((await requests()).uploadFile).toBe(1);
    await hide([]);
    expect((await library()).map((i) => pathOfNote('docs', i.note ?? '')).sort()).toEqual([
      'README.md',
      'README.md',
      'guide/intro.md',
      'guide/setup.txt',
    ]);
    // The sandbox's setting: a list of field names, never the id.
    await expect(hide(['id'])).rejects.toThrow(/400.*hideFields/);
    await expect(s.t.patchAccount(accountId, { hideFields: 'fileName' })).rejects.toThrow(/400/);
    // Without --delete: the same warning, exit 0.
    await hide(['note']);
    const plain = await sync(dir);
    expect(plain.code).toBe(0);
    expect(plain.stderr).toMatch(/warning: nothing was deleted/);
  });

  it('an empty space (the listing cannot tell) and upload answers without the note: nothing deleted, said', async () => {
    const dir = folder({ 'x.md': '# x\n' });
    await hide(['note']);
    const r = await sync(dir, ['--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/nothing was deleted: the service does not give uploaded items' notes \(note\)/);
  });

  it('GITHUB_ACTIONS: nothing deletable for want of notes is a ::warning for the run and a note in the step summary', async () => {
    const dir = folder({ 'x.md': '# x\n' });
    const summary = join(tempDir('kagent-sync-ci-'), 'summary.md');
    dirs.push(join(summary, '..'));
    await hide(['note']);
    try {
      const r = await sync(dir, [], { env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } });
      expect(r.code, r.stderr).toBe(0);
      const why =
        "the service does not give uploaded items' notes \\(note\\), so kagent cannot tell which items came from";
      expect(r.stderr.split('\n').filter((line) => line.startsWith('::'))).toEqual([
        expect.stringMatching(new RegExp(`^::warning title=kagent lib sync deleted nothing::${why} \\S*docs$`)),
      ]);
      expect(readFileSync(summary, 'utf8')).toMatch(
        new RegExp(
          `^### kagent lib sync\n\n1 uploaded, [^\n]*\n\n> kagent lib sync deleted nothing: ${why} \\S*docs\\.\n`,
        ),
      );
    } finally {
      await hide([]);
    }
  });

  it('a file name the service trims (a trailing space): the note still records the path, so the next run finds it unchanged', async () => {
    const dir = folder({ 'a.md ': '# a with a trailing space in its name\n', 'b.md': '# b\n' });
    const r = await sync(dir, ['--delete', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    await resetStats();
    const again = await sync(dir, ['--delete', '--yes', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(ndjson(again.stdout).map((l) => [l.path, l.status])).toEqual([
      ['a.md ', 'unchanged'],
      ['b.md', 'unchanged'],
    ]);
    expect((await requests()).deleteLibraryItem ?? 0).toBe(0);
    expect(await library()).toHaveLength(2);
  });

  it('a service whose listing gives no SHA-256: every file is sent, the service recognises the unchanged ones (nothing added), a changed one is replaced', async () => {
    const dir = folder(DOCS);
    await sync(dir);
    await hide(['sha256']);
    write(dir, 'guide/intro.md', '# Intro\n\nNew.\n');
    const old = (await byName()).get('guide/intro.md')!;
    await resetStats();
    const r = await sync(dir, ['--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(
      ndjson(r.stdout)
        .map((l) => [l.path, l.status])
        .sort(),
    ).toEqual([
      ['README.md', 'unchanged'],
      ['guide/intro.md', 'replaced'],
      ['guide/setup.txt', 'unchanged'],
    ]);
    expect((await requests()).uploadFile).toBe(3);
    const items = await library();
    expect(items).toHaveLength(3);
    expect(items.some((i) => i.id === old.id)).toBe(false);
  });

  it("--dry-run sends only reads and prints the plan: actions, bytes, write requests and the time at the profile's rate", async () => {
    const dir = folder({ ...DOCS, 'old.md': '# old\n' });
    await sync(dir);
    write(dir, 'README.md', '# Handbook\n\nChanged, longer now.\n');
    write(dir, 'new.md', '# new\n');
    unlinkSync(join(dir, 'old.md'));
    const before = await library();
    await resetStats();
    await writeProfile(s.configDir, 'slow', { baseUrl: s.t.baseUrl, apiKey: key, rateLimit: 30 }, {});
    const r = await sync(dir, ['--dry-run', '--delete', '-p', 'slow', '--verbose']);
    expect(r.code, r.stderr).toBe(0);
    const plan = rows(r.stdout);
    expect(plan.map((row) => [row[0], row[1]]).sort()).toEqual([
      ['delete', 'old.md'],
      ['replace', 'README.md'],
      ['unchanged', 'guide/intro.md'],
      ['unchanged', 'guide/setup.txt'],
      ['upload', 'new.md'],
    ]);
    expect(r.stderr).toMatch(
      /Dry run, nothing sent: 1 to upload, 1 to replace, 1 to delete, 2 unchanged, 0 kept, 0 would fail; \d+ B in 4 write requests, 8 s at 30 requests a minute \(after 1 listing request\)/,
    );
    const sent = await requests();
    expect(Object.keys(sent).every((op) => ['listLibrary', 'listSpaces', 'getMe'].includes(op))).toBe(true);
    expect(await library()).toEqual(before);
    const json = await sync(dir, ['--dry-run', '--json']);
    expect(ndjson(json.stdout).find((l) => l.path === 'old.md')).toMatchObject({
      status: 'keep',
      reason: expect.stringMatching(/--delete/),
    });
  });

  it('terminal: a line per change, unchanged files only in the count; --quiet drops the count line', async () => {
    const dir = folder(DOCS);
    const first = await sync(dir, [], { tty: true });
    expect(first.code).toBe(0);
    expect(plain(first.stdout)).toMatch(/✓ uploaded guide\/intro\.md → li_\w+ \(\d+ B\)/);
    write(dir, 'README.md', 'changed\n');
    const second = await sync(dir, [], { tty: true });
    expect(plain(second.stdout).trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^↻ replaced README\.md → li_\w+ \(was li_\w+\)$/),
    ]);
    expect(plain(second.stderr)).toMatch(/0 uploaded, 1 replaced, 0 deleted, 2 unchanged, 0 failed/);
    const quiet = await sync(dir, ['--quiet']);
    expect(countLine(quiet.stderr)).toBeUndefined();
  });

  it('GITHUB_ACTIONS: a hostile file name reaches neither the log nor the summary raw', async () => {
    const hostile = 'evil\x1b]8;;https://evil.example\x07[Click](https:,evil.example)<img src=x>\u202e.bin';
    const dir = folder({ ...DOCS, [hostile]: '\x00\x01\x02binary' });
    const summary = join(tempDir('kagent-sync-ci-'), 'summary.md');
    dirs.push(join(summary, '..'));
    const r = await sync(dir, [], { env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } });
    expect(r.code).toBe(2);
    const annotations = r.stderr.split('\n').filter((l) => l.startsWith('::'));
    expect(annotations).toHaveLength(1);
    expect(annotations[0]).not.toMatch(/[\x00-\x1f\x7f\u202e]/);
    // The file property's own , and : are escaped: the name cannot add properties.
    expect(annotations[0]).toMatch(/^::error file=[^,:]*%2C[^:]*,title=sync failed \(UNSUPPORTED_TYPE\)::/);
    const md = readFileSync(summary, 'utf8');
    expect(md).not.toMatch(/[\x00-\x08\x0b-\x1f\u202e]/);
    const row = md.split('\n').find((line) => line.startsWith('| ❌ failed')) as string;
    // The name is one code span: [Click](…) and <img> inside it are not a link or an image.
    expect(row).toMatch(/^\| ❌ failed \| `[^`]*\[Click\]\(https:,evil\.example\)<img src=x>[^`]*` \|/);
  });

  it('GITHUB_ACTIONS: a table in the step summary, an ::error per failed file; --report writes JUnit with a case per line', async () => {
    const dir = folder({ ...DOCS, 'tool.bin': '\x00\x01\x02binary' });
    const summary = join(tempDir('kagent-sync-ci-'), 'summary.md');
    dirs.push(join(summary, '..'));
    const report = join(summary, '..', 'report.xml');
    const r = await sync(dir, ['--report', report], { env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } });
    expect(r.code).toBe(2);
    const md = readFileSync(summary, 'utf8');
    expect(md).toMatch(/^### kagent lib sync\n\n3 uploaded, 0 replaced, 0 deleted, 0 unchanged, 1 failed\n/);
    // Service words are text in the summary (escaped only where Markdown would read them), file names code spans.
    expect(md).toMatch(
      /\| ❌ failed \| `tool\.bin` \| {2}\| UNSUPPORTED_TYPE: \S*tool\.bin is binary content \(NUL bytes\); /,
    );
    expect(r.stderr.split('\n').filter((l) => l.startsWith('::'))).toEqual([
      expect.stringMatching(/^::error file=.*docs\/tool\.bin,title=sync failed \(UNSUPPORTED_TYPE\)::/),
    ]);
    const xml = readFileSync(report, 'utf8');
    expect(xml).toMatch(/<testsuites name="kagent lib sync" tests="4" failures="1" errors="0" time=/);
    expect(xml).toMatch(/<testsuite name="kagent lib sync" tests="4" failures="1" errors="0" skipped="0" time=/);
    const lint = await xmllint(xml);
    expect(lint.output).toContain('report.xml validates');
    expect(lint.valid).toBe(true);
    expect(xml).toMatch(/<testcase name="guide\/intro\.md" classname="kagent\.lib\.sync"/);
  });

  it('GITHUB_ACTIONS: a refusal of the whole run is an ::error annotation and a line in the step summary', async () => {
    const dir = folder(DOCS);
    const summary = join(tempDir('kagent-sync-ci-'), 'summary.md');
    dirs.push(join(summary, '..'));
    const env = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary };
    const r = await sync(dir, ['--delete'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^::error title=kagent lib sync refused \(USAGE\)::--delete deletes library items/m);
    expect(readFileSync(summary, 'utf8')).toMatch(/^### kagent lib sync\n\n❌ Refused \(`USAGE`\): --delete deletes/);
    expect((await sync(dir)).code).toBe(0);
    unlinkSync(join(dir, 'README.md'));
    unlinkSync(join(dir, 'guide/setup.txt'));
    writeFileSync(summary, '');
    const many = await sync(dir, ['--delete', '--yes', '--max-deletes', '1'], { env });
    expect(many.code).toBe(1);
    expect(many.stderr).toMatch(/^::error title=kagent lib sync refused \(TOO_MANY_DELETES\)::/m);
    expect(readFileSync(summary, 'utf8')).toContain('❌ Refused (`TOO_MANY_DELETES`)');
  });

  it('bad input is refused (exit 2) and nothing is written: no space, no folder, a file, an empty folder, a bad prefix or number', async () => {
    const dir = folder(DOCS);
    const empty = tempDir('kagent-sync-empty-');
    dirs.push(empty);
    const cases: Array<[string[], RegExp]> = [
      [['lib', 'sync', dir], /sync needs a space: pass --space/],
      [['lib', 'sync', join(dir, 'nope'), '--space', 'Handbook'], /no such folder: /],
      [['lib', 'sync', join(dir, 'README.md'), '--space', 'Handbook'], /is not a folder: sync takes a folder/],
      [['lib', 'sync', empty, '--space', 'Handbook'], /no files in folder/],
      [['lib', 'sync', dir, '--space', 'Handbook', '--prefix', ' '], /--prefix is empty/],
      [['lib', 'sync', dir, '--space', 'Handbook', '--max-deletes', '-1'], /--max-deletes/],
      [['lib', 'sync', dir, '--space', 'x'.repeat(81)], /--space/],
    ];
    for (const [argv, message] of cases) {
      await resetStats();
      const r = await kagent(argv);
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(message);
      expect((await requests()).uploadFile ?? 0).toBe(0);
    }
    // The empty folder's hint speaks of sync: naming hidden files is what `lib upload` does, not sync.
    const hidden = tempDir('kagent-sync-hidden-');
    dirs.push(hidden);
    writeFileSync(join(hidden, '.notes.md'), 'hidden');
    const r = await kagent(['lib', 'sync', hidden, '--space', 'Handbook']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`no files in folder ${hidden}`);
    expect(r.stderr).toMatch(/hint: hidden files and folders .* are never synced; lib upload takes a hidden file/);
    expect(r.stderr).not.toContain('name them to upload them');
    const noSpace = await kagent(['lib', 'sync', dir, '--space', 'Nowhere']);
    expect(noSpace.code).toBe(4);
  });

  it('no API key: exit 3 before anything is read', async () => {
    const dir = folder(DOCS);
    const r = await sync(dir, [], { env: { KAGENT_API_KEY: undefined }, configDir: tempDir('kagent-empty-config-') });
    expect(r.code).toBe(3);
  });
});
