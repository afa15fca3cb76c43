// Durable state for `kagent sandbox --state FILE`: a snapshot (FILE) plus an
// append-only journal (FILE.journal) of what changed since. Every answer to a
// write waits until its changes are in the journal and fsync'd, so a sandbox
// killed at any moment (kill -9 included) comes back with every write it
// acknowledged. The journal is compacted into a fresh snapshot when it grows
// large, on start and on a clean stop; nothing rewrites the whole state on a timer.
//
// What changed is found by a Proxy over the state (only with --state): every
// assignment or deletion marks the smallest unit that can be written on its
// own — a path of object keys, one record (an object with a string `id`) of a
// list, or a list's membership and order. At commit, each marked unit is
// written with its current value, as one JSON line of operations:
//   ["s", path, value]   set       ["d", path]          delete
//   ["u", path, record]  upsert the record with record.id in the list at path
//   ["o", path, ids]     the list at path holds these records, in this order
// A snapshot carries `generation`; the journal's first line names the
// generation it applies to, so a journal left over from before a compaction
// is recognised and skipped.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { State } from './types.js';

type Key = string | number;
type Path = Key[];
type Op = ['s', Path, unknown] | ['d', Path] | ['u', Path, { id: string }] | ['o', Path, string[]];

export const STATE_VERSION = 1;
const JOURNAL_MAGIC = 'kagent-sandbox-journal';
/** Compaction once the journal is larger than this and than the last snapshot. */
const COMPACT_MIN_BYTES = 16 * 1024 * 1024;

// ------------------------------------------------------------ change tracking

/** Where an object was last reached from. For a list element the key is its index then (unused: records go by id). */
interface Parent {
  parent: object;
  key: string;
}

type Unit = { kind: 'path'; path: Path } | { kind: 'record'; path: Path; id: string } | { kind: 'list'; path: Path; before: unknown[] };

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
        if (known === undefined || known.parent !== t || known.key !== key) tracker.parents.set(raw, { parent: t, key });
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
        if (typeof element === 'object' && element !== null && this.targets.has(element)) raw[i] = this.targets.get(element);
      }
    } else {
      for (const [k, v] of Object.entries(raw)) if (typeof v === 'object' && v !== null && this.targets.has(v)) (raw as Record<string, unknown>)[k] = this.targets.get(v);
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
        const record = found && Array.isArray(value) ? (value as unknown[]).find((r) => isRecordWithId(r) && r.id === unit.id) : undefined;
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
    if (typeof node !== 'object' || node === null || !Object.prototype.hasOwnProperty.call(node, key)) return [false, undefined];
    node = (node as Record<Key, unknown>)[key];
  }
  return [true, node];
}

/** Applies one journal operation to a plain state. */
export function applyOp(root: Record<string, unknown>, op: Op): void {
  const path = op[1];
  if (path.length === 0) throw new Error('an operation without a path');
  let node: Record<Key, unknown> = root;
  for (const key of path.slice(0, -1)) {
    let next = node[key];
    if (typeof next !== 'object' || next === null) node[key] = next = {};
    node = next as Record<Key, unknown>;
  }
  const last = path[path.length - 1]!;
  switch (op[0]) {
    case 's':
      node[last] = op[2];
      return;
    case 'd':
      if (Array.isArray(node) && typeof last === 'number') node.splice(last, 1);
      else delete node[last];
      return;
    case 'u': {
      let list = node[last];
      if (!Array.isArray(list)) node[last] = list = [];
      const items = list as Array<{ id: string }>;
      const at = items.findIndex((r) => r?.id === op[2].id);
      if (at === -1) items.push(op[2]);
      else items[at] = op[2];
      return;
    }
    case 'o': {
      const items = Array.isArray(node[last]) ? (node[last] as Array<{ id: string }>) : [];
      const byId = new Map(items.map((r) => [r.id, r]));
      node[last] = op[2].map((id) => byId.get(id)).filter((r) => r !== undefined);
      return;
    }
  }
}

// ------------------------------------------------------------ files

/** What is wrong with a --state file; `stateError` is the error code the sandbox command reports. */
export class StateFileError extends Error {
  constructor(
    message: string,
    readonly stateError: 'STATE_UNREADABLE' | 'STATE_VERSION' | 'STATE_UNWRITABLE' | 'STATE_LOCKED',
  ) {
    super(message);
  }
}

export function journalPath(stateFile: string): string {
  return `${stateFile}.journal`;
}

