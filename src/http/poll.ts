// Following background work (tasks, chat turns, media): ask again and again,
// quickly while things change, more slowly while they do not. Every fetch goes
// through the paced client, so polling stays inside the rate budget.
import type { Clock } from './clock.js';
import { CliError, InterruptedError, StillRunningError } from '../errors.js';
import { systemClock } from './clock.js';
import { DeadlineError } from './deadline.js';

export interface PollOptions<T> {
  fetch: (signal: AbortSignal | undefined) => Promise<T>;
  isDone: (value: T) => boolean;
  /** Same fingerprint = nothing changed. Defaults to the JSON of the value. */
  fingerprint?: (value: T) => string;
  /** Called with the first value and with every value that differs from the one before. */
  onUpdate?: (value: T) => void;
  /** Give up waiting (StillRunningError, exit 8) after this long; the work goes on. */
  timeoutMs?: number;
  /** Ctrl-C: stop following (InterruptedError, exit 130); the work goes on. */
  signal?: AbortSignal;
  clock?: Clock;
  /** Wait this long before the first look (work just started cannot have ended yet). Default 0. */
  firstMs?: number;
  minMs?: number;
  maxMs?: number;
  /** Interval growth while nothing changes. */
  factor?: number;
  /**
   * A change brings the interval back to `minMs` (default true). False for work whose end a
   * change does not bring nearer (a chat turn's tools): the interval keeps growing, and the
   * cost stays the schedule's.
   */
  resetOnChange?: boolean;
  /** How to pick the work up again, e.g. `kagent task show tk_3k9x8q2m7d --follow`. */
  resumeHint?: string;
  /** What goes on when Ctrl-C stops the following: "the task" (the interruption says "the task goes on"). */
  work?: string;
}

export async function poll<T>(options: PollOptions<T>): Promise<T> {
  const { isDone, timeoutMs, signal, resumeHint } = options;
  const clock = options.clock ?? systemClock;
  const deadline = timeoutMs === undefined ? Infinity : clock.now() + timeoutMs;
  const step = <R>(run: () => Promise<R>) => interruptible(run, options);
  const pace = pacer(options);
  const changes = changeWatch(options);

  const firstMs = options.firstMs ?? 0;
  if (firstMs > 0) {
    await step(() => clock.sleep(Math.min(firstMs, Math.max(0, deadline - clock.now())), signal));
  }
  for (let first = true; ; first = false) {
    if (signal?.aborted) throw stopped(signal, options);
    const value = await step(() => options.fetch(signal));
    const interval = pace(changes(value), first);
    if (isDone(value)) return value;

    const left = deadline - clock.now();
    if (left <= 0) {
      throw new StillRunningError(
        `still running after ${formatDuration(timeoutMs ?? 0)}; the work goes on`,
        resumeHint,
      );
    }
    // Wake at the deadline for one last look rather than oversleeping it.
    await step(() => clock.sleep(Math.min(interval, left), signal));
  }
}

/** What an interruption needs to say what goes on and how to pick it up again. */
type StopOptions = Pick<PollOptions<unknown>, 'signal' | 'resumeHint' | 'work' | 'timeoutMs'>;

/** Runs one wait or fetch; when Ctrl-C or the deadline aborted it, the poll's own error says so. */
async function interruptible<R>(run: () => Promise<R>, options: StopOptions): Promise<R> {
  try {
    return await run();
  } catch (error) {
    if (options.signal?.aborted) throw stopped(options.signal, options);
    throw error;
  }
}

/** Tells whether a value differs from the one before (by fingerprint), and reports it when it does. */
function changeWatch<T>(options: PollOptions<T>): (value: T) => boolean {
  const fingerprint = options.fingerprint ?? ((value: T) => JSON.stringify(value));
  let last: string | undefined;
  return (value) => {
    const print = fingerprint(value);
    if (print === last) return false;
    last = print;
    options.onUpdate?.(value);
    return true;
  };
}

/** The interval before the next look, given whether this look saw a change. */
function pacer(
  options: Pick<PollOptions<unknown>, 'minMs' | 'maxMs' | 'factor' | 'resetOnChange'>,
): (changed: boolean, first: boolean) => number {
  const minMs = options.minMs ?? 1_000;
  const maxMs = Math.max(minMs, options.maxMs ?? 10_000);
  const factor = options.factor ?? 1.5;
  const resetOnChange = options.resetOnChange ?? true;
  let interval = minMs;
  return (changed, first) => {
    // Something moved: look again soon (unless told not to); else less and less often.
    if (changed && resetOnChange) interval = minMs;
    else if (!first) interval = Math.min(maxMs, Math.round(interval * factor));
    return interval;
  };
}

function stopped(signal: AbortSignal, { resumeHint, work, timeoutMs }: StopOptions): CliError {
  const reason: unknown = signal.reason;
  // The command's --timeout (deadline.ts) ran out while following: the work is still running (exit 8).
  if (reason instanceof DeadlineError)
    return new StillRunningError(
      `still running after ${formatDuration(timeoutMs ?? reason.limitMs)}; the work goes on`,
      resumeHint,
    );
  if (reason instanceof CliError && !(reason instanceof InterruptedError)) return reason;
  // Ctrl-C: not an error; what goes on and how to pick it up again (src/io/report.ts says it in one quiet line).
  return new InterruptedError(`${work ?? 'the work'} goes on`, resumeHint);
}

function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return seconds % 60 ? `${minutes} min ${seconds % 60} s` : `${minutes} min`;
}
