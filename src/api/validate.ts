// Checks a value against a shape from shapes.ts and says what is wrong in plain
// words ("must be 2 to 200 characters"). The sandbox answers these as 400
// INVALID_INPUT issues; kagent shows them for flags before sending anything.
import type { ApiIssue } from '../errors.js';

type Schema = Record<string, any>;

export function validate(schema: Schema, value: unknown, path = ''): ApiIssue[] {
  const issues: ApiIssue[] = [];
  check(schema, value, path, issues);
  return issues;
}

function check(schema: Schema, value: unknown, path: string, issues: ApiIssue[]): void {
  const at = reporter(path, issues);
  if (schema.anyOf) return checkUnion(schema, value, path, issues);
  if (schema.const !== undefined) {
    if (value !== schema.const) at(`must be ${JSON.stringify(schema.const)}`);
    return;
  }
  switch (schema.type) {
    case 'null':
      if (value !== null) at('must be null');
      return;
    case 'boolean':
      if (typeof value !== 'boolean') at('must be true or false');
      return;
    case 'integer':
    case 'number':
      return checkNumber(schema, value, at);
    case 'string':
      return checkString(schema, value, at);
    case 'array':
      return checkArray(schema, value, path, issues);
    case 'object':
      return checkObject(schema, value, path, issues);
    default:
      return; // unknown / any
  }
}

/** Records an issue at PATH (the body itself when empty). */
function reporter(path: string, issues: ApiIssue[]): (message: string) => void {
  return (message) => void issues.push({ path: path || '(body)', message });
}

function checkNumber(schema: Schema, value: unknown, at: (message: string) => void): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || (schema.type === 'integer' && !Number.isInteger(value))) {
    at(`must be ${describeNumber(schema)}`);
  } else if (
    (schema.minimum !== undefined && value < schema.minimum) ||
    (schema.maximum !== undefined && value > schema.maximum)
  ) {
    at(`must be ${describeNumber(schema)}`);
  }
}

function checkString(schema: Schema, value: unknown, at: (message: string) => void): void {
  if (typeof value !== 'string')
    return void at(schema.enum ? `must be one of: ${schema.enum.join(', ')}` : 'must be a string');
  if (schema.enum && !schema.enum.includes(value)) return void at(`must be one of: ${schema.enum.join(', ')}`);
  const length = charLength(value);
  if (
    (schema.minLength !== undefined && length < schema.minLength) ||
    (schema.maxLength !== undefined && length > schema.maxLength)
  ) {
    return void at(`must be ${describeLength(schema)} (got ${length})`);
  }
  if (schema.pattern && !new RegExp(schema.pattern).test(value))
    return void at(`must match ${patternName(schema.pattern)}`);
  if (schema.format === 'uri') {
    const problem = uriProblem(value);
    if (problem) return void at(problem);
  }
  if (schema.format === 'date-time' && Number.isNaN(Date.parse(value))) at('must be an ISO 8601 date-time');
  if (schema.format === 'date' && !isCalendarDate(value)) at(`must be a date that exists, YYYY-MM-DD (got ${value})`);
}

function checkArray(schema: Schema, value: unknown, path: string, issues: ApiIssue[]): void {
  const at = reporter(path, issues);
  if (!Array.isArray(value)) return void at('must be a list');
  if (
    (schema.minItems !== undefined && value.length < schema.minItems) ||
    (schema.maxItems !== undefined && value.length > schema.maxItems)
  ) {
    at(`must have ${describeItems(schema)} (got ${value.length})`);
  }
  if (schema.items) value.forEach((item, i) => check(schema.items, item, join(path, String(i)), issues));
}

function checkObject(schema: Schema, value: unknown, path: string, issues: ApiIssue[]): void {
  const at = reporter(path, issues);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return void at('must be an object');
  const record = value as Record<string, unknown>;
  const properties: Record<string, Schema> = schema.properties ?? {};
  for (const name of schema.required ?? []) {
    if (record[name] === undefined) issues.push({ path: join(path, name), message: 'is required' });
  }
  for (const [name, sub] of Object.entries(properties)) {
    if (record[name] !== undefined) check(sub, record[name], join(path, name), issues);
  }
  if (
    schema.minProperties &&
    Object.keys(properties).filter((k) => record[k] !== undefined).length < schema.minProperties
  ) {
    at(`must set at least one of: ${Object.keys(properties).join(', ')}`);
  }
}

/** Unions of objects told apart by a constant field (`op`, `type`) pick their branch by it. */
function checkUnion(schema: Schema, value: unknown, path: string, issues: ApiIssue[]): void {
  const branches: Schema[] = schema.anyOf;
  const tag = discriminator(branches);
  if (tag && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const given = (value as Record<string, unknown>)[tag];
    const branch = branches.find((b) => b.properties[tag].const === given);
    if (!branch) {
      issues.push({
        path: join(path, tag),
        message: `must be one of: ${branches.map((b) => b.properties[tag].const).join(', ')}`,
      });
      return;
    }
    return check(branch, value, path, issues);
  }
  for (const branch of branches) if (validate(branch, value, path).length === 0) return;
  // Nullable(X): report X's complaint, which is the useful one.
  const nonNull = branches.filter((b) => b.type !== 'null');
  if (nonNull.length === 1 && nonNull[0]) {
    check(nonNull[0], value, path, issues);
    return;
  }
  issues.push({ path: path || '(body)', message: 'has the wrong shape' });
}

