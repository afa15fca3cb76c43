// Files only where asked: every file name kagent makes from the service's data
// (a title, an id) is one safe segment inside the directory asked for, within
// the file system's limit counted in bytes; the state directory `.kagent` is
// never followed when it is a symbolic link. Against a service that answers
// with hostile ids and titles (test/helpers/doc-server.ts).
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cutToBytes, fileInside, NAME_MAX_BYTES, RESERVED_BYTES, safeFileName } from '../../src/io/file-name.js';
import { docServerFixture } from '../helpers/doc-server.js';
import { runCli } from '../helpers/run.js';

const fixture = docServerFixture();
const { scratch, serve } = fixture;

const kagent = (argv: string[]) =>
  runCli(argv, { env: { KAGENT_BASE_URL: fixture.server?.baseUrl, KAGENT_API_KEY: 'k_test' } });

/** Every path under `dir`, relative, sorted (links not followed). */
function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string, prefix: string) => {
    for (const name of readdirSync(at)) {
      const rel = prefix ? `${prefix}/${name}` : name;
      out.push(rel);
      if (lstatSync(join(at, name)).isDirectory()) walk(join(at, name), rel);
    }
  };
  walk(dir, '');
  return out.sort();
}

describe('safeFileName: a name from service data → one safe file name', () => {
  it('no separators, no dot-dot, no control characters, no leading dot or dash, no device names', () => {
    expect(safeFileName('../../../../x', { suffix: '.md' })).toBe('x.md');
    expect(safeFileName('..', { suffix: '.md', fallback: 'dc_1' })).toBe('dc_1.md');
    expect(safeFileName('.', { suffix: '.md' })).toBe('document.md');
    expect(safeFileName('a\\b/c', { suffix: '.md' })).toBe('a-b-c.md');
    expect(safeFileName('x\x00y\x1b[31m\nz\u202e', {})).toBe('x-y-[31m-z');
    expect(safeFileName('-rf', { suffix: '.md' })).toBe('rf.md');
    expect(safeFileName('.bashrc', {})).toBe('bashrc');
    expect(safeFileName('con', { suffix: '.md' })).toBe('con-.md');
    expect(safeFileName('', { suffix: '.md', fallback: '///' })).toBe('document.md');
  });

  it('at most 255 bytes less the room kept for temporary and sidecar names, cut between characters', () => {
    const cjk = '漢'.repeat(200); // 3 bytes each
    const name = safeFileName(cjk, { suffix: '.md' });
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(NAME_MAX_BYTES - RESERVED_BYTES);
    expect(name).toMatch(/^漢+\.md$/);
    // A 4-byte character is never cut in half (no U+FFFD, no lone surrogate).
    const emoji = safeFileName('😀'.repeat(100), { suffix: '.md' });
    expect(emoji).toMatch(/^(😀)+\.md$/u);
    expect(Buffer.from(emoji).toString('utf8')).toBe(emoji);
    expect(cutToBytes('a😀', 4)).toBe('a');
  });

  it('fileInside refuses a name that would leave the directory', () => {
    const dir = scratch();
    expect(fileInside(dir, 'x.md')).toBe(join(dir, 'x.md'));
    for (const bad of ['../x.md', '..', '.', 'a/b.md', '/etc/passwd'])
      expect(() => fileInside(dir, bad)).toThrow(/inside/);
  });
});

