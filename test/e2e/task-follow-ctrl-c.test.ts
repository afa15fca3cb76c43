// Ctrl-C while following a task, in a real pseudo-terminal, against the built
// binary (bin/kagent.js → dist/): `script` from util-linux gives the process a
// terminal; writing ^C to it makes the terminal send SIGINT to the foreground
// process, as a keyboard would. The follower must stop, leave the work going,
// print the command that resumes and exit 130 — for `task watch` and for
// `watch create`. The sandbox runs in this test process, in real time.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, ensureBuilt, plain, runInPty, testNode } from '../helpers/binary.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let t: TestSandbox;
let home: string;

beforeAll(async () => {
  ensureBuilt();
  t = await startTestSandbox();
  home = mkdtempSync(join(tmpdir(), 'kagent-pty-'));
}, 60_000);
afterAll(async () => {
  await t?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

/** The environment of every run: this test's home and the sandbox's key. */
const env = () => ({
  HOME: home,
  KAGENT_CONFIG_DIR: join(home, 'config'),
  KAGENT_CACHE_DIR: join(home, 'cache'),
  KAGENT_BASE_URL: t.baseUrl,
  KAGENT_API_KEY: t.apiKey,
});

/** Runs kagent in a pseudo-terminal; presses Ctrl-C once `ready` matches the screen output. */
const ctrlCWhen = (args: string[], ready: RegExp) =>
  runInPty(args, { env: env(), steps: [{ wait: ready, type: '\x03' }] });

describe('built binary, piped', () => {
  it('`watch show --jq` picks entry ids (jq-wasm loads from the bundle)', async () => {
    const created = await t.call('POST', '/watches', { body: { intent: 'Offshore wind auctions' } });
    await t.advance(61_000);
    const page = (await t.call('GET', `/watches/${created.body.slug}`)).body;
    // Asynchronously: the sandbox answering it runs in this very process.
    const result = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(testNode, [bin, 'watch', 'show', created.body.slug, '--jq', '.brief.entries[].id'], {
        env: {
          PATH: process.env.PATH,
          HOME: home,
          KAGENT_CONFIG_DIR: join(home, 'config'),
          KAGENT_BASE_URL: t.baseUrl,
          KAGENT_API_KEY: t.apiKey,
        },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.on('error', reject);
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${page.brief.entries.map((e: any) => e.id).join('\n')}\n`);
  });
});

describe('Ctrl-C in a pseudo-terminal (built binary)', () => {
  it('`task watch`: stops following, exit 130, prints `kagent task watch <id>`; the task goes on', async () => {
    const created = await t.call('POST', '/watches', { body: { intent: 'Battery recycling in Europe' } });
    const taskId: string = created.body.taskId;
    // The live view is up once the task's title and a milestone are on screen.
    const run = await ctrlCWhen(['task', 'watch', taskId], /Set up watch: Battery recycling[\s\S]*Finding sources/);
    const screen = plain(run.output);
    expect(run.code).toBe(130);
    expect(screen).toContain('error: stopped following; the work goes on (INTERRUPTED)');
    expect(screen).toContain(`hint: follow it again with \`kagent task show ${taskId} --follow\``);
    // drawn in place on the terminal (cursor up), not logged line by line
    expect(run.output).toMatch(/\x1b\[\d+A/);
    // the work goes on: still active now, done once its time has passed
    expect(['queued', 'running']).toContain((await t.call('GET', `/tasks/${taskId}`)).body.status);
    await t.advance(61_000);
    expect((await t.call('GET', `/tasks/${taskId}`)).body.status).toBe('done');
  });

  it('`watch create`: stops following the set-up, exit 130, prints the resume commands', async () => {
    const run = await ctrlCWhen(
      ['watch', 'create', 'Solid state batteries', '--visibility', 'unlisted'],
      /Set up watch: Solid state batteries[\s\S]*Finding sources/,
    );
    const screen = plain(run.output);
    expect(run.code).toBe(130);
    expect(screen).toContain('error: stopped following; the work goes on (INTERRUPTED)');
    expect(screen).toContain('Creating unlisted watch solid-state-batteries: setting it up');
    const hint =
      /hint: the watch is still being set up: follow it with `kagent task show (tk_\w+) --follow`, then read it with `kagent watch show solid-state-batteries`/.exec(
        screen,
      );
    expect(hint).not.toBeNull();
    expect(['queued', 'running']).toContain((await t.call('GET', `/tasks/${hint![1]}`)).body.status);
  });
});
