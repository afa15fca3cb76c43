// One meaning for an aborted command signal, wherever it is read: the --timeout
// deadline's error (exit 7) when that aborted it, else an interruption (130).
import { describe, expect, it } from 'vitest';
import { abortError, ExitCode, InterruptedError, throwIfAborted } from '../../src/errors.js';
import { abortableSleep } from '../../src/http/clock.js';
import { DeadlineError } from '../../src/http/deadline.js';
import { toCliError } from '../../src/io/report.js';

function aborted(reason?: unknown): AbortSignal {
  const controller = new AbortController();
  controller.abort(reason);
  return controller.signal;
}

describe('abortError', () => {
  it('is the deadline error itself when the deadline aborted the signal (exit 7)', () => {
    const deadline = new DeadlineError(1_000);
    expect(abortError(aborted(deadline))).toBe(deadline);
    expect(() => throwIfAborted(aborted(deadline))).toThrow(deadline);
    expect(abortError(aborted(deadline)).exitCode).toBe(ExitCode.UNAVAILABLE);
  });

  it('is an interruption (130) for Ctrl-C, whose reason is no CliError', () => {
    const error = abortError(aborted());
    expect(error).toBeInstanceOf(InterruptedError);
    expect(error.exitCode).toBe(ExitCode.INTERRUPTED);
    expect(() => throwIfAborted(new AbortController().signal)).not.toThrow();
  });

  it('is what a sleep ends with', async () => {
    const deadline = new DeadlineError(1_000);
    await expect(abortableSleep(60_000, aborted(deadline))).rejects.toBe(deadline);
    await expect(abortableSleep(60_000, aborted())).rejects.toBeInstanceOf(InterruptedError);
  });
});

describe('toCliError', () => {
  it('takes an AbortError caused by the deadline for the deadline (7), and a bare one for Ctrl-C (130)', () => {
    const deadline = new DeadlineError(2_000);
    const byDeadline = Object.assign(new Error('aborted'), { name: 'AbortError', cause: deadline });
    expect(toCliError(byDeadline, false)).toBe(deadline);
    expect(toCliError(byDeadline, true).exitCode).toBe(ExitCode.INTERRUPTED);
    const bare = Object.assign(new Error('aborted'), { name: 'AbortError' });
    expect(toCliError(bare, false).exitCode).toBe(ExitCode.INTERRUPTED);
  });
});
