// `--json id,title` (the gh habit): only those fields of each object. A field
// that the answer does not have is a usage error that lists the ones it has.
// An item printed through a field table (src/io/declared.ts) takes its piped
// keys too (`--json created`): `links` maps each to the API field it shows, and
// the answer's own top-level names come first where a key is also one.
import { UsageError } from '../errors.js';
import { closestName } from '../config/resolve.js';

/** A comma-separated list of field names, as --json takes it. */
export const FIELD_LIST = /^[A-Za-z_$][\w$-]*(,[A-Za-z_$][\w$-]*)*$/;

export function parseFields(text: string): string[] | undefined {
  const fields = text
    .split(',')
    .map((field) => field.trim())
    .filter(Boolean);
  return fields.length > 0 ? fields : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The piped keys --json takes besides the API's names, each with the API field it shows ('created' → 'createdAt'). */
export type FieldLinks = ReadonlyMap<string, string>;

const NO_LINKS: FieldLinks = new Map();

/** Checks the fields against one object of the answer (exit 2 naming the known fields: the table's keys first). */
export function checkFields(sample: unknown, fields: readonly string[], links: FieldLinks = NO_LINKS): void {
  if (!isRecord(sample))
    throw new UsageError(
      `--json ${fields.join(',')}: this answer has no fields to pick (it is ${Array.isArray(sample) ? 'a list of lists' : typeof sample})`,
      'use --json alone, or --jq',
    );
  const known = [...new Set([...links.keys(), ...Object.keys(sample)])];
  const unknown = fields.filter((field) => !Object.hasOwn(sample, field) && !links.has(field));
  if (unknown.length > 0) {
    // `--json nme`: the field meant, where one is near enough to be a typo (a third of its length, rounded down).
    const meant = unknown
      .map((field) => closestName(field, known, Math.max(1, Math.floor(field.length / 3))))
      .filter((field) => field !== undefined);
    const guess = meant.length > 0 ? ` (did you mean ${meant.map((field) => `"${field}"`).join(', ')}?)` : '';
    throw new UsageError(
      `unknown field${unknown.length > 1 ? 's' : ''} for --json: ${unknown.join(', ')}${guess}`,
      `known fields: ${known.join(', ')}`,
    );
  }
}

/**
 * One object with only the fields asked for, in the order asked, under the names asked (null where an object
 * lacks one): the answer's own field of that name, else the one its key stands for.
 */
export function pickFields(item: unknown, fields: readonly string[], links: FieldLinks = NO_LINKS): unknown {
  if (!isRecord(item)) return item;
  return Object.fromEntries(
    fields.map((field) => {
      if (Object.hasOwn(item, field)) return [field, item[field]];
      const path = links.get(field);
      return [field, path === undefined ? null : (at(item, path) ?? null)];
    }),
  );
}

/** The value at a dotted path ('watch.slug'); undefined where the way is missing. */
export function at(item: unknown, path: string): unknown {
  let value: unknown = item;
  for (const name of path.split('.')) {
    if (!isRecord(value) || !Object.hasOwn(value, name)) return undefined;
    value = value[name];
  }
  return value;
}

/** A whole answer: a list (checked against its first object) or one object. */
export function selectFields(data: unknown, fields: readonly string[], links: FieldLinks = NO_LINKS): unknown {
  if (Array.isArray(data)) {
    if (data.length > 0) checkFields(data[0], fields, links);
    return data.map((item) => pickFields(item, fields, links));
  }
  checkFields(data, fields, links);
  return pickFields(data, fields, links);
}
