// The built binary in a tmux window, for tests about what a person's screen shows
// once kagent has ended: what a redraw, a spinner or a prompt left behind, and
// whether the cursor is shown. tmux keeps the screen as a terminal would, which
// the raw output of a pseudo-terminal (binary.ts runInPty) does not say.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kagentCommandLine, root } from './binary.js';

/** tmux key names (`C-c`, `Enter`) sent once the screen matches `wait`. */
export interface TmuxStep {
  wait: RegExp;
  keys: string[];
}

export interface TmuxRun {
  /** The screen once kagent has ended, wrapped rows joined (capture-pane -J), trailing blank rows dropped. */
  screen: string;
  code: number;
  /** tmux's cursor_flag: the cursor is shown. */
  cursorShown: boolean;
}

let runs = 0;

/** Checks that tmux is there (a missing tool fails the test, it never skips it). */
export function requireTmux(): void {
  if (spawnSync('tmux', ['-V']).status !== 0) throw new Error('tmux is needed by these tests (.ci/run installs it)');
}

/** Runs `kagent ARGS…` in a tmux window of cols × rows and types each step's keys when its text is on screen. */
export async function runInTmux(
  args: string[],
  options: { env: Record<string, string>; cols: number; rows?: number; steps?: TmuxStep[]; timeoutMs?: number },
): Promise<TmuxRun> {
  const server = `kagent-test-${process.pid}-${++runs}`;
  const dir = mkdtempSync(join(tmpdir(), 'kagent-tmux-'));
  const done = join(dir, 'status');
  const tmux = (...words: string[]) => spawnSync('tmux', ['-L', server, ...words], { encoding: 'utf8' });
  // The shell outlives Ctrl-C (a trap with a command, which kagent does not inherit) to record kagent's status.
  const line = `trap true INT; ${kagentCommandLine(args)}; echo \\$? > ${done}; sleep 60`;
  const size = ['-x', String(options.cols), '-y', String(options.rows ?? 30)];
  const started = tmux(
    '-f',
    '/dev/null',
    'new-session',
    '-d',
    ...size,
    '-c',
    root,
    inCleanEnvironment(options.env, line),
  );
  if (started.status !== 0) throw new Error(`tmux did not start: ${started.stderr}`);
  const capture = () => tmux('capture-pane', '-p', '-J').stdout.replace(/\s+$/, '');
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  try {
    for (const step of options.steps ?? []) {
      while (!step.wait.test(capture())) await pause(deadline, `${step.wait}`, capture);
      tmux('send-keys', ...step.keys);
    }
    while (!existsSync(done)) await pause(deadline, 'the end', capture);
    return {
      screen: capture(),
      code: Number(readFileSync(done, 'utf8').trim()),
      cursorShown: tmux('display-message', '-p', '#{cursor_flag}').stdout.trim() === '1',
    };
  } finally {
    tmux('kill-server');
    rmSync(dir, { recursive: true, force: true });
  }
}

async function pause(deadline: number, waitingFor: string, capture: () => string): Promise<void> {
  if (Date.now() > deadline) throw new Error(`timed out waiting for ${waitingFor}; the screen:\n${capture()}`);
  await new Promise((resolve) => setTimeout(resolve, 50));
}

/**
 * A tmux window's command: `line` run by sh with only `env`, PATH, TERM and a UTF-8
 * LANG (unless `env` gives one) in its environment. A tmux server hands its windows the environment of the process
 * that started it (vitest's: CI=true, say, which turns prompts and spinners off).
 */
export function inCleanEnvironment(env: Record<string, string>, line: string): string {
  const vars = Object.entries({ LANG: 'C.UTF-8', ...env, PATH: process.env.PATH ?? '', TERM: 'xterm-256color' })
    .map(([key, value]) => `${key}='${value.replace(/'/g, `'\\''`)}'`)
    .join(' ');
  return `env -i ${vars} sh -c "${line.replace(/"/g, '\\"')}"`;
}
