// Change tracking for the durable sandbox (journal.ts): a Proxy over the state
// marks the smallest unit each assignment or deletion touched, and `collect`
// turns the marks into journal operations; `applyOp` replays one on a plain state.
// (journal.ts says what the operations mean.)
import type { State } from './types.js';

export type Key = string | number;
export type Path = Key[];
export type Op = ['s', Path, unknown] | ['d', Path] | ['u', Path, { id: string }] | ['o', Path, string[]];

/** Where an object was last reached from. For a list element the key is its index then (unused: records go by id). */
interface Parent {
  parent: object;
  key: string;
}

type Unit =
  | { kind: 'path'; path: Path }
  | { kind: 'record'; path: Path; id: string }
  | { kind: 'list'; path: Path; before: unknown[] };

function isRecordWithId(value: unknown): value is { id: string } {
  return typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string';
}

/** The ids of a list of records, or undefined when some element is not a record with an id. */
function idsOf(list: unknown[]): string[] | undefined {
  const ids: string[] = [];
  for (const element of list) {
    if (!isRecordWithId(element)) return undefined;
    ids.push(element.id);
  }
  return ids;
}

export class ChangeTracker {
  readonly proxy: State;
  private readonly proxies = new WeakMap<object, object>();
  private readonly targets = new WeakMap<object, object>();
  private readonly parents = new WeakMap<object, Parent>();
  private units = new Map<string, Unit>();

  constructor(readonly root: State) {
    this.proxy = this.wrap(root) as State;
  }

  get dirty(): boolean {
    return this.units.size > 0;
  }

  private wrap(target: object): object {
    const known = this.proxies.get(target);
    if (known) return known;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const tracker = this;
    const proxy = new Proxy(target, {
      get(t, key) {
        const value = (t as Record<PropertyKey, unknown>)[key];
        if (typeof value !== 'object' || value === null || typeof key === 'symbol') return value;
        const raw = tracker.targets.get(value) ?? value;
        const known = tracker.parents.get(raw);
        if (known === undefined || known.parent !== t || known.key !== key)
          tracker.parents.set(raw, { parent: t, key });
        return tracker.proxies.get(raw) ?? tracker.wrap(raw);
      },
      set(t, key, value, receiver) {
        if (typeof key !== 'symbol') tracker.mark(t, key, value);
        return Reflect.set(t, key, tracker.unwrap(value), receiver);
      },
      deleteProperty(t, key) {
        if (typeof key !== 'symbol') tracker.mark(t, key, undefined);
        return Reflect.deleteProperty(t, key);
      },
    });
    this.proxies.set(target, proxy);
    this.targets.set(proxy, target);
    return proxy;
  }

  /** Stores raw objects, not proxies (one level deep: lists and copies made from proxied values). */
  private unwrap(value: unknown): unknown {
    if (typeof value !== 'object' || value === null) return value;
    const raw = this.targets.get(value) ?? value;
    if (Array.isArray(raw)) {
      for (let i = 0; i < raw.length; i++) {
        const element = raw[i] as unknown;
        if (typeof element === 'object' && element !== null && this.targets.has(element))
          raw[i] = this.targets.get(element);
      }
    } else {
      for (const [k, v] of Object.entries(raw))
        if (typeof v === 'object' && v !== null && this.targets.has(v))
          (raw as Record<string, unknown>)[k] = this.targets.get(v);
    }
    return raw;
  }

  /** The chain of (object, key) from the root down to `target`, or undefined when it is not in the state. */
  private chain(target: object): Array<{ node: object; key: Key }> | undefined {
    const chain: Array<{ node: object; key: Key }> = [];
    let node = target;
    for (let depth = 0; node !== this.root; depth++) {
      const up = this.parents.get(node);
      if (!up || depth > 64) return undefined;
      chain.push({ node, key: up.key });
      node = up.parent;
    }
    return chain.reverse();
  }

  /** Marks the unit that a change of `key` on `target` belongs to (called before the change). */
  private mark(target: object, key: string, next: unknown): void {
    const chain = this.chain(target);
    if (!chain) return;
    const path: Path = [];
    let container: object = this.root;
    for (const { node, key: k } of chain) {
      if (Array.isArray(container)) return this.markInList(path, node);
      path.push(k);
      container = node;
    }
    const k: Key = Array.isArray(target) && /^\d+$/.test(key) ? Number(key) : key;
    if (Array.isArray(target)) {
      if (key === 'length' || typeof k === 'number') return this.markList(path, target);
      return;
    }
    const full = [...path, k];
    const current = (target as Record<string, unknown>)[key];
    // A list replaced by another (`account.docs = account.docs.filter(...)`): membership, not the whole list.
    if (Array.isArray(current) && Array.isArray(next)) return this.markList(full, current);
    this.add(`s${JSON.stringify(full)}`, { kind: 'path', path: full });
  }

