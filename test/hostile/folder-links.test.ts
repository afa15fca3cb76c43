// What a folder may send: a symbolic link in it that leads to kagent's own
// config (the API key) or to a file outside the folder is never uploaded by
// `lib upload DIR` or `lib sync DIR`, and each is said on stderr; a dangling
// link and a link loop are said too, and never hang the walk. --follow-symlinks
// follows links out (never to kagent's own files); --exclude/--include choose
// files as `aws s3 sync` does, and a file left out keeps its item under --delete.
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dirs, kagent, key, s, useLibSandbox } from '../helpers/lib-sandbox.js';
import { tempDir } from '../helpers/run.js';

useLibSandbox(async () => {
  await s.t.call('POST', '/spaces', { key, body: { name: 'S' } });
});

/** The file names of the account's library (what was uploaded). */
async function uploaded(): Promise<string[]> {
  const items = (await s.t.call('GET', '/library', { key, query: { kind: 'file', limit: 200 }, validate: false })).body
    .items as Array<{ fileName?: string }>;
  return items.map((item) => item.fileName ?? '').sort();
}

/** A folder `docs` with one real file, a link to kagent's config, one to a file outside, one dangling, one loop. */
function hostileFolder(): { dir: string; outside: string } {
  const root = tempDir('kagent-links-');
  dirs.push(root);
  const dir = join(root, 'docs');
  mkdirSync(dir);
  writeFileSync(join(dir, 'real.md'), '# Real\n');
  const outside = join(root, 'secret.txt');
  writeFileSync(outside, 'outside the folder\n');
  symlinkSync(join(s.configDir, 'config.json'), join(dir, 'notes.md'));
  symlinkSync(outside, join(dir, 'other.txt'));
  symlinkSync(join(root, 'nowhere.md'), join(dir, 'dangling.md'));
  symlinkSync(join(dir, 'loop-b'), join(dir, 'loop-a'));
  symlinkSync(join(dir, 'loop-a'), join(dir, 'loop-b'));
  return { dir, outside };
}

