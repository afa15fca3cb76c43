// Turning values into text for people (on a terminal) or for scripts (piped):
// times relative vs ISO, numbers grouped vs raw, colour on or off (src/io/paint.ts).
import type { Context } from '../context.js';
import { serviceNow } from '../http/service-clock.js';
import { formatBytes } from './bytes.js';
import { paint } from './paint.js';
import { displayWidth, wrapText, type WrapOptions } from './width.js';

type Paint = (text: string) => string;

export interface Formatter {
  /** Rendering for a person at a terminal (else plain, stable text for scripts). */
  tty: boolean;
  color: boolean;
  /** Terminal width. */
  width: number;
  bold: Paint;
  dim: Paint;
  red: Paint;
  green: Paint;
  yellow: Paint;
  cyan: Paint;
  magenta: Paint;
  underline: Paint;
  /** ISO date-time or Unix ms → "3 minutes ago" on a terminal, ISO 8601 when piped. */
  time(value: unknown): string;
  /** 1234567 → "1,234,567" on a terminal, "1234567" when piped. */
  number(value: unknown): string;
  /** 1536 → "1.5 KiB" on a terminal, "1536" when piped. */
  bytes(value: unknown): string;
  /** Text wrapped to the terminal width (src/io/width.ts: words kept whole, CJK broken anywhere, URLs never); as is when piped. */
  wrap(text: string, options?: WrapOptions): string;
  /** Labelled lines: aligned "Label  value" on a terminal, "label<TAB>value" when piped. Undefined values are skipped. */
  fields(rows: Array<[label: string, value: string | undefined | null]>): string;
}

/** A formatter for what goes to stdout (results) or stderr (notes, errors). */
export function formatter(
  ctx: Pick<Context, 'io' | 'clock' | 'serviceClock'>,
  stream: 'stdout' | 'stderr' = 'stdout',
): Formatter {
  const tty = stream === 'stdout' ? ctx.io.stdoutIsTTY : ctx.io.stderrIsTTY;
  const color = stream === 'stdout' ? ctx.io.color : ctx.io.colorStderr;
  const dim = paint('dim', color);
  // Times from the service are told against the service's now (service-clock.ts).
  const now = () => serviceNow(ctx);
  return {
    tty,
    color,
    width: ctx.io.columns,
    bold: paint('bold', color),
    dim,
    red: paint('red', color),
    green: paint('green', color),
    yellow: paint('yellow', color),
    cyan: paint('cyan', color),
    magenta: paint('magenta', color),
    underline: paint('underline', color),
    time: (value) => formatTime(value, tty, now()),
    number: numeric(tty, (value) => value.toLocaleString('en-US')),
    bytes: numeric(tty, formatBytes),
    wrap: (text, options) => (tty ? wrapText(text, ctx.io.columns, options) : text),
    fields(rows) {
      // A value of another type than the view expected (tolerant reading) is shown as text.
      const shown = rows
        .filter((row) => row[1] !== undefined && row[1] !== null)
        .map(([label, value]): [string, string] => [label, typeof value === 'string' ? value : plain(value)]);
      if (!tty)
        return shown.map(([label, value]) => `${fieldKey(label)}\t${value.replace(/[\t\n]+/g, ' ')}`).join('\n');
      const pad = Math.max(0, ...shown.map(([label]) => displayWidth(label)));
      // A long value wraps under itself, not under the labels.
      return shown
        .map(([label, value]) =>
          wrapText(`${dim(label.padEnd(pad + (label.length - displayWidth(label))))}  ${value}`, ctx.io.columns, {
            hanging: pad + 2,
          }),
        )
        .join('\n');
    },
  };
}

/** "Storage used" → "storage-used": stable keys for piped label/value lines. */
export function fieldKey(label: string): string {
  return label
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** A number as `forPeople` says it on a terminal, its digits when piped; another type as text (tolerant reading). */
function numeric(tty: boolean, forPeople: (value: number) => string): (value: unknown) => string {
  return (value) => {
    if (typeof value !== 'number') return plain(value);
    return tty ? forPeople(value) : String(value);
  };
}

/** A value as text: nothing for none, JSON for an object or a list. */
export function plain(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export function toMillis(value: unknown): number | undefined {
  // Beyond ±8.64e15 ms a Date is invalid: such a number is not a time.
  if (typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= 8.64e15) return value;
  if (typeof value === 'string' && value !== '') {
    const ms = Date.parse(value);
    if (!Number.isNaN(ms)) return ms;
  }
  return undefined;
}

/** A time as plain output shows it: ISO 8601 (a string from the service as it came), '' for none. */
export function isoTime(value: unknown): string {
  return formatTime(value, false, 0);
}

export function formatTime(value: unknown, tty: boolean, now: number): string {
  const ms = toMillis(value);
  if (ms === undefined) return plain(value);
  if (!tty) return typeof value === 'string' ? value : new Date(ms).toISOString();
  return relativeTime(ms, now);
}

// Made on first use: creating it loads ICU data, ~18 ms of start-up for every command that
// imports this file, though only terminal output of times needs it.
let relative: Intl.RelativeTimeFormat | undefined;
const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600_000],
  ['month', 30 * 24 * 3600_000],
  ['week', 7 * 24 * 3600_000],
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000],
];

function relativeFormat(): Intl.RelativeTimeFormat {
  return (relative ??= new Intl.RelativeTimeFormat('en', { numeric: 'auto' }));
}

/** "just now", "5 minutes ago", "in 2 days", "last month". */
export function relativeTime(ms: number, now: number): string {
  const diff = ms - now;
  if (Math.abs(diff) < 45_000) return diff > 0 ? 'in a few seconds' : 'just now';
  for (const [unit, size] of UNITS) {
    if (Math.abs(diff) >= size * 0.95 || unit === 'minute')
      return relativeFormat().format(Math.round(diff / size), unit);
  }
  return relativeFormat().format(Math.round(diff / 60_000), 'minute');
}

/** Where the width rules live; re-exported for the views that measure text. */
export { displayWidth } from './width.js';
