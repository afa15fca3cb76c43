// The pager (src/io/pager.ts), driven in-process on a "terminal" of LINES rows
// with a recording pager: a shell script that notes each start and what it was
// given, and passes the text on (to kagent's stdout, as a pager shows it).
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';
import type { RunCliOptions } from '../helpers/run.js';
import { plain, unwrap } from '../helpers/binary.js';

let s: LoggedIn;
let dir: string;
let recorder: string;
let otherRecorder: string;
let log: string;
let longDoc: string;
let shortDoc: string;

const paragraph = (i: number) =>
  `Paragraph ${i}: the quick brown fox jumps over the lazy dog; 中文段落 ${i}。 See https://example.com/notes/${i}.`;

beforeAll(async () => {
  s = await loggedInSandbox();
  dir = mkdtempSync(join(tmpdir(), 'kagent-pager-'));
  log = join(dir, 'pager.log');
  const script = (name: string) => {
    const path = join(dir, name);
    // Notes the start (name, arguments, LESS as given), keeps the input, and passes it on.
    writeFileSync(path, `#!/bin/sh\necho "start ${name} $* LESS=$LESS" >> "$PAGER_LOG"\ntee -a "$PAGER_LOG.in"\n`);
    chmodSync(path, 0o755);
    return path;
  };
  recorder = script('recorder');
  otherRecorder = script('other');
  longDoc = (
    await s.t.call('POST', '/docs', {
      body: { title: 'Long notes', markdown: Array.from({ length: 40 }, (_, i) => paragraph(i)).join('\n\n') },
    })
  ).body.id;
  shortDoc = (await s.t.call('POST', '/docs', { body: { title: 'Short', markdown: 'One line.' } })).body.id;
}, 60_000);
afterAll(async () => {
  await s?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  rmSync(log, { force: true });
  rmSync(`${log}.in`, { force: true });
});

const starts = () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);
const given = () => (existsSync(`${log}.in`) ? readFileSync(`${log}.in`, 'utf8') : '');

/** A terminal of 80 × 20 with the recording pager set as KAGENT_PAGER (unless env says otherwise). */
function onTerminal(argv: string[], env: Record<string, string | undefined> = {}, options: RunCliOptions = {}) {
  return s.kagent(argv, {
    tty: true,
    columns: 80,
    ...options,
    env: { LINES: '20', PAGER_LOG: log, KAGENT_PAGER: recorder, ...env },
  });
}

