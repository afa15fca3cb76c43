// Commands over several ids (`lib delete A B C`, `inbox read A B`): one id that
// fails is recorded for --json and said on stderr as any error is, and the run
// goes on to the next id; the command's exit status comes from its failures.
import { CliError, type ApiError } from '../errors.js';
import type { DoneOneByOne } from '../io/outcome.js';

/** Records that `id` failed (`{id, [done]: false, error}` with --json; else the error on stderr). */
export async function itemFailed<T>(
  each: DoneOneByOne<T, Record<string, unknown>>,
  done: string,
  id: string,
  error: ApiError,
): Promise<void> {
  await each.failed(
    { id, [done]: false, error: { code: error.code, message: error.message } },
    new CliError(`${id}: ${error.message}`, { code: error.code, exitCode: error.exitCode }),
  );
}
