// The one rule for live lines — progress bars, spinners, status lines redrawn in
// place on stderr: each fits on one row of the terminal, one column short of its
// width. A line that wrapped would leave its first rows behind at every redraw
// ("\r\x1b[2K" clears only the row the cursor is on), a stale copy each time.
import type { IO } from '../context.js';
import { truncate } from './width.js';

/** The columns a live line may use: stderr's width (else the terminal's) less one. */
export function liveWidth(io: Pick<IO, 'stderr' | 'columns'>): number {
  const columns = io.stderr.columns || io.columns || 80;
  return Math.max(1, columns - 1);
}

/** `text` (styled) cut with `…` to fit a live line, less `reserved` columns (a spinner's frame and space). */
export function fitLive(io: Pick<IO, 'stderr' | 'columns'>, text: string, reserved = 0): string {
  return truncate(text, Math.max(1, liveWidth(io) - reserved));
}
