// After SIGHUP while saving, say what is known. `doc edit` in $EDITOR (the
// built binary in a pseudo-terminal) sends the save; the service applies it
// and holds its answer; the terminal "hangs up" (SIGHUP to kagent) while the
// request is on its way. kagent must not claim that nothing was saved: the
// outcome is unknown, it says how to check, and where the text was kept. A
// hang-up while the editor is still open sends nothing, and says so.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, plain, runInPty, unwrap } from '../helpers/binary.js';
import { startDocServer, type DocServer } from '../helpers/doc-server.js';

let server: DocServer | undefined;
const dirs: string[] = [];

beforeAll(() => ensureBuilt(), 120_000);
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * `doc edit dc_1` in a pseudo-terminal with a scripted editor: the script finds kagent's pid as $p
 * (the nearest ancestor running bin/kagent.js: the editor runs under a shell kagent started), runs
 * `then`, and changes "Status: draft" to "Status: final".
 */
async function editWith(home: string, then: string) {
  const editor = join(home, 'editor.sh');
  writeFileSync(
    editor,
    [
      '#!/bin/sh',
      'p=$PPID',
      `while [ "$p" -gt 1 ] && ! tr '\\0' ' ' < /proc/$p/cmdline | grep -q 'kagent.js'; do p=$(awk '/^PPid:/ { print $2 }' /proc/$p/status); done`,
      then,
      `sed -i 's/^Status: draft$/Status: final/' "$1"`,
      '',
    ].join('\n'),
  );
  chmodSync(editor, 0o755);
  const env = {
    HOME: home,
    TMPDIR: home,
    KAGENT_CONFIG_DIR: join(home, 'config'),
    KAGENT_CACHE_DIR: join(home, 'cache'),
    KAGENT_BASE_URL: server!.baseUrl,
    KAGENT_API_KEY: 'k_test',
    EDITOR: editor,
    NO_COLOR: '1',
  };
  const run = await runInPty(['doc', 'edit', 'dc_1'], { env, timeoutMs: 30_000 });
  return { screen: unwrap(plain(run.output)), code: run.code };
}

describe('doc edit stopped by a signal while the editor is open', () => {
  it('SIGHUP before anything is sent: nothing was saved, not "unknown"; the text kept (exit 129)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'kagent-hostile-'));
    dirs.push(home);
    server = await startDocServer({ docs: [{ id: 'dc_1', title: 'Plan', body: '# Plan\n\nStatus: draft\n' }] });
    const { screen, code } = await editWith(home, 'kill -HUP "$p"');
    expect(server.docs.get('dc_1')).toMatchObject({ revision: 1, body: '# Plan\n\nStatus: draft\n' });
    expect(server.requests.filter((q) => q.method !== 'GET')).toEqual([]);
    expect(screen).not.toContain('on its way');
    expect(screen).toContain('nothing was saved');
    const kept = /your text is kept in (\S+\.md)/.exec(screen)?.[1];
    expect(readFileSync(kept as string, 'utf8')).toBe('# Plan\n\nStatus: final\n');
    expect(code).toBe(129);
  }, 60_000);
});

describe('doc edit stopped by a signal while its save is in flight', () => {
  it('SIGHUP after the service applied the save, before its answer: outcome unknown, how to check, the text kept (exit 129)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'kagent-hostile-'));
    dirs.push(home);
    const pidFile = join(home, 'kagent.pid');
    let signalled = false;
    server = await startDocServer({
      docs: [{ id: 'dc_1', title: 'Plan', body: '# Plan\n\nStatus: draft\n' }],
      // The save is applied; then the terminal hangs up; the answer never comes.
      onSaved: () => {
        process.kill(Number(readFileSync(pidFile, 'utf8').trim()), 'SIGHUP');
        signalled = true;
      },
      saveDelayMs: Infinity,
    });
    const { screen, code } = await editWith(home, `echo "$p" > '${pidFile}'`);
    expect(signalled).toBe(true);
    // The service did apply it.
    expect(server.docs.get('dc_1')).toMatchObject({ revision: 2, body: '# Plan\n\nStatus: final\n' });
    expect(screen).not.toContain('nothing was saved');
    expect(screen).toContain(
      'error: interrupted while the save of doc dc_1 was on its way: whether the service applied it is unknown (INTERRUPTED)',
    );
    expect(screen).toContain(
      'hint: check with `kagent doc show dc_1`: revision 1 is the one you edited, a later one holding your change means it was saved; your text is kept in ',
    );
    const kept = /your text is kept in (\S+\.md)/.exec(screen)?.[1];
    expect(kept?.startsWith(`${home}/kagent-dc_1-r1-`)).toBe(true);
    expect(existsSync(kept as string)).toBe(true);
    expect(readFileSync(kept as string, 'utf8')).toBe('# Plan\n\nStatus: final\n');
    expect(code).toBe(129);
  }, 60_000);
});

describe('doc push stopped while its save is in flight', () => {
  it('interrupted after the service applied it: outcome unknown (exit 130); pushing again finds the change there and sends nothing', async () => {
    const { runCli } = await import('../helpers/run.js');
    const dir = mkdtempSync(join(tmpdir(), 'kagent-hostile-'));
    dirs.push(dir);
    const stop = new AbortController();
    let holdSaves = true;
    server = await startDocServer({
      docs: [{ id: 'dc_1', title: 'Plan', body: '# Plan\n\nStatus: draft\n' }],
      onSaved: () => {
        if (holdSaves) stop.abort();
      },
      saveDelayMs: Infinity,
    });
    const env = { KAGENT_BASE_URL: server.baseUrl, KAGENT_API_KEY: 'k_test', NO_COLOR: '1' };
    const file = join(dir, 'plan.md');
    expect((await runCli(['doc', 'pull', 'dc_1', '-o', file], { env })).code).toBe(0);
    writeFileSync(file, '# Plan\n\nStatus: final\n');
    const r = await runCli(['doc', 'push', file], { env, signal: stop.signal });
    expect(server.docs.get('dc_1')).toMatchObject({ revision: 2, body: '# Plan\n\nStatus: final\n' });
    expect(r.stderr).toBe(
      `error: interrupted while the push of ${file} was on its way: whether doc dc_1 took it is unknown (INTERRUPTED)\n` +
        'hint: check with `kagent doc show dc_1` (a revision after 1 holding your change means it was saved), or push again: a change already applied is found there and not sent twice\n',
    );
    expect(r.code).toBe(130);
    // Pushed again: the merge finds the same change on the service; nothing more is saved.
    holdSaves = false;
    const again = await runCli(['doc', 'push', file], { env });
    expect(again.code).toBe(0);
    expect(server.docs.get('dc_1')).toMatchObject({ revision: 2, body: '# Plan\n\nStatus: final\n' });
  });
});
