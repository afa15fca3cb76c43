// The one rule for live lines — progress bars, spinners, status lines redrawn in
// place on stderr: each fits on one row of the terminal, one column short of its
// width. A line that wrapped would leave its first rows behind at every redraw
// ("\r\x1b[2K" clears only the row the cursor is on), a stale copy each time.
import type { IO } from '../context.js';
import { truncate } from './width.js';
import { stderrColumns } from './terminal.js';

/** The columns a live line may use: stderr's width (else the terminal's) less one. */
export function liveWidth(io: Pick<IO, 'stderr' | 'columns'>): number {
  return Math.max(1, stderrColumns(io) - 1);
}

/** `text` (styled) cut with `…` to fit a live line, less `reserved` columns (a spinner's frame and space). */
export function fitLive(io: Pick<IO, 'stderr' | 'columns'>, text: string, reserved = 0): string {
  return truncate(text, Math.max(1, liveWidth(io) - reserved));
}

/** A line redrawn in place (a progress bar): what aboveLive() needs to write around it. */
export interface LiveLine {
  clear(): void;
  draw(): void;
}

interface Shown {
  line: LiveLine;
  /** Writes under way above it: its own timer must not draw meanwhile. */
  held: number;
}

const shown = new WeakMap<object, Shown>();

/** `line` is live on `stream` until the returned function is called: every note written through aboveLive() goes above it. */
export function showLive(stream: object, line: LiveLine): () => void {
  const entry = { line, held: 0 };
  shown.set(stream, entry);
  return () => {
    if (shown.get(stream) === entry) shown.delete(stream);
  };
}

/** Whether the live line of `stream` may draw now (no write above it is under way). */
export function mayDraw(stream: object): boolean {
  return (shown.get(stream)?.held ?? 0) === 0;
}

/**
 * Runs `write` with the live line of `stream` cleared, then draws it again: a notice, a warning or a result is never
 * printed onto the bar's row. Writes to stdout pass `stderr` too: on a terminal both are the same screen.
 */
export async function aboveLive<T>(stream: object, write: () => Promise<T>): Promise<T> {
  const entry = shown.get(stream);
  if (!entry) return write();
  entry.held++;
  if (entry.held === 1) entry.line.clear();
  try {
    return await write();
  } finally {
    entry.held--;
    if (entry.held === 0 && shown.get(stream) === entry) entry.line.draw();
  }
}

/** aboveLive() for a write made at once (no await): the live line of `stream` cleared, `write` run, the line drawn again. */
export function aboveLiveNow(stream: object, write: () => void): void {
  const entry = shown.get(stream);
  if (!entry || entry.held > 0) return write();
  entry.line.clear();
  try {
    write();
  } finally {
    entry.line.draw();
  }
}
