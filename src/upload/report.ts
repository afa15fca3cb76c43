// What `lib upload` shows while it works and when it is done.
//
// stdout, one line per finished file (the results):
//   --json / --jq   one JSON object per file (NDJSON): {path, name, size, status, item?, error?}
//   terminal        "✓ uploaded docs/a.pdf → li_8f2k3xq9mz (2.1 MB)", coloured
//   piped           status<TAB>path<TAB>item id<TAB>error code (stable for cut/awk);
//                   a failure's message also goes to stderr as "error: …"
// stderr:
//   a progress bar when stderr is a terminal (not in CI, not with --quiet):
//   files done, bytes, speed, the files in flight; redrawn at most 10 times a second
//   a closing summary (uploaded, already there, failed, skipped), unless --quiet.
import type { Writable } from 'node:stream';
import type { Context } from '../context.js';
import type { Formatter } from '../io/format.js';
import { escapeJsonControls, guardOutput, sanitizeLine } from '../io/sanitize.js';
import { emit } from '../io/streams.js';
import type { Source } from './discover.js';
import { formatBytes } from '../io/bytes.js';
import { fitLive, liveWidth } from '../io/live-line.js';
import { wrapText } from '../io/width.js';
import type { FileResult, UploadEvents, UploadSummary } from './uploader.js';
import { getFormatter, wantsJson } from '../io/output.js';
import { runJq } from '../io/jq.js';

type ReportContext = Pick<Context, 'io' | 'flags' | 'clock' | 'serviceClock'> & { signal?: AbortSignal };

export interface Reporter extends UploadEvents {
  /** Stops the progress display (clears its line). */
  close(): void;
  summary(summary: UploadSummary, elapsedMs: number): Promise<void>;
}

