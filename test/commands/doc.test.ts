// `kagent doc` against the sandbox, in-process: list, search, show, create,
// update, edit (flags, --ops, $EDITOR) and delete — terminal, piped and --json,
// every bound of the contract at the limit and one over (checked before any
// request), and the error paths with their exit codes: 404 → 4,
// REVISION_CONFLICT → 5, EDIT_NOT_APPLICABLE → 2, no --yes without a terminal → 2.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EditOp } from '../../src/api/shapes.js';
import { editFromChange } from '../../src/docsync/edit-text.js';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';
import { hasForeignEscapes, tempDir } from '../helpers/run.js';
import { unwrap } from '../helpers/binary.js';

let s: LoggedIn;
let key: string;
const dir = tempDir('kagent-doc-');

beforeAll(async () => {
  s = await loggedInSandbox();
});
afterAll(() => s.close());

async function freshAccount(): Promise<void> {
  ({ apiKey: key } = await s.t.newAccount({ credits: 1000 }));
}

const kagent = (argv: string[], options: Parameters<LoggedIn['kagent']>[1] = {}) =>
  s.kagent(argv, { ...options, env: { KAGENT_API_KEY: key, ...options.env } });
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

async function createDoc(body: Record<string, unknown>): Promise<{ id: string; revision: number }> {
  const res = await s.t.call('POST', '/docs', { key, body });
  expect(res.status).toBe(201);
  return res.body;
}

async function getDoc(id: string): Promise<any> {
  const res = await s.t.call('GET', `/docs/${id}`, { key });
  return res.body;
}

async function resetStats(): Promise<void> {
  await s.t.call('DELETE', '/_sandbox/stats', { key: null });
}