function discriminator(branches: Schema[]): string | undefined {
  const first = branches[0];
  if (!first || first.type !== 'object') return undefined;
  for (const name of Object.keys(first.properties ?? {})) {
    if (branches.every((b) => b.type === 'object' && b.properties?.[name]?.const !== undefined)) return name;
  }
  return undefined;
}

/** Query strings arrive as text: turn numbers and booleans into what the shape expects. */
export function coerceQuery(schema: Schema, query: Record<string, string | undefined>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const properties: Record<string, Schema> = schema.properties ?? {};
  for (const [name, raw] of Object.entries(query)) {
    if (raw === undefined || !(name in properties)) continue;
    const sub = baseSchema(properties[name] as Schema);
    if ((sub.type === 'integer' || sub.type === 'number') && isJsonNumber(raw.trim())) out[name] = Number(raw);
    else if (sub.type === 'boolean' && (raw === 'true' || raw === 'false')) out[name] = raw === 'true';
    else out[name] = raw;
  }
  return out;
}

/**
 * A query value read as the contract's `number`/`integer`: the JSON number grammar (RFC 8259
 * §6), exponents included (`1e2`, `1.5e3`, `6E+1`; what JavaScript's String(n) writes for
 * 1e-7 or 1e21). Not `.5`, `5.`, `+5`, `0x10` or `007`: JSON has no such numbers, and
 * taking them would be guessing at what the caller meant. Surrounding whitespace is
 * insignificant, as in a JSON text. A value too large to be finite (`1e999`) is no number.
 */
function isJsonNumber(text: string): boolean {
  return /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text) && Number.isFinite(Number(text));
}

/** YYYY-MM-DD naming a day of the Gregorian calendar: month 01 to 12, a day that month has (29 February in leap years). */
export function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function baseSchema(schema: Schema): Schema {
  if (schema.anyOf) return schema.anyOf.find((b: Schema) => b.type !== 'null') ?? schema;
  return schema;
}

function describeLength(schema: Schema): string {
  return describeCount(schema.minLength, schema.maxLength, 'character', 'text');
}

function describeNumber(schema: Schema): string {
  const kind = schema.type === 'integer' ? 'an integer' : 'a number';
  const { minimum: min, maximum: max } = schema;
  if (min !== undefined && max !== undefined) return `${kind} from ${min} to ${max}`;
  if (min !== undefined) return `${kind} of at least ${min}`;
  if (max !== undefined) return `${kind} of at most ${max}`;
  return kind;
}

function describeItems(schema: Schema): string {
  return describeCount(schema.minItems, schema.maxItems, 'item', 'a list');
}

/** A count's bounds in words: "2 to 5 items", "at most 200 characters", "at least 1 item", or what it is when unbounded. */
function describeCount(min: number | undefined, max: number | undefined, unit: string, unbounded: string): string {
  const units = (n: number): string => `${unit}${n === 1 ? '' : 's'}`;
  if (min !== undefined && max !== undefined) return `${min} to ${max} ${units(max)}`;
  if (max !== undefined) return `at most ${max} ${units(max)}`;
  if (min !== undefined) return `at least ${min} ${units(min)}`;
  return unbounded;
}

function patternName(pattern: string): string {
  return pattern === '^\\d{4}-\\d{2}-\\d{2}$' ? 'YYYY-MM-DD' : pattern;
}

function join(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}

/** Length in characters as people count them (code points), not UTF-16 units. */
export function charLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) i++;
    n++;
  }
  return n;
}

/**
 * Why a string is not a URI in JSON Schema's sense (format `uri`: RFC 3986, absolute),
 * or undefined when it is one. Only RFC 3986's characters are allowed — unreserved,
 * reserved and `%` with two hex digits — so `https://example.com/a b`, `…/<x>`, `…/100%`
 * and non-ASCII letters (an IRI) are refused: percent-encode them. WHATWG URL parsing
 * alone would accept them all and store something else than what was sent.
 */
function uriProblem(value: string): string | undefined {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(value)) return 'must be an absolute URL (https://...)';
  const bad = /%(?![0-9a-f]{2})|[^a-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/i.exec(value);
  if (bad) {
    return `must be a URI: ${uriCharacter(bad[0])} at position ${bad.index + 1} must be percent-encoded (RFC 3986)`;
  }
  try {
    new URL(value);
    return undefined;
  } catch {
    return 'must be an absolute URL (https://...)';
  }
}

/** A character a URI may not hold as it is, named for the message. */
function uriCharacter(character: string): string {
  if (character === ' ') return 'a space';
  if (character === '%') return 'a % not followed by two hex digits';
  return `"${character}"`;
}
