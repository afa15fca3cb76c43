// Documents as files: `doc pull`, `doc push` and `doc status` against the
// sandbox over loopback HTTP — round trips with no conflict, a concurrent save
// merged cleanly, a conflicting one written into the file with markers and
// nothing sent (exit 5), `doc status` in every state, a 500,000-character
// document, `pull --space S --all -o DIR`, and the error paths (exit codes 2,
// 4, 5). Also the edits a push sends (planPush) and the merge (merge3).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { EditOp } from '../../src/api/shapes.js';
import { merge3, planPush } from '../../src/docsync/text.js';
import { createDoc, dir, getDoc, kagent, key, s, useDocSandbox } from '../helpers/doc-sandbox.js';
import { runCli } from '../helpers/run.js';
import { tinyServer } from '../helpers/tiny-server.js';

useDocSandbox('kagent-docsync-');

const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');
/** Someone else saves (another client): the whole body, on the revision given. */
async function saveElsewhere(id: string, body: string, baseRevision: number): Promise<void> {
  const res = await s.t.call('PATCH', `/docs/${id}`, { key, body: { body, baseRevision } });
  expect(res.status).toBe(200);
}
const resetStats = () => s.t.call('DELETE', '/_sandbox/stats', { key: null });
const requests = async (): Promise<Record<string, number>> =>
  (await s.t.call('GET', '/_sandbox/stats', { key: null })).body.requests;
const sidecar = (file: string) =>
  JSON.parse(readFileSync(join(file, '..', '.kagent', 'docs', `${file.split('/').pop()}.json`), 'utf8'));

const BODY = `# Plan\n\nStatus: draft\n\n## Steps\n\n- one\n- two\n\n## Background\n\n${'A paragraph of context that neither side changes, long enough that two small edits cost less than the whole text. '.repeat(3)}\n\n## Notes\n\nNothing yet.\n`;

