// `kagent doc edit ID` with no edit flags, in a real pseudo-terminal against the
// built binary (bin/kagent.js → dist/): `script` gives the process a terminal,
// so kagent opens $EDITOR — here a shell script that edits the file with sed,
// as a person would — and sends the change as one exact-match edit on the
// revision it read. Also the real confirmation prompt of `doc delete`.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, plain, runInPty, unwrap } from '../helpers/binary.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let t: TestSandbox;
let home: string;

beforeAll(async () => {
  ensureBuilt();
  t = await startTestSandbox();
  home = mkdtempSync(join(tmpdir(), 'kagent-doc-pty-'));
}, 60_000);
afterAll(async () => {
  await t?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

/** Runs kagent in a pseudo-terminal with `extra` in its environment; `answer` is typed once `when` shows on the screen. */
function inPty(args: string[], extra: Record<string, string>, interaction?: { when: RegExp; answer: string }) {
  const env = {
    HOME: home,
    KAGENT_CONFIG_DIR: join(home, 'config'),
    KAGENT_CACHE_DIR: join(home, 'cache'),
    KAGENT_BASE_URL: t.baseUrl,
    KAGENT_API_KEY: t.apiKey,
    ...extra,
  };
  return runInPty(args, { env, steps: interaction ? [{ wait: interaction.when, type: interaction.answer }] : [] });
}

describe('doc in a pseudo-terminal (built binary)', () => {
  it('`doc edit ID` opens $EDITOR on the body and saves the change as revision 2', async () => {
    const body = '# Plan\n\nStatus: draft\n\n- one\n';
    const doc = (await t.call('POST', '/docs', { body: { title: 'Plan', markdown: body } })).body;
    const editor = join(home, 'editor.sh');
    writeFileSync(editor, `#!/bin/sh\ntest -t 0 || exit 3\nsed -i 's/Status: draft/Status: final/' "$1"\n`);
    chmodSync(editor, 0o755);
    const run = await inPty(['doc', 'edit', doc.id], { EDITOR: editor });
    expect(plain(run.output)).toContain(`✓ Saved: doc ${doc.id} is now at revision 2`);
    expect(run.code).toBe(0);
    const after = (await t.call('GET', `/docs/${doc.id}`)).body;
    expect(after).toMatchObject({ body: '# Plan\n\nStatus: final\n\n- one\n', revision: 2 });
  });

  it('`doc edit ID`: a save made meanwhile on the same line reopens $EDITOR with the markers; resolved there, it is saved', async () => {
    const body = '# Plan\n\nStatus: draft\n\n- one\n';
    const doc = (await t.call('POST', '/docs', { body: { title: 'Plan', markdown: body } })).body;
    const editor = join(home, 'racing-editor.sh');
    const first = join(home, `first-${doc.id}`);
    const save = `node -e 'fetch(process.env.KAGENT_BASE_URL + "/docs/${doc.id}/edits", { method: "POST", headers: { authorization: "Bearer " + process.env.KAGENT_API_KEY, "content-type": "application/json" }, body: JSON.stringify({ edits: [{ op: "replace", find: "Status: draft", replace: "Status: review" }] }) }).then((r) => process.exit(r.ok ? 0 : 1))'`;
    writeFileSync(
      editor,
      [
        '#!/bin/sh',
        'test -t 0 || exit 3',
        `if [ -f "${first}" ]; then`,
        // Reopened with the markers: keep both words, drop the markers.
        `  grep -q '^<<<<<<< your edit$' "$1" || exit 4`,
        `  printf '# Plan\\n\\nStatus: final, after review\\n\\n- one\\n' > "$1"`,
        'else',
        `  touch "${first}"`,
        `  ${save} || exit 5`,
        `  sed -i 's/Status: draft/Status: final/' "$1"`,
        'fi',
        '',
      ].join('\n'),
    );
    chmodSync(editor, 0o755);
    const run = await inPty(['doc', 'edit', doc.id], { EDITOR: editor });
    const screen = unwrap(plain(run.output));
    expect(screen).toContain('1 hunk conflicts with your edit; reopening the editor');
    expect(screen).toContain(`✓ Saved: doc ${doc.id} is now at revision 3`);
    expect(run.code).toBe(0);
    const after = (await t.call('GET', `/docs/${doc.id}`)).body;
    expect(after).toMatchObject({ body: '# Plan\n\nStatus: final, after review\n\n- one\n', revision: 3 });
  });

  // Real vi (vim-tiny on CI, .ci/run): `:wq` ends the file with a newline the service's body does not have.
  it('`doc edit ID` in real vi, saved unchanged (`vi -c wq`): no change, no new revision, no newline added', async () => {
    const body = '# Plan\n\n- one\n- two';
    const doc = (await t.call('POST', '/docs', { body: { title: 'Plan', markdown: body } })).body;
    const run = await inPty(['doc', 'edit', doc.id], { EDITOR: 'vi -c wq' });
    expect(plain(run.output)).toContain(`No changes: doc ${doc.id} stays at revision 1.`);
    expect(run.code).toBe(0);
    expect((await t.call('GET', `/docs/${doc.id}`)).body).toMatchObject({ body, revision: 1 });
  });

  it('a pulled file ends with a newline; saved unchanged in real vi it is unchanged for `doc status` and `doc push`; a real change keeps the body without one', async () => {
    const body = '# Plan\n\n- one\n- two';
    const doc = (await t.call('POST', '/docs', { body: { title: 'Plan', markdown: body } })).body;
    const file = join(home, `plan-${doc.id}.md`);
    const env = {
      HOME: home,
      KAGENT_CONFIG_DIR: join(home, 'config'),
      KAGENT_CACHE_DIR: join(home, 'cache'),
      KAGENT_BASE_URL: t.baseUrl,
      KAGENT_API_KEY: t.apiKey,
      FILE: file,
    };
    const pulled = await runInPty([], {
      env,
      shell: `eval "$KAGENT doc pull ${doc.id} -o \\"\\$FILE\\"" >/dev/null && vi -c wq "$FILE" && eval "$KAGENT doc status \\"\\$FILE\\" --json" && eval "$KAGENT doc push \\"\\$FILE\\""`,
    });
    expect(pulled.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(`${body}\n`);
    const screen = unwrap(plain(pulled.output));
    expect(screen).toContain('"state": "unchanged"');
    expect(screen).toContain(`No changes: ${file} is doc ${doc.id} at revision 1; nothing was sent.`);
    expect((await t.call('GET', `/docs/${doc.id}`)).body).toMatchObject({ body, revision: 1 });

    const changed = await runInPty([], {
      env,
      shell: `printf -- '- three\\n' >> "$FILE" && eval "$KAGENT doc push \\"\\$FILE\\""`,
    });
    expect(plain(changed.output)).toContain(`Pushed ${file}: doc ${doc.id} is now at revision 2`);
    expect((await t.call('GET', `/docs/${doc.id}`)).body).toMatchObject({ body: `${body}\n- three`, revision: 2 });
    expect(readFileSync(file, 'utf8')).toBe(`${body}\n- three\n`);
  });

  it('`doc delete ID` asks on the terminal; typing y deletes it', async () => {
    const doc = (await t.call('POST', '/docs', { body: { title: 'Scratch' } })).body;
    const run = await inPty(['doc', 'delete', doc.id], {}, { when: /Delete doc "Scratch"/, answer: 'y\r' });
    expect(plain(run.output)).toContain(`✓ Deleted doc ${doc.id}`);
    expect(run.code).toBe(0);
    expect((await t.call('GET', `/docs/${doc.id}`)).status).toBe(404);
  });
});
