// `lib upload --dry-run`: what a run would do, without sending a file. Every
// local check of a real run (type by content, empty, size against the plan's
// per-file limit, names), each file's Idempotency-Key, the bytes and the
// upload requests it would take at the account's rate; "already there" only
// where that is known without sending — the library lists an item with the
// same SHA-256 (when the service gives items' SHA-256) — else "would upload".
// The reads it makes: GET /me (the per-file limit) and the library listing.
import type { ApiClient } from '../api/client.js';
import type { Context } from '../context.js';
import { escapeJsonControls, sanitizeLine } from '../io/sanitize.js';
import { emit } from '../io/streams.js';
import type { DigestCache } from './digest-cache.js';
import { refusalExitCode, type Source } from './discover.js';
import { uploadKey } from './key.js';
import { formatBytes, inspect, sha256Of } from './prepare.js';
import type { Target } from './uploader.js';
import { mostSevere, CliError } from '../errors.js';
import { getFormatter, wantsJson } from '../io/output.js';
import { runJq } from '../io/jq.js';
import { accountFileLimit } from './uploader.js';
import { digestCache } from './digest-cache.js';
import { defaultCacheDir } from '../config/cache-dir.js';

export type PlannedStatus = 'would-upload' | 'exists' | 'failed';

export interface PlannedFile {
  path: string;
  name: string;
  size: number;
  status: PlannedStatus;
  /** The Idempotency-Key the upload would carry (files that pass the checks). */
  key?: string;
  sha256?: string;
  /** The library item with the same SHA-256 ("exists"). */
  item?: { id: string; title: string };
  error?: { code: string; message: string };
  exitCode?: number;
}

export interface PlanSummary {
  files: number;
  wouldUpload: number;
  exists: number;
  failed: number;
  /** Bytes the run would send. */
  bytes: number;
  /** Upload requests the run would make (one per file to send, retries aside). */
  requests: number;
  ratePerMinute: number;
  /** The share of the account's rate those requests take: requests × 60 / rate, in seconds. */
  seconds: number;
  /** Whether the library said items' SHA-256 (so "already there" could be known). */
  libraryHashes: boolean;
  exitCode: number;
}

export interface PlanOptions {
  api: ApiClient;
  target: Target;
  limit: () => Promise<number | undefined>;
  cache?: DigestCache;
  ratePerMinute: number;
  signal?: AbortSignal;
}

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

export async function planUploads(
  sources: Source[],
  options: PlanOptions,
): Promise<{ files: PlannedFile[]; summary: PlanSummary }> {
  const files: PlannedFile[] = [];
  let library: Awaited<ReturnType<typeof libraryHashes>> | undefined;
  for (const source of sources) {
    const base = { path: source.display, name: source.name, size: source.size };
    // Refused from the listing alone (a name that is not UTF-8), as the real run refuses it.
    if (source.refusal) {
      files.push({
        ...base,
        status: 'failed',
        error: { ...source.refusal },
        exitCode: refusalExitCode(source.refusal),
      });
      continue;
    }
    const checked = await inspect(source.path, source.name, source.size, {
      limit: options.limit,
      cache: options.cache,
      signal: options.signal,
    });
    if (!checked.ok) {
      files.push({
        ...base,
        status: 'failed',
        error: { code: checked.refusal.code, message: checked.refusal.message },
        exitCode: checked.refusal.exitCode,
      });
      continue;
    }
    const key = uploadKey({ digest: checked.digest, sampled: checked.sampled, name: source.name, ...options.target });
    const sha256 =
      checked.sha256 ?? (await sha256Of(source.path, source.size, { cache: options.cache, signal: options.signal }));
    library ??= await libraryHashes(options.api, options.signal);
    const item = library.byHash.get(sha256);
    files.push({ ...base, status: item ? 'exists' : 'would-upload', key, sha256, ...(item ? { item } : {}) });
  }
  const sending = files.filter((f) => f.status === 'would-upload');
  const rate = options.ratePerMinute;
  const summary: PlanSummary = {
    files: files.length,
    wouldUpload: sending.length,
    exists: files.filter((f) => f.status === 'exists').length,
    failed: files.filter((f) => f.status === 'failed').length,
    bytes: sending.reduce((sum, f) => sum + f.size, 0),
    requests: sending.length,
    ratePerMinute: rate,
    seconds: Math.ceil((sending.length * 60) / rate),
    libraryHashes: library === undefined || library.listed === 0 || library.byHash.size > 0,
    exitCode: mostSevere(files.map((f) => f.exitCode ?? 0)),
  };
  return { files, summary };
}