describe('doc pull: file names from the service stay inside the directory asked for', () => {
  it('an id like ../../../../x with a title that slugs to nothing: written inside -o DIR, nothing above it', async () => {
    await serve([{ id: '../../../../x', title: '!!!', body: '# hostile\n' }]);
    const root = scratch();
    const dir = join(root, 'a', 'b', 'c', 'd');
    mkdirSync(dir, { recursive: true });
    const r = await kagent(['doc', 'pull', '../../../../x', '-o', `${dir}/`]);
    // Piped: no ✓ line (that is for a terminal), nothing else on stderr either.
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'x.md'), 'utf8')).toBe('# hostile\n');
    // Nothing but a/b/c/d, the file and its sidecar.
    expect(tree(root)).toEqual([
      'a',
      'a/b',
      'a/b/c',
      'a/b/c/d',
      'a/b/c/d/.kagent',
      'a/b/c/d/.kagent/docs',
      'a/b/c/d/.kagent/docs/x.md.json',
      'a/b/c/d/x.md',
    ]);
  });

  it('--all: a title collision falls back on a hostile id, still inside DIR; control characters and backslashes never reach a name', async () => {
    await serve([
      { id: 'dc_1', title: 'Plan', body: 'one\n' },
      { id: '../../../escaped', title: 'Plan', body: 'two\n' },
      { id: 'dc_3', title: '\x1b]0;owned\x07\\..\\..\\boot.ini', body: 'three\n' },
      { id: '-rf', title: '', body: 'four\n' },
    ]);
    const root = scratch();
    const dir = join(root, 'out', 'docs');
    mkdirSync(dir, { recursive: true });
    const r = await kagent(['doc', 'pull', '--all', '-o', dir]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t'));
    const files = rows.map((row) => row[3] as string);
    for (const file of files) {
      expect(file.startsWith(`${dir}/`)).toBe(true);
      const name = file.slice(dir.length + 1);
      expect(name).not.toMatch(/[/\\\x00-\x1f\x7f]|^[.-]/);
    }
    expect(files).toEqual([
      join(dir, 'plan.md'),
      join(dir, 'plan-escaped.md'),
      join(dir, '0-owned-boot-ini.md'),
      join(dir, 'rf.md'),
    ]);
    expect(tree(root).filter((p) => !p.startsWith('out/docs/.kagent'))).toEqual([
      'out',
      'out/docs',
      'out/docs/0-owned-boot-ini.md',
      'out/docs/plan-escaped.md',
      'out/docs/plan.md',
      'out/docs/rf.md',
    ]);
    expect(readFileSync(join(dir, 'plan-escaped.md'), 'utf8')).toBe('two\n');
  });

  it('--all --force: ids that differ only in characters a name cannot hold never share a file', async () => {
    await serve([
      { id: '///', title: '', body: 'one\n' },
      { id: '\\\\', title: '', body: 'two\n' },
      { id: '/\\/', title: '', body: 'three\n' },
    ]);
    const dir = scratch();
    const r = await kagent(['doc', 'pull', '--all', '--force', '-o', dir]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const files = r.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t')[3]);
    expect(files).toEqual([join(dir, 'document.md'), join(dir, 'doc-document.md'), join(dir, 'doc-document-2.md')]);
    expect(files.map((file) => readFileSync(file as string, 'utf8'))).toEqual(['one\n', 'two\n', 'three\n']);
  });

  it('an 80-character CJK title: the name, its temporary and its sidecar fit in 255 bytes; pulled and pushable', async () => {
    const title = '知识代理的长标题'.repeat(10); // 80 characters, 240 bytes
    await serve([{ id: 'dc_cjk', title, body: '# 标题\n\n正文\n' }]);
    const dir = scratch();
    const r = await kagent(['doc', 'pull', 'dc_cjk', '-o', dir, '--json']);
    const file = JSON.parse(r.stdout).file as string;
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const name = file.slice(dir.length + 1);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(NAME_MAX_BYTES - RESERVED_BYTES);
    expect(name.startsWith('知识代理的长标题')).toBe(true);
    expect(existsSync(join(dir, '.kagent', 'docs', `${name}.json`))).toBe(true);
    // The sidecar is there: the file can be pushed.
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, '# 标题\n\n正文，改了\n');
    const pushed = await kagent(['doc', 'push', file]);
    expect(pushed.code).toBe(0);
    expect(fixture.server?.docs.get('dc_cjk')?.body).toBe('# 标题\n\n正文，改了\n');
  });
});

describe('the state directory .kagent is never followed when it is a symbolic link', () => {
  it('.kagent → elsewhere: the pull is refused (exit 1, UNSAFE_PATH) and nothing is written there', async () => {
    await serve([{ id: 'dc_1', title: 'Plan', body: 'one\n' }]);
    const dir = scratch();
    const elsewhere = scratch();
    symlinkSync(elsewhere, join(dir, '.kagent'));
    const r = await kagent(['doc', 'pull', 'dc_1', '-o', dir]);
    expect(r.stderr).toBe(
      `error: ${join(dir, '.kagent')} is a symbolic link: kagent keeps its state only in a real directory and does not follow it (UNSAFE_PATH)\nhint: remove the link (\`rm ${join(dir, '.kagent')}\`) and pull again, or pull into another directory\n`,
    );
    expect(r.code).toBe(1);
    expect(readdirSync(elsewhere)).toEqual([]);
    // Nothing written at all: no file left without its sidecar.
    expect(readdirSync(dir)).toEqual(['.kagent']);
  });

  it('--all into a directory whose .kagent is a link: one error, before any file is written', async () => {
    await serve([
      { id: 'dc_1', title: 'Plan', body: 'one\n' },
      { id: 'dc_2', title: 'Notes', body: 'two\n' },
    ]);
    const dir = scratch();
    const elsewhere = scratch();
    symlinkSync(elsewhere, join(dir, '.kagent'));
    const r = await kagent(['doc', 'pull', '--all', '-o', dir]);
    expect(r.stderr.split('\n')[0]).toBe(
      `error: ${join(dir, '.kagent')} is a symbolic link: kagent keeps its state only in a real directory and does not follow it (UNSAFE_PATH)`,
    );
    expect(r.code).toBe(1);
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(readdirSync(dir)).toEqual(['.kagent']);
  });

  it('.kagent/docs → elsewhere: refused as well; status and push do not read through it either', async () => {
    await serve([{ id: 'dc_1', title: 'Plan', body: 'one\n' }]);
    const dir = scratch();
    const elsewhere = scratch();
    expect((await kagent(['doc', 'pull', 'dc_1', '-o', dir])).code).toBe(0);
    // Someone swaps the docs directory for a link to a state of their own.
    rmSync(join(dir, '.kagent', 'docs'), { recursive: true });
    mkdirSync(join(elsewhere, 'docs'));
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      join(elsewhere, 'plan.md.json'),
      JSON.stringify({ id: 'dc_1', revision: 1, title: 'Plan', base: 'one\n' }),
    );
    symlinkSync(elsewhere, join(dir, '.kagent', 'docs'));
    writeFileSync(join(dir, 'plan.md'), 'one, changed\n');
    const push = await kagent(['doc', 'push', join(dir, 'plan.md')]);
    expect(push.stderr).toContain(`error: ${join(dir, '.kagent', 'docs')} is a symbolic link`);
    expect(push.code).toBe(1);
    const status = await kagent(['doc', 'status', dir]);
    expect(status.code).toBe(1);
    expect(fixture.server?.docs.get('dc_1')?.revision).toBe(1);
  });
});
