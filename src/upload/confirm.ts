// What an upload's answers are checked against: the space's listing before the
// run (a file the space holds is not sent) and after it (every file's item must
// be there), a replayed answer's item (read again: it may be gone or moved), and
// GET /me's credits when the account ran out.
import { randomUUID } from 'node:crypto';
import type { LibraryItem } from '../api/shapes.js';
import { ApiError, CliError, ExitCode } from '../errors.js';
import type { Source } from './discover.js';
import { listSpace, notListed } from './sync-listing.js';
import { creditsStopHint } from '../api/credits-hint.js';
import type { FileResult, UploadOptions, UploadSummary } from './uploader.js';
import type { CallResult, Responses } from '../api/client.js';

type Saved = CallResult<Responses['uploadFile']>;

const FATAL_EXIT = new Set<number>([ExitCode.AUTH, ExitCode.UNAVAILABLE, ExitCode.INTERRUPTED]);

const base = (source: Source): Pick<FileResult, 'path' | 'name' | 'size'> => ({
  path: source.display,
  name: source.name,
  size: source.size,
});

/** Reads the space's listing into `held` and `listed`; a listing without SHA-256, or one that fails, is said once. */
export async function planFromListing(options: UploadOptions, space: string): Promise<void> {
  try {
    const listed = await listSpace(options.api, space, options.signal);
    if (listed.mapping.hashes) {
      options.held = new Map(listed.items.map((item) => [item.sha256 as string, item]));
      options.listed = new Set(listed.items.map((item) => item.id));
    } else
      await options.notice?.(
        "the library listing does not give items' SHA-256: every file is sent (the service recognises those it has)",
      );
  } catch (error) {
    if (options.signal?.aborted || (error instanceof CliError && FATAL_EXIT.has(error.exitCode))) throw error;
    await options.notice?.(
      `the space could not be listed (${(error as Error).message}): every file is sent (the service recognises those it has)`,
    );
  }
}

/** One more listing: a file reported as held by an item the space does not show is a failure, told again. */
export async function confirmInSpace(
  options: UploadOptions,
  space: string,
  held: Array<{ result: FileResult; source: Source }>,
  summary: UploadSummary,
  record: (result: FileResult, source: Source) => Promise<void>,
): Promise<void> {
  try {
    const missing = await notListed(
      options.api,
      space,
      held.map(({ result }) => result.item?.id as string),
      options.signal,
    );
    for (const { result, source } of held) {
      if (!missing.has(result.item?.id as string)) continue;
      // Taken back from its count, and told again as the failure it is.
      summary[result.status as 'uploaded' | 'exists']--;
      summary.bytes -= result.size;
      const message = `the space's listing after the run does not show its item ${result.item?.id}`;
      await record(
        { ...result, status: 'failed', error: { code: 'NOT_IN_SPACE', message }, exitCode: ExitCode.ERROR },
        source,
      );
    }
  } catch (error) {
    const cause = error instanceof CliError ? error : new CliError(String(error), { cause: error });
    summary.stoppedBy = new CliError(`the space could not be listed to confirm the run: ${cause.message}`, {
      code: cause.code,
      exitCode: cause.exitCode,
      cause,
    });
  }
}

/** Gone items a file's answers may name in turn before the file fails: a service that replays fresh keys is not chased. */
const GONE_RETRIES = 3;

/**
 * The answer once its item is known to exist and to be in the target space, or the file's failure.
 * A replay is the service's first answer to the key, maybe a day old: its item may have been
 * deleted or moved since. It is confirmed by the listing of the space (`listed`) or one read of
 * the item; a gone item's file is sent again under a fresh key (a new request: it cannot replay,
 * and the service's one-item-per-content rule still keeps it from being added twice). An item
 * in another space is the service keeping one item per content: the file fails, never "exists".
 */
export async function checkedPlace(
  source: Source,
  options: UploadOptions,
  first: Saved,
  resend: (fresh: string) => Promise<Saved>,
): Promise<Saved | FileResult> {
  let answer = first;
  for (let round = 0; answer.replayed && !options.listed?.has(answer.body.item.id); round++) {
    const gone = answer.body.item.id;
    const now = await readItem(options, gone);
    if (now !== undefined) {
      answer = { ...answer, body: { ...answer.body, item: { ...answer.body.item, ...now } } };
      break;
    }
    if (round >= GONE_RETRIES)
      return {
        ...base(source),
        status: 'failed',
        error: {
          code: 'ITEM_GONE',
          message: `the service answered ${round + 1} times with an item that no longer exists (last ${gone})`,
        },
        exitCode: ExitCode.ERROR,
      };
    answer = await resend(randomUUID());
  }
  const item = answer.body.item;
  const where = (item as { spaceId?: unknown }).spaceId;
  const target = options.target.space;
  if (target === undefined || typeof where !== 'string' || where === target) return answer;
  return {
    ...base(source),
    status: 'failed',
    item,
    error: {
      code: 'IN_ANOTHER_SPACE',
      message: `the service already holds these bytes as ${item.id} in space ${where} and adds the same file only once: it is not in space ${target}`,
      hint: `move that item: \`kagent lib edit ${item.id} --space ${target}\``,
    },
    exitCode: ExitCode.ERROR,
  };
}

/** The item as the service holds it now; undefined when it is gone (404). */
async function readItem(options: UploadOptions, id: string): Promise<LibraryItem | undefined> {
  try {
    return await options.api.call('getLibraryItem', { params: { id }, signal: options.signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

/** What is left of the account's credits (GET /me), and how many files were not attempted. */
export async function creditsHint(options: UploadOptions, summary: UploadSummary): Promise<string> {
  return creditsStopHint(summary.skipped, 'file', () => options.api.call('getMe', { signal: options.signal }));
}
