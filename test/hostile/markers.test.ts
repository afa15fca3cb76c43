// Documents that contain conflict-marker lines of their own (a page about git,
// a setext heading underlined with =======) can be pushed and saved: only the
// markers kagent's own merge wrote are refused, by `doc push` and by `doc edit`
// in $EDITOR. Against a documents service in the test (test/helpers/doc-server.ts).
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docServerFixture } from '../helpers/doc-server.js';
import { runCli, type RunCliOptions } from '../helpers/run.js';
import { unwrap } from '../helpers/binary.js';

const GIT_PAGE = [
  '# Resolving conflicts in git',
  '',
  'When git cannot merge, the file looks like this:',
  '',
  '<<<<<<< HEAD',
  'our line',
  '||||||| base',
  'the old line',
  '=======',
  'their line',
  '>>>>>>> feature',
  '',
  'Status: draft',
  '',
].join('\n');

const fixture = docServerFixture();
const { scratch, serve } = fixture;

const kagent = (argv: string[], options: RunCliOptions = {}) =>
  runCli(argv, {
    ...options,
    env: { KAGENT_BASE_URL: fixture.server?.baseUrl, KAGENT_API_KEY: 'k_test', NO_COLOR: '1', ...options.env },
  });

/** A save made by someone else on the service: the body changes, the revision goes up. */
function savedElsewhere(id: string, body: string): void {
  const doc = fixture.server?.docs.get(id);
  if (!doc) throw new Error(`no doc ${id}`);
  doc.body = body;
  doc.revision++;
}

describe('doc push: a document whose own text holds conflict-marker lines', () => {
  it('pulled, changed elsewhere in the file, pushed: saved (exit 0), the marker-like lines intact', async () => {
    const server = await serve([{ id: 'dc_git', title: 'Git', body: GIT_PAGE }]);
    const dir = scratch();
    const file = join(dir, 'git.md');
    expect((await kagent(['doc', 'pull', 'dc_git', '-o', file])).code).toBe(0);
    writeFileSync(file, GIT_PAGE.replace('Status: draft', 'Status: final'));
    const r = await kagent(['doc', 'push', file]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(server.docs.get('dc_git')).toMatchObject({
      revision: 2,
      body: GIT_PAGE.replace('Status: draft', 'Status: final'),
    });
  });

  it("after a conflict: kagent's markers are refused until resolved — one left, or a stray =======, is enough — while the document's own go through", async () => {
    const server = await serve([{ id: 'dc_git', title: 'Git', body: GIT_PAGE }]);
    const dir = scratch();
    const file = join(dir, 'git.md');
    expect((await kagent(['doc', 'pull', 'dc_git', '-o', file])).code).toBe(0);
    savedElsewhere('dc_git', GIT_PAGE.replace('Status: draft', 'Status: review'));
    writeFileSync(file, GIT_PAGE.replace('Status: draft', 'Status: final'));
    const conflict = await kagent(['doc', 'push', file]);
    expect(conflict.code).toBe(5);
    const marked = readFileSync(file, 'utf8');
    const hunk = `<<<<<<< ${file}\nStatus: final\n||||||| revision 1 (pulled)\nStatus: draft\n=======\nStatus: review\n>>>>>>> doc dc_git revision 2\n`;
    expect(marked).toBe(GIT_PAGE.replace('Status: draft\n', hunk));

    // As it is: refused.
    const refused = await kagent(['doc', 'push', file]);
    expect(refused.stderr).toContain(
      `error: ${file} still holds conflict markers written by kagent's merge (<<<<<<< ${file} …); nothing was sent (USAGE)`,
    );
    expect(refused.code).toBe(2);
    // Only kagent's closing line left in: refused.
    writeFileSync(
      file,
      GIT_PAGE.replace('Status: draft\n', 'Status: final, reviewed\n>>>>>>> doc dc_git revision 2\n'),
    );
    expect((await kagent(['doc', 'push', file])).code).toBe(2);
    // kagent's ======= left in, beside the document's own one: refused.
    writeFileSync(file, GIT_PAGE.replace('Status: draft\n', 'Status: final, reviewed\n=======\n'));
    expect((await kagent(['doc', 'push', file])).code).toBe(2);
    expect(server.docs.get('dc_git')?.revision).toBe(2);

    // Resolved: the document's own marker-like lines are kept and pushed.
    const resolved = GIT_PAGE.replace('Status: draft', 'Status: final, reviewed');
    writeFileSync(file, resolved);
    const pushed = await kagent(['doc', 'push', file]);
    expect(pushed.stderr).toBe('');
    expect(pushed.code).toBe(0);
    expect(server.docs.get('dc_git')).toMatchObject({ revision: 3, body: resolved });
  });
});

describe('doc edit in $EDITOR: a document whose own text holds conflict-marker lines', () => {
  it("a save meanwhile on the same line reopens the editor; kagent's hunk resolved, the document's own markers kept: saved", async () => {
    const server = await serve([{ id: 'dc_git', title: 'Git', body: GIT_PAGE }]);
    const dir = scratch();
    const first = join(dir, 'first');
    const editor = join(dir, 'editor.sh');
    const save = `node -e 'fetch(process.env.DOC_URL, { method: "POST", headers: { "content-type": "application/json" }, body: process.env.THEIRS }).then((r) => process.exit(r.ok ? 0 : 1))'`;
    writeFileSync(
      editor,
      [
        '#!/bin/sh',
        `if [ -f "${first}" ]; then`,
        // Reopened with kagent's markers: resolve that hunk, keep the rest of the text as it is.
        `  grep -q '^<<<<<<< your edit$' "$1" || exit 4`,
        `  printf '%s' "$RESOLVED" > "$1"`,
        'else',
        `  touch "${first}"`,
        `  ${save} || exit 5`,
        `  sed -i 's/^Status: draft$/Status: final/' "$1"`,
        'fi',
        '',
      ].join('\n'),
    );
    chmodSync(editor, 0o755);
    const resolved = GIT_PAGE.replace('Status: draft', 'Status: final, reviewed');
    const r = await kagent(['doc', 'edit', 'dc_git'], {
      tty: true,
      env: {
        EDITOR: editor,
        DOC_URL: `${server.baseUrl}/docs/dc_git/edits`,
        THEIRS: JSON.stringify({ edits: [{ op: 'replace', find: 'Status: draft', replace: 'Status: review' }] }),
        RESOLVED: resolved,
      },
    });
    expect(unwrap(r.stderr)).toContain(
      'doc dc_git changed since revision 1 (now 2): 1 hunk conflicts with your edit; reopening the editor',
    );
    expect(r.stderr).toContain('✓ Saved: doc dc_git is now at revision 3');
    expect(r.code).toBe(0);
    expect(server.docs.get('dc_git')).toMatchObject({ revision: 3, body: resolved });
  });
});
