// Commands over several ids (`lib delete A B C`, `inbox read A B`): one id that
// fails is recorded for --json and said on stderr as any error is, and the run
// goes on to the next id; the command's exit status comes from its failures.
import type { Context } from '../context.js';
import { CliError, type ApiError } from '../errors.js';
import { wantsJson } from '../io/output.js';
import { reportError } from '../io/report.js';

/** Records that `id` failed (`{id, [done]: false, error}`) and, without --json, says so on stderr. */
export async function itemFailed(
  ctx: Pick<Context, 'io' | 'flags'>,
  results: Array<Record<string, unknown>>,
  done: string,
  id: string,
  error: ApiError,
): Promise<void> {
  results.push({ id, [done]: false, error: { code: error.code, message: error.message } });
  if (wantsJson(ctx)) return;
  // The error report loads only when an id fails.
  reportError(new CliError(`${id}: ${error.message}`, { code: error.code, exitCode: error.exitCode }), {
    stderr: ctx.io.stderr,
    json: false,
    color: ctx.io.colorStderr,
    debug: false,
    interrupted: false,
  });
}
