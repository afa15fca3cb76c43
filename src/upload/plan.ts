// The dry runs of `lib upload` and `lib sync`: what a run would do, without sending a file. Every
// local check of a real run (type by content, empty, size against the plan's per-file limit, names),
// the bytes and the write requests it would take at the account's rate. Lines are the run's own
// (lines.ts), the status in the plain tense: upload, exists, replace, delete, keep, unchanged, fail.
//
// `lib upload`: each file's Idempotency-Key; "exists" only where that is known without sending —
// the library lists an item with the same SHA-256 (when the service gives items' SHA-256). Reads:
// GET /me (the per-file limit) and the library listing.
// `lib sync`: the plan of sync-plan.ts, each file to send checked as an upload would check it. Reads:
// the space's listing (made by the plan), GET /me.
import type { ApiClient } from '../api/client.js';
import type { Context } from '../context.js';
import { mostSevere, CliError, ExitCode } from '../errors.js';
import { defaultCacheDir } from '../config/cache-dir.js';
import { formatBytes } from '../io/bytes.js';
import { getFormatter } from '../io/output.js';
import { emit } from '../io/streams.js';
import { digestCache, type DigestCache } from './digest-cache.js';
import { refusalExitCode, type Source } from './discover.js';
import { uploadKey } from './key.js';
import { linePrinter, type ReportLine } from './lines.js';
import { inspect, sha256Of } from './prepare.js';
import type { SyncPlan } from './sync-plan.js';
import { accountFileLimit, refusedBeforeReading, type Target } from './uploader.js';

type Planned = ReportLine & { exitCode?: number };

/** What a file to send would meet: every check the run makes, the name and note bounds first. */
async function check(
  source: Source,
  options: { limit: () => Promise<number | undefined>; cache?: DigestCache; signal?: AbortSignal },
) {
  const before = refusedBeforeReading(source);
  if (before?.error)
    return { ok: false as const, refusal: { ...before.error, exitCode: before.exitCode ?? ExitCode.USAGE } };
  return inspect(source.path, source.name, source.size, options);
}

/** A line that would fail, with its exit code. */
function failing(base: Omit<ReportLine, 'status'>, refusal: { code: string; message: string; exitCode: number }) {
  return {
    ...base,
    status: 'fail' as const,
    error: { code: refusal.code, message: refusal.message },
    exitCode: refusal.exitCode,
  };
}

/** The exit a real run would end with for the checks, and its refusal; a summary line on stderr first. */
async function endAs(
  ctx: Pick<Context, 'io' | 'flags'>,
  lines: Planned[],
  summary: string,
  failed: { code: string; message: (failing: number) => string },
): Promise<void> {
  if (!ctx.flags.quiet) await emit(ctx.io.stderr, summary);
  const codes = lines.filter((l) => l.status === 'fail').map((l) => l.exitCode ?? ExitCode.ERROR);
  if (codes.length === 0) return;
  throw new CliError(failed.message(codes.length), {
    code: failed.code,
    exitCode: mostSevere(codes),
    hint: 'fix those files (see above), then run it again',
  });
}

