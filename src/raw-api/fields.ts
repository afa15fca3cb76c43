// The fields of `kagent api` (-f key=value, -F key=typed), as `gh api` reads them: they
// make the JSON body, or the query string of a GET/DELETE/HEAD (or of any request
// whose body is --input). `key[]=v` appends to a list, `key[sub]=v` nests.
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { inputBounds, readBounded } from '../io/input.js';
import { valueText } from '../io/sanitize.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface Field {
  key: string;
  /** Where the value goes: `a[b][]` → ['a', 'b', ''] ('' appends to a list). */
  path: string[];
  value: Json;
}

/** -f entries stay strings; -F entries are typed (typedValue). */
export async function parseFields(ctx: Context, rawFields: string[], typedFields: string[]): Promise<Field[]> {
  const fields: Field[] = [];
  for (const entry of rawFields) {
    const [key, value] = split(entry, '-f');
    fields.push({ key, path: keyPath(key, '-f'), value });
  }
  for (const entry of typedFields) {
    const [key, value] = split(entry, '-F');
    fields.push({ key, path: keyPath(key, '-F'), value: await typedValue(ctx, value, key) });
  }
  return fields;
}

function split(entry: string, flag: string): [string, string] {
  const at = entry.indexOf('=');
  if (at <= 0) throw new UsageError(`${flag} ${entry}: expected key=value`, `e.g. ${flag} title=Notes`);
  return [entry.slice(0, at), entry.slice(at + 1)];
}

/** `a[b][]` → ['a', 'b', '']: the path a field's value goes to ('' appends to an array). */
function keyPath(key: string, flag: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) throw new UsageError(`${flag} ${key}: a field name is "name", "name[]" or "name[sub]"`);
  const rest = [...(match[2] ?? '').matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] as string);
  return [match[1] as string, ...rest];
}

/** `-F` values: numbers, true, false, null; `@path` (or `@-`) is that file's text; anything else stays a string. */
async function typedValue(ctx: Context, value: string, key: string): Promise<Json> {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (value === 'null') return null;
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(value)) return Number(value);
  if (value.startsWith('@')) {
    return readBounded(ctx, value.slice(1), `-F ${key}=@`, (await inputBounds()).apiInput);
  }
  return value;
}

/** The fields as a JSON body. */
export function bodyOf(fields: Field[]): Record<string, Json> {
  const body: Record<string, Json> = {};
  for (const field of fields) setPath(body, field.path, field.value, '-f/-F', field.key);
  return body;
}

/** Puts a value at a key path, creating objects and arrays on the way. */
function setPath(target: Record<string, Json>, path: string[], value: Json, flag: string, key: string): void {
  let node: Record<string, Json> | Json[] = target;
  path.forEach((part, i) => {
    const last = i === path.length - 1;
    const nextIsArray = !last && path[i + 1] === '';
    if (Array.isArray(node)) {
      if (part !== '') throw new UsageError(`${flag} ${key}: "${path.slice(0, i).join('.')}" is a list, not an object`);
      if (last) node.push(value);
      else {
        const child: Json = nextIsArray ? [] : {};
        node.push(child);
        node = child as Record<string, Json> | Json[];
      }
      return;
    }
    if (part === '') throw new UsageError(`${flag} ${key}: [] must follow a name`);
    if (last) {
      node[part] = value;
      return;
    }
    const existing: Json | undefined = node[part];
    if (existing === undefined || existing === null || typeof existing !== 'object') node[part] = nextIsArray ? [] : {};
    else if (Array.isArray(existing) !== nextIsArray)
      throw new UsageError(`${flag} ${key}: "${part}" is already ${Array.isArray(existing) ? 'a list' : 'an object'}`);
    node = node[part] as Record<string, Json> | Json[];
  });
}

/** Fields as query parameters: `key=value`, arrays as repeated keys, objects as JSON. */
export function withQuery(path: string, fields: Field[]): string {
  if (fields.length === 0) return path;
  const params = new URLSearchParams();
  for (const field of fields) {
    const name = field.path.filter((part) => part !== '').join('.') || field.key;
    params.append(name, valueText(field.value));
  }
  return `${path}${path.includes('?') ? '&' : '?'}${params.toString()}`;
}
