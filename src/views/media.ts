// Reading media (video and podcast transcripts): the view behind `kagent media
// start`, `media show` and `media show --follow` (src/follow/media.ts polls and
// hands each page to this view; this file only draws).
//
// stdout (results, unless --json):
//   terminal  the title, then one line per segment "[h:mm:ss] text" as they
//             arrive, then the summary (rendered Markdown) and the chapters
//   piped     "# title", one line per segment "[h:mm:ss] text", then
//             "## Summary" and "## Chapters" ("- [h:mm:ss] title") sections
// stderr (progress, unless --quiet):
//   terminal  one status line redrawn in place (status, how far, elapsed)
//   piped     one line per status change
import type { Context } from '../context.js';
import type { MediaPage, Segment } from '../api/shapes.js';
import type { Formatter } from '../io/format.js';
import { sanitize, sanitizeLine } from '../io/sanitize.js';
import { emit } from '../io/streams.js';
import { elapsed, fit } from './task.js';
import { envFlag } from '../io/terminal.js';
import { liveWidth } from '../io/live-line.js';
import { wantsJson } from '../io/output.js';
import { formatter } from '../io/format.js';
import { renderMarkdown } from '../io/markdown.js';

/** What drawing media needs (never the API). */
export type MediaContext = Pick<Context, 'io' | 'flags' | 'config' | 'clock' | 'serviceClock' | 'signal'>;

/** Statuses while the service is still working on a media item; any other status ends following. */
export const ACTIVE_MEDIA_STATUSES = ['queued', 'transcribing', 'summarizing'] as const;

export function isMediaActive(status: string): boolean {
  return (ACTIVE_MEDIA_STATUSES as readonly string[]).includes(status);
}

/** 95 → "0:01:35"; 3725.4 → "1:02:05". */
export function timecode(seconds: number): string {
  const s = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h}:${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * "90", "90.5", "1:30", "01:02:03" → seconds; undefined for anything else
 * (negative, minutes or seconds of 60 and more after the first field, empty).
 */
export function parseTimecode(text: string): number | undefined {
  const value = text.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value);
  const match = /^(?:(\d+):)?(\d+):(\d{2}(?:\.\d+)?)$/.exec(value);
  if (!match) return undefined;
  const [, h, m, s] = match;
  const hours = h === undefined ? 0 : Number(h);
  const minutes = Number(m);
  const seconds = Number(s);
  if (seconds >= 60 || (h !== undefined && minutes >= 60)) return undefined;
  return hours * 3600 + minutes * 60 + seconds;
}

/** A media page read once (`media show` without --follow): what `followMedia` would have printed. */
export async function printMedia(ctx: MediaContext, page: MediaPage): Promise<void> {
  const view = await createMediaView(ctx, { follow: false });
  view.update(page);
  await view.finish(page);
}

// ---------------------------------------------------------------- the view

export interface MediaView {
  update(page: MediaPage): void;
  /** The status line's last word, then the summary and chapters (when there are any). */
  finish(page: MediaPage): Promise<void>;
  abandon(): Promise<void>;
}

export async function createMediaView(ctx: MediaContext, options: { follow: boolean }): Promise<MediaView> {
  const results = !wantsJson(ctx);
  const progress = !options.follow || ctx.flags.quiet ? 'none' : liveOrLog(ctx.io);
  return new View(ctx, formatter(ctx, 'stdout'), formatter(ctx, 'stderr'), results, progress);
}

/** A line redrawn in place on a terminal that can take it; else a line per change. */
function liveOrLog(io: MediaContext['io']): 'live' | 'log' {
  return io.stderrIsTTY && !envFlag(io.env, 'CI') && io.env.TERM !== 'dumb' ? 'live' : 'log';
}

