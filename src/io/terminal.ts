// The IO a handler is given: the three streams, what is a terminal, whether
// colour is on, whether prompts are allowed, and the width to fit tables to.
import type { IO } from '../context.js';

export interface Streams {
  /** Read only when a command reads it: creating process.stdin costs every command start-up time (~1 ms). */
  stdin: IO['stdin'];
  /**
   * Whether stdin is a terminal, when known without creating the stream (the binary: isatty(0),
   * as a getter: asking costs loading node:tty, which a command that never asks should not pay).
   */
  stdinIsTTY?: boolean;
  stdout: IO['stdout'];
  stderr: IO['stderr'];
}

export interface IOFlags {
  /** false with --no-color */
  color: boolean;
  /** false with --no-input */
  input: boolean;
}

/** An environment switch is on when set to anything but '', '0' or 'false'. */
export function envFlag(env: NodeJS.ProcessEnv, name: string): boolean {
  const value = env[name];
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/**
 * Colour, in this order: --no-color turns it off; FORCE_COLOR turns it on
 * (or off with 0/false) even when piped; a non-empty NO_COLOR turns it off;
 * otherwise a terminal gets colour unless TERM=dumb. (Node gives FORCE_COLOR
 * the same precedence over NO_COLOR.)
 */
export function colorEnabled(isTTY: boolean, env: NodeJS.ProcessEnv, flagColor: boolean): boolean {
  if (!flagColor) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !(force === '0' || force.toLowerCase() === 'false');
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return isTTY && env.TERM !== 'dumb';
}

/** chalk's level: 1 basic, 2 256 colours, 3 truecolor. */
export function colorLevel(env: NodeJS.ProcessEnv): 1 | 2 | 3 {
  const force = Number.parseInt(env.FORCE_COLOR ?? '', 10);
  if (force >= 1 && force <= 3) return force as 1 | 2 | 3;
  if (env.COLORTERM === 'truecolor' || env.COLORTERM === '24bit') return 3;
  if (/-256(color)?$/i.test(env.TERM ?? '')) return 2;
  return 1;
}

/** Why prompting is not possible, or undefined when it is. */
export function promptBlocker(
  stdinIsTTY: boolean,
  stdoutIsTTY: boolean,
  env: NodeJS.ProcessEnv,
  flags: IOFlags,
): string | undefined {
  if (!flags.input) return '--no-input was given';
  if (envFlag(env, 'KAGENT_NO_PROMPT')) return 'KAGENT_NO_PROMPT is set';
  if (envFlag(env, 'CI')) return 'running in CI';
  if (!stdinIsTTY) return 'stdin is not a terminal';
  if (!stdoutIsTTY) return 'stdout is not a terminal';
  return undefined;
}

export function createIO(streams: Streams, env: NodeJS.ProcessEnv, flags: IOFlags): IO {
  // Asked on first use only (see Streams.stdinIsTTY): most commands never ask.
  let stdinTTY: boolean | undefined;
  const stdinIsTTY = () => (stdinTTY ??= streams.stdinIsTTY ?? streams.stdin.isTTY === true);
  const stdoutIsTTY = streams.stdout.isTTY === true;
  const stderrIsTTY = streams.stderr.isTTY === true;
  const envColumns = Number.parseInt(env.COLUMNS ?? '', 10);
  const envRows = Number.parseInt(env.LINES ?? '', 10);
  // A size set by the caller (tests, the pager) wins over the terminal's.
  const sized: { columns?: number; rows?: number | undefined } = {};
  return {
    // A getter: the binary's stdin is made on first use (see Streams).
    get stdin() {
      return streams.stdin;
    },
    stdout: streams.stdout,
    stderr: streams.stderr,
    get stdinIsTTY() {
      return stdinIsTTY();
    },
    stdoutIsTTY,
    stderrIsTTY,
    color: colorEnabled(stdoutIsTTY, env, flags.color),
    colorStderr: colorEnabled(stderrIsTTY, env, flags.color),
    // Without a terminal on stdout no prompt can be shown: stdin need not be asked.
    get canPrompt() {
      return stdoutIsTTY && promptBlocker(stdinIsTTY(), stdoutIsTTY, env, flags) === undefined;
    },
    // Read when asked, not once: a terminal resized during a long run (the chat REPL, a follow)
    // updates its stream's size, and what is printed next fits the new width.
    get columns() {
      return sized.columns ?? (streams.stdout.columns || (envColumns > 0 ? envColumns : 80));
    },
    set columns(value: number) {
      sized.columns = value;
    },
    get rows() {
      return sized.rows ?? ((streams.stdout as { rows?: number }).rows || (envRows > 0 ? envRows : undefined));
    },
    set rows(value: number | undefined) {
      sized.rows = value;
    },
    env,
    // No pager unless the runtime provides one (src/cli/runtime.ts).
    page: async () => {},
    endPaging: async () => {},
  };
}

/**
 * What is on the terminal right now, shared by spinners and prompts so that a
 * spinner never runs during a prompt. One per IO (keyed by the object), not global.
 */
export interface TerminalState {
  spinner: { pause(): void; resume(): void } | undefined;
  prompting: boolean;
}

const terminals = new WeakMap<IO, TerminalState>();

/**
 * The width stderr's messages wrap at: its terminal's, else stdout's (which falls back to $COLUMNS, then 80). A
 * pseudo-terminal nobody sized reports 0 columns: wrapping at 0 would put one character on a line.
 */
export function stderrColumns(io: Pick<IO, 'stderr' | 'columns'>): number {
  return io.stderr.columns || io.columns || 80;
}

export function terminalState(io: IO): TerminalState {
  let state = terminals.get(io);
  if (!state) {
    state = { spinner: undefined, prompting: false };
    terminals.set(io, state);
  }
  return state;
}
