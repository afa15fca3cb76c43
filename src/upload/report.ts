// What `lib upload` shows while it works and when it is done: a line per finished file on stdout
// (lines.ts: the schema and forms `lib sync` and both dry runs share), the progress bar on stderr
// (progress.ts), and a closing summary on stderr (uploaded, already there, failed, not attempted),
// unless --quiet. On a terminal, a line also says the space the item landed in.
import type { Context } from '../context.js';
import type { Formatter } from '../io/format.js';
import { formatBytes } from '../io/bytes.js';
import { getFormatter } from '../io/output.js';
import { sanitizeLine } from '../io/sanitize.js';
import { emit } from '../io/streams.js';
import { stderrColumns } from '../io/terminal.js';
import { wrapText } from '../io/width.js';
import type { Source } from './discover.js';
import { linePrinter } from './lines.js';
import { ProgressBar } from './progress.js';
import type { UploadEvents, UploadSummary } from './uploader.js';

type ReportContext = Pick<Context, 'io' | 'flags' | 'clock' | 'serviceClock'> & { signal?: AbortSignal };

export interface Reporter extends UploadEvents {
  /** Stops the progress display (clears its line). */
  close(): void;
  summary(summary: UploadSummary, elapsedMs: number): Promise<void>;
}

export async function createReporter(
  ctx: ReportContext,
  sources: Source[],
  options: {
    progress: boolean;
    /** The name of a space by id: the terminal line says which space an item landed in. */
    spaceName?: (id: string) => Promise<string | undefined>;
  },
): Promise<Reporter> {
  const out = await getFormatter(ctx, 'stdout');
  const err = await getFormatter(ctx, 'stderr');
  const bar = options.progress ? new ProgressBar(ctx, err, sources) : undefined;
  const printer = await linePrinter(ctx, {
    async suffix(line) {
      const spaceId = (line.item as { spaceId?: string } | undefined)?.spaceId;
      if (!spaceId) return '';
      return ` ${out.dim('in')} ${whereTo(spaceId, await options.spaceName?.(spaceId))}`;
    },
  });

  return {
    started: (source) => bar?.start(source),
    attempt: (source) => bar?.restart(source),
    bytes: (source, n) => bar?.add(source, n),
    async finished(result, source) {
      bar?.finish(source, result.status !== 'skipped');
      await printer.print([result]);
    },
    close: () => bar?.stop(),
    async summary(summary, elapsedMs) {
      bar?.stop();
      if (ctx.flags.quiet) return;
      const text = summaryLine(summary, elapsedMs, err);
      // At a terminal, wrapped at its width like every message.
      const columns = ctx.io.stderrIsTTY ? stderrColumns(ctx.io) : undefined;
      await emit(ctx.io.stderr, `${columns ? wrapText(text, columns, { hanging: 2 }) : text}\n`);
    },
  };
}

/** "3 uploaded, 1 already there, 0 failed (12 KiB in 1.2 s)". */
function summaryLine(summary: UploadSummary, elapsedMs: number, f: Formatter): string {
  const parts = [
    `${f.green(String(summary.uploaded))} uploaded`,
    `${summary.exists} already there`,
    `${summary.failed > 0 ? f.red(String(summary.failed)) : '0'} failed`,
  ];
  if (summary.skipped > 0) parts.push(`${f.yellow(String(summary.skipped))} not attempted`);
  const seconds = elapsedMs / 1000;
  const rate = seconds > 0 ? ` (${formatBytes(summary.bytes)} in ${seconds.toFixed(1)} s)` : '';
  return `${parts.join(', ')}${rate}`;
}

/** "Inbox (sp_3k9x8q2m7d)", or "space sp_3k9x8q2m7d" when its name is not known; both come from the service, sanitised. */
function whereTo(id: string, name: string | undefined): string {
  return name ? `${sanitizeLine(name)} (${sanitizeLine(id)})` : `space ${sanitizeLine(id)}`;
}
