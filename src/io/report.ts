// The one place a failure becomes output and an exit code:
//   error: <message> (<CODE>)
//     <path>: <issue>            (invalid input, one per issue)
//   hint: <what to do>
// or, with --json / --jq, the envelope {"error":{"code","message","issues"?}}
// on stderr. Messages may quote the server: they are sanitised.
// Ctrl-C is not an error: exit 130 with at most one quiet (dim) line saying what
// goes on and how to pick it up again, and on a terminal the row the ^C echo or a
// live line left is cleared and the cursor shown.
import type { Writable } from 'node:stream';
import { ApiError, CliError, ExitCode, INTERRUPTED, InterruptedError, type ApiIssue } from '../errors.js';
import { escapeJsonControls, sanitizeLine } from './sanitize.js';
import { PipeClosedError, writeNow } from './streams.js';
import { wrapText } from './width.js';

export interface ReportOptions {
  stderr: Writable;
  json: boolean;
  color: boolean;
  debug: boolean;
  /** Ctrl-C was pressed: whatever failed after it is an interruption. */
  interrupted: boolean;
}

/** Turns anything thrown into a CliError with the documented exit code. */
export function toCliError(error: unknown, interrupted: boolean): CliError {
  if (error instanceof CliError) return error;
  const name = (error as Error | undefined)?.name;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EPIPE') return new PipeClosedError();
  // An AbortError carrying the deadline's error (the signal's reason) is that error: exit 7, not 130.
  const cause: unknown = (error as { cause?: unknown } | undefined)?.cause;
  if (!interrupted && name === 'AbortError' && cause instanceof CliError) return cause;
  if (interrupted || name === 'AbortError' || name === 'ExitPromptError') return new InterruptedError();
  const message = error instanceof Error ? error.message : String(error);
  return new CliError(message || 'unexpected failure', {
    code: 'UNEXPECTED',
    cause: error,
    hint: 'this looks like a bug in kagent; run again with --debug for details',
  });
}

/** Prints the error (unless it is a closed pipe) and returns the exit code. */
export function reportError(error: unknown, options: ReportOptions): number {
  const failure = toCliError(error, options.interrupted);
  if (failure instanceof PipeClosedError) return ExitCode.OK;
  const issues = issuesOf(failure);
  // A base URL may carry a user and password: the output boundary (writeNow, redact.ts) never prints them.
  const message = failure.message;
  const hint = failure.hint ?? defaultHint(failure);
  const write = (text: string) => writeNow(options.stderr, text);

  if (failure instanceof InterruptedError && !options.json) {
    write(interruption(failure, options));
    return failure.exitCode;
  }
  // Saying no to a confirmation is a choice, not an error: one word, exit 1 all the same.
  if (failure.code === 'CANCELLED' && !options.json) {
    write('Cancelled.\n');
    return failure.exitCode;
  }
  if (options.json) {
    const envelope = {
      error: {
        code: failure.code,
        message,
        ...(issues.length > 0 ? { issues } : {}),
        ...(hint ? { hint } : {}),
      },
    };
    write(`${escapeJsonControls(JSON.stringify(envelope))}\n`);
  } else {
    const red = (s: string) => (options.color ? `\x1b[31m${s}\x1b[39m` : s);
    const dim = (s: string) => (options.color ? `\x1b[2m${s}\x1b[22m` : s);
    let text = `${red('error:')} ${sanitizeLine(message)} (${sanitizeLine(failure.code)})\n`;
    // One issue already said by the message needs no second line.
    const said = issues.length === 1 && message.endsWith(issues[0]?.message ?? '');
    if (!said) for (const issue of issues) text += `  ${sanitizeLine(issue.path)}: ${sanitizeLine(issue.message)}\n`;
    if (hint) text += `${dim('hint:')} ${sanitizeLine(hint)}\n`;
    // At a terminal, wrapped at its width between words, continuation lines indented.
    const terminal = options.stderr as { isTTY?: boolean; columns?: number };
    write(terminal.isTTY && terminal.columns ? wrapText(text, terminal.columns, { hanging: 2 }) : text);
  }
  if (options.debug && failure.code === 'UNEXPECTED') {
    const cause = (failure as { cause?: unknown }).cause;
    if (cause instanceof Error && cause.stack) write(`${cause.stack}\n`);
  }
  return failure.exitCode;
}

/**
 * What Ctrl-C leaves on stderr: on a terminal, the current row cleared (the ^C the
 * terminal echoed, a spinner's frame) and the cursor shown again (a prompt or a
 * spinner hides it); then, when there is something to say, one dim line: what goes
 * on (the message: "the task goes on") and how to pick it up again (the hint).
 * A bare interruption ("interrupted", no hint) says nothing.
 */
function interruption(failure: InterruptedError, options: ReportOptions): string {
  const stderr = options.stderr as { isTTY?: boolean; columns?: number };
  const terminal = stderr.isTTY === true;
  const said = failure.message === INTERRUPTED ? [] : [failure.message];
  const note = [...said, ...(failure.hint ? [failure.hint] : [])].join('; ');
  const dim = (s: string) => (options.color ? `\x1b[2m${s}\x1b[22m` : s);
  // Wrapped at the terminal's width like every message (src/io/width.ts).
  const text =
    note && terminal && stderr.columns
      ? wrapText(dim(sanitizeLine(note)), stderr.columns, { hanging: 2 })
      : dim(sanitizeLine(note));
  return `${terminal ? '\r\x1b[2K\x1b[?25h' : ''}${note ? `${text}\n` : ''}`;
}

function issuesOf(error: CliError): ApiIssue[] {
  const issues = (error as { issues?: unknown }).issues;
  return Array.isArray(issues) ? (issues as ApiIssue[]) : [];
}

/** Hints for service answers that came without one. */
function defaultHint(error: CliError): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.status === 401)
    return 'the API key was not accepted: run `kagent auth login` again, or check KAGENT_API_KEY';
  if (error.exitCode === ExitCode.UNAVAILABLE) return 'the service is busy or unreachable; try again in a moment';
  if (error.status === 402) return 'see what is left with `kagent me`';
  return undefined;
}