/** Reads the snapshot and replays the journal on it; undefined when there is no state yet. */
export function loadState(stateFile: string): { state: State; generation: number; replayed: number } | undefined {
  let text: string;
  try {
    text = readFileSync(stateFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new StateFileError(`cannot read sandbox state ${stateFile}: ${(error as Error).message}`, 'STATE_UNREADABLE');
    if (existsSync(journalPath(stateFile))) throw new StateFileError(`cannot read sandbox state ${stateFile}: its journal ${journalPath(stateFile)} is there but the snapshot is missing`, 'STATE_UNREADABLE');
    return undefined;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new StateFileError(`cannot read sandbox state ${stateFile}: ${(error as Error).message}`, 'STATE_UNREADABLE');
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new StateFileError(`cannot read sandbox state ${stateFile}: it is not a sandbox state (not a JSON object)`, 'STATE_UNREADABLE');
  const record = raw as Record<string, unknown>;
  if (record.version !== STATE_VERSION) {
    throw new StateFileError(
      `sandbox state ${stateFile} has version ${JSON.stringify(record.version ?? null)}; this kagent reads version ${STATE_VERSION} only (the file was left as it is)`,
      'STATE_VERSION',
    );
  }
  const generation = typeof record.generation === 'number' ? record.generation : 0;
  delete record.generation;
  const replayed = replayJournal(stateFile, record, generation);
  const state = record as unknown as State;
  // Nothing runs after a restart: a key reserved by a call that never finished is free again.
  for (const [slot, entry] of Object.entries(state.idempotency ?? {})) if (entry.status === 'running') delete state.idempotency[slot];
  return { state, generation, replayed };
}

function replayJournal(stateFile: string, state: Record<string, unknown>, generation: number): number {
  const path = journalPath(stateFile);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw new StateFileError(`cannot read sandbox journal ${path}: ${(error as Error).message}`, 'STATE_UNREADABLE');
  }
  const lines = text.split('\n');
  let header: { magic?: unknown; generation?: unknown } | undefined;
  try {
    header = JSON.parse(lines[0] ?? '') as typeof header;
  } catch {
    header = undefined;
  }
  if (header?.magic !== JOURNAL_MAGIC) {
    // An empty journal or a torn header: written before anything was acknowledged.
    if ((lines[0] ?? '').trim() === '' || lines.length <= 1) return 0;
    throw new StateFileError(`cannot read sandbox journal ${path}: it does not start with a journal header`, 'STATE_UNREADABLE');
  }
  // A journal of an older generation was folded into the snapshot before it was replaced.
  if (header.generation !== generation) return 0;
  let count = 0;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    let ops: Op[];
    try {
      ops = JSON.parse(line) as Op[];
    } catch {
      // Only the last line can be torn (killed while writing it): it was never acknowledged.
      if (lines.slice(i + 1).every((rest) => rest === '')) break;
      throw new StateFileError(`cannot read sandbox journal ${path}: line ${i + 1} is damaged`, 'STATE_UNREADABLE');
    }
    for (const op of ops) applyOp(state, op);
    count++;
  }
  return count;
}

/** Writes the snapshot (atomically, fsync'd) and starts an empty journal for it. Returns the snapshot's size. */
export function writeSnapshot(stateFile: string, state: State, generation: number): number {
  const text = JSON.stringify({ ...state, generation });
  writeDurably(stateFile, text);
  // From here the old journal is already folded in (its generation is older); replace it.
  writeDurably(journalPath(stateFile), `${JSON.stringify({ magic: JOURNAL_MAGIC, generation })}\n`);
  return Buffer.byteLength(text);
}

function writeDurably(path: string, text: string): void {
  const tmp = `${path}.tmp`;
  // The state holds API keys: readable by its owner only.
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  syncDir(dirname(path));
}

function syncDir(dir: string): void {
  if (process.platform === 'win32') return;
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * The journal being written: commit() appends the changes made since the
 * last commit and resolves once they are on disk. Commits that arrive while a
 * write is under way share the next write and fsync (group commit).
 */
export class Journal {
  private handle: FileHandle | undefined;
  private chain: Promise<void> = Promise.resolve();
  private pending: string[] = [];
  private bytes = 0;
  private snapshotBytes = 0;
  private broken = false;

  private constructor(
    private readonly stateFile: string,
    private readonly tracker: ChangeTracker,
    private generation: number,
    private readonly beforeSnapshot: () => void,
  ) {}

  /** Folds everything into a fresh snapshot and opens its journal. */
  static async open(stateFile: string, tracker: ChangeTracker, generation: number, beforeSnapshot: () => void): Promise<Journal> {
    const journal = new Journal(stateFile, tracker, generation, beforeSnapshot);
    journal.compactNow();
    journal.handle = await open(journalPath(stateFile), 'a', 0o600);
    return journal;
  }

  /** Resolves once every change made so far is in the journal, fsync'd. */
  commit(): Promise<void> {
    const ops = this.tracker.collect();
    if (ops.length > 0) this.pending.push(`${JSON.stringify(ops)}\n`);
    const run = this.chain.then(() => this.writePending());
    // A failed write fails its callers (not answered as saved); the next commit tries again.
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async writePending(): Promise<void> {
    if (this.broken) {
      // A write failed part-way: the journal may lack those changes. Only a snapshot (all of
      // the state) makes it whole again; until one succeeds, every commit with changes fails.
      // (Not retried without changes: a failing disk is not hammered with snapshots.)
      if (this.pending.length === 0) return;
      await this.compact();
      this.broken = false;
      return;
    }
    if (this.pending.length === 0 || !this.handle) return;
    const text = this.pending.join('');
    this.pending = [];
    try {
      await this.handle.write(text);
      await this.handle.datasync();
    } catch (error) {
      this.broken = true;
      throw error;
    }
    this.bytes += Buffer.byteLength(text);
    if (this.bytes > COMPACT_MIN_BYTES && this.bytes > this.snapshotBytes) await this.compact();
  }

  private async compact(): Promise<void> {
    await this.handle?.close().catch(() => undefined);
    this.handle = undefined;
    this.compactNow();
    this.handle = await open(journalPath(this.stateFile), 'a', 0o600);
  }

  private compactNow(): void {
    this.beforeSnapshot();
    this.tracker.clear();
    this.pending = [];
    this.generation += 1;
    this.snapshotBytes = writeSnapshot(this.stateFile, this.tracker.root, this.generation);
    this.bytes = 0;
  }

  /** Waits for writes under way, writes a last snapshot and closes the journal. */
  async close(): Promise<void> {
    await this.chain.catch(() => undefined);
    await this.handle?.close();
    this.handle = undefined;
    this.compactNow();
  }
}
