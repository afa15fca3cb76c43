// Ctrl-C is not an error, on a real terminal: the built binary in a tmux window
// (test/helpers/tmux.ts), against a sandbox in this process whose clock stands
// still, so the work followed is still going when C-c is typed (tmux sends ^C to
// the terminal, which signals the foreground process, as a keyboard would). Each
// case ends with exit 130, no `error` on the screen, no spinner frame left on it,
// the cursor shown, and as the last line the one quiet line saying what goes on
// and how to pick it up again — following a task (at 40, 80 and 200 columns, the
// live block redrawn in place), `watch create`, `media start`, `conversation show
// --follow`, `chat`, a prompt of `auth login`, a confirmation, `lib upload`.
// (And, with the same sandbox, one piped run: `--jq` with jq-wasm from the bundle.)
// Ctrl-D at a prompt (the input ended, no answer) is `Cancelled.`, exit 1, nothing done.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, runBinary, testNode, unwrap } from '../helpers/binary.js';
import { binaryAgainstSandbox, type BinarySandbox } from '../helpers/binary-sandbox.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { requireTmux, runInTmux, type TmuxRun } from '../helpers/tmux.js';

let s: BinarySandbox;
let t: TestSandbox;
let home: string;

beforeAll(async () => {
  requireTmux();
  s = await binaryAgainstSandbox('kagent-ctrl-c-');
  ({ t, home } = s);
}, 60_000);
afterAll(() => s?.close());

/** The environment of every run: this test's home and config, and (unless `loggedOut`) the sandbox and its key. */
const env = (loggedOut = false): Record<string, string> => (loggedOut ? s.loggedOut : s.env);

/** Runs kagent in a tmux window of `cols` columns and types Ctrl-C once `ready` is on screen. */
const ctrlCWhen = (args: string[], ready: RegExp, cols = 80, environment = env()) =>
  runInTmux(args, { env: environment, cols, steps: [{ wait: ready, keys: ['C-c'] }] });

const SPINNER_FRAMES = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;

/**
 * Exit 130, nothing that looks like an error, no spinner frame left, the cursor shown;
 * returns the last message (its lines wrapped at the width, put back on one).
 */
function quietlyInterrupted(run: TmuxRun): string {
  expect(run.code, run.screen).toBe(130);
  expect(run.screen).not.toMatch(/error|INTERRUPTED|"code"|^\s+at /im);
  expect(run.screen).not.toMatch(SPINNER_FRAMES);
  expect(run.screen).not.toContain('^C');
  expect(run.cursorShown).toBe(true);
  const lines = run.screen.split('\n');
  let first = lines.length - 1;
  while (first > 0 && /^ {2}\S/.test(lines[first]!)) first--;
  return unwrap(lines.slice(first).join('\n'));
}

