// Live lines (the upload progress bar, spinners, status lines) fit the width:
// `lib upload` of a folder with the built binary, at 40 and 80 columns. In a
// pseudo-terminal (`script`) no progress render is wider than the line; in a
// tmux window the screen left after the run holds no stale copy of the bar (a
// bar wider than the line wraps, and each redraw leaves its first row behind).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/io/width.js';
import { kagentCommandLine, plain, root, runInPty } from '../helpers/binary.js';
import { inCleanEnvironment } from '../helpers/tmux.js';
import { binaryAgainstSandbox, type BinarySandbox } from '../helpers/binary-sandbox.js';
import type { TestSandbox } from '../helpers/sandbox.js';

const FILES = 13;
const TMUX = `kagent-live-${process.pid}`;
let s: BinarySandbox;
let t: TestSandbox;
let home: string;
let env: Record<string, string>;
let folders = 0;

/** A new folder of 13 Markdown files with long names, each upload slowed so the bar is redrawn many times. */
async function slowFolder(): Promise<string> {
  const dir = join(home, `notes-${++folders}`);
  mkdirSync(dir);
  for (let n = 0; n < FILES; n++)
    writeFileSync(join(dir, `meeting-notes-${folders}-${String(n).padStart(2, '0')}.md`), `# Notes ${folders}.${n}\n`);
  await t.inject({ kind: 'slow', ms: 250, count: FILES, method: 'POST', path: '/api/v1/library/files' });
  return dir;
}

beforeAll(async () => {
  for (const tool of ['script', 'tmux'])
    if (spawnSync(tool, tool === 'tmux' ? ['-V'] : ['--version']).status !== 0)
      throw new Error(`${tool} is needed by these tests (.ci/run installs it)`);
  s = await binaryAgainstSandbox('kagent-live-');
  ({ t, home, env } = s);
});
afterAll(async () => {
  spawnSync('tmux', ['-L', TMUX, 'kill-server']);
  await s?.close();
});

/** Runs `kagent ARGS` in a tmux window of cols × 50; the screen once it has ended. */
async function screenAfter(args: string[], cols: number): Promise<string> {
  const done = join(home, `done-${Date.now()}`);
  // \$?: the status kagent left, read by the inner shell (the outer one would expand a bare $? to its own).
  const line = `${kagentCommandLine(args)}; echo \\$? > ${done}; sleep 60`;
  const started = spawnSync('tmux', [
    ...['-L', TMUX, '-f', '/dev/null', 'new-session', '-d', '-x', String(cols), '-y', '50', '-c', root],
    inCleanEnvironment(env, line),
  ]);
  expect(started.status, String(started.stderr)).toBe(0);
  try {
    for (let i = 0; i < 200 && !existsSync(done); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(readFileSync(done, 'utf8').trim()).toBe('0');
    return String(spawnSync('tmux', ['-L', TMUX, 'capture-pane', '-p', '-S', '-200']).stdout);
  } finally {
    spawnSync('tmux', ['-L', TMUX, 'kill-server']);
  }
}

describe.each([40, 80])('lib upload of a folder at %i columns', (cols) => {
  it('every progress render fits the line (a pseudo-terminal)', async () => {
    const run = await runInPty(['lib', 'upload', await slowFolder(), '--concurrency', '1'], {
      env,
      cols,
      timeoutMs: 30_000,
    });
    expect(run.code).toBe(0);
    // Each redraw starts with "\r\x1b[2K"; what follows, up to the next one or a newline, is one render.
    const renders = run.output
      .split('\r\x1b[2K')
      .slice(1)
      .map((part) => plain(part.split(/\r?\n/)[0] ?? ''))
      .filter((text) => /\d+\/13 files|^[█░]/.test(text));
    expect(renders.length).toBeGreaterThan(3);
    for (const text of renders) expect(displayWidth(text), text).toBeLessThan(cols);
    // Every line on screen fits too (the results and the summary wrap at word boundaries or fit).
    expect(plain(run.output).match(/✓ uploaded/g)).toHaveLength(FILES);
  }, 40_000);

  it('the screen after the run holds no stale copy of the bar (tmux)', async () => {
    const screen = await screenAfter(['lib', 'upload', await slowFolder(), '--concurrency', '1'], cols);
    expect(screen).toMatch(new RegExp(`${FILES} uploaded, 0 already there, 0 failed`));
    const stale = screen.split('\n').filter((line) => /[█░]|\d+\/13 files|files · /.test(line));
    expect(stale, screen).toEqual([]);
  }, 40_000);
});