class View implements MediaView {
  private headShown = false;
  /** Segment start times already printed: a service that ignores `after` does not repeat lines. */
  private readonly printed = new Set<number>();
  private page: MediaPage | undefined;
  /** How far the transcript goes: the end of the latest segment seen. */
  private reached = 0;
  private status: string | undefined;
  private readonly started: number;
  private lineShown = false;
  private frame = 0;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: MediaContext,
    private readonly f: Formatter,
    private readonly fe: Formatter,
    private readonly results: boolean,
    private readonly progress: 'live' | 'log' | 'none',
  ) {
    this.started = ctx.clock.now();
    if (progress === 'live') {
      this.timer = setInterval(() => {
        this.frame = (this.frame + 1) % FRAMES.length;
        this.queue(async () => this.drawLine());
      }, 120);
      this.timer.unref?.();
    }
  }

  private queue(work: () => Promise<void>): void {
    this.writing = this.writing.then(work).catch(() => {});
  }

  update(page: MediaPage): void {
    this.page = page;
    const fresh = (page.segments ?? []).filter((segment) => !this.printed.has(segment.start));
    for (const segment of fresh) {
      this.printed.add(segment.start);
      this.reached = Math.max(this.reached, typeof segment.end === 'number' ? segment.end : segment.start);
    }
    const statusChanged = page.status !== this.status;
    this.status = page.status;
    this.queue(async () => {
      if (this.results && (!this.headShown || fresh.length > 0)) {
        let out = '';
        if (!this.headShown) out += this.head(page);
        this.headShown = true;
        out += fresh.map((segment) => `${this.segmentLine(segment)}\n`).join('');
        await this.toStdout(out);
      }
      if (this.progress === 'log' && statusChanged)
        await emit(this.ctx.io.stderr, `media ${sanitizeLine(page.id)}: ${this.statusText(page)}\n`);
      if (this.progress === 'live') await this.drawLine();
    });
  }

  async finish(page: MediaPage): Promise<void> {
    this.stop();
    this.page = page;
    this.queue(async () => {
      if (this.progress === 'live') await this.clearLine();
      if (this.progress === 'log' && page.status !== this.status)
        await emit(this.ctx.io.stderr, `media ${sanitizeLine(page.id)}: ${this.statusText(page)}\n`);
      this.status = page.status;
      if (this.results) await this.toStdout(await this.tail(page));
    });
    await this.writing;
  }

  async abandon(): Promise<void> {
    this.stop();
    if (this.progress === 'live') this.queue(async () => this.clearLine());
    await this.writing;
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  // ---- stdout

  private head(page: MediaPage): string {
    const f = this.f;
    const title = sanitizeLine(page.title || page.url || page.id);
    if (!f.tty) return `# ${title}\n\n`;
    const facts = [page.id, page.kind, timecode(page.durationSec), page.url]
      .filter((fact) => typeof fact === 'string' && fact !== '')
      .map((fact) => sanitizeLine(String(fact)));
    return `${f.wrap(`${f.bold(title)}\n${f.dim(facts.join(' · '))}`)}\n\n`;
  }

  private segmentLine(segment: Segment): string {
    const stamp = `[${timecode(segment.start)}]`;
    const text = sanitizeLine(segment.text ?? '');
    return this.f.tty ? this.f.wrap(`${this.f.dim(stamp)} ${text}`, { hanging: stamp.length + 1 }) : `${stamp} ${text}`;
  }

  private async tail(page: MediaPage): Promise<string> {
    const f = this.f;
    const summary = page.summary ? sanitize(page.summary).trim() : '';
    const chapters = (page.chapters ?? []).map((chapter) => ({
      start: chapter.start,
      title: sanitizeLine(chapter.title),
    }));
    if (summary === '' && chapters.length === 0) return '';
    const parts: string[] = [''];
    if (!f.tty) {
      if (summary) parts.push('## Summary', '', summary, '');
      if (chapters.length)
        parts.push('## Chapters', '', ...chapters.map((c) => `- [${timecode(c.start)}] ${c.title}`), '');
      return parts.join('\n');
    }
    if (summary) {
      parts.push(f.bold('Summary'), (await renderMarkdown(this.ctx, summary)).trimEnd(), '');
    }
    if (chapters.length)
      parts.push(f.bold('Chapters'), ...chapters.map((c) => `  ${f.cyan(timecode(c.start))}  ${c.title}`), '');
    return parts.join('\n');
  }

  /** Writes results to stdout, lifting the live status line out of the way first (same terminal). */
  private async toStdout(text: string): Promise<void> {
    if (text === '') return;
    if (this.progress === 'live') await this.clearLine();
    await emit(this.ctx.io.stdout, text);
  }

  // ---- stderr

  private statusText(page: MediaPage): string {
    const status = sanitizeLine(String(page.status));
    const done = this.reached;
    if (page.status === 'transcribing' && done > 0)
      return `${status} (${timecode(done)} of ${timecode(page.durationSec)})`;
    if (page.status === 'ready') return `${status} (${timecode(page.durationSec)})`;
    return status;
  }

  private async drawLine(): Promise<void> {
    if (this.progress !== 'live' || !this.page) return;
    const fe = this.fe;
    const width = liveWidth(this.ctx.io);
    const spin = isMediaActive(this.page.status) ? fe.cyan(FRAMES[this.frame] ?? '●') : fe.green('✓');
    const text = `${this.statusText(this.page)} · ${elapsed(this.ctx.clock.now() - this.started)} · Ctrl-C stops following, the work goes on`;
    await emit(this.ctx.io.stderr, `\r\x1b[2K${spin} ${fe.dim(fit(text, width - 2))}`);
    this.lineShown = true;
  }

  private async clearLine(): Promise<void> {
    if (!this.lineShown) return;
    this.lineShown = false;
    await emit(this.ctx.io.stderr, '\r\x1b[2K');
  }
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
