// Writing to stdout/stderr with back-pressure, and a closed pipe (`kagent ... | head`)
// turned into a quiet exit 0 instead of an unhandled 'error' event.
import type { Writable } from 'node:stream';
import { abortError, CliError, ExitCode } from '../errors.js';
import { redactStream } from './redact.js';
import { guardOutput, sanitize, withoutControls } from './sanitize.js';

/** The reader went away; nothing more can be written. The handler maps it to exit 0, silently. */
export class PipeClosedError extends CliError {
  constructor() {
    super('output pipe closed', { exitCode: ExitCode.OK, code: 'PIPE_CLOSED' });
    this.name = 'PipeClosedError';
  }
}

interface StreamState {
  error: (Error & { code?: string }) | undefined;
  /** Characters written through emit(). */
  written: number;
  /** The command's signal (Ctrl-C, --timeout): a wait for a reader that takes nothing ends with it. */
  signal?: AbortSignal;
}

// Per-stream, keyed by the stream object itself: no process-wide state.
const states = new WeakMap<Writable, StreamState>();

function stateOf(stream: Writable): StreamState {
  let state = states.get(stream);
  if (!state) {
    redactStream(stream);
    const fresh: StreamState = { error: undefined, written: 0 };
    stream.on('error', (error: Error & { code?: string }) => {
      fresh.error ??= error;
    });
    states.set(stream, fresh);
    state = fresh;
  }
  return state;
}

/** Whether anything was written to the stream through emit() (a fallback must not add a second result). */
export function hasWritten(stream: Writable): boolean {
  return (states.get(stream)?.written ?? 0) > 0;
}

/**
 * Starts watching a stream for EPIPE right away (before any write can fail), and makes it the output boundary:
 * from now on every write to it, whoever makes it, is redacted (redact.ts: no URL password, no known secret).
 */
export function guardStream(stream: Writable): void {
  stateOf(stream);
}

/**
 * Makes waits on the stream (back-pressure, the last flush) end when `signal` aborts: a
 * reader that never reads (`kagent … | stuck`) cannot hold the command past --timeout or Ctrl-C.
 */
export function bindSignal(stream: Writable, signal: AbortSignal): void {
  stateOf(stream).signal = signal;
}

/**
 * After an abort: output the reader has not taken is dropped (the stream is destroyed), so
 * that nothing waits for it at the exit. True when there was some (the run did not deliver it).
 */
export function abandonUnwritten(stream: Writable): boolean {
  if (stream.destroyed || stream.writableEnded || stream.writableLength === 0) return false;
  stream.destroy();
  // process.stdout outlives destroy() (Node keeps its descriptor): ended, the exit's flush does not wait on it.
  stream.end();
  return true;
}

/**
 * A write that cannot wait (an error report, a notice from a callback): the same gate as emit() (guardOutput, and
 * the redaction of a guarded stream), no back-pressure; a stream already gone takes nothing and says nothing.
 */
export function writeNow(stream: Writable, text: string): void {
  redactStream(stream);
  try {
    if (!stream.destroyed && !stream.writableEnded) stream.write(guardOutput(text));
  } catch {
    // The stream is gone: nothing left to tell.
  }
}

function failure(state: StreamState): CliError | undefined {
  const error = state.error;
  if (!error) return undefined;
  if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED' || error.code === 'ECONNRESET')
    return new PipeClosedError();
  return outputFailed(error);
}

/** A write that failed (a full disk, a device error): the output is lost, and the run says so (exit 1). */
function outputFailed(error: Error & { code?: string }): CliError {
  // "ENOSPC: no space left on device, write" → "no space left on device"
  const reason = error.message.replace(/^[A-Z]+: /, '').replace(/, write$/, '');
  return new CliError(`cannot write the output: ${reason}`, { code: 'OUTPUT_FAILED' });
}

/** Once what was written to `stream` has gone: the failure it met, if any (a reader that left is none). */
export async function writeFailure(stream: Writable): Promise<CliError | undefined> {
  const state = stateOf(stream);
  await settled(stream);
  const found = failure(state);
  return found instanceof PipeClosedError ? undefined : found;
}

/**
 * Writes text; waits when the stream asks to (constant memory for long outputs); throws PipeClosedError once the reader is gone.
 * Every write passes guardOutput(): only kagent's own styling and progress-line cursor moves reach the stream, so a
 * server string that a command forgot to sanitise still cannot drive the terminal.
 */
export async function emit(stream: Writable, text: string, exact = false): Promise<void> {
  const state = stateOf(stream);
  const before = failure(state);
  if (before) throw before;
  if (stream.destroyed || stream.writableEnded) throw new PipeClosedError();
  if (text.length === 0) return;
  state.written += text.length;
  const more = stream.write(exact ? text : guardOutput(text));
  if (!more) {
    await untilWritten(stream, 'drain');
    if (state.signal?.aborted) throw abortError(state.signal);
  }
  const after = failure(state);
  if (after) throw after;
}

/**
 * Text that is itself the thing asked for and may be bound for a file (`doc show --raw > f.md`, `lib text > f.txt`):
 * not on a terminal it is written as it is, bidi and format controls, a BOM and CR included, so that what is saved
 * is what the service holds; only what would drive a terminal that later shows the file is taken out (escape
 * sequences, control characters but tab, CR and newline), and a secret this run knows is still masked (redact.ts).
 * On a terminal it is sanitised as any text.
 */
export function emitText(stream: Writable, text: string, terminal: boolean): Promise<void> {
  return terminal ? emit(stream, sanitize(text)) : emit(stream, withoutControls(text), true);
}

/** Resolves once the stream has taken every write queued so far (a command's output is out when it returns). */
export function settled(stream: Writable): Promise<void> {
  if (stream.destroyed || stream.writableEnded) return Promise.resolve();
  return untilWritten(stream, 'flush');
}

/**
 * Waits for the stream to take what it holds ('drain', or the callback of an empty write for
 * 'flush'), for it to fail or close, or for its command's signal to abort.
 */
function untilWritten(stream: Writable, what: 'drain' | 'flush'): Promise<void> {
  const signal = states.get(stream)?.signal;
  return new Promise<void>((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('error', done);
      stream.off('close', done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    if (signal?.aborted) return resolve();
    signal?.addEventListener('abort', done, { once: true });
    stream.on('error', done);
    stream.on('close', done);
    if (what === 'drain') stream.on('drain', done);
    else {
      try {
        stream.write('', done);
      } catch {
        done();
      }
    }
  });
}
