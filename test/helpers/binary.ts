// The built binary, for end-to-end tests that run it as a user would, often in
// a pseudo-terminal made by `script` from util-linux (`runInPty`).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const bin = join(root, 'bin', 'kagent.js');

/**
 * The Node that runs the built binary: KAGENT_TEST_NODE when set (.ci/run runs the
 * end-to-end and binary tests once more with each other supported Node), else this one.
 */
export const testNode = process.env.KAGENT_TEST_NODE || process.execPath;

/** What a piped run of the built binary ended with. */
export interface BinaryRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built binary piped, without blocking this process (a sandbox running
 * in it goes on answering), with `env` as its whole environment.
 */
export function runBinary(
  args: string[],
  env: Record<string, string | undefined>,
  node: string = testNode,
): Promise<BinaryRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [bin, ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** A run of the built binary timed from spawn to end (runTimed). */
export interface TimedRun {
  code: number | null;
  stdout: string;
  stderr: string;
  elapsedMs: number;
}

/**
 * Runs the built `kagent ARGS…` with stdin closed and times it: `signal` is sent `signalAfterMs`
 * (default 1 000) after the start; whatever happens, it is killed after `guardMs`, so that no test
 * waits on a program that never ends.
 */
export function runTimed(
  args: string[],
  options: {
    env: Record<string, string | undefined>;
    cwd?: string;
    signal?: NodeJS.Signals;
    signalAfterMs?: number;
    guardMs: number;
  },
): Promise<TimedRun> {
  const started = Date.now();
  const child = spawn(testNode, [bin, ...args], {
    env: options.env,
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  if (options.signal) setTimeout(() => child.kill(options.signal), options.signalAfterMs ?? 1_000);
  const guard = setTimeout(() => child.kill('SIGKILL'), options.guardMs);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr, elapsedMs: Date.now() - started });
    });
  });
}

/** `npm test` builds first; a test file run on its own builds here. */
export function ensureBuilt(): void {
  if (!existsSync(join(root, 'dist', 'cli.js')))
    spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
}

/** The shell command line that runs `kagent ARGS…` (quoted for `script -c`). */
export function kagentCommandLine(args: string[]): string {
  return [testNode, bin, ...args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
}

/** A keystroke sequence typed once the screen output since the previous step matches `wait`. */
export interface PtyStep {
  wait: RegExp;
  type: string;
}

export interface PtyRun {
  /** Everything the terminal showed, escape sequences included. */
  output: string;
  code: number | null;
  /** How many steps were typed. */
  typed: number;
}

/**
 * Runs `kagent ARGS…` in a pseudo-terminal of 100 × 40 (or cols × rows; `script` from util-linux) and
 * types each step's keys once its text is on screen: answers to prompts, arrow keys,
 * `\x03` for Ctrl-C, `\x04` for Ctrl-D. `env` is the whole environment besides PATH and
 * the terminal's. Asynchronous, so a sandbox running in the test process can answer.
 */
export function runInPty(
  args: string[],
  options: {
    env: Record<string, string>;
    steps?: PtyStep[];
    timeoutMs?: number;
    cols?: number;
    rows?: number;
    shell?: string;
  },
): Promise<PtyRun> {
  const steps = options.steps ?? [];
  const cols = options.cols ?? 100;
  const rows = options.rows ?? 40;
  // `shell`: a shell command line to run instead, with $KAGENT standing for the kagent command (pipes, say).
  const command = options.shell
    ? `KAGENT=${JSON.stringify(kagentCommandLine([]))}; ${options.shell}`
    : `exec ${kagentCommandLine(args)}`;
  const child = spawn('script', ['-qefc', `stty cols ${cols} rows ${rows}; ${command}`, '/dev/null'], {
    cwd: root,
    env: { PATH: process.env.PATH, TERM: 'xterm-256color', COLUMNS: String(cols), LINES: String(rows), ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let from = 0;
  let typed = 0;
  // A decoder per stream: a character split between two reads is not turned into U+FFFD.
  const decoders = { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`timed out at step ${typed} (waiting for ${steps[typed]?.wait}); output so far:\n${plain(output)}`),
      );
    }, options.timeoutMs ?? 15_000);
    const onData = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
      output += decoders[stream].write(chunk);
      const next = steps[typed];
      if (next && next.wait.test(plain(output.slice(from)))) {
        from = output.length;
        typed++;
        child.stdin.write(next.type);
      }
    };
    child.stdout.on('data', onData('stdout'));
    child.stderr.on('data', onData('stderr'));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ output, code, typed });
    });
  });
}

/**
 * Text kagent wrapped at a terminal's width, put back on one line: a line
 * break followed by the two-space indentation of a continuation line becomes
 * the space it replaced. For checking what a message says, whatever the width.
 */
export function unwrap(text: string): string {
  return text.replace(/[ \t]*\n {2}(?=\S)/g, ' ');
}

/** Terminal output as text: colours, cursor moves, OSC sequences (links) and carriage returns removed. */
export function plain(text: string): string {
  return text
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    .replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, '')
    .replace(/\r/g, '');
}