  private markInList(listPath: Path, element: object): void {
    if (isRecordWithId(element)) {
      this.add(`r${JSON.stringify(listPath)}${element.id}`, { kind: 'record', path: [...listPath], id: element.id });
    } else {
      // A list of plain values or of objects without ids: written whole.
      this.add(`s${JSON.stringify(listPath)}`, { kind: 'path', path: [...listPath] });
    }
  }

  private markList(path: Path, before: unknown[]): void {
    const id = `l${JSON.stringify(path)}`;
    // The elements as they were (a shallow copy): compared by identity at commit.
    if (!this.units.has(id)) this.units.set(id, { kind: 'list', path: [...path], before: before.slice() });
  }

  private add(id: string, unit: Unit): void {
    if (!this.units.has(id)) this.units.set(id, unit);
  }

  /** The operations that bring a copy of the state up to date, read from the state as it is now. */
  collect(): Op[] {
    const ops: Op[] = [];
    const units = this.units;
    this.units = new Map();
    for (const unit of units.values()) {
      const [found, value] = resolve(this.root, unit.path);
      if (unit.kind === 'path') {
        ops.push(found ? ['s', unit.path, value] : ['d', unit.path]);
      } else if (unit.kind === 'record') {
        const record =
          found && Array.isArray(value)
            ? (value as unknown[]).find((r) => isRecordWithId(r) && r.id === unit.id)
            : undefined;
        if (record) ops.push(['u', unit.path, record as { id: string }]);
      } else if (!found) {
        ops.push(['d', unit.path]);
      } else {
        this.collectList(ops, unit.path, value, unit.before);
      }
    }
    return ops;
  }

  /** A list that gained, lost or reordered elements: upserts of the new ones, and the order when it is not a mere append. */
  private collectList(ops: Op[], path: Path, value: unknown, before: unknown[]): void {
    if (!Array.isArray(value)) {
      ops.push(['s', path, value]);
      return;
    }
    const list = value as unknown[];
    let same = before.length <= list.length;
    for (let i = 0; same && i < before.length; i++) same = before[i] === list[i];
    if (same) {
      // Only appended (the common case, and cheap for long lists).
      const added = list.slice(before.length);
      if (added.every(isRecordWithId)) for (const record of added) ops.push(['u', path, record]);
      else ops.push(['s', path, value]);
      return;
    }
    const ids = idsOf(list);
    if (!ids || !idsOf(before)) {
      ops.push(['s', path, value]);
      return;
    }
    const kept = new Set(before);
    for (const record of list as Array<{ id: string }>) if (!kept.has(record)) ops.push(['u', path, record]);
    ops.push(['o', path, ids]);
  }

  /** Forgets what was marked (after a snapshot, which holds it all). */
  clear(): void {
    this.units = new Map();
  }
}

function resolve(root: unknown, path: Path): [boolean, unknown] {
  let node = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || !Object.prototype.hasOwnProperty.call(node, key))
      return [false, undefined];
    node = (node as Record<Key, unknown>)[key];
  }
  return [true, node];
}

/**
 * Applies one journal operation to a plain state. Keys are own properties only, read and
 * written as such: a journal naming `__proto__` or `constructor` sets a key of that name,
 * never Object.prototype.
 */
export function applyOp(root: Record<string, unknown>, op: Op): void {
  const path = op[1];
  if (path.length === 0) throw new Error('an operation without a path');
  let node: Record<Key, unknown> = root;
  for (const key of path.slice(0, -1)) {
    let next = own(node, key);
    if (typeof next !== 'object' || next === null) put(node, key, (next = {}));
    node = next as Record<Key, unknown>;
  }
  const last = path[path.length - 1]!;
  switch (op[0]) {
    case 's':
      put(node, last, op[2]);
      return;
    case 'd':
      if (Array.isArray(node) && typeof last === 'number') node.splice(last, 1);
      else delete node[last];
      return;
    case 'u': {
      let list = own(node, last);
      if (!Array.isArray(list)) put(node, last, (list = []));
      const items = list as Array<{ id: string }>;
      const at = items.findIndex((r) => r?.id === op[2].id);
      if (at === -1) items.push(op[2]);
      else items[at] = op[2];
      return;
    }
    case 'o': {
      const list = own(node, last);
      const items = Array.isArray(list) ? (list as Array<{ id: string }>) : [];
      const byId = new Map(items.map((r) => [r.id, r]));
      put(
        node,
        last,
        op[2].map((id) => byId.get(id)).filter((r) => r !== undefined),
      );
      return;
    }
  }
}

function own(node: Record<Key, unknown>, key: Key): unknown {
  return Object.prototype.hasOwnProperty.call(node, key) ? node[key] : undefined;
}

function put(node: Record<Key, unknown>, key: Key, value: unknown): void {
  Object.defineProperty(node, key, { value, writable: true, enumerable: true, configurable: true });
}
