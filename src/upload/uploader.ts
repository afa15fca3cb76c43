// The upload queue: several files at once (`concurrency`), each checked before
// it is sent (prepare.ts), sent with a content-derived Idempotency-Key (key.ts)
// and streamed from disk (body.ts); a replayed answer to a key made from
// samples of a large file is checked against the whole file's SHA-256. Pacing
// and retries belong to the HTTP core: every attempt waits for the shared rate
// budget, and a retry re-opens the file and sends the same key, so a dropped
// connection never adds a file twice.
//
// Outcome per file: `uploaded` (added by this run), `exists` (the service
// already had it: replayed from its idempotency cache, or the same bytes were
// in the library — `duplicate: true`), `failed` (refused here, or an error
// answer), `skipped` (not started, or cut short by Ctrl-C: --fail-fast after a failure, Ctrl-C, or a
// failure that every other file would meet too — no key, service unreachable).
import type { ApiClient, CallResult, Responses } from '../api/client.js';
import type { LibraryItem } from '../api/shapes.js';
import { limits } from '../api/shapes.js';
import { charLength } from '../api/validate.js';
import { abortError, ApiError, CliError, ExitCode, mostSevere } from '../errors.js';
import { FileBody } from './body.js';
import { refusalExitCode, type Source } from './discover.js';
import { uploadKey } from './key.js';
import type { Listed } from './sync-listing.js';
import { checkedPlace, confirmInSpace, creditsHint, planFromListing } from './confirm.js';
import type { DigestCache } from './digest-cache.js';
import { inspect, overLimit, sha256Of, type Inspection, type Refusal } from './prepare.js';
import { stat } from 'node:fs/promises';

export type FileStatus = 'uploaded' | 'exists' | 'failed' | 'skipped';

export interface FileError {
  code: string;
  message: string;
  /** The HTTP status when the service answered; absent for refusals made here. */
  status?: number;
  hint?: string;
}

export interface FileResult {
  path: string;
  name: string;
  size: number;
  status: FileStatus;
  item?: LibraryItem;
  error?: FileError;
  /** Exit status this failure maps to (not printed in JSON). */
  exitCode?: number;
}

export interface Target {
  /** Space id; undefined lets the agent pick. */
  space?: string;
  note?: string;
  lang?: 'zh' | 'en';
}

export interface UploadEvents {
  /** A file starts being checked and sent. */
  started?(source: Source): void;
  /** A new attempt at sending it (the byte count starts again). */
  attempt?(source: Source): void;
  bytes?(source: Source, bytes: number): void;
  finished(result: FileResult, source: Source): void | Promise<void>;
}

export interface UploadOptions {
  api: ApiClient;
  target: Target;
  concurrency: number;
  failFast: boolean;
  /** The plan's per-file limit, fetched on first need (only for a file to be sent of LIMIT_ASKED_FROM bytes or more). */
  limit: () => Promise<number | undefined>;
  /** Digests of unchanged files hashed before on this machine. */
  cache?: DigestCache;
  /**
   * A folder's files into a named space: plan from the space's listing first (a file whose bytes an
   * item of the space holds is not sent: `exists`, as --dry-run says), and confirm at the end, with
   * one more listing, that every file's item is there.
   */
  confirm?: boolean;
  /** Told once when the listing gives no SHA-256, so every file is sent. */
  notice?: (message: string) => void | Promise<void>;
  /** Ids the listing of the target space just gave: a replayed answer naming one needs no read. */
  listed?: ReadonlySet<string>;
  /** Items of the target space by SHA-256: a file whose bytes are one of them is not sent. */
  held?: ReadonlyMap<string, Listed>;
  signal?: AbortSignal;
  events: UploadEvents;
}

export interface UploadSummary {
  uploaded: number;
  exists: number;
  failed: number;
  skipped: number;
  /** Bytes of the files uploaded or found already there. */
  bytes: number;
  exitCode: number;
  /** Set when the run stopped early for a reason that applies to every file. */
  stoppedBy?: CliError;
}

/**
 * From this size on, a file to be sent is first held against the plan's per-file limit (GET /me, once
 * a run), so that its body is not sent in vain. A smaller file is sent without asking: over the limit,
 * the service's 413 FILE_TOO_LARGE says so for the one request GET /me would have cost, and less than
 * 1 MiB sent for nothing costs less than the second of the shared rate a request takes. So a run that
 * sends only small files, or nothing (all already there), never asks (docs/library.md).
 */
export const LIMIT_ASKED_FROM = 1024 * 1024;