describe('doc pull', () => {
  it('writes the Markdown to <slug-of-title>.md in -o DIR and remembers id, revision and text beside it', async () => {
    const doc = await createDoc({ title: 'Road map: Q3 (draft)', markdown: BODY });
    const r = await kagent(['doc', 'pull', doc.id, '-o', `${dir}/`]);
    expect(r.code).toBe(0);
    const file = join(dir, 'road-map-q3-draft.md');
    expect(r.stdout).toBe(`pulled\t${doc.id}\t1\t${file}\n`);
    expect(readFileSync(file, 'utf8')).toBe(BODY);
    expect(sidecar(file)).toEqual({ id: doc.id, revision: 1, title: 'Road map: Q3 (draft)', base: BODY });
  });

  it('--json gives {id, title, revision, file, status}; -o FILE names the file', async () => {
    const doc = await createDoc({ title: 'Plan', markdown: BODY });
    const file = join(dir, 'mine.md');
    const r = await kagent(['doc', 'pull', doc.id, '-o', file, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: doc.id, title: 'Plan', revision: 1, file, status: 'pulled' });
  });

  it('refuses to overwrite a file it did not pull (exit 2) or one with changes not pushed (exit 5); --force overwrites', async () => {
    const doc = await createDoc({ title: 'Plan', markdown: BODY });
    const file = join(dir, 'plan.md');
    writeFileSync(file, 'my own notes\n');
    const foreign = await kagent(['doc', 'pull', doc.id, '-o', file]);
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toContain(`${file} exists and was not pulled from doc ${doc.id}; nothing was written`);
    expect(readFileSync(file, 'utf8')).toBe('my own notes\n');

    expect((await kagent(['doc', 'pull', doc.id, '-o', file, '--force'])).code).toBe(0);
    writeFileSync(file, `${BODY}more\n`);
    const changed = await kagent(['doc', 'pull', doc.id, '-o', file]);
    expect(changed.code).toBe(5);
    expect(changed.stderr).toContain('has changes not pushed yet; nothing was written');
    expect(readFileSync(file, 'utf8')).toBe(`${BODY}more\n`);
    // Unchanged since the pull: a new pull updates it.
    writeFileSync(file, BODY);
    await saveElsewhere(doc.id, `${BODY}theirs\n`, 1);
    expect((await kagent(['doc', 'pull', doc.id, '-o', file])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(`${BODY}theirs\n`);
    expect(sidecar(file).revision).toBe(2);
  });

  it('an unknown id is exit 4 and writes nothing; no id and no --all is exit 2', async () => {
    const r = await kagent(['doc', 'pull', 'dc_nope', '-o', join(dir, 'x.md')]);
    expect(r.code).toBe(4);
    expect(existsSync(join(dir, 'x.md'))).toBe(false);
    const none = await kagent(['doc', 'pull']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('which document?');
  });

  it('--space S --all -o DIR mirrors every document of the space; same titles get the id; changes not pushed are kept (exit 5)', async () => {
    const space = (await s.t.call('POST', '/spaces', { key, body: { name: 'Research' } })).body;
    const a = await createDoc({ title: 'Findings', markdown: 'A\n', spaceId: space.id });
    const b = await createDoc({ title: 'Findings', markdown: 'B\n', spaceId: space.id });
    await createDoc({ title: 'Elsewhere', markdown: 'C\n' });
    const out = join(dir, 'mirror');
    const r = await kagent(['doc', 'pull', '--space', 'Research', '--all', '-o', out, '--json']);
    expect(r.code).toBe(0);
    const pulled = JSON.parse(r.stdout) as Array<{ id: string; file: string; status: string }>;
    expect(pulled.map((p) => p.id).sort()).toEqual([a.id, b.id].sort());
    const files = pulled.map((p) => p.file).sort();
    expect(files).toEqual([join(out, 'findings.md'), join(out, `findings-${pulled[1]?.id}.md`)].sort());
    expect(existsSync(join(out, 'elsewhere.md'))).toBe(false);
    for (const p of pulled) expect(readFileSync(p.file, 'utf8')).toBe(p.id === a.id ? 'A\n' : 'B\n');

    const first = pulled[0] as { file: string };
    writeFileSync(first.file, 'changed here\n');
    const again = await kagent(['doc', 'pull', '--space', 'Research', '--all', '-o', out]);
    expect(again.code).toBe(5);
    expect(again.stdout).toContain(`kept\t`);
    expect(again.stderr).toContain('1 of 2 files kept');
    expect(readFileSync(first.file, 'utf8')).toBe('changed here\n');
  });
});

describe('requests: the list, not each document', () => {
  it('with 30 pulled documents, doc status and a second doc pull --all with nothing changed send no getDoc', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 30; n++) ids.push((await createDoc({ title: `note ${n}`, markdown: `note ${n}\n` })).id);
    const out = join(dir, 'all');
    await resetStats();
    const first = await kagent(['doc', 'pull', '--all', '-o', out, '--json']);
    expect(first.code).toBe(0);
    expect((JSON.parse(first.stdout) as Array<{ status: string }>).map((p) => p.status)).toEqual(
      new Array(30).fill('pulled'),
    );
    expect(await requests()).toEqual({ listDocs: 1, getDoc: 30 });

    await resetStats();
    const status = await kagent(['doc', 'status', out]);
    expect(status.code).toBe(0);
    expect(status.stdout.split('\n').filter((row) => row.startsWith('unchanged\t'))).toHaveLength(30);
    expect(await requests()).toEqual({ listDocs: 1 });

    // One changed on the service, one here: only the first is read again; the second is kept (exit 5).
    await saveElsewhere(ids[3] as string, 'note 3, changed there\n', 1);
    writeFileSync(join(out, 'note-7.md'), 'note 7, changed here\n');
    await resetStats();
    const again = await kagent(['doc', 'pull', '--all', '-o', out]);
    expect(again.code).toBe(5);
    expect(await requests()).toEqual({ listDocs: 1, getDoc: 1 });
    expect(readFileSync(join(out, 'note-3.md'), 'utf8')).toBe('note 3, changed there\n');
    expect(readFileSync(join(out, 'note-7.md'), 'utf8')).toBe('note 7, changed here\n');
    const rows = again.stdout.trim().split('\n');
    expect(rows.filter((row) => row.startsWith('unchanged\t'))).toHaveLength(28);
    expect(rows).toContain(`pulled\t${ids[3]}\t2\t${join(out, 'note-3.md')}`);
    expect(rows).toContain(`kept\t${ids[7]}\t1\t${join(out, 'note-7.md')}`);

    writeFileSync(join(out, 'note-7.md'), 'note 7\n');
    await resetStats();
    const quiet = await kagent(['doc', 'pull', '--all', '-o', out]);
    expect(quiet.code).toBe(0);
    expect(await requests()).toEqual({ listDocs: 1 });
  });

  it('doc status of one file reads that document alone; a document gone from a one-page list is deleted without asking again', async () => {
    const a = await createDoc({ title: 'a', markdown: 'a\n' });
    const b = await createDoc({ title: 'b', markdown: 'b\n' });
    for (const doc of [a, b]) expect((await kagent(['doc', 'pull', doc.id, '-o', `${dir}/`])).code).toBe(0);
    await resetStats();
    expect((await kagent(['doc', 'status', join(dir, 'a.md')])).code).toBe(0);
    expect(await requests()).toEqual({ getDoc: 1 });

    await s.t.call('DELETE', `/docs/${b.id}`, { key });
    await resetStats();
    const r = await kagent(['doc', 'status', dir]);
    expect(r.stdout).toBe(
      `unchanged\t${join(dir, 'a.md')}\t${a.id}\t1\t1\ndeleted-on-service\t${join(dir, 'b.md')}\t${b.id}\t1\t\n`,
    );
    expect(await requests()).toEqual({ listDocs: 1 });
  });
});

describe('doc push', () => {
  let id: string;
  let file: string;
  beforeEach(async () => {
    id = (await createDoc({ title: 'Plan', markdown: BODY })).id;
    file = join(dir, 'plan.md');
    expect((await kagent(['doc', 'pull', id, '-o', file])).code).toBe(0);
  });

  it('no conflict: the change goes as exact-match edits on the revision pulled; a second push sends nothing', async () => {
    writeFileSync(file, BODY.replace('Status: draft', 'Status: final').replace('Nothing yet.', 'Ship it.'));
    await resetStats();
    const r = await kagent(['doc', 'push', file], { tty: true });
    expect(r.code).toBe(0);
    expect(plain(r.stderr)).toContain(`✓ Pushed ${file}: doc ${id} is now at revision 2`);
    expect(await getDoc(id)).toMatchObject({
      revision: 2,
      body: BODY.replace('Status: draft', 'Status: final').replace('Nothing yet.', 'Ship it.'),
    });
    expect(await requests()).toMatchObject({ editDoc: 1 });
    expect((await requests()).updateDoc).toBeUndefined();
    expect(sidecar(file)).toMatchObject({ id, revision: 2 });

    await resetStats();
    const again = await kagent(['doc', 'push', file, '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ id, revision: 2, status: 'unchanged', edits: 0 });
    expect((await requests()).editDoc).toBeUndefined();
  });

  it('a concurrent save on other lines is merged cleanly: saved, said, and the file holds the merge', async () => {
    const theirs = BODY.replace('# Plan', '# Plan for Q3');
    await saveElsewhere(id, theirs, 1);
    writeFileSync(file, BODY.replace('- two\n', '- two\n- three\n'));
    const r = await kagent(['doc', 'push', file, '--json']);
    expect(r.code).toBe(0);
    const merged = theirs.replace('- two\n', '- two\n- three\n');
    expect(r.stderr).not.toContain('✓'); // piped: the merge is told in the JSON
    expect(JSON.parse(r.stdout)).toMatchObject({ id, revision: 3, status: 'pushed', mergedWith: 2, file });
    expect(await getDoc(id)).toMatchObject({ revision: 3, body: merged });
    expect(readFileSync(file, 'utf8')).toBe(merged);
    expect(sidecar(file)).toMatchObject({ revision: 3, base: merged });
  });

  it('a conflicting save: both sides written into the file with markers, nothing sent (exit 5); markers left in are refused; resolved, it pushes', async () => {
    const theirs = BODY.replace('Status: draft', 'Status: review').replace('Nothing yet.', 'Theirs.');
    await saveElsewhere(id, theirs, 1);
    writeFileSync(file, BODY.replace('Status: draft', 'Status: final').replace('Nothing yet.', 'Mine.'));
    await resetStats();
    const r = await kagent(['doc', 'push', file]);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain(
      `doc ${id} changed since revision 1 (now 2) and 2 hunks conflict with your changes; nothing was sent (MERGE_CONFLICT)`,
    );
    // One save was tried, on revision 1, and refused (REVISION_CONFLICT); the merge sent nothing.
    const tried = await requests();
    expect((tried.editDoc ?? 0) + (tried.updateDoc ?? 0)).toBe(1);
    expect(await getDoc(id)).toMatchObject({ revision: 2, body: theirs });
    const marked = readFileSync(file, 'utf8');
    expect(marked).toContain(
      `<<<<<<< ${file}\nStatus: final\n||||||| revision 1 (pulled)\nStatus: draft\n=======\nStatus: review\n>>>>>>> doc ${id} revision 2\n`,
    );
    expect(marked).toContain('<<<<<<< ');
    expect(marked.match(/^<<<<<<< /gm)).toHaveLength(2);

    const refused = await kagent(['doc', 'push', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('still holds conflict markers');
    // doc status calls it what it is (git's "unmerged"), not "changed locally".
    const status = await kagent(['doc', 'status', file]);
    expect(status.stdout).toBe(`conflict\t${file}\t${id}\t2\t2\n`);
    const shown = await kagent(['doc', 'status', file], { tty: true, columns: 160 });
    expect(plain(shown.stdout)).toContain('unmerged: conflict markers left (edit, then push)');

    const resolved = BODY.replace('Status: draft', 'Status: final').replace('Nothing yet.', 'Theirs. Mine.');
    writeFileSync(file, resolved);
    const pushed = await kagent(['doc', 'push', file]);
    expect(pushed.code).toBe(0);
    expect(await getDoc(id)).toMatchObject({ revision: 3, body: resolved });
  });

  it('a file never pulled, or gone, is exit 2; a document deleted meanwhile is exit 4', async () => {
    const other = join(dir, 'other.md');
    writeFileSync(other, 'x\n');
    const r = await kagent(['doc', 'push', other]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${other} was not pulled`);
    rmSync(file);
    expect((await kagent(['doc', 'push', file])).code).toBe(2);
    writeFileSync(file, 'changed\n');
    await s.t.call('DELETE', `/docs/${id}`, { key });
    expect((await kagent(['doc', 'push', file])).code).toBe(4);
  });

  it('a 500,000-character document: pull, change, push as edits; a concurrent save merged', async () => {
    const line = `${'x'.repeat(94)} `;
    const lines = Array.from({ length: 5000 }, (_, i) => `${String(i).padStart(4, '0')}${line}\n`);
    const big = lines.join('');
    expect(big.length).toBe(500_000);
    const bigId = (await createDoc({ title: 'Big', markdown: big })).id;
    const bigFile = join(dir, 'big.md');
    expect((await kagent(['doc', 'pull', bigId, '-o', bigFile])).code).toBe(0);
    expect(readFileSync(bigFile, 'utf8')).toBe(big);

    const mine = big.replace(`2500${line}`, `2500${'y'.repeat(94)} `);
    writeFileSync(bigFile, mine);
    await resetStats();
    const started = performance.now();
    expect((await kagent(['doc', 'push', bigFile])).code).toBe(0);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(await requests()).toMatchObject({ editDoc: 1 });
    expect(await getDoc(bigId)).toMatchObject({ revision: 2, body: mine });

    const theirs = mine.replace(`0001${line}`, `0001${'t'.repeat(94)} `);
    await saveElsewhere(bigId, theirs, 2);
    const both = mine.replace(`4999${line}`, `4999${'m'.repeat(94)} `);
    writeFileSync(bigFile, both);
    const r = await kagent(['doc', 'push', bigFile]);
    expect(r.code).toBe(0);
    const expected = theirs.replace(`4999${line}`, `4999${'m'.repeat(94)} `);
    expect((await getDoc(bigId)).body).toBe(expected);
    expect(readFileSync(bigFile, 'utf8')).toBe(expected);
  });
});

describe('doc status', () => {
  it('says unchanged, changed locally, changed on the service, both, file missing, deleted on the service, not pulled', async () => {
    const names = ['same', 'local', 'remote', 'both', 'missing', 'deleted'];
    const ids: Record<string, string> = {};
    for (const name of names) {
      ids[name] = (await createDoc({ title: name, markdown: `${name}\n` })).id;
      expect((await kagent(['doc', 'pull', ids[name] as string, '-o', join(dir, `${name}.md`)])).code).toBe(0);
    }
    writeFileSync(join(dir, 'local.md'), 'local, changed\n');
    await saveElsewhere(ids.remote as string, 'remote, changed\n', 1);
    writeFileSync(join(dir, 'both.md'), 'both, changed here\n');
    await saveElsewhere(ids.both as string, 'both, changed there\n', 1);
    rmSync(join(dir, 'missing.md'));
    await s.t.call('DELETE', `/docs/${ids.deleted}`, { key });
    writeFileSync(join(dir, 'loose.md'), 'never pulled\n');

    const r = await kagent(['doc', 'status', dir, join(dir, 'loose.md')]);
    expect(r.code).toBe(0);
    const rows = r.stdout
      .replace(/\n$/, '')
      .split('\n')
      .map((row) => row.split('\t'));
    expect(rows).toEqual([
      ['both', join(dir, 'both.md'), ids.both, '1', '2'],
      ['deleted-on-service', join(dir, 'deleted.md'), ids.deleted, '1', ''],
      ['changed-locally', join(dir, 'local.md'), ids.local, '1', '1'],
      ['missing-locally', join(dir, 'missing.md'), ids.missing, '1', '1'],
      ['changed-on-service', join(dir, 'remote.md'), ids.remote, '1', '2'],
      ['unchanged', join(dir, 'same.md'), ids.same, '1', '1'],
      ['not-pulled', join(dir, 'loose.md'), '', '', ''],
    ]);

    const json = await kagent(['doc', 'status', join(dir, 'both.md'), '--json']);
    expect(JSON.parse(json.stdout)).toEqual([
      { file: join(dir, 'both.md'), state: 'both', id: ids.both, revision: 1, latest: 2 },
    ]);
    const tty = await kagent(['doc', 'status', join(dir, 'remote.md'), join(dir, 'both.md')], {
      tty: true,
      columns: 160,
    });
    expect(plain(tty.stdout)).toContain('changed on the service');
    expect(plain(tty.stdout)).toContain('changed locally and on the service');
  });

  it('a FILE that does not exist (and was never pulled) is a usage error, before any request', async () => {
    const doc = await createDoc({ title: 'there', markdown: 'there\n' });
    expect((await kagent(['doc', 'pull', doc.id, '-o', join(dir, 'there.md')])).code).toBe(0);
    await resetStats();
    const r = await kagent(['doc', 'status', join(dir, 'there.md'), join(dir, 'nonexist.md')]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${join(dir, 'nonexist.md')}: no such file`);
    expect(await requests()).toEqual({});
  });

  it('a directory with nothing pulled says so', async () => {
    mkdirSync(join(dir, 'empty'));
    const r = await kagent(['doc', 'status', join(dir, 'empty'), '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
  });
});

describe('the edits a push sends (planPush) and the merge (merge3)', () => {
  const apply = (text: string, edits: EditOp[]) =>
    edits.reduce((t, e) => {
      if (e.op !== 'replace') throw new Error(`unexpected ${e.op}`);
      const at = t.indexOf(e.find);
      expect(t.indexOf(e.find, at + 1)).toBe(-1);
      return t.slice(0, at) + e.replace + t.slice(at + e.find.length);
    }, text);

  it('one edit per changed place, each matching once, giving exactly the new text', () => {
    const filler = 'a paragraph long enough that sending it whole costs more than two small edits\n'.repeat(4);
    const before = `a\nsame\nb\nsame\nc\n${filler}end\n`;
    const after = `a\nsame\nB\nsame\nc\n${filler}end\nd\n`;
    const plan = planPush(before, after, EditOp);
    expect(plan.kind).toBe('edits');
    if (plan.kind !== 'edits') return;
    expect(plan.edits).toHaveLength(2);
    expect(apply(before, plan.edits)).toBe(after);
    expect(planPush(before, before, EditOp)).toEqual({ kind: 'none' });
  });

  it('the whole text when the edits would be over 20, larger than the text, or the text was empty', () => {
    const before = Array.from({ length: 30 }, (_, i) => `line ${i}\n\n`).join('');
    const after = before.replace(/line (\d+)/g, 'LINE $1');
    expect(planPush(before, after, EditOp)).toEqual({ kind: 'rewrite' });
    expect(planPush('a\n', 'b\n', EditOp)).toEqual({ kind: 'rewrite' });
    expect(planPush('', 'new\n', EditOp)).toEqual({ kind: 'rewrite' });
  });

  it('a 500,000-character text with 2,500 blank lines and changes all over: edits and merge stay fast and exact', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => (i % 2 ? '\n' : `p${i} ${'z'.repeat(190)}\n`));
    const base = lines.join('');
    const mineAt = (i: number) => i % 100 === 0 || i === 2;
    const theirsAt = (i: number) => i % 100 === 50 || i === 2;
    const mine = lines.map((l, i) => (mineAt(i) ? l.replace('\n', '!\n') : l));
    const theirs = lines.map((l, i) => (theirsAt(i) ? `?${l}` : l));
    const started = performance.now();
    const merged = merge3(base, mine.join(''), theirs.join(''), { mine: 'm', base: 'b', theirs: 't' });
    const plan = planPush(base, mine.join(''), EditOp);
    expect(performance.now() - started).toBeLessThan(2000);
    // Line 2, changed on both sides, is the one conflict; every other change is taken.
    expect(merged.conflicts).toBe(1);
    const expected = lines.map((l, i) =>
      i === 2
        ? `<<<<<<< m\n${mine[2]}||||||| b\n${l}=======\n${theirs[2]}>>>>>>> t\n`
        : mineAt(i)
          ? (mine[i] as string)
          : theirsAt(i)
            ? (theirs[i] as string)
            : l,
    );
    expect(merged.text).toBe(expected.join(''));
    expect(plan.kind).toBe('rewrite'); // 51 changed places: more than 20 edits
  });

  it('merge3: one-sided changes taken, the same change once, different changes to a line a conflict', () => {
    const labels = { mine: 'mine', base: 'base', theirs: 'theirs' };
    expect(merge3('1\n2\n3\n', '1\n2\n3\n4\n', '0\n1\n2\n3\n', labels)).toEqual({
      text: '0\n1\n2\n3\n4\n',
      conflicts: 0,
    });
    expect(merge3('1\n2\n', '1\nx\n', '1\nx\n', labels)).toEqual({ text: '1\nx\n', conflicts: 0 });
    expect(merge3('1\n2\n3\n', '1\nm\n3\n', '1\nt\n3\n', labels)).toEqual({
      text: '1\n<<<<<<< mine\nm\n||||||| base\n2\n=======\nt\n>>>>>>> theirs\n3\n',
      conflicts: 1,
    });
  });
});

describe('doc push against a service whose REVISION_CONFLICT carries no latest text', () => {
  it('reads the latest revision, merges, and saves on it', async () => {
    const base = BODY;
    let revision = 1;
    let body = base;
    let writes = 0;
    const docOf = () => ({
      id: 'dc_t',
      title: 'Plan',
      body,
      revision,
      origin: 'api',
      folderId: null,
      updatedAt: '2026-11-25T10:00:00Z',
      space: null,
      publication: null,
    });
    const server = await tinyServer((req) => {
      if (req.method === 'GET' && req.url === '/api/v1/docs/dc_t') return { status: 200, body: docOf() };
      if (req.url?.startsWith('/api/v1/docs/dc_t')) {
        writes++;
        if (writes === 1)
          return { status: 409, body: { error: { code: 'REVISION_CONFLICT', message: 'stale revision' } } };
        return { status: 200, body: { id: 'dc_t', revision: revision + 1, updatedAt: '2026-11-25T10:05:00Z' } };
      }
      return { status: 404, body: { error: { code: 'NOT_FOUND', message: 'no' } } };
    });
    try {
      const env = { KAGENT_BASE_URL: server.baseUrl, KAGENT_API_KEY: 'kak_test' };
      const file = join(dir, 'plan.md');
      expect((await runCli(['doc', 'pull', 'dc_t', '-o', file], { env })).code).toBe(0);
      // Someone saves revision 2 (the title line); you change the notes.
      revision = 2;
      body = base.replace('# Plan', '# Plan for Q3');
      writeFileSync(file, base.replace('Nothing yet.', 'Ship it.'));
      const r = await runCli(['doc', 'push', file], { env, tty: true, columns: 200 });
      expect(plain(r.stderr)).toContain(
        `✓ Pushed ${file}: doc dc_t is now at revision 3 (merged with revision 2, saved meanwhile`,
      );
      expect(r.code).toBe(0);
      expect(server.requests.map((req) => req.method)).toEqual([
        'GET',
        expect.stringMatching(/^(POST|PATCH)$/),
        'GET',
        expect.stringMatching(/^(POST|PATCH)$/),
      ]);
      expect(readFileSync(file, 'utf8')).toBe(
        base.replace('# Plan', '# Plan for Q3').replace('Nothing yet.', 'Ship it.'),
      );
    } finally {
      await server.close();
    }
  });
});
