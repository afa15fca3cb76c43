import type { Context } from '../../src/context.js';
import { abortError, CliError, ExitCode, UsageError } from '../../src/errors.js';
import { checkInput, defineCommand } from '../../src/kit/define.js';
import { spaceOption } from '../../src/kit/options.js';
import { spaceIdFor } from '../../src/kit/space.js';
import type { DigestCache } from '../../src/upload/digest-cache.js';
import type { SyncPlan } from '../../src/upload/sync-plan.js';
import { discoverOptions, fileOptions, type FileOptions } from './shared.js';
import { reportRunRefusal, reportSkipped } from '../../src/upload/ci-report.js';
import { confirmOrYes } from '../../src/io/prompt.js';
import { spinnersAllowed } from '../../src/io/spinner.js';
import { note } from '../../src/io/output.js';
import { accountFileLimit, uploadAll } from '../../src/upload/uploader.js';
import { discover } from '../../src/upload/discover.js';
import { digestCache, folderDigests } from '../../src/upload/digest-cache.js';
import { defaultCacheDir } from '../../src/config/cache-dir.js';
import { resolve, basename } from 'node:path';
import { stat } from 'node:fs/promises';
import { runSync } from '../../src/upload/sync.js';
import { createSyncReporter } from '../../src/upload/sync-report.js';
import { syncDryRun } from '../../src/upload/plan.js';
import * as S from '../../src/api/shapes.js';
import {
  listSpace,
  planSync,
  deletesByPath,
  plannedDeletes,
  prefixProblem,
  syncFileName,
  syncNote,
  tooManyDeletes,
} from '../../src/upload/sync-plan.js';

