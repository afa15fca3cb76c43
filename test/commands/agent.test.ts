// `kagent agent show/rename/memory` against the sandbox: terminal, piped and
// --json modes; memory by --set, --append, --file (a path and stdin) and
// $EDITOR on a terminal; the size checked against memoryMax before anything is
// sent (exit 2, no updateAgent); the summary of what changed.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import show from '../../commands/agent/show.js';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';
import { hasForeignEscapes, tempDir } from '../helpers/run.js';
import { pipedKeysOf } from '../helpers/piped-help.js';

let s: LoggedIn;
let dir: string;

const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

async function agent(): Promise<any> {
  return (await s.t.call('GET', '/agent')).body;
}

async function setMemory(memory: string): Promise<void> {
  expect((await s.t.call('PATCH', '/agent', { body: { memory } })).status).toBe(204);
}

async function updates(): Promise<number> {
  return (await s.t.call('GET', '/_sandbox/stats', { key: null })).body.requests.updateAgent ?? 0;
}

/** An $EDITOR: a shell script that does `body` to the file it is given ($1). */
function editor(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

beforeAll(async () => {
  s = await loggedInSandbox();
  dir = tempDir('kagent-editor-');
});
afterAll(() => s.close());

describe('agent show', () => {
  it('terminal: name, address, memory size and the memory rendered as Markdown', async () => {
    await setMemory('');
    const empty = plain((await s.kagent(['agent', 'show'], { tty: true })).stdout);
    expect(empty).toMatch(
      /^Ada\nAddress\s+ada-\w+@agent\.sandbox\.test \(email it to reach your agent\)\nMemory\s+0 of 20,000 characters\n/,
    );
    expect(empty).toContain('No memory yet: add to it with `kagent agent memory --append TEXT`');

    await setMemory('# About me\n\n- I like **tea**\n- Call me Sam');
    const r = await s.kagent(['agent', 'show'], { tty: true });
    expect(r.code).toBe(0);
    const out = plain(r.stdout);
    expect(out).toContain('Memory   42 of 20,000 characters');
    expect(out).toContain('I like tea');
    expect(out).not.toContain('**');
    // A heading in its colour (marked-terminal keeps the `#`), list items as bullets.
    expect(r.stdout).toMatch(/\x1b\[[0-9;]+m# About me/);
    expect(out).toContain('  * I like tea');
  });

  it('piped: label/value lines, `--`, then the memory as it is; --json is the Agent', async () => {
    await setMemory('- I like **tea**\n- Call me Sam\n');
    const a = await agent();
    const r = await s.kagent(['agent', 'show']);
    expect(r.stdout).toBe(
      `name\tAda\naddress\t${a.address}\nmemory-chars\t31\nmemory-max\t20000\n--\n- I like **tea**\n- Call me Sam\n`,
    );
    expect(JSON.parse((await s.kagent(['agent', 'show', '--json'])).stdout)).toEqual(a);
  });

  it('the help names every key it prints piped (one field table gives both)', async () => {
    const r = await s.kagent(['agent', 'show']);
    const keys = r.stdout
      .split('\n--\n')[0]!
      .split('\n')
      .map((line) => line.split('\t')[0]!);
    expect(keys).toEqual(['name', 'address', 'memory-chars', 'memory-max']);
    const helpKeys = pipedKeysOf(show.description);
    for (const key of keys) expect(helpKeys).toContain(key);
  });

  it('server text is sanitised', async () => {
    await setMemory('- evil \x1b]0;owned\x07title\x1b[2J here');
    for (const tty of [true, false]) {
      const r = await s.kagent(['agent', 'show'], { tty });
      expect(hasForeignEscapes(r.stdout)).toBe(false);
      expect(plain(r.stdout)).toContain('evil title here');
    }
  });
});

describe('agent rename', () => {
  it('renames: piped prints the new name, a terminal says from what to what, --json the Agent', async () => {
    const piped = await s.kagent(['agent', 'rename', 'Bea']);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe('Bea\n');
    expect((await agent()).name).toBe('Bea');
    const tty = await s.kagent(['agent', 'rename', 'Cy'], { tty: true });
    expect(tty.stdout).toBe('');
    expect(plain(tty.stderr)).toContain('✓ Renamed your agent: Bea → Cy');
    const json = JSON.parse((await s.kagent(['agent', 'rename', 'Ada', '--json'])).stdout);
    expect(json).toEqual(await agent());
    expect(json.name).toBe('Ada');
  });

  it('bounds before any request: 1 to 60 characters, not blank', async () => {
    const before = await updates();
    const long = await s.kagent(['agent', 'rename', 'n'.repeat(61)]);
    expect(long.code).toBe(2);
    expect(long.stderr).toContain('NAME must be 1 to 60 characters (got 61)');
    expect((await s.kagent(['agent', 'rename', ''])).code).toBe(2);
    expect((await s.kagent(['agent', 'rename', '   '])).code).toBe(2);
    expect(await updates()).toBe(before);
    expect((await s.kagent(['agent', 'rename', 'n'.repeat(60)])).code).toBe(0);
    await s.kagent(['agent', 'rename', 'Ada']);
  });
});

describe('agent memory', () => {
  it('--set replaces it: added/removed/size/max piped (the ✓ summary is for a terminal), the Agent with --json', async () => {
    await setMemory('- one\n- two\n');
    const r = await s.kagent(['agent', 'memory', '--set', '- one\n- three\n- four']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('2\t1\t20\t20000\n');
    expect(r.stderr).toBe('');
    expect((await agent()).memory).toBe('- one\n- three\n- four');
    const json = await s.kagent(['agent', 'memory', '--set', 'fresh', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ ...(await agent()), memory: 'fresh' });
  });

  it('--append adds a line at the end', async () => {
    await setMemory('- one\n\n');
    const r = await s.kagent(['agent', 'memory', '--append', '- two'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(plain(r.stderr)).toContain('✓ Memory updated: +1 line, −0 lines (7 → 11 of 20,000 characters)');
    expect((await agent()).memory).toBe('- one\n- two');
    await setMemory('');
    await s.kagent(['agent', 'memory', '--append', 'first']);
    expect((await agent()).memory).toBe('first');
  });

  it('--file PATH and --file - (stdin)', async () => {
    const path = join(dir, 'memory.md');
    writeFileSync(path, '# From a file\n\n- a\n');
    expect((await s.kagent(['agent', 'memory', '--file', path])).code).toBe(0);
    expect((await agent()).memory).toBe('# From a file\n\n- a\n');
    expect((await s.kagent(['agent', 'memory', '--file', '-'], { stdin: '- from stdin\n' })).code).toBe(0);
    expect((await agent()).memory).toBe('- from stdin\n');
    const missing = await s.kagent(['agent', 'memory', '--file', join(dir, 'nope.md')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--file: cannot read');
  });

  it('over memoryMax: exit 2 before any update, for --set, --append and --file', async () => {
    await setMemory('x'.repeat(19_990));
    const before = await updates();
    const set = await s.kagent(['agent', 'memory', '--set', 'y'.repeat(20_001)]);
    expect(set.code).toBe(2);
    expect(set.stderr).toContain('error: --set is 20001 characters; the memory holds at most 20000 (INVALID_INPUT)');
    const append = await s.kagent(['agent', 'memory', '--append', 'more than ten']);
    expect(append.code).toBe(2);
    expect(append.stderr).toContain(
      'error: --append would make the memory 20004 characters; the memory holds at most 20000 (INVALID_INPUT)',
    );
    expect(append.stderr).toContain('hint: it holds 19990 now');
    const file = await s.kagent(['agent', 'memory', '--file', '-'], { stdin: 'z'.repeat(20_001) });
    expect(file.code).toBe(2);
    const json = await s.kagent(['agent', 'memory', '--set', 'y'.repeat(20_001), '--json']);
    expect(JSON.parse(json.stderr).error).toMatchObject({
      code: 'INVALID_INPUT',
      issues: [{ path: '--set', message: 'is 20001 characters; the memory holds at most 20000' }],
    });
    expect(await updates()).toBe(before);
    // At the bound it goes through.
    expect((await s.kagent(['agent', 'memory', '--append', 'z'.repeat(9)])).code).toBe(0);
    expect((await agent()).memory).toHaveLength(20_000);
  });

  it('with none of the flags: $EDITOR on a terminal (the same bound after editing); piped it is exit 2; one flag at a time', async () => {
    await setMemory('- one\n');
    const append = editor('append.sh', `printf -- '- added in the editor\\n' >> "$1"`);
    const r = await s.kagent(['agent', 'memory'], { tty: true, env: { EDITOR: append } });
    expect(r.code).toBe(0);
    expect((await agent()).memory).toBe('- one\n- added in the editor\n');
    expect(plain(r.stderr)).toContain('✓ Memory updated: +1 line, −0 lines');

    const before = await updates();
    const same = await s.kagent(['agent', 'memory'], { tty: true, env: { EDITOR: 'true' } });
    expect(same.code).toBe(0);
    expect(same.stderr).toContain('No change: the memory is as it was.');
    const huge = editor('huge.sh', `head -c 20001 /dev/zero | tr '\\\\0' 'x' > "$1"`);
    const over = await s.kagent(['agent', 'memory'], { tty: true, env: { EDITOR: huge } });
    expect(over.code).toBe(2);
    expect(over.stderr).toContain('the edited memory is 20001 characters; the memory holds at most 20000');
    const failing = await s.kagent(['agent', 'memory'], { tty: true, env: { EDITOR: 'false' } });
    expect(failing.code).toBe(1);
    expect(failing.stderr).toContain('(EDITOR_FAILED)');
    expect(await updates()).toBe(before);

    const piped = await s.kagent(['agent', 'memory']);
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain('nothing to change: pass --set TEXT, --append TEXT or --file PATH');
    const both = await s.kagent(['agent', 'memory', '--set', 'a', '--append', 'b']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('use one of --set, --append and --file (got --set and --append)');
    expect(await updates()).toBe(before);

    // The final newline an editor adds to a memory that had none is not a change.
    await setMemory('- no final newline');
    const newline = editor('newline.sh', `printf '\\n' >> "$1"`);
    const sent = await updates();
    const saved = await s.kagent(['agent', 'memory'], { tty: true, env: { EDITOR: newline } });
    expect(saved.stderr).toContain('No change: the memory is as it was.');
    expect((await agent()).memory).toBe('- no final newline');
    expect(await updates()).toBe(sent);
  });
});
