// `--timeout N`: one deadline for the whole command, not an idle timer per read.
//
// The program makes one AbortSignal that fires N seconds after the command began
// (or on Ctrl-C, whichever comes first) and gives it to the command as its signal;
// everything that waits takes that signal: connecting, a proxy's tunnel, the
// answer's headers and body, the rate budget, a Retry-After, a backoff, polling.
// A wait that would end past the deadline is refused at once where its length is
// known in advance (pacing, backoff); any other ends when the signal fires. So a
// service that trickles a byte every few seconds, one that accepts and never
// answers, or a proxy that never opens its tunnel, cannot hold a command past N s.
//
// The deadline's abort reason is a DeadlineError (exit 7: no usable answer in
// time, like any network failure); following background work (poll.ts) turns it
// into StillRunningError (exit 8: the work goes on), as before.
import { CliError, ExitCode } from '../errors.js';

export class DeadlineError extends CliError {
  constructor(
    readonly limitMs: number,
    message = `--timeout (${formatLimit(limitMs)}) ran out before the command finished`,
    hint = `nothing more was waited for; give a longer --timeout, or check the service and the network with \`kagent doctor\``,
  ) {
    super(message, { exitCode: ExitCode.UNAVAILABLE, code: 'TIMEOUT', hint });
    this.name = 'DeadlineError';
  }
}

/** --timeout in milliseconds, for the waits that take a length (undefined: no --timeout). */
export function timeoutMs(flags: { timeout?: number | undefined }): number | undefined {
  return flags.timeout === undefined ? undefined : flags.timeout * 1000;
}

/** When each command signal's deadline falls (epoch ms, Date.now's clock). */
const deadlines = new WeakMap<AbortSignal, number>();

/**
 * `parent` (Ctrl-C) combined with a deadline `ms` after `startedAt` (epoch ms; now by
 * default): aborted with a DeadlineError then. The timer does not keep the process alive.
 */
export function commandDeadline(parent: AbortSignal, ms: number, startedAt = Date.now()): AbortSignal {
  const controller = new AbortController();
  const at = startedAt + ms;
  const timer = setTimeout(() => controller.abort(new DeadlineError(ms)), Math.max(0, at - Date.now()));
  timer.unref?.();
  const signal = AbortSignal.any([parent, controller.signal]);
  deadlines.set(signal, at);
  return signal;
}

/** The deadline a command signal carries (epoch ms), if it was made by commandDeadline. */
export function deadlineOf(signal: AbortSignal | undefined): number | undefined {
  return signal === undefined ? undefined : deadlines.get(signal);
}

/** The DeadlineError behind an aborted signal, if the deadline (not Ctrl-C) aborted it. */
export function deadlinePassed(signal: AbortSignal | undefined): DeadlineError | undefined {
  const reason: unknown = signal?.aborted ? signal.reason : undefined;
  return reason instanceof DeadlineError ? reason : undefined;
}

function formatLimit(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : Number(s.toPrecision(2))} s`;
}
