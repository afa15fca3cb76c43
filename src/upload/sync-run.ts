// `kagent lib sync DIR`: what the command runs once it has read its flags (commands/lib/sync.ts
// declares them): the folder's checks, the walk, the plan against the space's listing (sync-plan.ts),
// then the dry run (plan.ts) or the run (sync.ts) with its report (sync-report.ts), and how it ends.
import type { Context } from '../context.js';
import { abortError, CliError, ExitCode, UsageError } from '../errors.js';
import type { DigestCache } from './digest-cache.js';
import type { SyncPlan } from './sync-plan.js';
import { reportSkipped } from './ci-report.js';
import { confirmOrYes } from '../io/prompt.js';
import { spinnersAllowed } from '../io/spinner.js';
import { note } from '../io/output.js';
import { accountFileLimit, uploadAll } from './uploader.js';
import { discover } from './discover.js';
import { digestCache, folderDigests } from './digest-cache.js';
import { defaultCacheDir } from '../config/cache-dir.js';
import { resolve, basename } from 'node:path';
import { stat } from 'node:fs/promises';
import { runSync } from './sync.js';
import { createSyncReporter } from './sync-report.js';
import { syncDryRun } from './plan.js';
import { discoverOptions, type FileOptions } from './walk-options.js';
import { listSpace } from './sync-listing.js';
import {
  planSync,
  deletesByPath,
  plannedDeletes,
  prefixProblem,
  syncFileName,
  syncNote,
  tooManyDeletes,
} from './sync-plan.js';

export interface SyncOptions extends FileOptions {
  verbose?: boolean;
  space?: string;
  prefix?: string;
  delete?: boolean;
  maxDeletes?: number;
  concurrency: number;
  failFast?: boolean;
  dryRun?: boolean;
  report?: string;
}

const AGAIN = 'run the same command again: it picks up where this one stopped, and adds nothing twice';

/**
 * `lib sync DIR`: the folder checked, walked and planned against the space's listing, then the plan
 * printed (--dry-run) or run. `spaceId` looks the space up (the command's, which knows spaces).
 */
export async function syncRun(
  ctx: Context,
  opts: SyncOptions,
  dir: string,
  spaceId: () => Promise<string>,
): Promise<void> {
  const prefix = await checkFolder(ctx, opts, dir);
  const api = await ctx.api();
  // The space's listing is asked for first and comes while the folder is walked and read.
  const spaceIdOf = spaceId();
  const listing = spaceIdOf.then((id) => listSpace(api, id, ctx.signal));
  listing.catch(() => undefined); // awaited by the plan; a usage error in the folder may come first
  // So is the record of the folder's digests from earlier runs: unchanged files are not read again.
  const cacheDir = defaultCacheDir(ctx.io.env);
  const known = folderDigests(cacheDir, resolve(ctx.cwd, dir), () => ctx.clock.now());
  const walking = {
    ...discoverOptions(ctx, opts),
    emptyFolderHint:
      'hidden files and folders (names starting with ".") are never synced; lib upload takes a hidden file named on its own',
  };
  const found = await discover([dir], walking);
  await reportSkipped(ctx, walking.skipped, walking.filter);
  const space = await spaceIdOf;
  const head = dir.endsWith('/') || dir.endsWith('\\') ? dir.length : dir.length + 1;
  const sources = found.map((source) => {
    const shown = source.display.slice(head);
    const rel = ctx.platform === 'win32' ? shown.replace(/\\/g, '/') : shown;
    return Object.assign(source, { rel, name: syncFileName(rel), note: syncNote(prefix, rel) });
  });
  const cache = digestCache(cacheDir);
  const limit = accountFileLimit(api, ctx.signal);

  const plan = await planSync({
    listing,
    prefix,
    sources,
    cache,
    known: await known,
    deleting: opts.delete === true,
    signal: ctx.signal,
  });
  // A file left out by --exclude/--include is not the run's: its item stays, as aws s3 sync leaves it.
  const { filter } = walking;
  if (filter) plan.removals = plan.removals.filter((removal) => filter.allows(removal.rel));
  if (ctx.signal.aborted) throw stopped(ctx);
  const tooMany = tooManyDeletes(plannedDeletes(plan, opts.delete === true), opts.maxDeletes, 'nothing was sent');
  if (opts.dryRun)
    await syncDryRun(ctx, plan, { deleting: opts.delete === true, verbose: opts.verbose === true, limit, cache });
  if (tooMany) throw tooMany;
  if (opts.dryRun) return;

  const removable = plan.mapping.names ? plan.removals.filter((r) => r.heldFor === undefined).length : 0;
  if (opts.delete && removable > 0) {
    const items = `${removable} library item${removable === 1 ? '' : 's'}`;
    await confirmOrYes(ctx, {
      message: `Delete ${items} whose file${removable === 1 ? ' is' : 's are'} no longer in ${dir}? This cannot be undone.`,
      action: `delete ${items}`,
    });
  }
  await execute(ctx, opts, { api, dir, space, plan, limit, cache });
}

