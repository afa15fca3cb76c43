// What `lib sync` shows while it works and when it is done: a line per file (lines.ts: the schema and
// forms `lib upload` and both dry runs share), the progress bar on stderr (progress.ts: files to send,
// items still to delete), and
//   stderr          the count line "N uploaded, N replaced, N deleted, N unchanged, N failed"
//   GITHUB_ACTIONS  a table in the step summary, ::error per failed file, ::warning
//   --report FILE   when nothing could be deleted for want of file names, JUnit XML:
//                   written by ci-report.ts's CiWriter, fed here
import type { Context } from '../context.js';
import type { Formatter } from '../io/format.js';
import { sanitizeLine } from '../io/sanitize.js';
import { CiWriter, SYNC_CI, type CiNote } from './ci-report.js';
import { emit } from '../io/streams.js';
import type { Source } from './discover.js';
import { formatBytes } from '../io/bytes.js';
import { linePrinter } from './lines.js';
import { ProgressBar } from './progress.js';
import type { SyncEntry, SyncEvents, SyncSummary } from './sync.js';
import { getFormatter, wantsJson, warn } from '../io/output.js';

type ReportContext = Pick<Context, 'io' | 'flags' | 'clock' | 'serviceClock'> & { signal?: AbortSignal };

export interface SyncReporter extends SyncEvents {
  close(): void;
  summary(summary: SyncSummary, elapsedMs: number): Promise<void>;
}

export function countLine(
  s: Pick<SyncSummary, 'uploaded' | 'replaced' | 'deleted' | 'unchanged' | 'failed' | 'skipped' | 'kept'>,
): string {
  let line = `${s.uploaded} uploaded, ${s.replaced} replaced, ${s.deleted} deleted, ${s.unchanged} unchanged, ${s.failed} failed`;
  if (s.kept > 0) line += `, ${s.kept} kept`;
  if (s.skipped > 0) line += `, ${s.skipped} not attempted`;
  return line;
}

export async function createSyncReporter(
  ctx: ReportContext,
  uploading: Source[],
  options: {
    progress: boolean;
    dir: string;
    report?: string;
    verbose?: boolean;
    /** Items the run will delete, by the path of their line (sync-plan.ts: deletesByPath): the bar counts them down. */
    deletes?: ReadonlyMap<string, number>;
  },
): Promise<SyncReporter> {
  const err = await getFormatter(ctx, 'stderr');
  const json = wantsJson(ctx);
  const deletes = new Map(options.deletes);
  const toDelete = [...deletes.values()].reduce((a, b) => a + b, 0);
  const showBar = options.progress && (uploading.length > 0 || toDelete > 0);
  const bar = showBar ? new ProgressBar(ctx, err, uploading, toDelete) : undefined;
  const printer = await linePrinter(ctx, { verbose: options.verbose === true });
  const inBar = new Set(uploading);
  let gone = 0; // items kept though their file is gone (a note says --delete deletes them)
  const ci = CiWriter.open(ctx, SYNC_CI, options);

  /** An entry is final: its file is no longer in flight, and its items no longer to delete. */
  function done(entry: SyncEntry, source?: Source): void {
    if (entry.status === 'kept' && /--delete/.test(entry.reason ?? '')) gone++;
    ci?.finished(entry, source);
    if (source && inBar.has(source)) bar?.finish(source, entry.status !== 'skipped');
    const pending = deletes.get(entry.path);
    if (pending !== undefined) {
      deletes.delete(entry.path);
      bar?.deleted(pending);
    }
  }

  return {
    upload: {
      started(source) {
        ci?.started(source);
        bar?.start(source);
      },
      attempt: (source) => bar?.restart(source),
      bytes: (source, n) => bar?.add(source, n),
    },
    async entry(entry, source) {
      done(entry, source);
      await printer.print([entry]);
    },
    async entries(batch) {
      // Many lines at once (the unchanged files): one write, not one per line.
      for (const { entry, source } of batch) done(entry, source);
      await printer.print(batch.map(({ entry }) => entry));
    },
    close: () => bar?.stop(),
    async summary(summary, elapsedMs) {
      bar?.stop();
      await countLines(ctx, summary, elapsedMs, { dir: options.dir, json, gone, err });
      await ci?.close(countLine(summary), elapsedMs, deletedNothing(summary, options.dir));
    },
  };
}

/** CI's note when nothing could be deleted for want of file names (a `::warning`, a line of the step summary). */
function deletedNothing(summary: SyncSummary, dir: string): CiNote | undefined {
  if (!summary.noMapping) return undefined;
  const text = `${summary.noMapping}, so kagent cannot tell which items came from ${dir}`;
  return { title: 'kagent lib sync deleted nothing', text };
}

/** The end of a run on stderr: the count line, why nothing was deleted, and the removed files' items kept. */
async function countLines(
  ctx: ReportContext,
  summary: SyncSummary,
  elapsedMs: number,
  run: { dir: string; json: boolean; gone: number; err: Formatter },
): Promise<void> {
  const { dir, json, gone, err } = run;
  if (summary.noMapping)
    await warn(
      ctx,
      `nothing was deleted: ${summary.noMapping}, so kagent cannot tell which items came from ${dir} (uploads went ahead)`,
    );
  if (!ctx.flags.quiet) {
    const seconds = elapsedMs / 1000;
    await emit(
      ctx.io.stderr,
      `${countLine(summary)} (${formatBytes(summary.bytes)} sent in ${seconds.toFixed(1)} s)\n`,
    );
    if (gone > 0 && !json)
      await emit(
        ctx.io.stderr,
        `${err.dim(`${gone} item${gone === 1 ? '' : 's'} of files no longer in ${sanitizeLine(dir)} kept: --delete deletes them`)}\n`,
      );
  }
}
