// Durable state for `kagent sandbox --state FILE`: a snapshot (FILE) plus an
// append-only journal (FILE.journal) of what changed since. Every answer to a
// write waits until its changes are in the journal and fsync'd, so a sandbox
// killed at any moment (kill -9 included) comes back with every write it
// acknowledged. The journal is compacted into a fresh snapshot when it grows
// large, on start and on a clean stop; nothing rewrites the whole state on a timer.
//
// What changed is found by a Proxy over the state (changes.ts; only with --state): every
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
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { applyOp, type ChangeTracker, type Op } from './changes.js';
import type { State } from './types.js';

export const STATE_VERSION = 1;
const JOURNAL_MAGIC = 'kagent-sandbox-journal';
/** Compaction once the journal is larger than this and than the last snapshot. */
const COMPACT_MIN_BYTES = 16 * 1024 * 1024;

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
  const text = readPlain(stateFile, 'state');
  if (text === undefined) {
    if (existsSync(journalPath(stateFile)))
      throw new StateFileError(
        `cannot read sandbox state ${stateFile}: its journal ${journalPath(stateFile)} is there but the snapshot is missing`,
        'STATE_UNREADABLE',
      );
    return undefined;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    // Not JSON.parse's message: it quotes the file's first bytes, and --state may be a link to any file.
    throw new StateFileError(
      `cannot read sandbox state ${stateFile}: it is not valid JSON (not a sandbox state)`,
      'STATE_UNREADABLE',
    );
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new StateFileError(
      `cannot read sandbox state ${stateFile}: it is not a sandbox state (not a JSON object)`,
      'STATE_UNREADABLE',
    );
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
  for (const [slot, entry] of Object.entries(state.idempotency ?? {}))
    if (entry.status === 'running') delete state.idempotency[slot];
  return { state, generation, replayed };
}

/** A state or journal file's text; undefined when there is none. */
function readPlain(path: string, what: 'state' | 'journal'): string | undefined {
  try {
    // A FIFO or a device (a link to /dev/zero) would hold the start or be read forever.
    if (!statSync(path).isFile())
      throw new StateFileError(
        `cannot read sandbox ${what} ${path}: it is not a plain file (a pipe, a device or a directory)`,
        'STATE_UNREADABLE',
      );
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof StateFileError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StateFileError(`cannot read sandbox ${what} ${path}: ${(error as Error).message}`, 'STATE_UNREADABLE');
  }
}

function replayJournal(stateFile: string, state: Record<string, unknown>, generation: number): number {
  const path = journalPath(stateFile);
  const text = readPlain(path, 'journal');
  if (text === undefined) return 0;
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
    throw new StateFileError(
      `cannot read sandbox journal ${path}: it does not start with a journal header`,
      'STATE_UNREADABLE',
    );
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
  static async open(
    stateFile: string,
    tracker: ChangeTracker,
    generation: number,
    beforeSnapshot: () => void,
  ): Promise<Journal> {
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