describe('long output on a terminal goes through the pager', () => {
  it('`doc show` of a long document: the pager is started once and shows all of it, in colour', async () => {
    const r = await onTerminal(['doc', 'show', longDoc]);
    expect(r.code).toBe(0);
    expect(starts()).toEqual([expect.stringMatching(/^start recorder +LESS=FRX$/)]);
    expect(given()).toContain('Paragraph 0:');
    expect(given()).toContain('Paragraph 39:');
    expect(given()).toMatch(/\x1b\[[0-9;]*m/);
    // What the pager showed reached the terminal, in order, once.
    expect(r.stdout).toBe(given());
    expect(r.stderr).toBe('');
  });

  it('output that fits the screen is printed without a pager', async () => {
    const r = await onTerminal(['doc', 'show', shortDoc]);
    expect(r.code).toBe(0);
    expect(starts()).toEqual([]);
    expect(r.stdout).toContain('One line.');
  });

  it('a list longer than the screen is paged; a short one is not', async () => {
    for (let i = 0; i < 25; i++) await s.t.call('POST', '/spaces', { body: { name: `Space ${i} 研究 🚀` } });
    const long = await onTerminal(['space', 'list']);
    expect(long.code).toBe(0);
    expect(starts()).toHaveLength(1);
    expect(given()).toContain('Space 24 研究 🚀');
    expect(long.stdout).toBe(given());
    rmSync(log, { force: true });
    // The same list on a taller screen fits: no pager.
    const short = await onTerminal(['space', 'list'], { LINES: '40' });
    expect(short.code).toBe(0);
    expect(short.stdout).toBe(long.stdout);
    expect(starts()).toEqual([]);
  });

  it('never when piped, with --json or --jq, or with --no-pager', async () => {
    const piped = await s.kagent(['doc', 'show', longDoc], {
      env: { LINES: '20', PAGER_LOG: log, KAGENT_PAGER: recorder },
    });
    expect(piped.code).toBe(0);
    expect(piped.stdout).toContain('Paragraph 39:');
    for (const flags of [['--json'], ['--jq', '.title'], ['--no-pager']]) {
      const r = await onTerminal(['doc', 'show', longDoc, ...flags]);
      expect(r.code, flags.join(' ')).toBe(0);
      expect(r.stdout.length).toBeGreaterThan(0);
    }
    expect(starts()).toEqual([]);
  });

  it('PAGER=cat, KAGENT_PAGER=cat or an empty KAGENT_PAGER turn it off', async () => {
    for (const env of [{ KAGENT_PAGER: undefined, PAGER: 'cat' }, { KAGENT_PAGER: 'cat' }, { KAGENT_PAGER: '' }]) {
      const r = await onTerminal(['doc', 'show', longDoc], env);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Paragraph 39:');
    }
    expect(starts()).toEqual([]);
  });

  it('which pager: KAGENT_PAGER, then `config set pager`, then PAGER', async () => {
    const configDir = s.configDir;
    expect((await s.kagent(['config', 'set', 'pager', `${otherRecorder} --from-config`])).code).toBe(0);
    try {
      await onTerminal(['doc', 'show', longDoc], { KAGENT_PAGER: undefined, PAGER: recorder });
      expect(starts()).toEqual([expect.stringMatching(/^start other --from-config/)]);
      rmSync(log, { force: true });
      await onTerminal(['doc', 'show', longDoc]);
      expect(starts()).toEqual([expect.stringMatching(/^start recorder/)]);
      const shown = await s.kagent(['config', 'get', 'pager', '--json'], { env: { KAGENT_PAGER: recorder } });
      expect(JSON.parse(shown.stdout)).toEqual({ key: 'pager', value: recorder, source: 'env' });
    } finally {
      await s.kagent(['config', 'unset', 'pager'], { configDir });
    }
    rmSync(log, { force: true });
    await onTerminal(['doc', 'show', longDoc], { KAGENT_PAGER: undefined, PAGER: `${otherRecorder} -x` });
    expect(starts()).toEqual([expect.stringMatching(/^start other -x/)]);
    // The user's LESS is theirs.
    rmSync(log, { force: true });
    await onTerminal(['doc', 'show', longDoc], { LESS: 'R' });
    expect(starts()).toEqual([expect.stringMatching(/LESS=R$/)]);
  });

  it('quitting the pager early ends kagent quietly with exit 0', async () => {
    // Reads a few bytes and quits, long before the 300 KB document is all written.
    const big = (
      await s.t.call('POST', '/docs', {
        body: { title: 'Big', markdown: Array.from({ length: 3000 }, (_, i) => paragraph(i)).join('\n\n') },
      })
    ).body.id;
    const r = await onTerminal(['doc', 'show', big], { KAGENT_PAGER: 'head -c 200' });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(Buffer.byteLength(r.stdout)).toBe(200);
  });

  it.each([
    ['exits with an error before reading', `sh -c 'exit 2'`, 'ended with status 2'],
    ['reads it all and fails', `sh -c 'cat >/dev/null; exit 3'`, 'ended with status 3'],
    ['cannot be run by the shell', 'PAGER_DIR/no-interpreter', 'ended with status 127'],
    // (Started through a shell, which says so and ends with 128 + the signal.)
    ['crashes', `sh -c 'kill -SEGV $$'`, 'ended with status 139'],
  ])('a pager that %s: PAGER_FAILED (exit 1), never a success', async (_name, pager, how) => {
    const script = join(dir, 'no-interpreter');
    writeFileSync(script, '#!/no/such/interpreter\n');
    chmodSync(script, 0o755);
    const command = pager.replace('PAGER_DIR', dir);
    const r = await onTerminal(['doc', 'show', longDoc], { KAGENT_PAGER: command });
    expect(r.code).toBe(1);
    // The terminal's stderr: styled and wrapped at 80 columns.
    expect(unwrap(plain(r.stderr))).toContain(
      `error: the pager "${command}" ${how}: the output may not have been shown (PAGER_FAILED)\n` +
        'hint: choose another pager (KAGENT_PAGER, PAGER or `kagent config set pager`), or pass --no-pager\n',
    );
  });

  it('a pager that is not installed: a warning, and the output printed as it is', async () => {
    const r = await onTerminal(['doc', 'show', longDoc], { KAGENT_PAGER: join(dir, 'no-such-pager') });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `warning: the pager "${join(dir, 'no-such-pager')}" (from KAGENT_PAGER) was not found; printing directly\n`,
    );
    expect(r.stdout).toContain('Paragraph 39:');
    // The default (less) missing is no news: nothing is said.
    const noLess = await onTerminal(['doc', 'show', longDoc], { KAGENT_PAGER: undefined, PATH: dir });
    expect(noLess.code).toBe(0);
    expect(noLess.stderr).toBe('');
    expect(noLess.stdout).toContain('Paragraph 39:');
  });

  it('an error after output was held: the output first, then the error, with its exit code', async () => {
    const r = await onTerminal(['doc', 'show', 'doc_missing']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error: .*\(NOT_FOUND|DOC_NOT_FOUND\)/m);
    expect(starts()).toEqual([]);
  });
});

describe('the pager setting', () => {
  it('`config set pager` refuses an empty command and control characters (exit 2); `config get` shows the default', async () => {
    const empty = await s.kagent(['config', 'set', 'pager', '  ']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/pager must be a command/);
    expect(empty.stderr).toMatch(/kagent config set pager cat/);
    const control = await s.kagent(['config', 'set', 'pager', 'less\x1b[2J']);
    expect(control.code).toBe(2);
    const shown = await s.kagent(['config', 'get', 'pager', '--json']);
    expect(JSON.parse(shown.stdout)).toEqual({ key: 'pager', value: 'less -FRX', source: 'default' });
  });

  it('--no-pager is a global flag, listed in the help', async () => {
    const help = await s.kagent(['--help']);
    expect(help.stdout).toMatch(/--no-pager +never page long output/);
  });
});