/** Failures that every other file would meet as well: stop starting new ones. */
const FATAL_EXIT = new Set<number>([ExitCode.AUTH, ExitCode.UNAVAILABLE, ExitCode.INTERRUPTED]);

/**
 * The plan's per-file limit (GET /me), asked once and only when a file gets that far. Without an
 * account answer there is nothing to upload with (no key, service unreachable, Ctrl-C); other
 * failures only skip the check, which the service makes again.
 */
export function accountFileLimit(api: ApiClient, signal: AbortSignal | undefined): () => Promise<number | undefined> {
  let limit: Promise<number | undefined> | undefined;
  return () =>
    (limit ??= api.call('getMe', { signal }).then(
      (me) => {
        const bytes = (me as { limits?: { fileBytes?: unknown } }).limits?.fileBytes;
        return typeof bytes === 'number' && bytes > 0 ? bytes : undefined;
      },
      (error: unknown) => {
        if (
          error instanceof CliError &&
          (error.exitCode === ExitCode.AUTH ||
            error.exitCode === ExitCode.UNAVAILABLE ||
            error.exitCode === ExitCode.INTERRUPTED)
        )
          throw error;
        return undefined;
      },
    ));
}

export async function uploadAll(sources: Source[], options: UploadOptions): Promise<UploadSummary> {
  const summary: UploadSummary = { uploaded: 0, exists: 0, failed: 0, skipped: 0, bytes: 0, exitCode: ExitCode.OK };
  const failureCodes: number[] = [];
  let next = 0;
  let stop = false;
  // Files with the same bytes go one after the other: the second is then recognised as a duplicate.
  const bySha = new Map<string, Promise<unknown>>();
  /** Files actually sent (not found in the listing). */
  const sent = { count: 0 };

  // Files reported as held by an item, checked against the space's listing at the end (`confirm`).
  const held: Array<{ result: FileResult; source: Source }> = [];
  const record = async (result: FileResult, source: Source) => {
    if (options.confirm && result.item && (result.status === 'uploaded' || result.status === 'exists'))
      held.push({ result, source });
    if (result.status === 'uploaded') summary.uploaded++;
    else if (result.status === 'exists') summary.exists++;
    else if (result.status === 'failed') summary.failed++;
    else summary.skipped++;
    if (result.status === 'uploaded' || result.status === 'exists') summary.bytes += result.size;
    if (result.status === 'failed') {
      failureCodes.push(result.exitCode ?? ExitCode.ERROR);
      if (options.failFast) stop = true;
      // The account cannot pay: every later file would meet the same 402. Files in flight finish.
      if (result.error?.code === 'CREDITS_EXHAUSTED' && !summary.stoppedBy) {
        stop = true;
        summary.stoppedBy = new CliError('the account ran out of credits: no new file was started', {
          code: 'CREDITS_EXHAUSTED',
          exitCode: ExitCode.QUOTA,
        });
      }
    }
    await options.events.finished(result, source);
  };

  const worker = async () => {
    for (;;) {
      if (stop || options.signal?.aborted) return;
      const source = sources[next++];
      if (!source) return;
      let result: FileResult;
      try {
        result = await uploadOne(source, options, bySha, sent);
      } catch (error) {
        // Only an interruption or a failure common to every file gets here.
        const cliError =
          error instanceof CliError
            ? error
            : new CliError((error as Error)?.message ?? String(error), { cause: error });
        if (options.signal?.aborted || FATAL_EXIT.has(cliError.exitCode)) {
          stop = true;
          summary.stoppedBy ??= cliError;
        }
        result = failure(source, cliError);
        if (options.signal?.aborted) result = { ...base(source), status: 'skipped' };
      }
      await record(result, source);
    }
  };

  const space = options.target.space;
  if (options.confirm && space !== undefined && sources.length > 0 && !options.signal?.aborted)
    await planFromListing(options, space);
  const workers = Array.from({ length: Math.max(1, Math.min(options.concurrency, sources.length)) }, () => worker());
  await Promise.all(workers);

  // What was never started is reported too, so every file named has an outcome.
  for (; next < sources.length; next++) {
    const source = sources[next] as Source;
    await record({ ...base(source), status: 'skipped' }, source);
  }
  if (sent.count > 0 && held.length > 0 && space !== undefined && !options.signal?.aborted && !summary.stoppedBy)
    await confirmInSpace(options, space, held, summary, record);
  if (summary.stoppedBy?.code === 'CREDITS_EXHAUSTED') summary.stoppedBy.hint = await creditsHint(options, summary);
  // Ctrl-C: 130; the --timeout deadline (its reason, a CliError): that error's code (7).
  if (options.signal?.aborted) failureCodes.push(abortError(options.signal).exitCode);
  else if (summary.stoppedBy) failureCodes.push(summary.stoppedBy.exitCode);
  summary.exitCode = mostSevere(failureCodes);
  return summary;
}

