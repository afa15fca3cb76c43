// One meaning for an aborted command signal, wherever it is read: the --timeout
// deadline's error (exit 7) when that aborted it, else an interruption (130),
// which is reported as no error: one quiet line at most.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { abortError, ExitCode, InterruptedError, onInterruptSay, throwIfAborted } from '../../src/errors.js';
import { abortableSleep } from '../../src/http/clock.js';
import { DeadlineError, timeoutMs } from '../../src/http/deadline.js';
import { reportError, toCliError } from '../../src/io/report.js';

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

describe('reportError of an interruption: not an error', () => {
  const report = (error: unknown, options: { json?: boolean; tty?: boolean; color?: boolean } = {}) => {
    let text = '';
    const stderr = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString();
        done();
      },
    });
    Object.assign(stderr, { isTTY: options.tty === true });
    const code = reportError(error, {
      stderr,
      json: options.json === true,
      color: options.color === true,
      debug: true,
      interrupted: true,
    });
    return { code, text };
  };

  it('says what goes on and how to pick it up again in one line, dim with colour; exit 130', () => {
    const stopped = new InterruptedError('the task goes on', 'follow it again with `kagent task show tk_1 --follow`');
    expect(report(stopped)).toEqual({
      code: 130,
      text: 'the task goes on; follow it again with `kagent task show tk_1 --follow`\n',
    });
    expect(report(stopped, { color: true }).text).toBe(
      '\x1b[2mthe task goes on; follow it again with `kagent task show tk_1 --follow`\x1b[22m\n',
    );
  });

  it('on a terminal clears the row the ^C or a spinner left and shows the cursor; a bare one says nothing more', () => {
    expect(report(new InterruptedError(), { tty: true })).toEqual({ code: 130, text: '\r\x1b[2K\x1b[?25h' });
    expect(report(new InterruptedError())).toEqual({ code: 130, text: '' });
    // Ctrl-C as Node or @inquirer/prompts throw it: the same.
    expect(report(Object.assign(new Error('User force closed the prompt'), { name: 'ExitPromptError' }))).toEqual({
      code: 130,
      text: '',
    });
  });

  it('a program reading stderr with --json still gets the envelope', () => {
    const { code, text } = report(
      new InterruptedError('the turn goes on', 'read it with `kagent conversation show cv_1`'),
      {
        json: true,
      },
    );
    expect(code).toBe(130);
    expect(JSON.parse(text)).toEqual({
      error: { code: 'INTERRUPTED', message: 'the turn goes on', hint: 'read it with `kagent conversation show cv_1`' },
    });
  });
});

describe('onInterruptSay', () => {
  it('gives a bare interruption during the work its note; an interruption with its own words, or another error, passes', async () => {
    const fail = (error: unknown) => () => Promise.reject(error);
    await expect(onInterruptSay('nothing was saved', fail(new InterruptedError()))).rejects.toMatchObject({
      message: 'nothing was saved',
      exitCode: 130,
    });
    const own = new InterruptedError('the task goes on');
    await expect(onInterruptSay('nothing was saved', fail(own))).rejects.toBe(own);
    const other = new DeadlineError(1_000);
    await expect(onInterruptSay('nothing was saved', fail(other))).rejects.toBe(other);
    await expect(onInterruptSay('nothing was saved', () => Promise.resolve(7))).resolves.toBe(7);
  });
});

describe('timeoutMs: --timeout for the waits that take milliseconds', () => {
  it('is the seconds in milliseconds, 0 and fractions kept, and nothing without --timeout', () => {
    expect(timeoutMs({})).toBeUndefined();
    expect(timeoutMs({ timeout: undefined })).toBeUndefined();
    expect(timeoutMs({ timeout: 0 })).toBe(0);
    expect(timeoutMs({ timeout: 1.5 })).toBe(1500);
    expect(timeoutMs({ timeout: 60 })).toBe(60_000);
  });
});
