// Shape chaos: answers that differ from the shapes kagent assumes, the way an
// independently written service might. Seeded and deterministic: the same
// random stream gives the same changes. Each answer gets one to three of:
//   remove   a field is left out
//   rename   a field is sent under another name (snake_case or a synonym)
//   retype   string ↔ number ↔ null, ISO timestamps ↔ Unix milliseconds, booleans as text
//   nest     a field is wrapped one level deeper ({ value: ... })
//   flatten  an object field is replaced by its own fields, prefixed
//   extra    a field kagent does not know is added
// The changes land on the answer itself or on an object inside it (a list
// item, a nested resource), so lists and nested views are tried too.

export const SHAPE_CHANGES = ['remove', 'rename', 'retype', 'nest', 'flatten', 'extra'] as const;
export type ShapeChange = (typeof SHAPE_CHANGES)[number];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

export interface ChaosRecord {
  change: ShapeChange;
  path: string;
}

/** A changed deep copy of `body`, and what was changed. Non-objects come back as they are. */
export function mangle(body: unknown, random: () => number): { body: unknown; changes: ChaosRecord[] } {
  const copy = JSON.parse(JSON.stringify(body ?? null)) as Json;
  const changes: ChaosRecord[] = [];
  const targets = objectsIn(copy, '', 0);
  if (targets.length === 0) return { body: copy, changes };
  const count = 1 + Math.floor(random() * 3);
  for (let i = 0; i < count; i++) {
    const target = pick(targets, random);
    const change = pick(SHAPE_CHANGES, random);
    const done = apply(target.obj, change, random);
    if (done) changes.push({ change, path: target.path ? `${target.path}.${done}` : done });
  }
  return { body: copy, changes };
}

function objectsIn(value: Json, path: string, depth: number): Array<{ obj: Obj; path: string }> {
  if (depth > 4 || value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.slice(0, 3).flatMap((item, i) => objectsIn(item, `${path}[${i}]`, depth + 1));
  const found = [{ obj: value, path }];
  for (const [key, item] of Object.entries(value))
    found.push(...objectsIn(item, path ? `${path}.${key}` : key, depth + 1));
  return found;
}

function pick<T>(list: readonly T[], random: () => number): T {
  return list[Math.min(list.length - 1, Math.floor(random() * list.length))] as T;
}

const SYNONYMS: Record<string, string> = {
  id: 'uuid',
  title: 'name',
  name: 'title',
  items: 'data',
  text: 'content',
  body: 'content',
  status: 'state',
  createdAt: 'created',
  updatedAt: 'modified',
};

/** The name a renamed field takes: its synonym when the object has none yet, else its snake_case, else `<key>_v2`. */
function renamedKey(obj: Obj, key: string): string {
  if (SYNONYMS[key] && !(SYNONYMS[key] in obj)) return SYNONYMS[key];
  const snake = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return snake === key ? `${key}_v2` : snake;
}

/** Applies one change to one object; returns the key it touched, or undefined when nothing applied. */
function apply(obj: Obj, change: ShapeChange, random: () => number): string | undefined {
  const keys = Object.keys(obj);
  if (change === 'extra') {
    const key = pick(['slug', 'title', 'meta', 'x_trace', 'links', 'version'], random);
    obj[key] = pick<Json>(['extra', 42, null, { href: '/x' }, [1, 'two'], true], random);
    return key;
  }
  if (keys.length === 0) return undefined;
  const key = pick(keys, random);
  const value = obj[key] as Json;
  switch (change) {
    case 'remove':
      delete obj[key];
      return key;
    case 'rename': {
      const renamed = renamedKey(obj, key);
      delete obj[key];
      obj[renamed] = value;
      return key;
    }
    case 'retype':
      obj[key] = retype(value, random);
      return key;
    case 'nest':
      obj[key] = { value };
      return key;
    case 'flatten': {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        obj[key] = Array.isArray(value) ? (value[0] ?? null) : [value];
        return key;
      }
      delete obj[key];
      for (const [inner, item] of Object.entries(value)) obj[`${key}_${inner}`] = item;
      return key;
    }
  }
}

function retype(value: Json, random: () => number): Json {
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    if (/^\d{4}-\d{2}-\d{2}T/.test(value) && Number.isFinite(ms)) return ms;
    return random() < 0.5 ? value.length : null;
  }
  if (typeof value === 'number') {
    // Large integers read as Unix milliseconds: send them as ISO text.
    if (Number.isInteger(value) && value > 1e11 && value < 1e14) return new Date(value).toISOString();
    return random() < 0.5 ? String(value) : null;
  }
  if (typeof value === 'boolean') return random() < 0.5 ? String(value) : Number(value);
  if (value === null) return random() < 0.5 ? '' : 0;
  if (Array.isArray(value)) return random() < 0.5 ? { items: value } : value.length;
  return random() < 0.5 ? JSON.stringify(value) : null;
}