describe('built binary, piped', () => {
  it('`watch show --jq` picks entry ids (jq-wasm loads from the bundle)', async () => {
    const created = await t.call('POST', '/watches', { body: { intent: 'Offshore wind auctions' } });
    await t.advance(61_000);
    const page = (await t.call('GET', `/watches/${created.body.slug}`)).body;
    const result = await runBinary(['watch', 'show', created.body.slug, '--jq', '.brief.entries[].id'], {
      PATH: process.env.PATH,
      ...env(),
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${page.brief.entries.map((e: any) => e.id).join('\n')}\n`);
  });
});

describe.each([40, 80, 200])('Ctrl-C while following a task at %i columns', (cols) => {
  it('`task show --follow`: the block stays as last drawn, then "the task goes on; follow it again with …"', async () => {
    const created = await t.call('POST', '/watches', { body: { intent: `Battery recycling ${cols}` } });
    const taskId: string = created.body.taskId;
    const run = await ctrlCWhen(['task', 'show', taskId, '--follow'], /Finding sources/, cols);
    expect(quietlyInterrupted(run)).toBe(
      `the task goes on; follow it again with \`kagent task show ${taskId} --follow\``,
    );
    expect(run.screen).toMatch(/^Set up watch: Battery/m);
    expect(run.screen).toMatch(/^ {2}○ Finding sources$/m);
    // the work goes on: still active now, done once its time has passed
    expect(['queued', 'running']).toContain((await t.call('GET', `/tasks/${taskId}`)).body.status);
    await t.advance(61_000);
    expect((await t.call('GET', `/tasks/${taskId}`)).body.status).toBe('done');
  });
});

describe('Ctrl-C in a pseudo-terminal (built binary), at 80 columns', () => {
  it('`watch create`: "the set-up goes on", with the commands that follow it and read the watch', async () => {
    const run = await ctrlCWhen(
      ['watch', 'create', 'Solid state batteries', '--visibility', 'unlisted'],
      /Set up watch: Solid state batteries[\s\S]*Finding sources/,
    );
    const last = quietlyInterrupted(run);
    const said =
      /^the set-up goes on; follow it with `kagent task show (tk_\w+) --follow`, then read the watch with `kagent watch show solid-state-batteries`$/.exec(
        last,
      );
    expect(said, last).not.toBeNull();
    expect(['queued', 'running']).toContain((await t.call('GET', `/tasks/${said![1]}`)).body.status);
  });

  it('`media start --yes`: "the transcription goes on; follow it again with …"', async () => {
    const run = await ctrlCWhen(
      ['media', 'start', 'https://www.youtube.com/watch?v=ctrl-c-pty', '--yes'],
      /Started md_\w+[\s\S]*youtube/,
    );
    const last = quietlyInterrupted(run);
    expect(last).toMatch(/^the transcription goes on; follow it again with `kagent media show md_\w+ --follow`$/);
  });

  it('`conversation show --follow`: the spinner erased, "the turn goes on; read it again with …"', async () => {
    const turn = (await t.call('POST', '/conversations/messages', { body: { text: 'What is new on tides?' } })).body;
    const run = await ctrlCWhen(['conversation', 'show', turn.conversationId, '--follow'], /Thinking/);
    expect(quietlyInterrupted(run)).toBe(
      `the turn goes on; read it again with \`kagent conversation show ${turn.conversationId} --follow\``,
    );
    expect(run.screen).not.toContain('Thinking');
  });

  it('`chat MESSAGE`: the spinner erased, "the turn goes on; the reply will be in the conversation: …"', async () => {
    const run = await ctrlCWhen(['chat', 'and what about waves?'], /Thinking/);
    expect(quietlyInterrupted(run)).toMatch(
      /^the turn goes on; the reply will be in the conversation: `kagent conversation show cv_\w+ --follow`$/,
    );
    expect(run.screen).not.toContain('Thinking');
  });

  it('`auth login` at the base-URL prompt: "nothing was saved", and nothing is', async () => {
    const config = join(home, 'login-config');
    const run = await ctrlCWhen(['auth', 'login'], /API base URL/, 80, { ...env(true), KAGENT_CONFIG_DIR: config });
    expect(quietlyInterrupted(run)).toBe('nothing was saved');
    expect(existsSync(config)).toBe(false);
  });

  it('`watch create` at its question (what to follow): "nothing was created"', async () => {
    const before = (await t.call('GET', '/watches')).body.items.length;
    const run = await ctrlCWhen(['watch', 'create'], /What should the watch follow/);
    expect(quietlyInterrupted(run)).toBe('nothing was created');
    expect((await t.call('GET', '/watches')).body.items.length).toBe(before);
  });

  it('a confirmation (`config delete`): "did not delete profile …", and the profile is kept', async () => {
    // Asynchronously: the sandbox answering it runs in this very process.
    const login = spawn(testNode, [bin, 'auth', 'login', '-p', 'work', '--with-key'], {
      env: { PATH: process.env.PATH, ...env(true), KAGENT_BASE_URL: t.baseUrl },
    });
    login.stdin.end(`${t.apiKey}\n`);
    expect(await new Promise((resolve) => login.on('close', resolve))).toBe(0);
    const run = await ctrlCWhen(['config', 'delete', 'work'], /Delete profile "work"/, 80, env(true));
    expect(quietlyInterrupted(run)).toBe('did not delete profile "work"');
    expect(readFileSync(join(home, 'config', 'config.json'), 'utf8')).toContain('"work"');
  });

  it('`lib upload` of a folder: the progress bar erased, what was done, then how to go on', async () => {
    const dir = join(home, 'notes');
    mkdirSync(dir);
    for (let n = 0; n < 12; n++) writeFileSync(join(dir, `note-${String(n).padStart(2, '0')}.md`), `# Note ${n}\n`);
    await t.inject({ kind: 'slow', ms: 300, count: 12, method: 'POST', path: '/api/v1/library/files' });
    const run = await ctrlCWhen(['lib', 'upload', dir, '--concurrency', '1'], /\d+\/12 files/);
    expect(quietlyInterrupted(run)).toBe(
      'run the same command again: files already uploaded are recognised and not added twice',
    );
    expect(run.screen).toMatch(/^\d+ uploaded, 0 already there, 0 failed, \d+ not attempted/m);
    expect(run.screen).not.toMatch(/\d+\/12 files/);
  });
});

// Ctrl-D ends the input: the prompt gets no answer, so nothing is done and the run is no success.
describe('Ctrl-D at a prompt (built binary, a pseudo-terminal)', () => {
  const ctrlDWhen = (args: string[], ready: RegExp, environment: Record<string, string>) =>
    runInTmux(args, { env: environment, cols: 80, steps: [{ wait: ready, keys: ['C-d'] }] });

  it('`auth login` at the key prompt: "Cancelled.", exit 1, nothing saved', async () => {
    const config = join(home, 'ctrl-d-config');
    const run = await ctrlDWhen(['auth', 'login', '--base-url', t.baseUrl], /API key/, {
      ...env(true),
      KAGENT_CONFIG_DIR: config,
    });
    expect(run.code).toBe(1);
    // Said where the cursor stood: on the prompt's line, above its key hint.
    expect(run.screen).toMatch(/API key .*: Cancelled\.\n/);
    expect(existsSync(join(config, 'config.json'))).toBe(false);
  });

  it('a confirmation (`space delete`): "Cancelled.", exit 1, the space kept', async () => {
    const created = await t.call('POST', '/spaces', { body: { name: 'Ctrl-D kept' } });
    const id = (created.body as { id: string }).id;
    const run = await ctrlDWhen(['space', 'delete', id], /Delete space/, env());
    expect(run.code).toBe(1);
    expect(run.screen.split('\n').at(-1)).toMatch(/Cancelled\.$/);
    const spaces = (await t.call('GET', '/spaces')).body as { items: Array<{ id: string }> };
    expect(spaces.items.map((space) => space.id)).toContain(id);
  });
});