/** The seconds `requests` take of the rate: ", 4 s at 30 requests a minute", or '' for none. */
function atRate(requests: number, rate: number, words: string): string {
  return requests > 0 ? `, ${Math.ceil((requests * 60) / rate)} s ${words} ${rate} requests a minute` : '';
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

// ---------------------------------------------------------------- lib upload --dry-run

/** SHA-256 → item of every file the library lists (items without a SHA-256 are left out). */
async function libraryHashes(
  api: ApiClient,
  signal: AbortSignal | undefined,
): Promise<{ byHash: Map<string, { id: string; title: string }>; listed: number }> {
  const byHash = new Map<string, { id: string; title: string }>();
  let listed = 0;
  for await (const item of api.paginate('listLibrary', { query: { kind: 'file' }, signal }, { all: true })) {
    listed++;
    const sha = (item as { sha256?: unknown }).sha256;
    if (typeof sha === 'string' && /^[0-9a-f]{64}$/i.test(sha))
      byHash.set(sha.toLowerCase(), { id: item.id, title: item.title });
  }
  return { byHash, listed };
}

export interface UploadPlanOptions {
  api: ApiClient;
  target: Target;
  limit: () => Promise<number | undefined>;
  cache?: DigestCache;
  signal?: AbortSignal;
}

/** Each file of a `lib upload` as the run would meet it; `hashes`: whether "exists" could be known. */
export async function planUploads(
  sources: Source[],
  options: UploadPlanOptions,
): Promise<{ lines: Planned[]; hashes: boolean }> {
  const lines: Planned[] = [];
  let library: Awaited<ReturnType<typeof libraryHashes>> | undefined;
  for (const source of sources) {
    const base = { path: source.display, name: source.name, size: source.size };
    // Refused from the listing alone (a name that is not UTF-8), as the real run refuses it.
    if (source.refusal) {
      lines.push(failing(base, { ...source.refusal, exitCode: refusalExitCode(source.refusal) }));
      continue;
    }
    const checked = await check(source, options);
    if (!checked.ok) {
      lines.push(failing(base, checked.refusal));
      continue;
    }
    const key = uploadKey({ digest: checked.digest, sampled: checked.sampled, name: source.name, ...options.target });
    const sha256 =
      checked.sha256 ?? (await sha256Of(source.path, source.size, { cache: options.cache, signal: options.signal }));
    library ??= await libraryHashes(options.api, options.signal);
    const item = library.byHash.get(sha256);
    lines.push({ ...base, status: item ? 'exists' : 'upload', key, sha256, ...(item ? { item } : {}) });
  }
  return { lines, hashes: library === undefined || library.listed === 0 || library.byHash.size > 0 };
}

/** The whole dry run of `lib upload`: plan, print, and end as a real run would for the local checks. */
export async function uploadDryRun(ctx: Context, api: ApiClient, sources: Source[], target: Target): Promise<void> {
  const { lines, hashes } = await planUploads(sources, {
    api,
    target,
    limit: accountFileLimit(api, ctx.signal),
    cache: digestCache(defaultCacheDir(ctx.io.env), () => ctx.clock.now()),
    signal: ctx.signal,
  });
  await (await linePrinter(ctx)).print(lines);
  const sending = lines.filter((l) => l.status === 'upload');
  const count = (status: ReportLine['status']) => lines.filter((l) => l.status === status).length;
  const bytes = sending.reduce((sum, l) => sum + l.size, 0);
  const time = atRate(sending.length, ctx.config.rateLimit, 'of the rate of');
  const unknown = hashes ? '' : ' (the library lists no SHA-256: files it may already hold show as "would upload")';
  const summary =
    `Dry run, nothing sent: ${sending.length} would upload (${formatBytes(bytes)} in ${plural(sending.length, 'upload request')}${time}), ` +
    `${count('exists')} already there, ${count('fail')} would fail${unknown}\n`;
  await endAs(ctx, lines, summary, {
    code: 'UPLOAD_FAILED',
    message: (n) => `${n} of ${plural(lines.length, 'file')} would fail; nothing was sent (dry run)`,
  });
}

// ---------------------------------------------------------------- lib sync --dry-run

export interface SyncDryRunOptions {
  deleting: boolean;
  verbose: boolean;
  limit: () => Promise<number | undefined>;
  cache: DigestCache;
}

/** What a sync would do with each file and item (a file to send is checked as an upload would check it). */
export async function planSyncLines(ctx: Pick<Context, 'signal'>, plan: SyncPlan, options: SyncDryRunOptions) {
  const lines: Planned[] = [];
  const names = plan.mapping.names;
  for (const source of plan.refused) {
    const refusal = source.refusal ?? { code: 'FILE_UNREADABLE', message: 'cannot read the file' };
    const base = { path: (source as Source & { rel?: string }).rel ?? source.display, name: source.name, size: 0 };
    lines.push(failing(base, { ...refusal, exitCode: refusalExitCode(source.refusal) }));
  }
  for (const file of plan.files) {
    const base = { path: file.rel, name: file.source.name, size: file.source.size };
    const sha256 = file.sha256 ?? file.holder?.sha256;
    const known = sha256 ? { sha256 } : {};
    const holder = file.holder ? { item: { id: file.holder.id } } : {};
    if (file.action === 'keep' && names && file.previous.length > 0) {
      const previous = file.previous.map((p) => p.id);
      const reason = 'the upload is there; earlier versions are deleted';
      lines.push({ ...base, status: 'replace', ...holder, previous, reason, ...known });
    } else if (file.action === 'keep') lines.push({ ...base, status: 'unchanged', ...holder, ...known });
    else {
      const checked = await check(file.source, { ...options, signal: ctx.signal });
      // The earlier scheme's item of the file goes first, then the file under its own name.
      const earlier = [...(file.migrated ? [file.migrated] : []), ...file.previous].map((p) => p.id);
      const previous = names && earlier.length > 0 ? { previous: earlier } : {};
      const status = file.migrated ? 'replace' : file.action;
      lines.push(checked.ok ? { ...base, status, ...previous, ...known } : failing(base, checked.refusal));
    }
  }
  for (const removal of plan.removals) lines.push(removalLine(removal, names && options.deleting, names));
  return lines;
}

/** An item whose file is gone: deleted (--delete, and the listing says which items are DIR's), else kept, and why. */
function removalLine(removal: SyncPlan['removals'][number], deleting: boolean, names: boolean): Planned {
  const line = { path: removal.rel, name: removal.name, size: removal.item.size ?? 0, item: { id: removal.item.id } };
  if (removal.heldFor !== undefined)
    return { ...line, status: 'keep', reason: `its bytes are those of ${removal.heldFor}` };
  if (deleting) return { ...line, status: 'delete' };
  const reason = names
    ? 'the file is no longer in the folder; --delete deletes its item'
    : 'the service does not say which items came from the folder';
  return { ...line, status: 'keep', reason };
}

/** The whole dry run of `lib sync`: plan, print, the counts and what they cost, and end as a real run would. */
export async function syncDryRun(ctx: Context, plan: SyncPlan, options: SyncDryRunOptions): Promise<void> {
  const lines = await planSyncLines(ctx, plan, options);
  await (await linePrinter(ctx, { verbose: options.verbose })).print(lines);
  const count = (status: ReportLine['status']) => lines.filter((l) => l.status === status).length;
  // A replacement whose upload is already there sends nothing (its reason says so); its earlier versions go.
  const sending = lines.filter((l) => l.status === 'upload' || (l.status === 'replace' && l.reason === undefined));
  const earlier = plan.mapping.names
    ? lines.reduce((n, l) => n + (l.status === 'replace' ? (l.previous?.length ?? 0) : 0), 0)
    : 0;
  const requests = sending.length + count('delete') + earlier;
  const bytes = sending.reduce((n, l) => n + l.size, 0);
  const time = atRate(requests, ctx.config.rateLimit, 'at');
  const summary =
    `Dry run, nothing sent: ${count('upload')} to upload, ${count('replace')} to replace, ${count('delete')} to delete, ${count('unchanged')} unchanged, ${count('keep')} kept, ${count('fail')} would fail; ` +
    `${formatBytes(bytes)} in ${plural(requests, 'write request')}${time} (after ${plural(plan.listRequests, 'listing request')})\n`;
  const err = await getFormatter(ctx, 'stderr');
  const notes = [
    plan.mapping.names ? '' : 'the listing gives no file names (fileName): nothing would be deleted',
    plan.mapping.hashes
      ? ''
      : 'the listing gives no SHA-256: every file would be sent, and the service tells which are unchanged',
  ].filter((n) => n !== '');
  const noted = notes.map((n) => `${err.yellow('note:')} ${n}\n`).join('');
  await endAs(ctx, lines, summary + noted, {
    code: 'SYNC_FAILED',
    message: (n) => `${plural(n, 'file')} would fail; nothing was sent (dry run)`,
  });
}