async function uploadOne(
  source: Source,
  options: UploadOptions,
  bySha: Map<string, Promise<unknown>>,
  sent: { count: number },
): Promise<FileResult> {
  const { events, signal } = options;
  const tooLong = refusedBeforeReading(source);
  if (tooLong) return tooLong;
  events.started?.(source);
  const checked = await inspect(source.path, source.name, source.size, { cache: options.cache, signal });
  if (!checked.ok) return refused(source, checked.refusal);
  // Already an item of the space (its listing said so): nothing to send.
  const sha = checked.sha256 ?? (options.held && checked.sampled ? undefined : checked.digest);
  const there = sha !== undefined ? options.held?.get(sha) : undefined;
  if (there) return { ...base(source), status: 'exists', item: there as unknown as LibraryItem };
  // To be sent: a large file is held against the plan's limit first (no key, service down: the run stops).
  const tooLarge = source.size >= LIMIT_ASKED_FROM ? overLimit(source.size, await options.limit()) : undefined;
  if (tooLarge) return refused(source, tooLarge);
  sent.count++;
  // As it was when checked: compared again once the service has answered.
  const before = await statOf(source.path);
  const send = (digest: string, sampled: boolean, after?: string) =>
    sendFile(source, options, { digest, sampled, after });
  const sending = sendInTurn(bySha, checked.digest, () => send(checked.digest, checked.sampled));
  try {
    const { answer, sha256 } = await confirmedAnswer(source, options, checked, sending, send);
    const resend = (fresh: string) => send(sha256 ?? checked.digest, sha256 === undefined && checked.sampled, fresh);
    const placed = await checkedPlace(source, options, answer, resend);
    if (!('body' in placed)) return placed;
    return outcome(source, placed, before, sha256);
  } catch (error) {
    // No key, service unreachable, Ctrl-C: not this file's fault; the run stops (see the worker).
    if (error instanceof CliError && !FATAL_EXIT.has(error.exitCode) && !signal?.aborted) return failure(source, error);
    throw error;
  } finally {
    if (bySha.get(checked.digest) === sending) bySha.delete(checked.digest);
  }
}

type Saved = CallResult<Responses['uploadFile']>;
type Checked = Extract<Inspection, { ok: true }>;

/** Refusals known from the listing alone, before the file is opened (the dry runs make them too). */
export function refusedBeforeReading(source: Source): FileResult | undefined {
  if (source.refusal)
    return refused(source, {
      ...source.refusal,
      exitCode: refusalExitCode(source.refusal),
    });
  if (charLength(source.name) > limits.fileNameMax) {
    return refused(source, {
      code: 'NAME_TOO_LONG',
      message: `the name is ${charLength(source.name)} characters; the service takes at most ${limits.fileNameMax}`,
      exitCode: ExitCode.USAGE,
    });
  }
  if (source.note !== undefined && charLength(source.note) > limits.uploadNoteMax) {
    return refused(source, {
      code: 'NAME_TOO_LONG',
      message: `its path under the folder is too long to record in the item's note (at most ${limits.uploadNoteMax} characters with the prefix)`,
      exitCode: ExitCode.USAGE,
    });
  }
  return undefined;
}

/** One upload of the file under the key made from `digest` (and `after`); every attempt re-opens it. */
function sendFile(
  source: Source,
  options: UploadOptions,
  { digest, sampled, after }: { digest: string; sampled: boolean; after?: string },
): Promise<Saved> {
  const { api, target, events, signal } = options;
  const query: Record<string, string> = {};
  if (target.space !== undefined) query.space = target.space;
  const note = source.note ?? target.note;
  if (note !== undefined) query.note = note;
  if (target.lang !== undefined) query.lang = target.lang;
  return api.callFull('uploadFile', {
    stream: () => {
      events.attempt?.(source);
      return new FileBody(source.path, source.size, (n) => events.bytes?.(source, n));
    },
    contentLength: source.size,
    headers: { 'x-file-name': encodeURIComponent(source.name) },
    query,
    idempotencyKey: uploadKey({
      digest,
      sampled,
      name: source.name,
      ...target,
      ...(note !== undefined ? { note } : {}),
      ...(after ? { after } : {}),
    }),
    signal,
  });
}