/** The plan in the usual three forms: NDJSON with --json, a line per file on a terminal, TSV when piped; the summary on stderr. */
export async function printPlan(
  ctx: Pick<Context, 'io' | 'flags' | 'clock' | 'serviceClock'> & { signal?: AbortSignal },
  files: PlannedFile[],
  summary: PlanSummary,
): Promise<void> {
  const f = await getFormatter(ctx, 'stdout');
  const err = await getFormatter(ctx, 'stderr');
  // The keys are internal (110 characters): shown in --json, and in text only with --debug.
  const keyOf = (file: PlannedFile) => (ctx.flags.debug ? (file.key ?? '') : '');
  for (const file of files) {
    const { exitCode: _exitCode, ...data } = file;
    if (wantsJson(ctx)) {
      if (ctx.flags.jq !== undefined) {
        await emit(ctx.io.stdout, await runJq(data, ctx.flags.jq, false, { env: ctx.io.env, signal: ctx.signal }));
      } else await emit(ctx.io.stdout, `${escapeJsonControls(JSON.stringify(data))}\n`);
      continue;
    }
    const path = sanitizeLine(file.path);
    if (f.tty) {
      const line =
        file.status === 'would-upload'
          ? `${f.green('+')} would upload ${path} ${f.dim(`(${formatBytes(file.size)})${keyOf(file) ? ` key ${keyOf(file)}` : ''}`)}`
          : file.status === 'exists'
            ? `${f.cyan('=')} already there ${path} ${f.dim('→')} ${sanitizeLine(file.item?.id ?? '')}`
            : `${f.red('✗')} would fail ${path}: ${sanitizeLine(file.error?.message ?? '')} ${f.dim(`(${sanitizeLine(file.error?.code ?? '')})`)}`;
      await emit(ctx.io.stdout, `${line}\n`);
    } else {
      await emit(
        ctx.io.stdout,
        `${file.status}\t${path}\t${file.size}\t${keyOf(file)}\t${sanitizeLine(file.item?.id ?? file.error?.code ?? '')}\n`,
      );
      if (file.error)
        await emit(
          ctx.io.stderr,
          `${err.red('error:')} ${path}: ${sanitizeLine(file.error.message)} (${sanitizeLine(file.error.code)})\n`,
        );
    }
  }
  if (ctx.flags.quiet) return;
  const time =
    summary.requests > 0 ? `, ${summary.seconds} s of the rate of ${summary.ratePerMinute} requests a minute` : '';
  const hashes = summary.libraryHashes
    ? ''
    : ' (the library lists no SHA-256: files it may already hold show as "would upload")';
  await emit(
    ctx.io.stderr,
    `Dry run, nothing sent: ${summary.wouldUpload} would upload (${formatBytes(summary.bytes)} in ${summary.requests} upload request${summary.requests === 1 ? '' : 's'}${time}), ` +
      `${summary.exists} already there, ${summary.failed} would fail${hashes}\n`,
  );
}

/** The whole dry run of `lib upload`: plan, print, and end as a real run would for the local checks. */
export async function dryRun(ctx: Context, api: ApiClient, sources: Source[], target: Target): Promise<void> {
  const planLimit = accountFileLimit(api, ctx.signal);
  const { files, summary } = await planUploads(sources, {
    api,
    target,
    limit: planLimit,
    cache: digestCache(defaultCacheDir(ctx.io.env), () => ctx.clock.now()),
    ratePerMinute: ctx.config.rateLimit,
    signal: ctx.signal,
  });
  await printPlan(ctx, files, summary);
  if (summary.failed > 0) {
    throw new CliError(
      `${summary.failed} of ${files.length} file${files.length === 1 ? '' : 's'} would fail; nothing was sent (dry run)`,
      {
        code: 'UPLOAD_FAILED',
        exitCode: summary.exitCode,
        hint: 'fix those files (see above), then run it again',
      },
    );
  }
}