interface SyncOptions extends FileOptions {
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

export default defineCommand({
  name: 'sync',
  summary: 'Make the files of a space that came from a folder match the folder',
  description: [
    'Like `aws s3 sync` for the library: new files are uploaded; a changed file is uploaded and, once the service has it, the item of its earlier version is deleted; unchanged files cost no request. With --delete, the items of files no longer in DIR are deleted too (asked first on a terminal; elsewhere --delete needs --yes). Items of the space that did not come from DIR are never touched.',
    'Which files: a symbolic link is followed only while it stays in DIR; one that leads out (unless --follow-symlinks), leads nowhere or loops is skipped with a warning line, and no file of kagent\'s own config or cache (where the API key is kept) is ever sent, whatever path or link leads there. --exclude and --include (globs, repeatable, the later wins, as in aws s3 sync) leave files out (a pattern without "/" matches a name at any depth, one with "/" the path under DIR), and the items of files left out are not deleted.',
    "Which item came from which file: each file is sent under its own name (the title people see) with the note 'kagent lib sync \"<prefix>\" \"<path>\"' (prefix: DIR's own name, or --prefix), and the service's listing of the space gives every item's note and SHA-256 back. Nothing is kept on this machine. Give each folder synced into a space its own --prefix (for example the repository's name). A renamed file shows its new name once --delete lets its old item go; items named by earlier versions (<prefix>:<path with : between folders>) are renamed once. When the listing does not give notes, the run says so and deletes nothing (uploads still go); without SHA-256 every file is sent and the service tells which are unchanged.",
    "Safe to stop and run again, and to run twice at once: uploads carry `lib upload`'s content-derived Idempotency-Keys, an earlier version is deleted only after its replacement exists, and an item whose bytes are still those of a file in DIR is never deleted. Requests go within the account's rate, shared by every kagent process on the machine.",
    "--dry-run reads the listing (and GET /me for the per-file limit) and sends nothing: it prints the run's lines in the plain tense (upload, replace, delete, keep, unchanged, fail), then the bytes and write requests the run would take at the profile's rate. --max-deletes N refuses a run that would delete more than N items of files no longer in DIR (earlier versions of changed files are replaced apart, not counted): exit 1, nothing sent.",
    'Output, the plan\'s and the run\'s alike (docs/sync.md): on a terminal a line per file that changed and a progress bar (files, bytes, items still to delete); piped "status path item earlier-items|error-code" (status: uploaded, replaced, deleted, unchanged, kept, failed, skipped; unchanged files only with --verbose, so a run that changes nothing prints nothing); --json one object per line with every field, null where it does not apply: {path, name, size, status, item, previous, reason, error, key, sha256}. stderr ends with "N uploaded, N replaced, N deleted, N unchanged, N failed". With GITHUB_ACTIONS set, a table goes to $GITHUB_STEP_SUMMARY and each failure becomes an ::error annotation; --report FILE writes JUnit XML.',
    'Exit status: 0 when DIR and the space match; the most severe failure otherwise (as `lib upload`); 1 when --max-deletes refused the run, or when --delete was asked but the service does not say which items came from DIR; 2 for an empty or missing DIR, or --delete without --yes and no terminal.',
  ].join('\n\n'),
  arguments: [{ name: 'dir', description: 'the folder to sync (hidden files and folders inside it are skipped)' }],
  options: [
    spaceOption("the space to keep in step with DIR (id or name; default: the profile's space)"),
    {
      flags: '--prefix <name>',
      description: "what names DIR's items (default: DIR's own name); one prefix per folder in a space",
    },
    { flags: '--delete', description: 'also delete the items of files no longer in DIR' },
    {
      flags: '--max-deletes <n>',
      description: 'refuse the run (exit 1, nothing sent) when it would delete more than n items of removed files',
      type: 'integer',
      min: 0,
    },
    {
      flags: '-c, --concurrency <n>',
      description: 'files sent at once (1 to 16)',
      type: 'integer',
      min: 1,
      max: 16,
      default: 4,
    },
    { flags: '--fail-fast', description: 'start no new upload after the first failure' },
    { flags: '--report <file>', description: 'also write a JUnit XML report there' },
    { flags: '--dry-run', description: 'print what the run would do (reads only)' },
    { flags: '--verbose', description: 'piped, also list unchanged files (a no-op run prints nothing otherwise)' },
    ...fileOptions,
  ],
  examples: [
    'kagent lib sync docs/ --space Handbook',
    'kagent lib sync docs/ --space Handbook --dry-run',
    '# CI: on every push; removed files go too, but never more than 20 at once',
    'KAGENT_API_KEY=$SECRET kagent lib sync docs --space Handbook --prefix "$GITHUB_REPOSITORY" --delete --yes --max-deletes 20',
  ],
  async run(ctx, opts, args) {
    // A refusal of the whole run is also said where CI shows it (an ::error annotation, the step summary).
    await syncRun(ctx, opts, args.dir).catch((error: unknown) => reportRunRefusal(ctx, 'kagent lib sync', error));
  },
});

async function syncRun(ctx: Context, opts: SyncOptions, dir: string): Promise<void> {
  const { spaceRef, prefix } = await checkArguments(ctx, opts, dir);
  const api = await ctx.api();
  // The space's listing is asked for first and comes while the folder is walked and read.
  const spaceId = spaceIdFor(ctx, spaceRef);
  const listing = spaceId.then((id) => listSpace(api, id, ctx.signal));
  listing.catch(() => undefined); // awaited by the plan; a usage error in the folder may come first
  // So is the record of the folder's digests from earlier runs: unchanged files are not read again.
  const cacheDir = defaultCacheDir(ctx.io.env);
  const known = folderDigests(cacheDir, resolve(dir), () => ctx.clock.now());
  const walking = {
    ...discoverOptions(ctx, opts),
    emptyFolderHint:
      'hidden files and folders (names starting with ".") are never synced; lib upload takes a hidden file named on its own',
  };
  const found = await discover([dir], walking);
  await reportSkipped(ctx, walking.skipped, walking.filter);
  const space = await spaceId;
  const head = dir.endsWith('/') || dir.endsWith('\\') ? dir.length : dir.length + 1;
  const sources = found.map((source) => {
    const shown = source.display.slice(head);
    const rel = process.platform === 'win32' ? shown.replace(/\\/g, '/') : shown;
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

/** Everything that can be refused before a request: exit 2. */
async function checkArguments(
  ctx: Context,
  opts: SyncOptions,
  dir: string,
): Promise<{ spaceRef: string; prefix: string }> {
  if (dir === '') throw new UsageError('an empty folder path was given');
  const spaceRef = opts.space ?? ctx.config.space;
  if (spaceRef === undefined)
    throw new UsageError(
      "sync needs a space: pass --space (or set the profile's: `kagent config set space NAME`)",
      'for example: `kagent lib sync docs/ --space Handbook`',
    );
  checkInput(
    S.Queries.uploadFile,
    { space: spaceRef },
    { space: opts.space !== undefined ? '--space' : "the profile's space" },
  );
  const info = await stat(resolve(dir)).catch(() => undefined);
  if (!info) throw new UsageError(`no such folder: ${dir}`);
  if (!info.isDirectory())
    throw new UsageError(`${dir} is not a folder: sync takes a folder (\`kagent lib upload\` takes files)`);
  const prefix = opts.prefix ?? basename(resolve(dir));
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
  return { spaceRef, prefix };
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
