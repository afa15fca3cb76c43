// What `lib sync` shows, in `lib upload`'s three forms (report.ts) and CI's
// places (ci-report.ts):
//   --json / --jq   one JSON object per line: {path, name, size, status, item?, previous?, reason?, error?}
//   terminal        a line per file that changed ("✓ uploaded", "↻ replaced", "- deleted",
//                   "! kept", "✗ failed"; unchanged files only in the count), a progress
//                   bar while uploading
//   piped           status<TAB>path<TAB>item id<TAB>earlier item ids (comma-separated) or error code
//   stderr          the count line "N uploaded, N replaced, N deleted, N unchanged, N failed"
//   GITHUB_ACTIONS  a table in the step summary, ::error per failed file, ::warning
//   --report FILE   when nothing could be deleted for want of file names, JUnit XML:
//                   written by ci-report.ts's CiWriter, fed here
// The plan of --dry-run prints here too.
import type { Context } from '../context.js';
import type { Formatter } from '../io/format.js';
import { escapeJsonControls, sanitizeLine } from '../io/sanitize.js';
import { CiWriter, SYNC_CI, type CiNote } from './ci-report.js';
import { emit } from '../io/streams.js';
import type { Source } from './discover.js';
import { formatBytes } from '../io/bytes.js';
import { ProgressBar } from './report.js';
import type { SyncPlan } from './sync-plan.js';
import type { SyncEntry, SyncEvents, SyncSummary } from './sync.js';
import type { FileResult } from './uploader.js';
import { getFormatter, wantsJson, warn } from '../io/output.js';
import { runJq } from '../io/jq.js';

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

async function jsonLine(ctx: ReportContext, data: Record<string, unknown>): Promise<void> {
  if (ctx.flags.jq !== undefined) {
    await emit(ctx.io.stdout, await runJq(data, ctx.flags.jq, false, { env: ctx.io.env, signal: ctx.signal }));
  } else await emit(ctx.io.stdout, `${escapeJsonControls(JSON.stringify(data))}\n`);
}

function toJson(entry: SyncEntry): Record<string, unknown> {
  const { exitCode: _exitCode, ...data } = entry;
  return data;
}

function terminalLine(entry: SyncEntry, f: Formatter): string | undefined {
  const path = sanitizeLine(entry.path);
  const id = sanitizeLine(entry.item?.id ?? '');
  const was =
    entry.previous && entry.previous.length > 0 ? f.dim(` (was ${entry.previous.map(sanitizeLine).join(', ')})`) : '';
  switch (entry.status) {
    case 'uploaded':
      return `${f.green('✓')} uploaded ${path} ${f.dim('→')} ${id} ${f.dim(`(${formatBytes(entry.size)})`)}`;
    case 'replaced':
      return `${f.green('↻')} replaced ${path} ${f.dim('→')} ${id}${was}`;
    case 'deleted':
      return `${f.red('-')} deleted ${path} ${f.dim(`(${id})`)}`;
    case 'kept':
      return `${f.yellow('!')} kept ${path} ${f.dim(`(${id}): ${sanitizeLine(entry.reason ?? '')}`)}`;
    case 'failed':
      return `${f.red('✗')} failed ${path}: ${sanitizeLine(entry.error?.message ?? '')} ${f.dim(`(${entry.error?.code ?? 'ERROR'})`)}`;
    default:
      return undefined; // unchanged and not attempted: in the count line
  }
}

/** An entry's stdout line (with its newline; '' when it has none), except with --jq; `terminal`: stdout's formatter on a terminal. */
function stdoutLine(entry: SyncEntry, json: boolean, terminal: Formatter | undefined, verbose = false): string {
  if (json) return `${escapeJsonControls(JSON.stringify(toJson(entry)))}\n`;
  if (terminal?.tty) {
    const text = terminalLine(entry, terminal);
    return text === undefined ? '' : `${text}\n`;
  }
  // Piped, as rclone and aws: an unchanged file is no news (a no-op run prints nothing); --verbose lists them.
  if (entry.status === 'unchanged' && !verbose) return '';
  const last = entry.error?.code ?? (entry.previous ?? []).join(',');
  return `${entry.status}\t${sanitizeLine(entry.path)}\t${sanitizeLine(entry.item?.id ?? '')}\t${sanitizeLine(last)}\n`;
}

