// `doc push` of several files and of a directory pulled with `doc pull --all`,
// against the sandbox over loopback HTTP: one row per file, unchanged files cost
// no request (the sandbox's request counts), a failure said by name with the
// others still pushed (exit 1, nothing lost), a conflict written into its file
// (exit 5), and a directory with no pulled files refused (exit 2).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDoc as createDocOn, dir, getDoc, kagent, key, s, useDocSandbox } from '../helpers/doc-sandbox.js';

useDocSandbox('kagent-pushmany-');

const createDoc = async (title: string, markdown: string) => (await createDocOn({ title, markdown })).id;
const resetStats = () => s.t.call('DELETE', '/_sandbox/stats', { key: null });
const requests = async (): Promise<Record<string, number>> =>
  (await s.t.call('GET', '/_sandbox/stats', { key: null })).body.requests;

/** Five documents pulled with --all into DIR/mirror: their ids by file name. */
async function mirror(): Promise<{ out: string; ids: Record<string, string> }> {
  const ids: Record<string, string> = {};
  for (let n = 1; n <= 5; n++)
    ids[`note-${n}.md`] = await createDoc(`note ${n}`, `# Note ${n}\n\nline one\n\nline two\n`);
  const out = join(dir, 'mirror');
  expect((await kagent(['doc', 'pull', '--all', '-o', `${out}/`])).code).toBe(0);
  return { out, ids };
}

describe('doc push DIR (pulled with --all)', () => {
  it('pushes the changed files, sends nothing for the unchanged ones, one row each', async () => {
    const { out, ids } = await mirror();
    writeFileSync(join(out, 'note-2.md'), '# Note 2\n\nline one, edited\n\nline two\n');
    writeFileSync(join(out, 'note-4.md'), '# Note 4\n\nline one\n\nline two\n\nline three\n');
    await resetStats();
    const r = await kagent(['doc', 'push', out]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual(
      [1, 2, 3, 4, 5].map((n) => {
        const pushed = n === 2 || n === 4;
        return `${pushed ? 'pushed' : 'unchanged'}\t${ids[`note-${n}.md`]}\t${pushed ? 2 : 1}\t${join(out, `note-${n}.md`)}`;
      }),
    );
    // Two saves, and not one request for the three unchanged files.
    const sent = await requests();
    expect(Object.values(sent).reduce((a, b) => a + b, 0)).toBe(2);
    expect(sent.getDoc ?? 0).toBe(0);
    expect((await getDoc(ids['note-2.md']!)).body).toBe('# Note 2\n\nline one, edited\n\nline two\n');
    expect((await getDoc(ids['note-4.md']!)).revision).toBe(2);

    // Pushed again with nothing changed: nothing at all is sent.
    await resetStats();
    const again = await kagent(['doc', 'push', out, '--json']);
    expect(again.code).toBe(0);
    expect((JSON.parse(again.stdout) as Array<{ status: string }>).map((p) => p.status)).toEqual(
      new Array(5).fill('unchanged'),
    );
    expect(await requests()).toEqual({});
  });

  it('several FILEs: --json gives an array of rows', async () => {
    const { out, ids } = await mirror();
    const a = join(out, 'note-1.md');
    const b = join(out, 'note-3.md');
    writeFileSync(b, '# Note 3\n\nline one\n\nline two, edited\n');
    const r = await kagent(['doc', 'push', a, b, '--json']);
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout) as Array<{ id: string; file: string; status: string; revision: number }>;
    expect(rows.map((p) => [p.id, p.file, p.status, p.revision])).toEqual([
      [ids['note-1.md'], a, 'unchanged', 1],
      [ids['note-3.md'], b, 'pushed', 2],
    ]);
  });

  it('one file failing: said by name, the others still pushed, exit 1, nothing lost', async () => {
    const { out, ids } = await mirror();
    const gone = join(out, 'note-1.md');
    const fine = join(out, 'note-5.md');
    writeFileSync(gone, '# Note 1\n\nmy change to a deleted document\n');
    writeFileSync(fine, '# Note 5\n\nline one\n\nline two, edited\n');
    expect((await s.t.call('DELETE', `/docs/${ids['note-1.md']}`, { key })).status).toBeLessThan(300);
    const r = await kagent(['doc', 'push', out]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`failed\t${ids['note-1.md']}\t1\t${gone}`);
    expect(r.stdout).toContain(`pushed\t${ids['note-5.md']}\t2\t${fine}`);
    expect(r.stderr).toContain(`1 of 5 files could not be pushed (${gone})`);
    expect(readFileSync(gone, 'utf8')).toBe('# Note 1\n\nmy change to a deleted document\n');
    expect((await getDoc(ids['note-5.md']!)).body).toBe('# Note 5\n\nline one\n\nline two, edited\n');
  });

  it('a file not pulled among several is a failed row; the pulled ones still go (exit 1)', async () => {
    const { out, ids } = await mirror();
    const stray = join(dir, 'stray.md');
    writeFileSync(stray, 'never pulled\n');
    writeFileSync(join(out, 'note-2.md'), '# Note 2\n\nline one, edited\n\nline two\n');
    const r = await kagent(['doc', 'push', stray, join(out, 'note-2.md')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${stray} was not pulled`);
    expect(r.stdout).toContain(`pushed\t${ids['note-2.md']}\t2\t`);
  });

  it('a conflict is written into its file as for one file, the others pushed, exit 5', async () => {
    const { out, ids } = await mirror();
    const id = ids['note-3.md']!;
    await s.t.call('PATCH', `/docs/${id}`, {
      key,
      body: { body: '# Note 3\n\nline one, theirs\n\nline two\n', baseRevision: 1 },
    });
    writeFileSync(join(out, 'note-3.md'), '# Note 3\n\nline one, mine\n\nline two\n');
    writeFileSync(join(out, 'note-4.md'), '# Note 4\n\nline one\n\nline two, edited\n');
    const r = await kagent(['doc', 'push', out]);
    expect(r.code).toBe(5);
    expect(r.stdout).toContain(`conflict\t${id}\t2\t${join(out, 'note-3.md')}`);
    expect(r.stdout).toContain(`pushed\t${ids['note-4.md']}\t2\t`);
    expect(r.stderr).toContain('1 of 5 files conflicted');
    const merged = readFileSync(join(out, 'note-3.md'), 'utf8');
    expect(merged).toContain('<<<<<<<');
    expect(merged).toContain('line one, mine');
    expect(merged).toContain('line one, theirs');
    expect((await getDoc(id)).body).toBe('# Note 3\n\nline one, theirs\n\nline two\n');

    // Pushed again with the markers left: refused for that file (exit 1), nothing sent for it.
    const again = await kagent(['doc', 'push', out]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('still holds conflict markers');
  });

  it('a directory with no pulled files is refused before anything is sent (exit 2)', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    writeFileSync(join(empty, 'notes.md'), 'not pulled\n');
    await resetStats();
    const r = await kagent(['doc', 'push', empty]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${empty} holds no pulled files: nothing was sent`);
    expect(await requests()).toEqual({});
  });
});