/** Why the run stopped early: Ctrl-C (130), or the --timeout deadline (its own error: TIMEOUT, 7). */
function stopped(ctx: Context): CliError {
  const error = abortError(ctx.signal);
  error.hint = error.hint ? `${error.hint}; then ${AGAIN}` : AGAIN;
  return error;
}

/** What can be refused of the folder before a request (exit 2); the prefix that names it. */
async function checkFolder(ctx: Context, opts: SyncOptions, dir: string): Promise<string> {
  if (dir === '') throw new UsageError('an empty folder path was given');
  const info = await stat(resolve(ctx.cwd, dir)).catch(() => undefined);
  if (!info) throw new UsageError(`no such folder: ${dir}`);
  if (!info.isDirectory())
    throw new UsageError(`${dir} is not a folder: sync takes a folder (\`kagent lib upload\` takes files)`);
  const prefix = opts.prefix ?? basename(resolve(ctx.cwd, dir));
  const problem = prefixProblem(prefix);
  if (problem)
    throw new UsageError(
      `--prefix ${problem}`,
      'a prefix names the folder in the space, for example --prefix "$GITHUB_REPOSITORY"',
    );
  // A run that may delete needs a yes, from a person or from --yes.
  if (opts.delete && !opts.dryRun && !ctx.flags.yes && !ctx.io.canPrompt) {
    throw new UsageError('--delete deletes library items: without a terminal to ask on, it needs --yes');
  }
  return prefix;
}

interface Prepared {
  api: Awaited<ReturnType<Context['api']>>;
  dir: string;
  space: string;
  plan: SyncPlan;
  limit: () => Promise<number | undefined>;
  cache: DigestCache;
}

async function execute(
  ctx: Context,
  opts: SyncOptions,
  { api, dir, space, plan, limit, cache }: Prepared,
): Promise<void> {
  const uploading = plan.files.filter((f) => f.action !== 'keep').map((f) => f.source);
  const reporter = await createSyncReporter(ctx, uploading, {
    progress: spinnersAllowed(ctx),
    dir,
    report: opts.report,
    verbose: opts.verbose === true,
    deletes: deletesByPath(plan, opts.delete === true),
  });
  const started = performance.now();
  let summary;
  try {
    const options = {
      concurrency: opts.concurrency,
      failFast: opts.failFast === true,
      deleting: opts.delete === true,
      maxDeletes: opts.maxDeletes,
    };
    summary = await runSync({
      ...options,
      api,
      space,
      plan,
      limit,
      cache,
      signal: ctx.signal,
      events: reporter,
      uploadAll,
    });
  } finally {
    reporter.close();
  }
  await reporter.summary(summary, performance.now() - started);
  if (summary.migrated)
    await note(
      ctx,
      `${summary.migrated} item${summary.migrated === 1 ? '' : 's'} of an earlier kagent were renamed to their file's own name (once: replaced, not added twice)`,
    );

  if (ctx.signal.aborted) throw stopped(ctx);
  if (summary.stoppedBy) {
    const stopped = summary.stoppedBy;
    if (stopped.code !== 'TOO_MANY_DELETES') stopped.hint = stopped.hint ? `${stopped.hint}; then ${AGAIN}` : AGAIN;
    throw stopped;
  }
  if (summary.failed > 0) {
    throw new CliError(`${summary.failed} file${summary.failed === 1 ? '' : 's'} failed to sync`, {
      code: 'SYNC_FAILED',
      exitCode: summary.exitCode,
      hint: `fix them (see above) and ${AGAIN}`,
    });
  }
  if (summary.noMapping && opts.delete) {
    throw new CliError(`--delete could not be done: ${summary.noMapping}`, {
      code: 'MAPPING_UNAVAILABLE',
      exitCode: ExitCode.ERROR,
      hint: 'the uploads went ahead; the items of removed and replaced files stay (delete them with `kagent lib delete`)',
    });
  }
}
