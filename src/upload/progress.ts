// The progress bar of `lib upload` and `lib sync`: one line on stderr, redrawn in place at most 10 times a
// second, when stderr is a terminal (not in CI, not with --quiet):
//   [████░░░░]  42% 3/10 files · 12 MiB/40 MiB · 8.1 MiB/s · 2 to delete · a.pdf, b.md
// Every other write goes above it (src/io/live-line.ts: aboveLive), never onto its row.
import type { Context } from '../context.js';
import type { Formatter } from '../io/format.js';
import { formatBytes } from '../io/bytes.js';
import { fitLive, liveWidth, mayDraw, showLive, type LiveLine } from '../io/live-line.js';
import { guardOutput, sanitizeLine } from '../io/sanitize.js';
import type { Source } from './discover.js';

type BarContext = Pick<Context, 'io' | 'clock'>;

const FRAME_MS = 100;
/** Speed is measured over the last few seconds. */
const SPEED_WINDOW_MS = 3000;

export class ProgressBar implements LiveLine {
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
  private readonly hide: () => void;
  /** Items still to delete (sync): counted down as they go. */
  private deletesLeft: number;

  constructor(
    private readonly ctx: BarContext,
    private readonly f: Formatter,
    sources: Source[],
    deletes = 0,
  ) {
    this.totalFiles = sources.length;
    this.totalBytes = sources.reduce((sum, s) => sum + s.size, 0);
    this.deletesLeft = deletes;
    this.samples.push([ctx.clock.now(), 0]);
    this.hide = showLive(ctx.io.stderr, this);
    this.timer = setInterval(() => {
      if (mayDraw(ctx.io.stderr)) this.draw();
    }, FRAME_MS);
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

  /** A file is done (`counted`: not a file left unattempted). */
  finish(source: Source, counted = true): void {
    this.inFlight.delete(source);
    if (!counted) return;
    this.doneFiles++;
    this.doneBytes += source.size;
  }

  /** `n` items are no longer to delete (deleted, or kept after all). */
  deleted(n: number): void {
    this.deletesLeft = Math.max(0, this.deletesLeft - n);
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
    // Bytes sent are not files done: 100% only once every answer is in and nothing is left to delete.
    const ceiling = this.doneFiles < this.totalFiles || this.deletesLeft > 0 ? 0.99 : 1;
    const fraction = Math.min(
      ceiling,
      this.totalBytes > 0 ? current / this.totalBytes : this.doneFiles / Math.max(1, this.totalFiles),
    );
    const width = liveWidth(this.ctx.io);
    const cells = cellsFor(width);
    const filled = Math.round(fraction * cells);
    const deleting = this.deletesLeft > 0 ? ` · ${this.deletesLeft} to delete` : '';
    const stats = `${String(Math.floor(fraction * 100)).padStart(3)}% ${this.doneFiles}/${this.totalFiles} files · ${formatBytes(current)}/${formatBytes(this.totalBytes)} · ${formatBytes(Math.round(speed))}/s${deleting}`;
    const text = `${this.f.cyan('█'.repeat(filled))}${this.f.dim('░'.repeat(cells - filled))} ${stats}`;
    const names = this.namesInFlight(width - (cells + 1 + stats.length) - 3);
    // One row, never more (src/io/live-line.ts): at 40 columns the stats alone are cut with "…".
    this.ctx.io.stderr.write(guardOutput(`\r\x1b[2K${fitLive(this.ctx.io, `${text}${names}`)}`));
    this.shown = true;
  }

  /** The files in flight, as many as fit in `room` columns: " · a.pdf, b.md +3" (dim), or ''. */
  private namesInFlight(room: number): string {
    const names = [...this.inFlight.keys()].map((s) => sanitizeLine(s.name));
    if (names.length === 0 || room < 6) return '';
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
    const others = more > 0 ? `${shown.length > 0 ? ' ' : ''}+${more}` : '';
    return this.f.dim(` · ${shown.join(', ')}${others}`);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.clear();
    this.stopped = true;
    this.hide();
  }
}

/** Cells of the bar for a line of `width` columns. */
function cellsFor(width: number): number {
  if (width >= 100) return 20;
  return width >= 60 ? 12 : 6;
}