/** Files of the same digest are sent one after another: the second then meets the first's answer, not a 409. */
function sendInTurn(bySha: Map<string, Promise<unknown>>, digest: string, send: () => Promise<Saved>): Promise<Saved> {
  const previous = bySha.get(digest);
  const sending = (async () => {
    if (previous) await previous.catch(() => undefined);
    return send();
  })();
  bySha.set(digest, sending);
  return sending;
}

/** The service's answer, once it is known to be for this file's bytes, with the file's SHA-256 when it was read. */
async function confirmedAnswer(
  source: Source,
  options: UploadOptions,
  checked: Checked,
  sending: Promise<Saved>,
  send: (digest: string, sampled: boolean) => Promise<Saved>,
): Promise<{ answer: Saved; sha256: string | undefined }> {
  let sha256 = checked.sha256;
  let answer = await sending.catch((error: unknown) => {
    // A service that compares the bytes of a replay too refuses a changed file under its
    // sampled key (422): it goes under the key of its SHA-256 below.
    if (checked.sampled && error instanceof ApiError && error.status === 422) return undefined;
    throw error;
  });
  // A sampled key is shared by versions of a file that differ between the samples, so its
  // replayed answer counts only when the service stored this file's SHA-256; otherwise (or when
  // the service does not say) the file is sent again, keyed by its SHA-256.
  if (answer === undefined || (checked.sampled && answer.replayed)) {
    sha256 ??= await sha256Of(source.path, source.size, { cache: options.cache, signal: options.signal });
    if (answer === undefined || sha256Said(answer.body.item) !== sha256) answer = await send(sha256, false);
  }
  return { answer, sha256 };
}

/** Uploaded, already there, or failed because what the service holds is not the file as it is now. */
async function outcome(
  source: Source,
  answer: Saved,
  before: FileStat | undefined,
  sha256: string | undefined,
): Promise<FileResult> {
  const item = answer.body.item;
  // What the service did, from its answers: a duplicate was already there; a replay answers
  // with the first result — this run's own work only when an earlier attempt of it may have
  // reached the service without an answer (a reset after the work was done, a cut-off answer),
  // else an earlier run's (attempts turned away with a 429 or 503 added nothing).
  const already = answer.body.duplicate === true || (answer.replayed && answer.unanswered === 0);
  // A file that changed while it was sent (same size, other bytes, or a new mtime): what the
  // service holds is not the file as it is now.
  const after = await statOf(source.path);
  if (before && after && (before.size !== after.size || before.mtimeNs !== after.mtimeNs || before.ino !== after.ino)) {
    return {
      ...base(source),
      status: 'failed',
      item,
      error: {
        code: 'FILE_CHANGED',
        message: `the file changed while it was being sent; the library holds what it received as ${item.id}`,
      },
      exitCode: ExitCode.ERROR,
    };
  }
  // What the service received is the file as it was read (when both SHA-256 digests are known).
  const received = sha256Said(item);
  if (sha256 !== undefined && received !== undefined && received !== sha256) {
    return {
      ...base(source),
      status: 'failed',
      item,
      error: {
        code: 'CONTENT_MISMATCH',
        message: `the service received other bytes than were read before sending (did the file change meanwhile?); the library holds what it received as ${item.id}`,
      },
      exitCode: ExitCode.ERROR,
    };
  }
  return { ...base(source), status: already ? 'exists' : 'uploaded', item };
}

type FileStat = { size: bigint; mtimeNs: bigint; ino: bigint };

async function statOf(path: string): Promise<FileStat | undefined> {
  return stat(path, { bigint: true }).catch(() => undefined);
}

/** The SHA-256 the service reports for what it stored (`item.sha256`), lower-case; undefined when it does not say. */
function sha256Said(item: LibraryItem | undefined): string | undefined {
  const value = (item as { sha256?: unknown } | undefined)?.sha256;
  return typeof value === 'string' && /^[0-9a-f]{64}$/i.test(value) ? value.toLowerCase() : undefined;
}

function base(source: Source): Pick<FileResult, 'path' | 'name' | 'size'> {
  return { path: source.display, name: source.name, size: source.size };
}

function refused(source: Source, refusal: Refusal): FileResult {
  return {
    ...base(source),
    status: 'failed',
    error: { code: refusal.code, message: refusal.message },
    exitCode: refusal.exitCode,
  };
}

function failure(source: Source, error: CliError): FileResult {
  const status = error instanceof ApiError ? error.status : undefined;
  return {
    ...base(source),
    status: 'failed',
    error: {
      code: error.code,
      message: error.message,
      ...(status !== undefined ? { status } : {}),
      ...(error.hint ? { hint: error.hint } : {}),
    },
    exitCode: error.exitCode,
  };
}
