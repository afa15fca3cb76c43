// Lists on a terminal: borderless tables that always fit the width (no row ever
// wraps): columns constant or empty on the rows shown go first, then titles give way,
// then columns drop by declared priority (titles last), then cells are cut with `…` at display
// width (string-width: CJK and emoji two columns, combining marks none); the id
// column is never cut. Rows are laid out here rather than by cli-table3, whose
// older width rules disagree with string-width on some emoji (a row one column
// too wide wraps). Piped: one tab-separated row per item, no header.
import type { Formatter } from './format.js';
import { displayWidth, truncate } from './width.js';
import { sanitizeLine, valueText } from './sanitize.js';

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
  /** The id column: never cut or dropped (a column headed "id" or "slug" is one without saying so). */
  id?: boolean;
  /** How readily the column is dropped on a narrow terminal: 1 never, 2 (default), 3 first (default for times). */
  priority?: 1 | 2 | 3;
  /** Only on a terminal, or only when piped. */
  only?: 'tty' | 'plain';
  /** What the help's "Piped, each row is: …" says after the header, when its kind does not say it. */
  about?: string;
  /** The API field it shows ('createdAt'): `--json FIELDS` then takes its piped name too (src/io/declared.ts). */
  json?: string;
}

// Two spaces between columns.
const GAP = 2;
// A flexible column (titles) gives way down to this many columns before anything else is cut.
const MIN_FLEX = 10;
// Any other column cut keeps at least this much (a few letters and the ellipsis), unless nothing else fits.
const MIN_CUT = 4;

/** The id column: never cut, never dropped. Declared with `id: true`; a column headed "id" or "slug" is one too. */
export function isIdColumn<T>(column: Column<T>): boolean {
  return column.id ?? /^(id|slug)$/i.test(column.header);
}

/**
 * How readily a column is dropped when the terminal is narrow: 1 never (the id
 * and the first column), 3 first (times, unless declared otherwise), 2 the rest.
 */
export function columnPriority<T>(column: Column<T>, index: number): number {
  if (isIdColumn(column) || index === 0) return 1;
  return column.priority ?? (column.kind === 'time' ? 3 : 2);
}

export function visibleColumns<T>(columns: Column<T>[], tty: boolean): Column<T>[] {
  return columns.filter((column) => column.only === undefined || column.only === (tty ? 'tty' : 'plain'));
}

/** One piped row: raw values, tabs and newlines inside values turned into spaces. */
export function plainRow<T>(row: T, columns: Column<T>[]): string {
  return columns.map((column) => plainCell(column.value(row))).join('\t');
}

function plainCell(value: unknown): string {
  return sanitizeLine(valueText(value));
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
      return sanitizeLine(valueText(value));
  }
}

// display() output may carry our own colour codes; newlines and tabs still must not break a row.
function sanitizeControlOnly(text: string): string {
  return text.replace(/[\n\t\r]+/g, ' ');
}

/**
 * The display width of each column (0: dropped) so that every row fits in
 * `width` columns with two spaces between columns. In order: flexible columns
 * (titles) shrink, widest first, down to MIN_FLEX; while that is not enough,
 * columns are dropped, lowest priority and rightmost first (the rest get their
 * room back); then the other columns shrink, down to MIN_CUT, then to a lone
 * `…`. The id column never shrinks and is never dropped. Cells wider than their
 * column are cut with `…` at display width.
 */
