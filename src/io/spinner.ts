// Progress on stderr for a person watching: only when stderr is a terminal,
// not in CI and not with --quiet; shown only if the work takes longer than a
// moment (no flash for fast calls); paused while a prompt is on screen. ora
// loads only when a spinner actually appears.
import type { Context } from '../context.js';
import { sanitizeLine } from './sanitize.js';
import { envFlag, terminalState } from './terminal.js';
import { fitLive } from './live-line.js';
import { loadOra } from '../lazy.js';

export interface Spinner {
  update(text: string): void;
  stop(): void;
}

const SHOW_AFTER_MS = 300;

type SpinnerContext = Pick<Context, 'io' | 'flags'>;

export function spinnersAllowed(ctx: SpinnerContext): boolean {
  // A terminal of width 0 (a pty nobody sized) would make ora clear lines forever.
  return ctx.io.stderrIsTTY && (ctx.io.stderr.columns ?? 0) > 0 && !envFlag(ctx.io.env, 'CI') && !ctx.flags.quiet;
}

export function startSpinner(ctx: SpinnerContext, text: string, delayMs = SHOW_AFTER_MS): Spinner {
  if (!spinnersAllowed(ctx)) return { update() {}, stop() {} };
  const terminal = terminalState(ctx.io);
  let label = sanitizeLine(text);
  let stopped = false;
  let ora: import('ora').Ora | undefined;
  // Once a spinner shows: a spinner's line fits on one row (src/io/live-line.ts).
  let fit = (text: string) => text;

  const timer = setTimeout(async () => {
    const { default: createOra } = await loadOra();
    if (stopped) return;
    fit = (text) => fitLive(ctx.io, text, 2);
    ora = createOra({
      text: fit(label),
      stream: ctx.io.stderr,
      isEnabled: true,
      discardStdin: false,
      color: ctx.io.colorStderr ? 'cyan' : false,
    });
    const handle = { pause: () => ora?.stop(), resume: () => ora?.start() };
    terminal.spinner = handle;
    if (!terminal.prompting) ora.start();
  }, delayMs);
  timer.unref?.();

  return {
    update(next) {
      label = sanitizeLine(next);
      // A frame, a space and the label: one row (src/io/live-line.ts).
      if (ora) ora.text = fit(label);
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      ora?.stop();
      terminal.spinner = undefined;
    },
  };
}

/** Runs `task` with a spinner that appears only if it takes a while. */
export async function withSpinner<T>(ctx: SpinnerContext, text: string, task: () => Promise<T>): Promise<T> {
  const spinner = startSpinner(ctx, text);
  try {
    return await task();
  } finally {
    spinner.stop();
  }
}