export async function createSyncReporter(
  ctx: ReportContext,
  uploading: Source[],
  options: { progress: boolean; dir: string; report?: string; verbose?: boolean },
): Promise<SyncReporter> {
  // Colours (chalk): for a terminal's lines and the progress bar; elsewhere only for a failure or a note.
  let formatters: Promise<[Formatter, Formatter]> | undefined;
  const colours = () => (formatters ??= Promise.all([getFormatter(ctx, 'stdout'), getFormatter(ctx, 'stderr')]));
  const tty = ctx.io.stdoutIsTTY;
  const early = tty || (options.progress && uploading.length > 0) ? await colours() : undefined;
  const json = wantsJson(ctx);
  const bar = early && options.progress && uploading.length > 0 ? new ProgressBar(ctx, early[1], uploading) : undefined;
  const inBar = new Set(uploading);
  let gone = 0; // items kept though their file is gone (a note says --delete deletes them)
  const ci = CiWriter.open(ctx, SYNC_CI, options);

  async function line(entry: SyncEntry): Promise<void> {
    if (json && ctx.flags.jq !== undefined) return jsonLine(ctx, toJson(entry));
    const text = stdoutLine(entry, json, early?.[0], options.verbose);
    if (text !== '') await emit(ctx.io.stdout, text);
    if (entry.error && !json && !tty)
      await emit(
        ctx.io.stderr,
        `${(await colours())[1].red('error:')} ${sanitizeLine(entry.path)}: ${sanitizeLine(entry.error.message)} (${entry.error.code})\n`,
      );
  }

  function record(entry: SyncEntry, source?: Source): void {
    if (entry.status === 'kept' && /--delete/.test(entry.reason ?? '')) gone++;
    ci?.finished(entry, source);
  }

  async function oneEntry(entry: SyncEntry, source?: Source): Promise<void> {
    record(entry, source);
    if (source && inBar.has(source))
      bar?.finish(source, { status: entry.status === 'skipped' ? 'skipped' : 'uploaded' } as FileResult);
    bar?.clear();
    try {
      await line(entry);
    } finally {
      bar?.draw();
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
    entry: oneEntry,
    async entries(batch) {
      // Many lines at once (the unchanged files): one write, not one per line.
      if (
        (json && ctx.flags.jq !== undefined) ||
        batch.some(({ entry, source }) => entry.error !== undefined || (source !== undefined && inBar.has(source)))
      ) {
        for (const { entry, source } of batch) await oneEntry(entry, source);
        return;
      }
      let text = '';
      for (const { entry } of batch) {
        record(entry);
        text += stdoutLine(entry, json, early?.[0], options.verbose);
      }
      if (text === '') return;
      bar?.clear();
      await emit(ctx.io.stdout, text).finally(() => bar?.draw());
    },
    close: () => bar?.stop(),
    async summary(summary, elapsedMs) {
      bar?.stop();
      await countLines(ctx, summary, elapsedMs, { dir: options.dir, json, gone, colours });
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
  run: {
    dir: string;
    json: boolean;
    gone: number;
    colours: () => Promise<[Formatter, Formatter]>;
  },
): Promise<void> {
  const { dir, json, gone, colours } = run;
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
        `${(await colours())[1].dim(`${gone} item${gone === 1 ? '' : 's'} of files no longer in ${sanitizeLine(dir)} kept: --delete deletes them`)}\n`,
      );
  }
}

// ---------------------------------------------------------------- the plan

export interface PlanLine {
  path: string;
  name: string;
  size: number;
  action: 'upload' | 'replace' | 'delete' | 'keep' | 'unchanged' | 'fail';
  item?: string;
  previous?: string[];
  key?: string;
  reason?: string;
  error?: { code: string; message: string };
}

export interface PlanTotals {
  upload: number;
  replace: number;
  delete: number;
  unchanged: number;
  keep: number;
  fail: number;
  bytes: number;
  /** Writes the run would send: an upload per file sent, a delete per item. */
  requests: number;
  /** Reads the run makes first (the listing). */
  reads: number;
  ratePerMinute: number;
  seconds: number;
}

/** A plan line on a terminal (unchanged files only in the count). */
function planTerminalLine(l: PlanLine, f: Formatter): string | undefined {
  const path = sanitizeLine(l.path);
  switch (l.action) {
    case 'upload':
      return `${f.green('+')} would upload ${path} ${f.dim(`(${formatBytes(l.size)})`)}`;
    case 'replace': {
      const was = l.previous?.length ? f.dim(` (then delete ${l.previous.map(sanitizeLine).join(', ')})`) : '';
      return `${f.green('↻')} would replace ${path} ${f.dim(`(${formatBytes(l.size)})`)}${was}`;
    }
    case 'delete':
      return `${f.red('-')} would delete ${path} ${f.dim(`(${sanitizeLine(l.item ?? '')})`)}`;
    case 'keep':
      return `${f.yellow('!')} would keep ${path} ${f.dim(`(${sanitizeLine(l.item ?? '')}): ${sanitizeLine(l.reason ?? '')}`)}`;
    case 'fail':
      return `${f.red('✗')} would fail ${path}: ${sanitizeLine(l.error?.message ?? '')} ${f.dim(`(${l.error?.code})`)}`;
    default:
      return undefined;
  }
}

export async function printSyncPlan(
  ctx: ReportContext,
  lines: PlanLine[],
  totals: PlanTotals,
  plan: Pick<SyncPlan, 'mapping'>,
  options: { verbose?: boolean } = {},
): Promise<void> {
  const f = await getFormatter(ctx, 'stdout');
  const err = await getFormatter(ctx, 'stderr');
  for (const l of lines) {
    if (wantsJson(ctx)) {
      await jsonLine(ctx, { ...l });
      continue;
    }
    const path = sanitizeLine(l.path);
    if (f.tty) {
      const text = planTerminalLine(l, f);
      if (text !== undefined) await emit(ctx.io.stdout, `${text}\n`);
    } else if (l.action !== 'unchanged' || options.verbose) {
      const last = l.error?.code ?? (l.previous ?? []).join(',');
      await emit(
        ctx.io.stdout,
        `${l.action}\t${path}\t${l.size}\t${sanitizeLine(l.item ?? '')}\t${sanitizeLine(last)}\n`,
      );
    }
  }
  if (ctx.flags.quiet) return;
  const notes: string[] = [];
  if (!plan.mapping.names) notes.push('the listing gives no file names (fileName): nothing would be deleted');
  if (!plan.mapping.hashes)
    notes.push('the listing gives no SHA-256: every file would be sent, and the service tells which are unchanged');
  const time = totals.requests > 0 ? `, ${totals.seconds} s at ${totals.ratePerMinute} requests a minute` : '';
  await emit(
    ctx.io.stderr,
    `Dry run, nothing sent: ${totals.upload} to upload, ${totals.replace} to replace, ${totals.delete} to delete, ${totals.unchanged} unchanged, ${totals.keep} kept, ${totals.fail} would fail; ` +
      `${formatBytes(totals.bytes)} in ${totals.requests} write request${totals.requests === 1 ? '' : 's'}${time} (after ${totals.reads} listing request${totals.reads === 1 ? '' : 's'})\n`,
  );
  for (const n of notes) await emit(ctx.io.stderr, `${err.yellow('note:')} ${n}\n`);
}
