// The `pager` setting as typed to `kagent config set pager` (kept apart from
// src/io/pager.ts so that the config command loads no child_process).
import { UsageError } from '../errors.js';

/** A pager command line: not empty (use `cat` for none), one line, no control characters. */
export function parsePager(value: string): string {
  const command = value.trim();
  if (command === '')
    throw new UsageError(
      'pager must be a command, e.g. "less -R"',
      'to turn paging off: `kagent config set pager cat` (or --no-pager for one run)',
    );
  if (/[\x00-\x1f\x7f]/.test(command)) throw new UsageError('pager must be one line without control characters');
  if (command.length > 1000) throw new UsageError(`pager must be at most 1000 characters (got ${command.length})`);
  return command;
}