async function requests(): Promise<Record<string, number>> {
  return (await s.t.call('GET', '/_sandbox/stats', { key: null })).body.requests;
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** A fake $EDITOR: a shell script given the file to edit as $1. */
function editorScript(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('doc list', () => {
  let first: { id: string };
  let second: { id: string };
  let spaceId: string;
  beforeAll(async () => {
    await freshAccount();
    spaceId = (await s.t.call('POST', '/spaces', { key, body: { name: 'Research' } })).body.id;
    first = await createDoc({ title: 'Budget 2026', markdown: '# Budget\n\nNumbers.\n' });
    second = await createDoc({ title: 'Harbour notes', markdown: 'The harbour.\n', spaceId, folderId: 'fld_1' });
  });

  it('piped: one row per doc, most recently updated first: id, title, revision, updated, space, folder', async () => {
    const r = await kagent(['doc', 'list']);
    expect(r.code).toBe(0);
    const docs = (await s.t.call('GET', '/docs', { key })).body.items;
    const rows = r.stdout
      .replace(/\n$/, '')
      .split('\n')
      .map((line) => line.split('\t'));
    expect(rows).toEqual(
      docs.map((d: any) => [d.id, d.title, String(d.revision), d.updatedAt, d.spaceId, d.folderId ?? '']),
    );
    expect(rows.map((row) => row[0])).toEqual([second.id, first.id]);
    expect(r.stderr).toBe('');
  });

  it('terminal: a table; --json: the DocSummary objects; --jq', async () => {
    const tty = await kagent(['doc', 'list'], { tty: true, env: { NO_COLOR: '1' } });
    expect(tty.code).toBe(0);
    const [header, ...rows] = tty.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^ID\s+TITLE\s+REV\s+UPDATED$/);
    expect(rows[0]).toMatch(new RegExp(`^${second.id}\\s+Harbour notes\\s+1\\s+`));
    const json = JSON.parse((await kagent(['doc', 'list', '--json'])).stdout);
    expect(json).toEqual((await s.t.call('GET', '/docs', { key })).body.items);
    expect((await kagent(['doc', 'list', '--jq', '.[].title'])).stdout).toBe('Harbour notes\nBudget 2026\n');
  });

  it('--space by name filters; --limit caps; --all with --limit is a usage error', async () => {
    const inSpace = JSON.parse((await kagent(['doc', 'list', '--space', 'research', '--json'])).stdout);
    expect(inSpace.map((d: any) => d.id)).toEqual([second.id]);
    expect((await kagent(['doc', 'list', '--limit', '1'])).stdout.trimEnd().split('\n')).toHaveLength(1);
    const both = await kagent(['doc', 'list', '--limit', '1', '--all']);
    expect(both.code).toBe(2);
    expect((await kagent(['doc', 'list', '--space', 'Nowhere'])).code).toBe(4);
  });

  it('--all follows every page (501 docs: two pages of at most 500)', async () => {
    await freshAccount();
    for (let i = 0; i < 501; i++) await createDoc({ title: `Doc ${i}` });
    await resetStats();
    const r = await kagent(['doc', 'list', '--all']);
    expect(
      new Set(
        r.stdout
          .trimEnd()
          .split('\n')
          .map((line) => line.split('\t')[0]),
      ).size,
    ).toBe(501);
    expect((await requests()).listDocs).toBe(2);
    expect((await kagent(['doc', 'list'])).stdout.trimEnd().split('\n')).toHaveLength(100);
  });

  it('bounds: --space 1 to 80 characters, --limit at least 1; nothing sent', async () => {
    await resetStats();
    const long = await kagent(['doc', 'list', '--space', 's'.repeat(81)]);
    expect(long.code).toBe(2);
    expect(long.stderr).toContain('--space must be 1 to 80 characters (got 81)');
    expect((await kagent(['doc', 'list', '--limit', '0'])).code).toBe(2);
    expect(await requests()).toEqual({});
    // At the limit the name is looked up (and not found: exit 4), so it was accepted.
    expect((await kagent(['doc', 'list', '--space', 's'.repeat(80)])).code).toBe(4);
  });

  it('empty: a note on a terminal, nothing piped, [] with --json', async () => {
    await freshAccount();
    expect((await kagent(['doc', 'list'], { tty: true })).stderr).toContain('No documents');
    expect((await kagent(['doc', 'list'])).stdout).toBe('');
    expect((await kagent(['doc', 'list', '--json'])).stdout).toBe('[]\n');
  });
});

describe('doc search', () => {
  let hit: { id: string };
  beforeAll(async () => {
    await freshAccount();
    hit = await createDoc({ title: 'Quarterly budget', markdown: 'The budget for the harbour expansion.\n' });
    await createDoc({ title: 'Recipes', markdown: 'Bread and soup.\n' });
  });

  it('piped rows (id, title, updated, space, excerpt), --json DocHit[], terminal table', async () => {
    const piped = await kagent(['doc', 'search', 'budget']);
    expect(piped.code).toBe(0);
    const hits = (await s.t.call('GET', '/docs/search', { key, query: { q: 'budget' } })).body.items;
    expect(piped.stdout).toBe(
      hits.map((h: any) => [h.id, h.title, h.updatedAt, h.spaceId, h.excerpt].join('\t') + '\n').join(''),
    );
    expect(hits[0].id).toBe(hit.id);
    expect(JSON.parse((await kagent(['doc', 'search', 'budget', '--json'])).stdout)).toEqual(hits);
    const tty = await kagent(['doc', 'search', 'budget'], { tty: true, env: { NO_COLOR: '1' } });
    expect(tty.stdout).toMatch(/^ID\s+TITLE\s+EXCERPT\s+UPDATED/);
    expect(tty.stdout).toContain('Quarterly budget');
  });

  it('no match: nothing piped, [] with --json, a note on a terminal', async () => {
    expect((await kagent(['doc', 'search', 'zeppelin'])).stdout).toBe('');
    expect((await kagent(['doc', 'search', 'zeppelin', '--json'])).stdout).toBe('[]\n');
    expect((await kagent(['doc', 'search', 'zeppelin'], { tty: true })).stderr).toContain(
      'No document matches "zeppelin"',
    );
  });

  it('QUERY is 1 to 200 characters: 200 is sent, 201 and blank are refused before any request', async () => {
    await resetStats();
    const long = await kagent(['doc', 'search', 'q'.repeat(201)]);
    expect(long.code).toBe(2);
    expect(long.stderr).toContain('QUERY must be 1 to 200 characters (got 201)');
    expect((await kagent(['doc', 'search', '  '])).code).toBe(2);
    expect(await requests()).toEqual({});
    const atLimit = await kagent(['doc', 'search', 'q'.repeat(200), '--json']);
    expect(atLimit.code).toBe(0);
    expect(JSON.parse(atLimit.stdout)).toEqual([]);
  });
});

describe('doc show', () => {
  let doc: { id: string };
  const body = '# Plan\n\nSome **bold** text and a [link](https://example.com).\n\n- one\n- two\n\x1b]0;evil\x07';
  beforeAll(async () => {
    await freshAccount();
    doc = await createDoc({ title: 'The plan', markdown: body });
  });

  it('piped: the raw body exactly (control sequences removed), nothing else', async () => {
    const r = await kagent(['doc', 'show', doc.id]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('# Plan\n\nSome **bold** text and a [link](https://example.com).\n\n- one\n- two\n');
    expect(r.stderr).toBe('');
  });

  it('--json ID --jq .id: the id is the document, not a field list (the value of --jq is no operand)', async () => {
    const r = await kagent(['doc', 'show', '--json', doc.id, '--jq', '.id']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${doc.id}\n`);
    // a field list still works before the id
    const fields = await kagent(['doc', 'show', '--json', 'id,title', doc.id]);
    expect(JSON.parse(fields.stdout)).toEqual({ id: doc.id, title: 'The plan' });
  });

  it('terminal: title, id, revision, space, then the body rendered; --raw prints the source', async () => {
    const tty = await kagent(['doc', 'show', doc.id], { tty: true, env: { FORCE_COLOR: '1' } });
    expect(tty.code).toBe(0);
    const out = plain(tty.stdout);
    expect(out.split('\n')[0]).toBe('The plan');
    expect(out).toMatch(new RegExp(`${doc.id} · revision 1 · Personal · saved `));
    expect(out).toContain('bold');
    expect(out).not.toContain('**bold**');
    expect(hasForeignEscapes(tty.stdout)).toBe(false);
    const raw = await kagent(['doc', 'show', doc.id, '--raw'], { tty: true });
    expect(raw.stdout).toBe('# Plan\n\nSome **bold** text and a [link](https://example.com).\n\n- one\n- two\n');
  });

  it('--json: the Doc', async () => {
    const r = await kagent(['doc', 'show', doc.id, '--json']);
    expect(JSON.parse(r.stdout)).toEqual(await getDoc(doc.id));
  });

  it('an unknown doc is exit 4 with a hint', async () => {
    const r = await kagent(['doc', 'show', 'doc_nope']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('(DOC_NOT_FOUND)');
    expect(r.stderr).toContain('hint: no doc "doc_nope": `kagent doc list` or `kagent doc search WORDS` shows the ids');
  });
});

describe('doc create', () => {
  beforeEach(freshAccount);

  it('--file: piped prints the new id; the doc holds the file', async () => {
    const path = file('notes.md', '# Notes\n\nHello.\n');
    const r = await kagent(['doc', 'create', '--title', 'Notes', '--file', path]);
    expect(r.code).toBe(0);
    const id = r.stdout.trim();
    expect(r.stdout).toBe(`${id}\n`);
    expect(r.stderr).not.toContain('✓'); // the ✓ line is for a terminal
    expect(await getDoc(id)).toMatchObject({ title: 'Notes', body: '# Notes\n\nHello.\n', revision: 1 });
  });

  it('--file - reads stdin; --body takes text; --json prints DocCreated', async () => {
    const stdin = await kagent(['doc', 'create', '--title', 'From stdin', '--file', '-'], { stdin: 'piped body\n' });
    expect(stdin.code).toBe(0);
    expect((await getDoc(stdin.stdout.trim())).body).toBe('piped body\n');
    const json = await kagent(['doc', 'create', '--title', 'Text', '--body', '- [ ] todo', '--json']);
    const created = JSON.parse(json.stdout);
    expect(created).toEqual({ id: expect.any(String), revision: 1 });
    expect((await getDoc(created.id)).body).toBe('- [ ] todo');
  });

  it('terminal: a note on stderr, nothing on stdout', async () => {
    const r = await kagent(['doc', 'create', '--title', 'TTY', '--body', 'x'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(plain(r.stderr)).toMatch(/✓ Created doc doc_\w+ "TTY" \(revision 1\)\nread it: `kagent doc show doc_\w+`/);
  });

  it('--space by name, --folder', async () => {
    const spaceId = (await s.t.call('POST', '/spaces', { key, body: { name: 'Work' } })).body.id;
    const r = await kagent([
      'doc',
      'create',
      '--title',
      'In work',
      '--body',
      'x',
      '--space',
      'work',
      '--folder',
      'fld_9',
    ]);
    const doc = await getDoc(r.stdout.trim());
    expect(doc.space.id).toBe(spaceId);
    expect(doc.folderId).toBe('fld_9');
  });

  it('title at most 200 and body at most 500000 characters: at the limit created, one over refused before any request', async () => {
    await resetStats();
    const title = await kagent(['doc', 'create', '--title', 't'.repeat(201)]);
    expect(title.code).toBe(2);
    expect(title.stderr).toContain('--title must be at most 200 characters (got 201)');
    const big = file('big.md', 'b'.repeat(500_001));
    const body = await kagent(['doc', 'create', '--title', 'Big', '--file', big]);
    expect(body.code).toBe(2);
    expect(body.stderr).toContain('--file must be at most 500000 characters (got 500001)');
    const text = await kagent(['doc', 'create', '--body', 'b'.repeat(500_001)]);
    expect(text.stderr).toContain('--body must be at most 500000 characters (got 500001)');
    expect(await requests()).toEqual({});

    const ok = await kagent([
      'doc',
      'create',
      '--title',
      't'.repeat(200),
      '--file',
      file('max.md', 'b'.repeat(500_000)),
    ]);
    expect(ok.code).toBe(0);
    const doc = await getDoc(ok.stdout.trim());
    expect(doc.title).toHaveLength(200);
    expect(doc.body).toHaveLength(500_000);
  });

  it('front matter is refused locally (exit 2), nothing created', async () => {
    await resetStats();
    const r = await kagent(['doc', 'create', '--title', 'FM', '--body', '---\ntitle: x\n---\n# Body\n']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--body starts with front matter (a --- block): documents have none');
    expect(r.stderr).toContain('hint: remove the block; give the title with --title');
    expect(await requests()).toEqual({});
    // A rule in the body (not at the start) is fine.
    expect((await kagent(['doc', 'create', '--body', '# Title\n\n---\n\nmore\n'])).code).toBe(0);
  });

  it('usage errors: nothing given without a terminal, --file with --body, a missing file, stdin that is a terminal', async () => {
    const nothing = await kagent(['doc', 'create']);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('nothing to create: give --title and/or the body');
    expect((await kagent(['doc', 'create', '--body', 'a', '--file', 'x.md'])).code).toBe(2);
    const missing = await kagent(['doc', 'create', '--file', join(dir, 'nope.md')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read it (no such file)');
    const ttyStdin = await kagent(['doc', 'create', '--file', '-'], { tty: true });
    expect(ttyStdin.code).toBe(2);
    expect(ttyStdin.stderr).toContain('--file - reads stdin, but stdin is a terminal');
  });

  it('an empty body is refused (exit 2, nothing sent) unless --allow-empty: none given, empty stdin, empty file, --body "", an empty editor', async () => {
    await resetStats();
    const none = await kagent(['doc', 'create', '--title', 'x'], { stdin: '' });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no body given (stdin is read only with --file -); nothing was created');
    expect(none.stderr).toContain('--allow-empty');
    const stdin = await kagent(['doc', 'create', '--title', 'x', '--file', '-'], { stdin: '' });
    expect(stdin.code).toBe(2);
    expect(stdin.stderr).toContain('--file - (stdin) gave an empty body; nothing was created');
    const emptyFile = await kagent(['doc', 'create', '--title', 'x', '--file', file('empty.md', '\n')]);
    expect(emptyFile.code).toBe(2);
    expect(emptyFile.stderr).toContain('--file gave an empty body');
    expect((await kagent(['doc', 'create', '--title', 'x', '--body', ''])).code).toBe(2);
    const editor = editorScript('blank.sh', ': > "$1"');
    const blank = await kagent(['doc', 'create'], { tty: true, answers: ['Blank'], env: { EDITOR: editor } });
    expect(blank.code).toBe(2);
    expect(blank.stderr).toContain('the editor gave an empty body');
    expect(await requests()).toEqual({});

    const allowed = await kagent(['doc', 'create', '--title', 'Placeholder', '--file', '-', '--allow-empty'], {
      stdin: '',
    });
    expect(allowed.code).toBe(0);
    expect(await getDoc(allowed.stdout.trim())).toMatchObject({ title: 'Placeholder', body: '' });
    expect((await kagent(['doc', 'create', '--title', 'Bare', '--allow-empty'])).code).toBe(0);
  });

  it('terminal with nothing given: asks the title, then opens $EDITOR for the body', async () => {
    const editor = editorScript('write.sh', 'printf "# Written in the editor\\n" > "$1"');
    const r = await kagent(['doc', 'create'], { tty: true, answers: ['Edited'], env: { EDITOR: editor } });
    expect(r.code).toBe(0);
    expect(r.prompts).toEqual(['Title']);
    const id = /Created doc (doc_\w+)/.exec(plain(r.stderr))![1]!;
    expect(await getDoc(id)).toMatchObject({ title: 'Edited', body: '# Written in the editor\n' });
  });

  it('--idempotency-key: a rerun returns the first doc instead of a second; over 200 characters refused', async () => {
    const first = await kagent(['doc', 'create', '--title', 'Once', '--allow-empty', '--idempotency-key', 'ci-run-1']);
    const again = await kagent(['doc', 'create', '--title', 'Once', '--allow-empty', '--idempotency-key', 'ci-run-1']);
    expect(again.stdout).toBe(first.stdout);
    expect(again.stderr).toContain('this key already created doc');
    expect((await s.t.call('GET', '/docs', { key })).body.items).toHaveLength(1);
    const long = await kagent(['doc', 'create', '--title', 'x', '--allow-empty', '--idempotency-key', 'k'.repeat(201)]);
    expect(long.code).toBe(2);
    expect(long.stderr).toContain('--idempotency-key must be 1 to 200 characters (got 201)');
  });
});

describe('doc update', () => {
  let doc: { id: string };
  beforeEach(async () => {
    await freshAccount();
    doc = await createDoc({ title: 'Draft', markdown: 'v1\n' });
  });

  it('--file replaces the body on the revision just read; piped "id<TAB>revision", --json the Revision', async () => {
    const r = await kagent(['doc', 'update', doc.id, '--file', file('v2.md', 'v2\n')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${doc.id}\t2\n`);
    expect(r.stderr).not.toContain('✓');
    expect(await getDoc(doc.id)).toMatchObject({ title: 'Draft', body: 'v2\n', revision: 2 });
    const json = await kagent(['doc', 'update', doc.id, '--title', 'Final', '--revision', '2', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ id: doc.id, revision: 3, updatedAt: expect.any(String) });
    const tty = await kagent(['doc', 'update', doc.id, '--body', 'v4'], { tty: true });
    expect(tty.stdout).toBe('');
    expect(plain(tty.stderr)).toContain(`✓ Saved: doc ${doc.id} is now at revision 4`);
  });

  it('a stale --revision is REVISION_CONFLICT (exit 5) with the latest revision; nothing saved', async () => {
    await s.t.call('PATCH', `/docs/${doc.id}`, { key, body: { body: 'someone else\n', baseRevision: 1 } });
    const r = await kagent(['doc', 'update', doc.id, '--body', 'mine\n', '--revision', '1']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(
      new RegExp(
        `error: doc ${doc.id} changed since revision 1: it is now at revision 2 \\(saved [^)]+\\); nothing was saved \\(REVISION_CONFLICT\\)`,
      ),
    );
    expect(r.stderr).toContain(
      `hint: read it again (\`kagent doc show ${doc.id} --raw\`) and reapply your change; or save over the latest revision with --force`,
    );
    expect((await getDoc(doc.id)).body).toBe('someone else\n');
    const json = await kagent(['doc', 'update', doc.id, '--body', 'mine\n', '--revision', '1', '--json']);
    expect(json.code).toBe(5);
    expect(JSON.parse(json.stderr).error.code).toBe('REVISION_CONFLICT');
  });

  it('a --revision past the latest says there is no such revision, never "changed since" it (exit 5, nothing saved)', async () => {
    const latest = (await getDoc(doc.id)).revision as number;
    const r = await kagent(['doc', 'update', doc.id, '--body', 'mine\n', '--revision', '99']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(
      new RegExp(
        `error: doc ${doc.id} has no revision 99: it is now at revision ${latest} \\(saved [^)]+\\); nothing was saved`,
      ),
    );
    expect(r.stderr).not.toContain('changed since');
    expect(r.stderr).toContain(`${latest} is the latest`);
    expect((await getDoc(doc.id)).revision).toBe(latest);
    const forced = await kagent(['doc', 'update', doc.id, '--body', 'mine\n', '--revision', '99', '--force']);
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain(`warning: doc ${doc.id} has no revision 99: --force saves over revision ${latest}`);
    expect(forced.stderr).not.toContain('changed since');
  });

  it('--force reads the latest revision and saves over it, once', async () => {
    await s.t.call('PATCH', `/docs/${doc.id}`, { key, body: { body: 'someone else\n' } });
    const r = await kagent(['doc', 'update', doc.id, '--body', 'mine\n', '--revision', '1', '--force']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`warning: doc ${doc.id} changed since revision 1: --force saves over revision 2`);
    expect(await getDoc(doc.id)).toMatchObject({ body: 'mine\n', revision: 3 });
  });

  it('bounds and refusals before any request: nothing to change, title 201, body 500001, front matter, --revision 0', async () => {
    await resetStats();
    const nothing = await kagent(['doc', 'update', doc.id]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('nothing to change');
    expect((await kagent(['doc', 'update', doc.id, '--title', 't'.repeat(201)])).stderr).toContain(
      '--title must be at most 200 characters (got 201)',
    );
    expect((await kagent(['doc', 'update', doc.id, '--body', 'b'.repeat(500_001)])).stderr).toContain(
      '--body must be at most 500000 characters (got 500001)',
    );
    expect((await kagent(['doc', 'update', doc.id, '--body', '+++\na = 1\n+++\nx'])).code).toBe(2);
    expect((await kagent(['doc', 'update', doc.id, '--title', 'x', '--revision', '0'])).code).toBe(2);
    expect(await requests()).toEqual({});
    const atLimit = await kagent(['doc', 'update', doc.id, '--title', 't'.repeat(200), '--body', 'b'.repeat(500_000)]);
    expect(atLimit.code).toBe(0);
  });

  it('an unknown doc is exit 4', async () => {
    const r = await kagent(['doc', 'update', 'doc_nope', '--title', 'x']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('no doc "doc_nope"');
  });
});

describe('doc edit', () => {
  let doc: { id: string };
  const body = '# Plan\n\nStatus: draft\n\n## Decisions\n\n- Ship later\n';
  beforeEach(async () => {
    await freshAccount();
    doc = await createDoc({ title: 'Plan', markdown: body });
  });

  it('flags apply in order: --replace pairs, --insert-after pairs, --prepend, --append', async () => {
    const r = await kagent([
      'doc',
      'edit',
      doc.id,
      '--append',
      '_Reviewed_',
      '--replace',
      'Status: draft',
      '--with',
      'Status: final',
      '--insert-after',
      '## Decisions\n\n',
      '--content',
      '- Ship on Friday\n',
      '--prepend',
      '> Archived\n',
      '--replace',
      'Ship later',
      '--with',
      'Ship sooner',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${doc.id}\t2\n`);
    expect(r.stderr).not.toContain('✓');
    expect((await getDoc(doc.id)).body).toBe(
      '> Archived\n# Plan\n\nStatus: final\n\n## Decisions\n\n- Ship on Friday\n- Ship sooner\n_Reviewed_',
    );
  });

  it('--json prints the Revision; the terminal gets a note only', async () => {
    const json = await kagent(['doc', 'edit', doc.id, '--append', 'more', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ id: doc.id, revision: 2, updatedAt: expect.any(String) });
    const tty = await kagent(['doc', 'edit', doc.id, '--append', 'again'], { tty: true });
    expect(tty.stdout).toBe('');
    expect(plain(tty.stderr)).toContain(`✓ Applied 1 edit: doc ${doc.id} is now at revision 3`);
  });

  it('--ops FILE and --ops - (an array of EditOp, or an EditDocRequest with its revision)', async () => {
    const ops = file(
      'ops.json',
      JSON.stringify([
        { op: 'replace', find: 'draft', replace: 'final' },
        { op: 'append', content: 'end' },
      ]),
    );
    expect((await kagent(['doc', 'edit', doc.id, '--ops', ops])).code).toBe(0);
    expect((await getDoc(doc.id)).body).toBe(body.replace('draft', 'final') + 'end');
    const request = JSON.stringify({ edits: [{ op: 'rewrite', content: 'all new\n' }], revision: 2 });
    const r = await kagent(['doc', 'edit', doc.id, '--ops', '-'], { stdin: request });
    expect(r.code).toBe(0);
    expect(await getDoc(doc.id)).toMatchObject({ body: 'all new\n', revision: 3 });
    const stale = await kagent(['doc', 'edit', doc.id, '--ops', '-'], { stdin: request });
    expect(stale.code).toBe(5);
  });

  it('EDIT_NOT_APPLICABLE (exit 2) names the edit that did not match, and nothing changes', async () => {
    const r = await kagent([
      'doc',
      'edit',
      doc.id,
      '--append',
      'x',
      '--replace',
      'Status: draft',
      '--with',
      'ok',
      '--replace',
      'no such text',
      '--with',
      'y',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `error: edit 2 of 3 (--replace #2 "no such text") did not match: the text is not in the document; doc ${doc.id} was not changed (EDIT_NOT_APPLICABLE)`,
    );
    expect(r.stderr).toContain(`hint: read the document again (\`kagent doc show ${doc.id} --raw\`)`);
    const ambiguous = await kagent([
      'doc',
      'edit',
      doc.id,
      '--replace',
      'Ship',
      '--with',
      'x',
      '--replace',
      '\n',
      '--with',
      ' ',
    ]);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('edit 2 of 2 (--replace #2 " ") matched');
    expect(await getDoc(doc.id)).toMatchObject({ body, revision: 1 });
    const json = await kagent(['doc', 'edit', doc.id, '--replace', 'nope', '--with', 'y', '--json']);
    expect(JSON.parse(json.stderr).error.code).toBe('EDIT_NOT_APPLICABLE');
  });

  it('--revision: a stale one is REVISION_CONFLICT (exit 5); the current one applies', async () => {
    await s.t.call('POST', `/docs/${doc.id}/edits`, { key, body: { edits: [{ op: 'append', content: 'other' }] } });
    const r = await kagent(['doc', 'edit', doc.id, '--append', 'mine', '--revision', '1']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain(`doc ${doc.id} changed since revision 1: it is now at revision 2`);
    expect(r.stderr).toContain('or leave out --revision: exact-match edits are safe on the latest text');
    expect((await kagent(['doc', 'edit', doc.id, '--append', 'mine', '--revision', '2'])).code).toBe(0);
  });

  it('bounds before any request: 1 to 20 edits, find 1..20000, replace ..40000, anchor 1..4000, content 1..40000', async () => {
    await resetStats();
    const appends = (n: number) => Array.from({ length: n }, (_, i) => ['--append', `line ${i}`]).flat();
    const many = await kagent(['doc', 'edit', doc.id, ...appends(21)]);
    expect(many.code).toBe(2);
    expect(many.stderr).toContain('edits must have 1 to 20 items (got 21)');
    const cases: Array<[string[], string]> = [
      [['--replace', 'f'.repeat(20_001), '--with', 'x'], '--replace must be 1 to 20000 characters (got 20001)'],
      [['--replace', '', '--with', 'x'], '--replace must be 1 to 20000 characters (got 0)'],
      [['--replace', 'Plan', '--with', 'r'.repeat(40_001)], '--with must be at most 40000 characters (got 40001)'],
      [
        ['--insert-after', 'a'.repeat(4001), '--content', 'x'],
        '--insert-after must be 1 to 4000 characters (got 4001)',
      ],
      [
        ['--insert-after', 'Plan', '--content', 'c'.repeat(40_001)],
        '--content must be 1 to 40000 characters (got 40001)',
      ],
      [['--append', 'c'.repeat(40_001)], '--append must be 1 to 40000 characters (got 40001)'],
      [['--prepend', ''], '--prepend must be 1 to 40000 characters (got 0)'],
      [['--append', 'ok', '--append', ''], '--append #2 must be 1 to 40000 characters (got 0)'],
      [
        ['--replace', 'a', '--replace', 'b', '--with', 'x'],
        'each --replace needs its --with (got 2 --replace and 1 --with)',
      ],
      [['--insert-after', 'a'], 'each --insert-after needs its --content (got 1 --insert-after and 0 --content)'],
      [
        ['--ops', file('bad-op.json', '[{"op":"delete"}]')],
        '--ops edits[0].op must be one of: replace, insert_after, append, prepend, rewrite',
      ],
      [
        ['--ops', file('bad-find.json', '[{"op":"replace","find":"","replace":"x"}]')],
        '--ops edits[0].find must be 1 to 20000 characters (got 0)',
      ],
      [['--ops', file('empty.json', '[]')], 'edits must have 1 to 20 items (got 0)'],
      [['--ops', file('notjson.json', '{nope')], 'is not valid JSON'],
      [['--ops', file('ops2.json', '[{"op":"append","content":"x"}]'), '--append', 'y'], 'use --ops or the edit flags'],
      [['--revision', '0', '--append', 'x'], '--revision "0": must be an integer of at least 1'],
    ];
    for (const [flags, message] of cases) {
      const r = await kagent(['doc', 'edit', doc.id, ...flags]);
      expect(r.code, flags.join(' ').slice(0, 60)).toBe(2);
      expect(r.stderr, flags.join(' ').slice(0, 60)).toContain(message);
    }
    expect(await requests()).toEqual({});
  });

  it('at the limits the edits are sent and apply: 20 edits, find of 20000, replace of 40000, anchor of 4000, content of 40000', async () => {
    const appends = Array.from({ length: 20 }, (_, i) => ['--append', `line ${i}`]).flat();
    expect((await kagent(['doc', 'edit', doc.id, ...appends])).code).toBe(0);
    const big = await createDoc({ title: 'Big', markdown: `${'f'.repeat(20_000)}\n${'a'.repeat(4000)}\n` });
    const r = await kagent([
      'doc',
      'edit',
      big.id,
      '--replace',
      'f'.repeat(20_000),
      '--with',
      'r'.repeat(40_000),
      '--insert-after',
      'a'.repeat(4000),
      '--content',
      'c'.repeat(40_000),
    ]);
    expect(r.code).toBe(0);
    expect((await getDoc(big.id)).body).toBe(`${'r'.repeat(40_000)}\n${'a'.repeat(4000)}${'c'.repeat(40_000)}\n`);
  });

  it('no edits without a terminal: exit 2 naming the flags', async () => {
    const r = await kagent(['doc', 'edit', doc.id]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'no edits given: pass --replace/--with, --insert-after/--content, --append, --prepend or --ops FILE',
    );
  });

  it('an unknown doc is exit 4', async () => {
    expect((await kagent(['doc', 'edit', 'doc_nope', '--append', 'x'])).code).toBe(4);
  });
});

describe('doc edit in $EDITOR (terminal)', () => {
  let doc: { id: string };
  const body = '# Plan\n\nStatus: draft\n\nStatus: draft of the appendix\n\n## Notes\n\n- one\n';
  beforeEach(async () => {
    await freshAccount();
    doc = await createDoc({ title: 'Plan', markdown: body });
  });

  it('sends the changed lines as one exact-match replace, on the revision edited', async () => {
    await resetStats();
    const editor = editorScript('sed.sh', `sed -i 's/^Status: draft$/Status: final/' "$1"`);
    const r = await kagent(['doc', 'edit', doc.id], { tty: true, env: { EDITOR: editor } });
    expect(r.code).toBe(0);
    expect(plain(r.stderr)).toContain(`✓ Saved: doc ${doc.id} is now at revision 2`);
    expect(await getDoc(doc.id)).toMatchObject({
      body: body.replace('Status: draft\n\nStatus', 'Status: final\n\nStatus'),
      revision: 2,
    });
    expect((await requests()).editDoc).toBe(1);
  });

  it('unchanged: nothing is sent', async () => {
    await resetStats();
    const r = await kagent(['doc', 'edit', doc.id], { tty: true, env: { EDITOR: 'true' } });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`No changes: doc ${doc.id} stays at revision 1.`);
    expect((await requests()).editDoc).toBeUndefined();
  });

  /**
   * An editor that, the first time, saves `theirs` through the API (someone
   * else, meanwhile) and then makes `mine` to the file; every later time (the
   * editor reopened on conflicts) runs `again` on the file.
   */
  function racingEditor(
    name: string,
    theirs: object[],
    mine: string,
    again: string,
  ): { editor: string; env: Record<string, string> } {
    const marker = join(dir, `${name}-${Date.now()}.first`);
    const save = `node -e 'fetch(process.env.SANDBOX_URL, { method: "POST", headers: { authorization: "Bearer " + process.env.KAGENT_API_KEY, "content-type": "application/json" }, body: process.env.THEIRS }).then((r) => process.exit(r.ok ? 0 : 1))'`;
    const editor = editorScript(
      name,
      [`if [ -f "${marker}" ]; then`, again, 'else', `touch "${marker}"`, save, mine, 'fi'].join('\n'),
    );
    return {
      editor,
      env: {
        EDITOR: editor,
        SANDBOX_URL: `${s.t.baseUrl}/docs/${doc.id}/edits`,
        THEIRS: JSON.stringify({ edits: theirs }),
      },
    };
  }

  it('someone saves other lines while you edit: the edits are merged and saved, and it says so', async () => {
    const race = racingEditor(
      'clean.sh',
      [{ op: 'replace', find: '# Plan\n', replace: '# Plan for Q3\n' }],
      `sed -i 's/^- one$/- one, done/' "$1"`,
      'exit 9',
    );
    const r = await kagent(['doc', 'edit', doc.id], { tty: true, env: race.env });
    expect(r.code).toBe(0);
    expect(plain(r.stderr)).toContain(
      `✓ Merged with revision 2 (saved meanwhile) and saved: doc ${doc.id} is now at revision 3`,
    );
    expect(await getDoc(doc.id)).toMatchObject({
      revision: 3,
      body: body.replace('# Plan\n', '# Plan for Q3\n').replace('- one\n', '- one, done\n'),
    });
  });

  it('someone saves the same lines: the editor reopens with the markers; resolved, it is saved', async () => {
    const resolved = body.replace('- one\n', '- one, and uno\n');
    const race = racingEditor(
      'conflict.sh',
      [{ op: 'replace', find: '- one\n', replace: '- uno\n' }],
      `sed -i 's/^- one$/- one!/' "$1"`,
      `grep -q '^<<<<<<< your edit$' "$1" && grep -q '^>>>>>>> revision 2 (saved meanwhile)$' "$1" && printf '%s' "$RESOLVED" > "$1"`,
    );
    const r = await kagent(['doc', 'edit', doc.id], { tty: true, env: { ...race.env, RESOLVED: resolved } });
    expect(r.code).toBe(0);
    expect(unwrap(plain(r.stderr))).toContain(
      `doc ${doc.id} changed since revision 1 (now 2): 1 hunk conflicts with your edit; reopening the editor`,
    );
    expect(plain(r.stderr)).toContain(`✓ Saved: doc ${doc.id} is now at revision 3`);
    expect(await getDoc(doc.id)).toMatchObject({ revision: 3, body: resolved });
  });

  it('markers left in when the editor closes again: nothing is saved (exit 5), the text with the markers kept in a file', async () => {
    const race = racingEditor('left.sh', [{ op: 'append', content: 'theirs' }], `printf 'mine\\n' >> "$1"`, 'true');
    const r = await kagent(['doc', 'edit', doc.id], { tty: true, env: race.env });
    expect(r.code).toBe(5);
    const stderr = unwrap(r.stderr);
    expect(stderr).toContain(
      `doc ${doc.id} changed since revision 1 (now 2): 1 hunk conflicts with your edit, and the markers are still in the text; nothing was saved (MERGE_CONFLICT)`,
    );
    const kept = /your text is kept in (\S+\.md)/.exec(stderr)?.[1];
    expect(kept).toBeDefined();
    expect(existsSync(kept!)).toBe(true);
    expect(readFileSync(kept!, 'utf8')).toBe(
      `${body}<<<<<<< your edit\nmine\n||||||| revision 1 (opened)\n=======\ntheirs\n>>>>>>> revision 2 (saved meanwhile)\n`,
    );
    expect(await getDoc(doc.id)).toMatchObject({ revision: 2, body: `${body}theirs` });

    // The hint is the command that sends the kept file (not `doc edit` again, which opens revision 2 without it): it works.
    const hinted = /resolve the markers there, then send it with `kagent (doc update [^`]+)`/.exec(stderr)?.[1];
    expect(hinted).toBe(`doc update ${doc.id} --file ${kept} --revision 2`);
    expect(stderr).not.toContain(`doc edit ${doc.id}\` again`);
    writeFileSync(kept!, `${body}mine\ntheirs\n`);
    const sent = await kagent(hinted!.split(' '));
    expect(sent.code).toBe(0);
    expect(await getDoc(doc.id)).toMatchObject({ revision: 3, body: `${body}mine\ntheirs\n` });
  });

  it('front matter typed in the editor is refused, the text kept', async () => {
    const editor = editorScript(
      'fm.sh',
      `printf -- '---\\ntitle: x\\n---\\n' | cat - "$1" > "$1.new" && mv "$1.new" "$1"`,
    );
    const r = await kagent(['doc', 'edit', doc.id], { tty: true, env: { EDITOR: editor } });
    expect(r.code).toBe(2);
    expect(unwrap(r.stderr)).toContain('the edited text starts with front matter');
    expect(unwrap(r.stderr)).toMatch(/your text is kept in \S+\.md/);
    expect((await getDoc(doc.id)).revision).toBe(1);
  });

  it('an editor that fails changes nothing (exit 1)', async () => {
    const r = await kagent(['doc', 'edit', doc.id], { tty: true, env: { EDITOR: 'false' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('(EDITOR_FAILED)');
    expect((await getDoc(doc.id)).revision).toBe(1);
  });
});

describe('doc delete', () => {
  let doc: { id: string };
  beforeEach(async () => {
    await freshAccount();
    doc = await createDoc({ title: 'Old draft', markdown: 'x' });
  });

  it('asks on a terminal, naming the doc; no keeps it (exit 1), yes deletes', async () => {
    const no = await kagent(['doc', 'delete', doc.id], { tty: true, answers: [false] });
    expect(no.code).toBe(1);
    expect(no.prompts).toEqual([`Delete doc "Old draft" (${doc.id}, revision 1)? This cannot be undone.`]);
    expect((await s.t.call('GET', `/docs/${doc.id}`, { key })).status).toBe(200);
    const yes = await kagent(['doc', 'delete', doc.id], { tty: true, answers: [true] });
    expect(yes.code).toBe(0);
    expect(plain(yes.stderr)).toContain(`✓ Deleted doc ${doc.id}`);
    expect((await s.t.call('GET', `/docs/${doc.id}`, { key })).status).toBe(404);
  });

  it('without a terminal needs --yes (exit 2, nothing deleted); with it prints the id, or {id, deleted} with --json', async () => {
    const refused = await kagent(['doc', 'delete', doc.id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`refusing to delete doc ${doc.id} without confirmation: pass --yes`);
    expect((await s.t.call('GET', `/docs/${doc.id}`, { key })).status).toBe(200);
    const json = await kagent(['doc', 'delete', doc.id, '--yes', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ id: doc.id, deleted: true });
    const other = await createDoc({ title: 'Another' });
    expect((await kagent(['doc', 'delete', other.id, '--yes'])).stdout).toBe(`${other.id}\n`);
  });

  it('an unknown doc is exit 4', async () => {
    const r = await kagent(['doc', 'delete', 'doc_nope', '--yes']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('no doc "doc_nope"');
  });
});

describe('the change made in $EDITOR as one edit (editFromChange)', () => {
  /** Applies an edit the way the contract describes (exact match, once). */
  function apply(before: string, op: any): string {
    if (op.op === 'append') return before + op.content;
    if (op.op === 'rewrite') return op.content;
    expect(before.split(op.find).length - 1).toBe(1);
    return before.replace(op.find, () => op.replace);
  }
  const cases: Array<[string, string, string]> = [
    ['one changed line', 'a\nb\nc\n', 'a\nB\nc\n'],
    ['a line added at the end', 'a\nb\n', 'a\nb\nc\n'],
    ['a line added at the start', 'a\nb\n', 'z\na\nb\n'],
    ['a line removed', 'a\nb\nc\n', 'a\nc\n'],
    ['everything removed', 'a\nb\n', ''],
    ['a repeated line: widened until unique', 'x\nsame\ny\nsame\nz\n', 'x\nsame\ny\nSAME\nz\n'],
    ['a blank line inserted between blank lines', 'a\n\n\nb\n', 'a\n\n\n\nb\n'],
    ['a first line that is blank', '\n\nx', '\n\n\nx'],
    ['non-BMP text', '😀 one\n😀 two\n', '😀 one\n😃 two\n'],
  ];
  for (const [name, before, after] of cases) {
    it(name, () => {
      const op = editFromChange(before, after, EditOp);
      expect(op).toBeDefined();
      expect(apply(before, op)).toBe(after);
    });
  }

  it('small: only the changed line is sent; unchanged text gives no edit; an empty doc gets an append', () => {
    const big = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join('\n');
    expect(editFromChange(big, big.replace('line 500', 'LINE 500'), EditOp)).toEqual({
      op: 'replace',
      find: 'line 500',
      replace: 'LINE 500',
    });
    expect(editFromChange(big, big, EditOp)).toBeUndefined();
    expect(editFromChange('', 'new', EditOp)).toEqual({ op: 'append', content: 'new' });
  });

  it('a change too large for one replace (find over 20000 characters) goes as a rewrite', () => {
    const before = 'x'.repeat(30_000);
    expect(editFromChange(before, 'y'.repeat(30_000), EditOp)).toEqual({ op: 'rewrite', content: 'y'.repeat(30_000) });
  });
});
