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
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
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

/** Writes the snapshot (atomically, fsync'd) and starts an empty journal for it. */
export function writeSnapshot(stateFile: string, state: State, generation: number): void {
  writeSnapshotFile(stateFile, state, generation);
  writeJournalHeader(stateFile, generation);
}

/** The snapshot alone; its size in bytes. */
function writeSnapshotFile(stateFile: string, state: State, generation: number): number {
  const text = JSON.stringify({ ...state, generation });
  writeDurably(stateFile, text);
  return Buffer.byteLength(text);
}

/** A new, empty journal for the snapshot of this generation; its size in bytes. */
function writeJournalHeader(stateFile: string, generation: number): number {
  const header = `${JSON.stringify({ magic: JOURNAL_MAGIC, generation })}\n`;
  writeDurably(journalPath(stateFile), header);
  return Buffer.byteLength(header);
}

/**
 * Writes `text` to `path` whole or not at all: into `path.tmp`, every byte (a write to a
 * nearly full disk can be short without an error), fsync'd, then renamed over `path`. On
 * a failure the temporary file is removed and `path` is as it was.
 */
function writeDurably(path: string, text: string): void {
  const tmp = `${path}.tmp`;
  // The state holds API keys: readable by its owner only.
  const fd = openSync(tmp, 'w', 0o600);
  try {
    const data = Buffer.from(text);
    for (let done = 0; done < data.length;) done += noShortWrite(writeSync(fd, data, done, data.length - done));
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(tmp, path);
  syncDir(dirname(path));
}

/** A write that wrote nothing, and said no error: the disk is full all the same. */
function noShortWrite(written: number): number {
  if (written > 0) return written;
  throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
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
 *
 * A write that fails (a full disk: ENOSPC, or a short write) fails its commit and
 * is cut off: the journal is truncated back to its last whole line, and the lines
 * stay pending, written again (in order, before anything newer) by the next commit.
 * When even that cannot be done, the journal is dropped and the next commit writes
 * a whole snapshot instead. A commit that resolved is on disk, whatever came after.
 */
export class Journal {
  /** The open journal; undefined when only a new snapshot can make the files whole. */
  private handle: FileHandle | undefined;
  private chain: Promise<void> = Promise.resolve();
  private pending: string[] = [];
  /** Bytes of whole lines in the journal file (where a failed write is cut back to). */
  private size = 0;
  private snapshotBytes = 0;

  private constructor(
    private readonly stateFile: string,
    private readonly tracker: ChangeTracker,
    private generation: number,
    private readonly beforeSnapshot: () => void,
  ) {}

  /** Folds everything into a fresh snapshot and opens its journal; STATE_UNWRITABLE when it cannot. */
  static async open(
    stateFile: string,
    tracker: ChangeTracker,
    generation: number,
    beforeSnapshot: () => void,
  ): Promise<Journal> {
    const journal = new Journal(stateFile, tracker, generation, beforeSnapshot);
    try {
      await journal.compact();
    } catch (error) {
      await journal.handle?.close().catch(() => undefined);
      throw new StateFileError(
        `cannot write sandbox state ${stateFile}: ${(error as Error).message} (nothing saved in it was lost)`,
        'STATE_UNWRITABLE',
      );
    }
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
    // (Nothing to write is not retried: a failing disk is not hammered with snapshots.)
    if (this.pending.length === 0) return;
    if (!this.handle) return this.compact();
    const handle = this.handle;
    // Commits that arrive during the write add lines after these: only these are taken off.
    const taken = this.pending.length;
    const data = Buffer.from(this.pending.join(''));
    try {
      for (let done = 0; done < data.length;) {
        const { bytesWritten } = await handle.write(data, done, data.length - done);
        done += noShortWrite(bytesWritten);
      }
      await handle.datasync();
    } catch (error) {
      await this.cutBack(handle);
      throw error;
    }
    this.pending.splice(0, taken);
    this.size += data.length;
    // Compaction is housekeeping: the lines above are saved whether or not it succeeds.
    if (this.size > COMPACT_MIN_BYTES && this.size > this.snapshotBytes) await this.compact().catch(() => undefined);
  }

  /** After a failed write: the journal back to its last whole line (or dropped when it cannot be). */
  private async cutBack(handle: FileHandle): Promise<void> {
    try {
      await handle.truncate(this.size);
      await handle.datasync();
    } catch {
      this.handle = undefined;
      await handle.close().catch(() => undefined);
    }
  }

  /**
   * A new snapshot of the whole state, then a new journal for it. When the snapshot
   * cannot be written nothing changes (the old snapshot and journal still hold
   * everything saved); when only the journal cannot, there is none until the next
   * snapshot (the old journal, of an older generation, is skipped on load).
   */
  private async compact(): Promise<void> {
    this.beforeSnapshot();
    const generation = this.generation + 1;
    this.snapshotBytes = writeSnapshotFile(this.stateFile, this.tracker.root, generation);
    this.tracker.clear();
    this.pending = [];
    this.generation = generation;
    const old = this.handle;
    this.handle = undefined;
    await old?.close().catch(() => undefined);
    this.size = writeJournalHeader(this.stateFile, generation);
    this.handle = await open(journalPath(this.stateFile), 'a', 0o600);
  }

  /**
   * Waits for writes under way, closes the journal and writes a last snapshot. Fails
   * only when a change is saved nowhere (its commit failed and the snapshot too).
   */
  async close(): Promise<void> {
    await this.chain.catch(() => undefined);
    const whole = this.handle !== undefined && this.pending.length === 0 && !this.tracker.dirty;
    try {
      await this.compact();
    } catch (error) {
      if (!whole)
        throw new StateFileError(
          `cannot save sandbox state ${this.stateFile}: ${(error as Error).message}`,
          'STATE_UNWRITABLE',
        );
    } finally {
      await this.handle?.close().catch(() => undefined);
      this.handle = undefined;
    }
  }
}
