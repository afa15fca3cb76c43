// Tolerant reading: how an answer differs from the shape kagent assumes for it.
// Not a validator of bounds (the service owns those): only what would trip a
// reader — a field kagent expects that is missing, a value of another type, a
// list that is not a list — and, for the note, fields kagent does not know.
// Loaded on the first answer of a run (it pulls in the shapes), never for --help.
import { spec } from './spec.js';
import { shapeName } from './shape-names.js';
import type { OperationId } from './operations.js';

type Schema = Record<string, any>;

export interface Difference {
  kind: 'missing' | 'extra' | 'retyped';
  /** Dotted path; list items are `[]`: `items[].title`. */
  path: string;
  /** For retyped: what kagent expects and what came. */
  expected?: string;
  got?: string;
}

export interface Verdict {
  op: OperationId;
  /** The shape's name as kagent knows it: WatchPage, page of Task, list of Space. */
  shape: string;
  fits: boolean;
  differences: Difference[];
  /** The answer should be a list (or carry one in `items`) and does not. */
  notAList: boolean;
}

/** The verdict on one answer; undefined for operations that answer with nothing. */
export function verdictFor(op: OperationId, body: unknown): Verdict | undefined {
  const schema = spec[op]?.response as Schema | undefined;
  if (!schema) return undefined;
  const differences = compare(schema, body);
  const listSchema = schema.properties?.items;
  const notAList =
    listSchema?.type === 'array' &&
    (typeof body !== 'object' ||
      body === null ||
      Array.isArray(body) ||
      !Array.isArray((body as Record<string, unknown>).items));
  return { op, shape: shapeName(schema), fits: !differences.some((d) => d.kind !== 'extra'), differences, notAList };
}

/** Every difference between a value and a schema; list items are checked and reported once per path. */
export function compare(schema: Schema, value: unknown, path = ''): Difference[] {
  const out: Difference[] = [];
  walk(schema, value, path, out);
  const seen = new Set<string>();
  return out.filter((d) => {
    const key = `${d.kind} ${d.path}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const MAX_ITEMS_CHECKED = 200;

function walk(schema: Schema, value: unknown, path: string, out: Difference[]): void {
  if (schema.anyOf) return walkUnion(schema.anyOf as Schema[], value, path, out);
  if (schema.const !== undefined) return; // a tag: unknown values are displayable text
  const expected = typeName(schema);
  if (expected === undefined) return;
  if (value === undefined) {
    out.push({ kind: 'missing', path: path || '(answer)' });
    return;
  }
  const got = typeOf(value);
  if (!typeMatches(expected, got)) {
    out.push({ kind: 'retyped', path: path || '(answer)', expected, got });
    return;
  }
  if (expected === 'array' && schema.items) {
    (value as unknown[]).slice(0, MAX_ITEMS_CHECKED).forEach((item) => walk(schema.items, item, `${path}[]`, out));
  } else if (expected === 'object') walkObject(schema, value as Record<string, unknown>, path, out);
}

/** An object's fields: required ones missing, known ones walked, and (when the shape lists its fields) unknown ones. */
function walkObject(schema: Schema, record: Record<string, unknown>, path: string, out: Difference[]): void {
  const properties: Record<string, Schema> = schema.properties ?? {};
  const required = new Set<string>(schema.required ?? []);
  for (const [name, sub] of Object.entries(properties)) {
    const at = fieldPath(path, name);
    if (record[name] !== undefined) walk(sub, record[name], at, out);
    else if (required.has(name)) out.push({ kind: 'missing', path: at });
  }
  if (!schema.properties) return;
  for (const name of Object.keys(record)) {
    if (!(name in properties)) out.push({ kind: 'extra', path: fieldPath(path, name) });
  }
}

function fieldPath(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}

function walkUnion(branches: Schema[], value: unknown, path: string, out: Difference[]): void {
  let best: Difference[] | undefined;
  for (const branch of branches) {
    const found: Difference[] = [];
    walk(branch, value, path, found);
    const serious = found.filter((d) => d.kind !== 'extra');
    if (serious.length === 0) {
      out.push(...found);
      return;
    }
    // A tagged branch whose tag matches is the one meant, whatever else differs.
    const tag = taggedBy(branch, value);
    if (tag) {
      out.push(...found);
      return;
    }
    if (!best || serious.length < best.filter((d) => d.kind !== 'extra').length) best = found;
  }
  // Tagged unions with an unknown tag: a new kind of part, displayable as text.
  if (
    branches.every(
      (b) => b.type === 'object' && Object.values(b.properties ?? {}).some((p: any) => p.const !== undefined),
    )
  ) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return;
  }
  const nonNull = branches.filter((b) => b.type !== 'null');
  if (nonNull.length === 1 && nonNull[0]) return walk(nonNull[0], value, path, out);
  out.push(...(best ?? []));
}

function taggedBy(branch: Schema, value: unknown): boolean {
  if (branch.type !== 'object' || typeof value !== 'object' || value === null) return false;
  return Object.entries<Schema>(branch.properties ?? {}).some(
    ([name, sub]) => sub.const !== undefined && (value as Record<string, unknown>)[name] === sub.const,
  );
}

function typeName(schema: Schema): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  if (schema.properties) return 'object';
  return undefined;
}

export function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typeMatches(expected: string, got: string): boolean {
  if (expected === got) return true;
  return expected === 'number' && got === 'integer';
}

export { shapeName };
