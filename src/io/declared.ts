// A command's output, declared once: an item's field table (as a list's columns,
// src/io/table.ts) gives the terminal's labelled lines, the piped `key<TAB>value`
// lines and the "Piped, …" sentence of the command's help; a list's columns give
// the "Piped, each row is: …" sentence. The help can then never drift from what
// the command prints.
import type { Formatter } from './format.js';
import type { Column } from './table.js';
import { visibleColumns } from './table.js';

type Kind = 'text' | 'time' | 'number' | 'bytes' | 'bool';

export interface Field<T> {
  /** The key of its piped line (`key<TAB>value`), as the help names it. */
  key: string;
  /** The raw value piped: numbers, bytes and booleans as they are, times in ISO 8601. None: no line. (Not for `each`.) */
  value?: (item: T) => unknown;
  /** Its label on a terminal; without one the field is piped only (the title may show it). */
  label?: string;
  /** How the value reads on a terminal (default: text). */
  kind?: Kind;
  /** Terminal text when it differs from the value (units, "of N", colour); undefined leaves the line out. */
  display?: (item: T, f: Formatter) => string | undefined;
  /** What the help says after the key, when its kind does not say it: "(one per credit pool)". */
  about?: string;
  /** One line per entry instead of one (a credit per pool): each with its own key, label and values. */
  each?: (item: T) => Array<{ key: string; label: string; value: unknown; display?: (f: Formatter) => string }>;
}

export interface ItemView<T> {
  fields: Field<T>[];
  /** On a terminal, above the fields: who or what it is, in a line of its own. */
  title?: (item: T, f: Formatter) => string | undefined;
}

/** The item's lines: labelled on a terminal, `key<TAB>value` piped (f.fields aligns and escapes them). */
export function renderView<T>(item: T, view: ItemView<T>, f: Formatter): string {
  const rows: Array<[string, string | undefined]> = [];
  for (const field of view.fields) {
    if (field.each) {
      for (const entry of field.each(item)) {
        if (f.tty) rows.push([entry.label, entry.display ? entry.display(f) : shown(entry.value, field.kind, f)]);
        else rows.push([entry.key, piped(entry.value)]);
      }
    } else if (!f.tty) rows.push([field.key, piped(field.value?.(item))]);
    else if (field.label !== undefined)
      rows.push([field.label, field.display ? field.display(item, f) : shown(field.value?.(item), field.kind, f)]);
  }
  const title = f.tty ? view.title?.(item, f) : undefined;
  return title === undefined ? f.fields(rows) : `${title}\n\n${f.fields(rows)}`;
}

function piped(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function shown(value: unknown, kind: Kind | undefined, f: Formatter): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (kind === 'time') return f.time(value);
  if (kind === 'number') return f.number(value);
  if (kind === 'bytes') return f.bytes(value);
  if (kind === 'bool') return value === true ? 'yes' : 'no';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

const ABOUT: Partial<Record<Kind, string>> = { time: 'ISO 8601', bool: 'true/false' };

function named(word: string, kind: Kind | undefined, about: string | undefined): string {
  const said = about ?? (kind ? ABOUT[kind] : undefined);
  return said === undefined ? word : `${word} (${said})`;
}

/** "Piped, one `key<TAB>value` line per field: id, email, …, credits.<pool> (one per credit pool)." */
export function pipedFieldsHelp<T>(view: ItemView<T>): string {
  return `Piped, one \`key<TAB>value\` line per field: ${view.fields
    .map((field) => named(field.key, field.kind, field.about))
    .join(', ')}.`;
}

/** "Piped, each row is: id, name, icon, default (true/false), created (ISO 8601)." Columns may say more in `about`. */
export function pipedRowsHelp<T>(columns: Column<T>[]): string {
  return `Piped, each row is: ${visibleColumns(columns, false)
    .map((column) => named(column.header.toLowerCase(), column.kind, column.about))
    .join(', ')}.`;
}
