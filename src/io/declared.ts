// A command's output, declared once: an item's field table (as a list's columns,
// src/io/table.ts) gives the terminal's labelled lines, the piped `key<TAB>value`
// lines (or one row), the names `--json FIELDS` takes besides the API's own, and
// the "Piped, …" sentence of the command's help; a list's columns give the
// "Piped, each row is: …" sentence. The help can then never drift from what the
// command prints.
import type { Formatter } from './format.js';
import type { Column } from './table.js';
import { visibleColumns } from './table.js';
import { valueText } from './sanitize.js';
import { at } from './fields.js';

type Kind = 'text' | 'time' | 'number' | 'bytes' | 'bool';

export interface Field<T> {
  /** The key of its piped line (`key<TAB>value`), as the help names it. */
  key: string;
  /**
   * The raw value piped: numbers, bytes and booleans as they are, times in ISO 8601. None: the value at `json`,
   * else no line. (Not for `each`.)
   */
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
  /**
   * The API's field it shows, a top-level name or a dotted path into the answer ('createdAt',
   * 'watch.slug'), checked against the item's type: `--json FIELDS` then takes the key too, and gives that
   * field's JSON value; and without `value`, it is the value.
   */
  json?: FieldPath<T>;
  /** 'tty': shown on a terminal only (a fact kagent fetched besides the item); never piped nor in the help. */
  only?: 'tty';
}

export interface ItemView<T> {
  fields: Field<T>[];
  /** On a terminal, above the fields: who or what it is, in a line of its own. */
  title?: (item: T, f: Formatter) => string | undefined;
  /** Piped as one tab-separated row of the values, in the table's order (a receipt that scripts `cut`), not as lines. */
  piped?: 'row';
  /** What the help says follows the fields when piped: "Then a `--` line and one row per entry: …". */
  then?: string;
}

/** The dotted paths into T, three names deep at most ('plan', 'usage.follows', 'user.plan.id'); lists are leaves. */
export type FieldPath<T, Depth extends number = 3> = [Depth] extends [never]
  ? never
  : T extends readonly unknown[]
    ? never
    : T extends object
      ? {
          [K in Extract<keyof T, string>]: K | `${K}.${FieldPath<NonNullable<T[K]>, Fewer[Depth]>}`;
        }[Extract<keyof T, string>]
      : never;
type Fewer = [never, never, 1, 2];

/** What a field shows: its value(), else the API's field it names. */
function valueOf<T>(field: Field<T>, item: T): unknown {
  if (field.value) return field.value(item);
  return field.json === undefined ? undefined : at(item, field.json);
}

/** The item's lines: labelled on a terminal, `key<TAB>value` piped (f.fields aligns and escapes them). */
export function renderView<T>(item: T, view: ItemView<T>, f: Formatter): string {
  if (!f.tty && view.piped === 'row') return pipedRow(item, view);
  const rows: Array<[string, string | undefined]> = [];
  for (const field of view.fields) {
    if (field.only === 'tty' && !f.tty) continue;
    if (field.each) {
      for (const entry of field.each(item)) {
        if (f.tty) rows.push([entry.label, entry.display ? entry.display(f) : shown(entry.value, field.kind, f)]);
        else rows.push([entry.key, piped(entry.value)]);
      }
    } else if (!f.tty) rows.push([field.key, piped(valueOf(field, item))]);
    else if (field.label !== undefined)
      rows.push([field.label, field.display ? field.display(item, f) : shown(valueOf(field, item), field.kind, f)]);
  }
  const title = f.tty ? view.title?.(item, f) : undefined;
  return title === undefined ? f.fields(rows) : `${title}\n\n${f.fields(rows)}`;
}

/** The values in one tab-separated row: a missing one is an empty cell, so the columns stay where the help says. */
function pipedRow<T>(item: T, view: ItemView<T>): string {
  return pipedFields(view)
    .map((field) => (piped(valueOf(field, item)) ?? '').replace(/[\t\n]+/g, ' '))
    .join('\t');
}

/** The fields that are piped (and named in the help). */
function pipedFields<T>(view: ItemView<T>): Field<T>[] {
  return view.fields.filter((field) => field.only !== 'tty');
}

function piped(value: unknown): string | undefined {
  return value === undefined || value === null ? undefined : valueText(value);
}

function shown(value: unknown, kind: Kind | undefined, f: Formatter): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (kind === 'time') return f.time(value);
  if (kind === 'number') return f.number(value);
  if (kind === 'bytes') return f.bytes(value);
  if (kind === 'bool') return value === true ? 'yes' : 'no';
  return valueText(value);
}

const ABOUT: Partial<Record<Kind, string>> = { time: 'ISO 8601', bool: 'true/false' };

function named(word: string, kind: Kind | undefined, about: string | undefined): string {
  const said = about ?? (kind ? ABOUT[kind] : undefined);
  return said === undefined ? word : `${word} (${said})`;
}

/**
 * "Piped, one `key<TAB>value` line per field: id, email, …, credits.<pool> (one per credit pool)." (or "Piped,
 * one tab-separated row: slug, task."), what follows them, and the names --json takes.
 */
export function pipedFieldsHelp<T>(view: ItemView<T>): string {
  const keys = pipedFields(view)
    .map((field) => named(field.key, field.kind, field.about))
    .join(', ');
  const piped =
    view.piped === 'row'
      ? `Piped, one tab-separated row: ${keys}.`
      : `Piped, one \`key<TAB>value\` line per field: ${keys}.`;
  const plain = pipedFields(view).filter((field) => !field.each);
  return [piped, view.then, jsonFieldsHelp(plain)].filter(Boolean).join(' ');
}

/** "`--json FIELDS` takes these keys or the API's field names, …" (nothing when none names its API field). */
function jsonFieldsHelp(keys: Array<{ key: string; json?: string }>, what = 'keys'): string | undefined {
  const linked = keys.filter((each) => each.json !== undefined).map((each) => each.key);
  if (linked.length === 0) return undefined;
  const which = linked.length === keys.length ? `these ${what}` : `the ${what} ${linked.join(', ')}`;
  return `\`--json FIELDS\` takes ${which} or the API's field names, and gives the API's values (a name that is both is the API's).`;
}

/** The keys --json takes for an item, each with the API field it stands for (a name or a dotted path). */
export function jsonLinks<T>(view: ItemView<T>): Map<string, string> {
  const links = new Map<string, string>();
  for (const field of pipedFields(view)) if (field.json !== undefined && !field.each) links.set(field.key, field.json);
  return links;
}

/** "Piped, each row is: id, name, icon, default (true/false), created (ISO 8601)." Columns may say more in `about`. */
export function pipedRowsHelp<T>(columns: Column<T>[]): string {
  const piped = visibleColumns(columns, false);
  const rows = `Piped, each row is: ${piped.map((column) => named(columnKey(column), column.kind, column.about)).join(', ')}.`;
  const json = jsonFieldsHelp(
    piped.map((column) => ({ key: columnKey(column), json: column.json })),
    'names',
  );
  return json ? `${rows} ${json}` : rows;
}

/** A column's name in the help, and for --json FIELDS. */
function columnKey<T>(column: Column<T>): string {
  return column.header.toLowerCase();
}

/** The names --json takes for a list's items, each with the API field its column shows. */
export function columnLinks<T>(columns: Column<T>[]): Map<string, string> {
  const links = new Map<string, string>();
  for (const column of visibleColumns(columns, false))
    if (column.json !== undefined) links.set(columnKey(column), column.json);
  return links;
}
