// `--json id,title` (the gh habit): only those fields of each object. A field
// that the answer does not have is a usage error that lists the ones it has.
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

/** Checks the fields against one object of the answer (exit 2 naming the known fields). */
export function checkFields(sample: unknown, fields: readonly string[]): void {
  if (!isRecord(sample))
    throw new UsageError(
      `--json ${fields.join(',')}: this answer has no fields to pick (it is ${Array.isArray(sample) ? 'a list of lists' : typeof sample})`,
      'use --json alone, or --jq',
    );
  const known = Object.keys(sample);
  const unknown = fields.filter((field) => !Object.hasOwn(sample, field));
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

/** One object with only the fields asked for, in the order asked (null where an object lacks one). */
export function pickFields(item: unknown, fields: readonly string[]): unknown {
  if (!isRecord(item)) return item;
  return Object.fromEntries(fields.map((field) => [field, Object.hasOwn(item, field) ? item[field] : null]));
}

/** A whole answer: a list (checked against its first object) or one object. */
export function selectFields(data: unknown, fields: readonly string[]): unknown {
  if (Array.isArray(data)) {
    if (data.length > 0) checkFields(data[0], fields);
    return data.map((item) => pickFields(item, fields));
  }
  checkFields(data, fields);
  return pickFields(data, fields);
}
