// Lists on a terminal: borderless cli-table3 tables fitted to the width, flexible
// columns shrinking first; piped: one tab-separated row per item, no header.
import Table from 'cli-table3';
import { displayWidth, type Formatter } from './format.js';
import { sanitizeLine } from './sanitize.js';

export interface Column<T> {
  /** Header on a terminal (shown upper-case). */
  header: string;
  /** The raw value: what piped output prints (ISO times, raw enum values). */
  value: (row: T) => unknown;
  /** How the value reads on a terminal. */
  kind?: 'text' | 'time' | 'number' | 'bytes' | 'bool';
  /** Terminal text when it differs from the value (an icon before a name, a prettier enum); gets the formatter for colour. */
  display?: (row: T, f: Formatter) => string;
  /** Shrinks first when the table is wider than the terminal (titles, descriptions). */
  flex?: boolean;
  /** Only on a terminal, or only when piped. */
  only?: 'tty' | 'plain';
}

const BLANK = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: ' ',
};
// Two spaces between columns: one of padding, one separator.
const PAD = 1;
const MIN_FLEX = 10;

export function visibleColumns<T>(columns: Column<T>[], tty: boolean): Column<T>[] {
  return columns.filter((column) => column.only === undefined || column.only === (tty ? 'tty' : 'plain'));
}

/** One piped row: raw values, tabs and newlines inside values turned into spaces. */
export function plainRow<T>(row: T, columns: Column<T>[]): string {
  return columns.map((column) => plainCell(column.value(row))).join('\t');
}

function plainCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return sanitizeLine(value);
  if (typeof value === 'object') return sanitizeLine(JSON.stringify(value));
  return String(value);
}

function terminalCell<T>(row: T, column: Column<T>, f: Formatter): string {
  if (column.display) return sanitizeControlOnly(column.display(row, f));
  const value = column.value(row);
  if (value === undefined || value === null) return '';
  switch (column.kind) {
    case 'time':
      return f.time(value);
    case 'number':
      return f.number(value);
    case 'bytes':
      return f.bytes(value);
    case 'bool':
      return value === true ? f.green('✓') : '';
    default:
      return typeof value === 'string' ? sanitizeLine(value) : sanitizeLine(typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
}

// display() output may carry our own colour codes; newlines and tabs still must not break a row.
function sanitizeControlOnly(text: string): string {
  return text.replace(/[\n\t\r]+/g, ' ');
}

/**
 * Column widths for cli-table3 (each includes one space of padding; one more
 * space separates columns) so that rows fit `width`: flexible columns shrink
 * first, widest first, down to a floor; without any, the widest column does.
 */
export function fitWidths<T>(columns: Column<T>[], cells: string[][], width: number): number[] {
  const widths = columns.map((column, i) => Math.max(displayWidth(column.header), ...cells.map((row) => displayWidth(row[i] ?? ''))) + PAD);
  // A line is every width plus the separators, minus the trailing padding (trimmed).
  let excess = widths.reduce((sum, w) => sum + w, 0) + (columns.length - 1) - PAD - width;
  const flexible = columns.map((column, i) => (column.flex ? i : -1)).filter((i) => i >= 0);
  const candidates = flexible.length > 0 ? flexible : widths.map((_, i) => i);
  while (excess > 0) {
    const widest = candidates.reduce((best, i) => ((widths[i] ?? 0) > (widths[best] ?? 0) ? i : best), candidates[0] ?? 0);
    const current = widths[widest] ?? 0;
    if (current <= MIN_FLEX + PAD) break;
    const cut = Math.min(excess, current - (MIN_FLEX + PAD), Math.max(1, Math.ceil(current / 4)));
    widths[widest] = current - cut;
    excess -= cut;
  }
  return widths;
}

export interface TableBatch {
  text: string;
  widths: number[];
}

/** Renders rows as a table; pass the widths of the first batch to keep later batches aligned (no header then). */
export function renderTable<T>(rows: T[], columns: Column<T>[], f: Formatter, widths?: number[]): TableBatch {
  const cells = rows.map((row) => columns.map((column) => terminalCell(row, column, f)));
  const colWidths = widths ?? fitWidths(columns, cells, f.width);
  const table = new Table({
    ...(widths ? {} : { head: columns.map((column) => f.bold(column.header.toUpperCase())) }),
    chars: BLANK,
    colWidths,
    truncate: '…',
    wordWrap: false,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': PAD, compact: true },
  });
  table.push(...cells);
  const text = table.toString().replace(/[ ]+$/gm, '');
  return { text, widths: colWidths };
}