const FRAME_MS = 100;
/** Speed is measured over the last few seconds. */
const SPEED_WINDOW_MS = 3000;

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
  const json = wantsJson(ctx);
  const bar = options.progress ? new ProgressBar(ctx, err, sources) : undefined;

  /**
   * What to write for one file, made ready before anything is written: the
   * space's name may take a request, and the progress bar must not be drawn
   * between clearing it and writing the line.
   */
  async function lines(result: FileResult): Promise<Array<[Writable, string]>> {
    if (json) {
      const data = toJson(result);
      if (ctx.flags.jq === undefined) return [[ctx.io.stdout, `${escapeJsonControls(JSON.stringify(data))}\n`]];
      return [[ctx.io.stdout, await runJq(data, ctx.flags.jq, false, { env: ctx.io.env, signal: ctx.signal })]];
    }
    if (result.status === 'skipped') return []; // counted in the summary
    if (out.tty) {
      const spaceId = result.item?.spaceId;
      const space = spaceId ? whereTo(spaceId, await options.spaceName?.(spaceId)) : '';
      const text = `${terminalLine(result, out)}${space ? ` ${out.dim('in')} ${space}` : ''}`;
      return [[ctx.io.stdout, `${wrapText(text, ctx.io.columns, { hanging: 2 })}\n`]];
    }
    // Ids and codes come from the service too: sanitised like its messages (a colour code in one would pass the last gate).
    const id = sanitizeLine(result.item?.id ?? '');
    const written: Array<[Writable, string]> = [
      [
        ctx.io.stdout,
        `${result.status}\t${sanitizeLine(result.path)}\t${id}\t${sanitizeLine(result.error?.code ?? '')}\n`,
      ],
    ];
    if (result.error)
      written.push([
        ctx.io.stderr,
        `${err.red('error:')} ${sanitizeLine(result.path)}: ${sanitizeLine(result.error.message)} (${sanitizeLine(result.error.code)})\n`,
      ]);
    return written;
  }

  return {
    started: (source) => bar?.start(source),
    attempt: (source) => bar?.restart(source),
    bytes: (source, n) => bar?.add(source, n),
    async finished(result, source) {
      bar?.finish(source, result);
      const writes = await lines(result);
      // Cleared and written with no wait in between: the bar's timer cannot draw there.
      bar?.clear();
      try {
        await Promise.all(writes.map(([stream, text]) => emit(stream, text)));
      } finally {
        bar?.draw();
      }
    },
    close: () => bar?.stop(),
    async summary(summary, elapsedMs) {
      bar?.stop();
      if (ctx.flags.quiet) return;
      const text = summaryLine(summary, elapsedMs, err);
      // At a terminal, wrapped at its width like every message.
      const columns = ctx.io.stderrIsTTY ? (ctx.io.stderr.columns ?? ctx.io.columns) : undefined;
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

function toJson(result: FileResult): Record<string, unknown> {
  return {
    path: result.path,
    name: result.name,
    size: result.size,
    status: result.status,
    ...(result.item ? { item: result.item } : {}),
    ...(result.error ? { error: result.error } : {}),
  };
}

/** "Inbox (sp_3k9x8q2m7d)", or "space sp_3k9x8q2m7d" when its name is not known; both come from the service, sanitised. */
function whereTo(id: string, name: string | undefined): string {
  return name ? `${sanitizeLine(name)} (${sanitizeLine(id)})` : `space ${sanitizeLine(id)}`;
}

function terminalLine(result: FileResult, f: Formatter): string {
  const path = sanitizeLine(result.path);
  const id = result.item ? sanitizeLine(result.item.id) : '';
  switch (result.status) {
    case 'uploaded':
      return `${f.green('✓')} uploaded ${path} ${f.dim('→')} ${id} ${f.dim(`(${formatBytes(result.size)})`)}`;
    case 'exists':
      return `${f.cyan('=')} already there ${path} ${f.dim('→')} ${id}`;
    case 'failed':
      return `${f.red('✗')} failed ${path}: ${sanitizeLine(result.error?.message ?? '')} ${f.dim(`(${sanitizeLine(result.error?.code ?? 'ERROR')})`)}`;
    default:
      return `${f.yellow('-')} not attempted ${path}`;
  }
}

/** One line on stderr, redrawn in place: [████░░░░] 3/10 files · 12 MiB/40 MiB · 8.1 MiB/s · a.pdf, b.md */
export class ProgressBar {
  private readonly totalFiles: number;
  private readonly totalBytes: number;
  private doneFiles = 0;
  private doneBytes = 0;
  private readonly inFlight = new Map<Source, number>();
  private readonly samples: Array<[time: number, bytes: number]> = [];
  private sentEver = 0;
  private timer: NodeJS.Timeout | undefined;
  private shown = false;
  private stopped = false;

  constructor(
    private readonly ctx: ReportContext,
    private readonly f: Formatter,
    sources: Source[],
  ) {
    this.totalFiles = sources.length;
    this.totalBytes = sources.reduce((sum, s) => sum + s.size, 0);
    this.samples.push([ctx.clock.now(), 0]);
    this.timer = setInterval(() => this.draw(), FRAME_MS);
    this.timer.unref?.();
  }

  start(source: Source): void {
    this.inFlight.set(source, 0);
  }

  restart(source: Source): void {
    this.inFlight.set(source, 0);
  }

  add(source: Source, bytes: number): void {
    this.inFlight.set(source, (this.inFlight.get(source) ?? 0) + bytes);
    this.sentEver += bytes;
  }

  finish(source: Source, result: FileResult): void {
    this.inFlight.delete(source);
    if (result.status === 'skipped') return;
    this.doneFiles++;
    this.doneBytes += source.size;
  }

  clear(): void {
    if (!this.shown) return;
    this.ctx.io.stderr.write('\r\x1b[2K');
    this.shown = false;
  }

  draw(): void {
    if (this.stopped) return;
    const now = this.ctx.clock.now();
    this.samples.push([now, this.sentEver]);
    while (this.samples.length > 2 && (this.samples[0]?.[0] ?? now) < now - SPEED_WINDOW_MS) this.samples.shift();
    const [t0, b0] = this.samples[0] ?? [now, 0];
    const speed = now > t0 ? ((this.sentEver - b0) * 1000) / (now - t0) : 0;

    let current = this.doneBytes;
    for (const sent of this.inFlight.values()) current += sent;
    // Bytes sent are not files done: 100% only once every answer is in.
    const ceiling = this.doneFiles < this.totalFiles ? 0.99 : 1;
    const fraction = Math.min(
      ceiling,
      this.totalBytes > 0 ? current / this.totalBytes : this.doneFiles / Math.max(1, this.totalFiles),
    );
    const width = liveWidth(this.ctx.io);
    const cells = width >= 100 ? 20 : width >= 60 ? 12 : 6;
    const filled = Math.round(fraction * cells);
    const stats = `${String(Math.floor(fraction * 100)).padStart(3)}% ${this.doneFiles}/${this.totalFiles} files · ${formatBytes(current)}/${formatBytes(this.totalBytes)} · ${formatBytes(Math.round(speed))}/s`;
    let text = `${this.f.cyan('█'.repeat(filled))}${this.f.dim('░'.repeat(cells - filled))} ${stats}`;
    // The files in flight, as many as fit: "a.pdf, b.md +3".
    const names = [...this.inFlight.keys()].map((s) => sanitizeLine(s.name));
    let room = width - (cells + 1 + stats.length) - 3;
    if (names.length > 0 && room >= 6) {
      const shown: string[] = [];
      for (const [i, name] of names.entries()) {
        const rest = names.length - i - 1;
        const suffix = rest > 0 ? ` +${rest}` : '';
        const separator = shown.length > 0 ? 2 : 0;
        const fits = room - separator - suffix.length;
        if (name.length <= fits) {
          shown.push(name);
          room -= separator + name.length;
          continue;
        }
        if (shown.length === 0 && fits >= 6) shown.push(`${name.slice(0, fits - 1)}…`);
        break;
      }
      const more = names.length - shown.length;
      text += this.f.dim(` · ${shown.join(', ')}${more > 0 ? `${shown.length > 0 ? ' ' : ''}+${more}` : ''}`);
    }
    // One row, never more (src/io/live-line.ts): at 40 columns the stats alone are cut with "…".
    this.ctx.io.stderr.write(guardOutput(`\r\x1b[2K${fitLive(this.ctx.io, text)}`));
    this.shown = true;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.clear();
    this.stopped = true;
  }
}
