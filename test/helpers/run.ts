// Drives the real kagent program in-process, the way the binary does, with
// fake streams: terminal mode (tty: true) or piped mode (the default).
//
//   const r = await runCli(['space', 'list', '--json'], { configDir, env: { KAGENT_API_KEY: key } });
//   expect(r.code).toBe(0);
//   JSON.parse(r.stdout);
//
// Prompts on a "terminal" are answered from `answers`, in order (strings for
// text and password prompts, booleans for confirmations); `prompts` records
// what was asked. Nothing is read from the real environment: env starts empty
// apart from a private config dir, cache dir and HOME.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import pkg from '../../package.json' with { type: 'json' };
import type { Prompter } from '../../src/context.js';
import type { Clock } from '../../src/http/clock.js';
import { run } from '../../src/cli/program.js';

export interface RunCliOptions {
  /** Environment variables on top of the private defaults; undefined removes one. */
  env?: Record<string, string | undefined>;
  /** What stdin holds (piped mode), e.g. a key for --with-key. */
  stdin?: string;
  /** stdin, stdout and stderr are terminals. */
  tty?: boolean;
  /** KAGENT_CONFIG_DIR; a fresh temporary directory when left out. */
  configDir?: string;
  columns?: number;
  answers?: Array<string | boolean>;
  signal?: AbortSignal;
  /** Replaces stdout (e.g. one that fails with EPIPE). */
  stdout?: Writable & { isTTY?: boolean; columns?: number };
  /** The clock commands wait on (polling, relative times): tests drive time with it. */
  clock?: Clock;
  /** The working directory and the operating system the command sees (default: this process's). */
  cwd?: string;
  platform?: NodeJS.Platform;
}

export interface RunCliResult {
  code: number;
  stdout: string;
  stderr: string;
  prompts: string[];
  configDir: string;
}

export function tempDir(prefix = 'kagent-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

class Capture extends Writable {
  text = '';
  isTTY: boolean;
  columns: number;
  constructor(tty: boolean, columns: number) {
    super();
    this.isTTY = tty;
    this.columns = columns;
  }
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
  // What a tty.WriteStream offers (spinners use them).
  cursorTo(_x: number, _y?: number | (() => void), callback?: () => void): boolean {
    if (typeof _y === 'function') _y();
    callback?.();
    return true;
  }
  moveCursor(_dx: number, _dy: number, callback?: () => void): boolean {
    callback?.();
    return true;
  }
  clearLine(_dir: number, callback?: () => void): boolean {
    callback?.();
    return true;
  }
}

function scriptedPrompter(answers: Array<string | boolean>, asked: string[]): Prompter {
  const next = (message: string) => {
    asked.push(message);
    if (answers.length === 0) throw new Error(`unexpected prompt: ${message}`);
    return answers.shift() as string | boolean;
  };
  return {
    text: async (message) => String(next(message)),
    password: async (message) => String(next(message)),
    confirm: async (message) => Boolean(next(message)),
    select: async (message) => String(next(message)) as never,
  };
}

export async function runCli(argv: string[], options: RunCliOptions = {}): Promise<RunCliResult> {
  const tty = options.tty ?? false;
  const columns = options.columns ?? 100;
  const configDir = options.configDir ?? tempDir('kagent-config-');
  const env: NodeJS.ProcessEnv = {
    KAGENT_CONFIG_DIR: configDir,
    KAGENT_CACHE_DIR: join(configDir, 'cache'),
    HOME: configDir,
    PATH: process.env.PATH,
  };
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }

  let stdin: Readable & { isTTY?: boolean };
  if (options.stdin !== undefined) stdin = Readable.from([Buffer.from(options.stdin)]);
  else if (tty)
    stdin = new PassThrough(); // a terminal nobody types into
  else stdin = Readable.from([]);
  stdin.isTTY = tty;

  const stdout = new Capture(tty, columns);
  const stderr = new Capture(tty, columns);
  const prompts: string[] = [];
  const code = await run({
    argv,
    env,
    stdin,
    stdout: options.stdout ?? stdout,
    stderr,
    version: pkg.version,
    signal: options.signal,
    cwd: options.cwd,
    platform: options.platform,
    overrides:
      options.answers || options.clock
        ? {
            ...(options.answers ? { prompter: scriptedPrompter([...options.answers], prompts) } : {}),
            ...(options.clock ? { clock: options.clock } : {}),
          }
        : undefined,
  });
  return { code, stdout: stdout.text, stderr: stderr.text, prompts, configDir };
}

/** Any escape or control character (but newline and tab) that could reach a terminal. */
export const UNSAFE_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
/** As above, but allowing the colour codes kagent itself adds (ESC [ ... m). */
export function hasForeignEscapes(text: string): boolean {
  return UNSAFE_CONTROL.test(text.replace(/\x1b\[[0-9;]*m/g, ''));
}