describe.each([
  ['lib upload', (dir: string, extra: string[] = []) => ['lib', 'upload', dir, '--space', 'S', ...extra]],
  ['lib sync', (dir: string, extra: string[] = []) => ['lib', 'sync', dir, '--space', 'S', ...extra]],
])('%s DIR', (_verb, argv) => {
  it("neither kagent's config nor a file outside DIR is uploaded; each link skipped is said, with its reason", async () => {
    const { dir } = hostileFolder();
    const r = await kagent(argv(dir));
    expect(r.stderr).toMatch(/skipped \S*docs\/notes\.md: a file of kagent's own config .*\(KAGENT_OWN_FILE\)/);
    expect(r.stderr).toMatch(
      /skipped \S*docs\/other\.txt: a symbolic link to a file outside the folder.*--follow-symlinks/,
    );
    expect(r.stderr).toMatch(/skipped \S*docs\/dangling\.md: a symbolic link to nothing/);
    expect(r.stderr).toMatch(/skipped \S*docs\/loop-a: a symbolic link loop/);
    expect(r.code, r.stderr).toBe(0);
    const names = await uploaded();
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/real\.md$/);
    expect(JSON.stringify(names)).not.toMatch(/notes|other|api|secret/);
  });

  it("--follow-symlinks follows the link out of DIR, and still never sends kagent's config", async () => {
    const { dir } = hostileFolder();
    const r = await kagent(argv(dir, ['--follow-symlinks']));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/skipped \S*docs\/notes\.md: .*KAGENT_OWN_FILE/);
    const names = await uploaded();
    expect(names.some((n) => /other\.txt$/.test(n))).toBe(true);
    expect(names.some((n) => /notes\.md$/.test(n))).toBe(false);
  });

  it('--follow-symlinks through a folder link that loops back ends, each real folder walked once', async () => {
    const root = tempDir('kagent-links-');
    dirs.push(root);
    const dir = join(root, 'docs');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    writeFileSync(join(dir, 'sub', 'a.md'), '# A\n');
    symlinkSync(dir, join(dir, 'sub', 'up'));
    const r = await kagent(argv(dir, ['--follow-symlinks']));
    expect(r.code, r.stderr).toBe(0);
    expect(await uploaded()).toHaveLength(1);
  });

  it('--exclude and --include: the later pattern wins; how many were left out is said', async () => {
    const root = tempDir('kagent-filter-');
    dirs.push(root);
    const dir = join(root, 'docs');
    mkdirSync(join(dir, 'drafts'), { recursive: true });
    writeFileSync(join(dir, 'a.md'), '# A\n');
    writeFileSync(join(dir, 'b.txt'), 'b\n');
    writeFileSync(join(dir, 'drafts', 'c.md'), '# C\n');
    writeFileSync(join(dir, 'drafts', 'keep.md'), '# Keep\n');
    const r = await kagent(argv(dir, ['--exclude', '*.txt', '--exclude', 'drafts/**', '--include', 'drafts/keep.md']));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      '2 files left out by --exclude "*.txt" --exclude "drafts/**" --include "drafts/keep.md"',
    );
    const names = await uploaded();
    expect(names).toHaveLength(2);
    expect(names.some((n) => /a\.md$/.test(n))).toBe(true);
    expect(names.some((n) => /keep\.md$/.test(n))).toBe(true);
  });

  it('a FIFO, a socket and a link to a device in DIR are skipped and said, never opened (no wait for a writer)', async () => {
    const root = tempDir('kagent-links-');
    dirs.push(root);
    const dir = join(root, 'docs');
    mkdirSync(dir);
    writeFileSync(join(dir, 'real.md'), '# Real\n');
    execFileSync('mkfifo', [join(dir, 'pipe.md')]);
    const socket = createServer().listen(join(dir, 'sock.md'));
    await once(socket, 'listening');
    symlinkSync('/dev/zero', join(dir, 'zero.md'));
    try {
      const r = await kagent(argv(dir, ['--follow-symlinks', '--exclude', 'sock.md']));
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/skipped \S*docs\/pipe\.md: not a plain file \(a FIFO, socket or device\)/);
      expect(r.stderr).toMatch(/skipped \S*docs\/zero\.md: not a plain file/);
      // Left out by --exclude: counted, not reported as a skipped special file.
      expect(r.stderr).not.toMatch(/sock\.md: not a plain file/);
      const names = await uploaded();
      expect(names).toHaveLength(1);
      expect(names[0]).toMatch(/real\.md$/);
    } finally {
      socket.close();
    }
  });

  it('a folder whose every file is skipped is a usage error that names them (exit 2), nothing sent', async () => {
    const root = tempDir('kagent-links-');
    dirs.push(root);
    const dir = join(root, 'docs');
    mkdirSync(dir);
    symlinkSync(join(s.configDir, 'config.json'), join(dir, 'notes.md'));
    const r = await kagent(argv(dir));
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/no file to send in folder .*notes\.md \(KAGENT_OWN_FILE\)/);
    expect(await uploaded()).toEqual([]);
  });
});

it("lib upload of kagent's config named directly is refused (exit 2, KAGENT_OWN_FILE), nothing sent", async () => {
  const r = await kagent(['lib', 'upload', join(s.configDir, 'config.json'), '--space', 'S']);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout + r.stderr).toContain('KAGENT_OWN_FILE');
  expect(await uploaded()).toEqual([]);
});

it('lib sync --delete: the item of a file now left out by --exclude stays', async () => {
  const root = tempDir('kagent-filter-');
  dirs.push(root);
  const dir = join(root, 'docs');
  mkdirSync(dir);
  writeFileSync(join(dir, 'a.md'), '# A\n');
  writeFileSync(join(dir, 'b.md'), '# B\n');
  expect((await kagent(['lib', 'sync', dir, '--space', 'S'])).code).toBe(0);
  const r = await kagent(['lib', 'sync', dir, '--space', 'S', '--delete', '--yes', '--exclude', 'b.md']);
  expect(r.code, r.stderr).toBe(0);
  expect(await uploaded()).toHaveLength(2);
});