export function fitWidths<T>(columns: Column<T>[], cells: string[][], width: number): number[] {
  const natural = columns.map((column, i) =>
    Math.max(displayWidth(column.header), ...cells.map((row) => displayWidth(row[i] ?? ''))),
  );
  const shown = natural.map((w) => w > 0);
  const isId = (i: number) => isIdColumn(columns[i] as Column<T>);
  const dropOrder = dropOrderOf(columns, cells).filter((i) => shown[i]);

  let widths: number[] = [];
  let excess = 0;
  const shrink = (candidates: number[], floor: (i: number) => number) => {
    while (excess > 0) {
      const room = candidates.filter((i) => (widths[i] ?? 0) > floor(i));
      if (room.length === 0) return;
      const widest = room.reduce((best, i) => ((widths[i] ?? 0) > (widths[best] ?? 0) ? i : best));
      const current = widths[widest] ?? 0;
      const cut = Math.min(excess, current - floor(widest), Math.max(1, Math.ceil(current / 4)));
      widths[widest] = current - cut;
      excess -= cut;
    }
  };
  const layout = () => {
    widths = natural.map((w, i) => (shown[i] ? w : 0));
    const visible = widths.map((_, i) => i).filter((i) => shown[i]);
    excess = visible.reduce((sum, i) => sum + (widths[i] ?? 0), 0) + GAP * Math.max(0, visible.length - 1) - width;
    shrink(
      visible.filter((i) => columns[i]?.flex && !isId(i)),
      (i) => Math.min(natural[i] ?? 0, MIN_FLEX),
    );
    return visible;
  };

  // Columns that tell nothing on these rows go before a title gives way at all.
  const overflow = () => natural.reduce((sum, w, i) => sum + (shown[i] ? w + GAP : 0), -GAP) - width;
  for (const i of dropOrder) {
    if (overflow() <= 0 || !silentColumn(cells, i) || columnPriority(columns[i] as Column<T>, i) === 1) break;
    shown[i] = false;
  }
  let visible = layout();
  for (const i of dropOrder) {
    if (excess <= 0) break;
    shown[i] = false;
    visible = layout();
  }
  shrink(
    visible.filter((i) => !isId(i)),
    (i) => Math.min(natural[i] ?? 0, MIN_CUT),
  );
  shrink(
    visible.filter((i) => !isId(i)),
    () => 1,
  );
  return widths;
}

/**
 * The order in which columns go when the table is too wide: first those that tell nothing on these
 * rows (every cell empty, or the same in every row: a CHANNEL that is always "api"), then by the
 * priority each view declares once in its columns (3 first: times; 2 the rest), rightmost first;
 * the flexible columns (titles) last of all, unless they declare a priority. The id and the first column never go.
 */
export function dropOrderOf<T>(columns: Column<T>[], cells: string[][]): number[] {
  const rank = (column: Column<T>, i: number) => {
    const priority = columnPriority(column, i);
    if (priority === 1) return 0;
    if (silentColumn(cells, i)) return 4;
    // A flexible column goes last unless the view says otherwise (lib list's SOURCE, a second flexible column).
    return column.flex && column.priority === undefined ? 1 : priority;
  };
  return columns
    .map((column, i) => ({ i, rank: rank(column, i) }))
    .filter(({ rank }) => rank > 0)
    .sort((a, b) => b.rank - a.rank || b.i - a.i)
    .map(({ i }) => i);
}

/** A column that tells nothing on these rows: every cell empty, or (over two rows or more) the same in each. */
function silentColumn(cells: string[][], i: number): boolean {
  const first = cells[0]?.[i] ?? '';
  return (
    cells.every((row) => (row[i] ?? '') === '') || (cells.length > 1 && cells.every((row) => (row[i] ?? '') === first))
  );
}

export interface TableBatch {
  text: string;
  widths: number[];
}

/** Renders rows as a table; pass the widths of the first batch to keep later batches aligned (no header then). */
export function renderTable<T>(rows: T[], columns: Column<T>[], f: Formatter, widths?: number[]): TableBatch {
  const cells = rows.map((row) => columns.map((column) => terminalCell(row, column, f)));
  // Later batches keep the first one's widths, unless an id there is longer (ids are never cut): then this batch is laid out anew.
  const idTooWide =
    widths !== undefined &&
    cells.some((row) =>
      row.some(
        (cell, i) =>
          isIdColumn(columns[i] as Column<T>) && (widths[i] ?? 0) > 0 && displayWidth(cell) > (widths[i] ?? 0),
      ),
    );
  const colWidths = widths && !idTooWide ? widths : fitWidths(columns, cells, f.width);
  const line = (row: string[], paint: (text: string) => string = (text) => text) =>
    colWidths
      .map((w, i) =>
        w > 0
          ? pad(paint(isIdColumn(columns[i] as Column<T>) ? (row[i] ?? '') : truncate(row[i] ?? '', w)), w)
          : undefined,
      )
      .filter((cell) => cell !== undefined)
      .join(' '.repeat(GAP))
      .replace(/[ ]+$/, '');
  const lines = cells.map((row) => line(row));
  if (!widths)
    lines.unshift(
      line(
        columns.map((column) => column.header.toUpperCase()),
        f.bold,
      ),
    );
  return { text: lines.join('\n'), widths: colWidths };
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}
