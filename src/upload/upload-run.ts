// `kagent lib upload PATHS`: what the command runs once it has read and checked its flags
// (commands/lib/upload.ts declares them): stdin spooled, the paths walked, then the dry run (plan.ts)
// or the upload queue (uploader.ts) with its report (report.ts, ci-report.ts), and how it ends.
import type { Context } from '../context.js';
import { CliError, InterruptedError, UsageError } from '../errors.js';
import { spinnersAllowed } from '../io/spinner.js';
import { note } from '../io/output.js';
import { reportSkipped, withCiReports } from './ci-report.js';
import { accountFileLimit, uploadAll, type Target } from './uploader.js';
import { createReporter } from './report.js';
import { digestCache } from './digest-cache.js';
import { defaultCacheDir } from '../config/cache-dir.js';
import { discover, type Source } from './discover.js';
import { spoolStdin } from './prepare.js';
import { uploadDryRun } from './plan.js';
import { discoverOptions, type FileOptions } from './walk-options.js';

export interface UploadOptions extends FileOptions {
  space?: string;
  note?: string;
  name?: string;
  concurrency: number;
  failFast?: boolean;
  dryRun?: boolean;
  report?: string;
}

async function runUploads(
  ctx: Context,
  api: Awaited<ReturnType<Context['api']>>,
  sources: Source[],
  target: { space?: string; note?: string; lang?: 'zh' | 'en' },
  opts: UploadOptions,
  spaceName: (id: string) => Promise<string | undefined>,
): Promise<void> {
  const planLimit = accountFileLimit(api, ctx.signal);

  const cache = digestCache(defaultCacheDir(ctx.io.env), () => ctx.clock.now());

  const reporter = withCiReports(
    ctx,
    await createReporter(ctx, sources, { progress: spinnersAllowed(ctx), spaceName }),
    { report: opts.report },
  );
  const started = performance.now();
  let summary;
  try {
    summary = await uploadAll(sources, {
      api,
      target,
      concurrency: opts.concurrency,
      failFast: opts.failFast === true,
      // A folder's files (walked) into a named space: confirmed with one more listing at the end.
      confirm: sources.some((source) => source.identity !== undefined),
      notice: (message) => note(ctx, `note: ${message}`),
      limit: planLimit,
      cache,
      signal: ctx.signal,
      events: reporter,
    });
  } finally {
    reporter.close();
  }
  await reporter.summary(summary, performance.now() - started);

  const again = 'run the same command again: files already uploaded are recognised and not added twice';
  // Ctrl-C; the --timeout deadline (a CliError as the reason) is told below as the error that stopped the run.
  if (ctx.signal.aborted && !(ctx.signal.reason instanceof CliError)) throw new InterruptedError('interrupted', again);
  if (summary.stoppedBy) {
    const stopped = summary.stoppedBy;
    stopped.hint = stopped.hint ? `${stopped.hint}; then ${again}` : again;
    throw stopped;
  }
  if (summary.failed > 0) {
    throw new CliError(`${summary.failed} of ${sources.length} file${sources.length === 1 ? '' : 's'} failed`, {
      code: 'UPLOAD_FAILED',
      exitCode: summary.exitCode,
      hint:
        summary.skipped > 0
          ? `--fail-fast stopped after the first failure; ${again}`
          : `fix those files (see above) and ${again}`,
    });
  }
}

/**
 * `lib upload PATHS`: stdin and --name checked, the paths walked, then the dry run (plan.ts) or the
 * run. `space` looks a space up (the command's, which knows spaces); `target` is checked already.
 */
export async function uploadRun(
  ctx: Context,
  opts: UploadOptions,
  operands: string[],
  target: Target,
  spaces: { ref?: string; id: (ref: string) => Promise<string>; name: (id: string) => Promise<string | undefined> },
): Promise<void> {
  const wantsStdin = operands.includes('-');
  if (wantsStdin && (opts.name === undefined || opts.name.trim() === '')) {
    throw new UsageError(
      'uploading stdin needs --name: the file name the library shows (and the type hint for Markdown)',
      'for example: `cat notes.md | kagent lib upload - --name notes.md`',
    );
  }
  if (opts.name !== undefined && /[/\\]/.test(opts.name))
    throw new UsageError('--name is a file name, without folders');
  if (wantsStdin && ctx.io.stdinIsTTY)
    throw new UsageError(
      '"-" reads the file from stdin, but stdin is a terminal',
      'pipe the file in: `cat notes.md | kagent lib upload - --name notes.md`',
    );

  const api = await ctx.api();
  const found = discoverOptions(ctx, opts);
  const sources = await discover(operands, found);
  await reportSkipped(ctx, found.skipped, found.filter);
  if (sources.length === 0)
    throw new UsageError('no file left to upload', 'every file found was skipped or left out (see above)');
  if (opts.name !== undefined && sources.length !== 1)
    throw new UsageError(`--name names a single file, but ${sources.length} files were given`);
  if (opts.name !== undefined) (sources[0] as { name: string }).name = opts.name;

  let spooled: Awaited<ReturnType<typeof spoolStdin>> | undefined;
  try {
    const stdinSource = sources.find((s) => s.stdin);
    if (stdinSource) {
      if (ctx.io.stderrIsTTY)
        await note(ctx, 'Reading stdin into a temporary file first (the service needs the size up front)…');
      spooled = await spoolStdin(ctx.io.stdin, ctx.signal);
      stdinSource.path = spooled.path;
      stdinSource.size = spooled.size;
    }
    if (spaces.ref !== undefined) target.space = await spaces.id(spaces.ref);
    if (opts.dryRun) {
      await uploadDryRun(ctx, api, sources, target);
    } else await runUploads(ctx, api, sources, target, opts, spaces.name);
  } finally {
    await spooled?.remove();
  }
}
