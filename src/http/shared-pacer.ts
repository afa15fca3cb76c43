// A sliding window shared by every kagent process using the same base URL and key
// (parallel CI jobs on one runner, `xargs -P`, a shell loop of `kagent me`),
// whatever rate each one's profile gives: each process applies its own limit to
// the requests of all. Same arithmetic as the in-process window (pacer.ts).
//
// Cheap at high rates: the state is an append-only log of fixed-size records (a
// request's moment, or a pause), of which only the tail is read; the requests
// waiting in this process at once share one lock and one append (an upload's
// files, a pull's documents). The log is rewritten (to its window) only when it
// has grown past twice that, so a file left huge by anything is never read whole.
//
// The file's name hashes the key with @noble/hashes' SHA-256 (audited, plain
// JavaScript) rather than node:crypto, whose module loads all of Node's crypto
// and cost every API call 7-12 ms of start-up (measured on `kagent me --json`).
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Clock } from './clock.js';
import { abortableSleep } from './clock.js';
import { abortError } from '../errors.js';
import {
  pauseState,
  PacingTooLong,
  reserve,
  SlidingWindowPacer,
  waitOutPause,
  windowShape,
  type Pacer,
  type TakeOptions,
  type WindowShape,
  type WindowState,
} from './pacer.js';

export interface SharedPacerOptions {
  dir: string;
  baseUrl: string;
  apiKey: string;
  ratePerMinute: number;
  /** Must be a wall clock shared by all processes (Date.now), or a test's fake one. */
  clock: Clock;
  /** The window's length; a minute plus a margin (pacer.ts) unless a test shortens it. */
  windowMs?: number;
}

/** A held lock older than this belongs to a process that died inside the critical section. */
const STALE_LOCK_MS = 2_000;
const LOCK_RETRY_MS = 2;

/** Waiting longer than this for the lock means something is wrong with the directory: pace alone. */
const LOCK_GIVE_UP_MS = 5_000;

/** One record: `S` (a request leaves then) or `P` (nothing leaves before then), 14 digits of epoch ms, a newline. */
const RECORD_BYTES = 16;
/** Records read beyond the limit's worth: room for pauses among them. */
const TAIL_SLACK = 64;
/**
 * The most requests the shared window counts back: a rate set above this (to turn pacing
 * off, in effect) is paced on the last MAX_COUNTED requests of all processes, so a request
 * costs the same whatever the rate; the service's 429 and Retry-After pace beyond that.
 */
const MAX_COUNTED = 1_000;
/** The log is rewritten to its window once it is larger than this and than twice what its window holds. */
const COMPACT_BYTES = 64 * 1024;

interface Waiter {
  deadline: number | undefined;
  done: (outcome: { waitMs: number } | { refusedMs: number } | { failed: unknown }) => void;
}

export class SharedFilePacer implements Pacer {
  readonly file: string;
  private readonly lock: string;
  private readonly shape: WindowShape;
  private readonly clock: Clock;
  /** Set when the state file cannot be used (read-only or full disk...): pacing goes on in-process. */
  private fallback: Pacer | undefined;
  /** Callers waiting for the next turn of the lock; served together, in order. */
  private queue: Waiter[] = [];
  private serving = false;
  /** How many times this pacer took the lock (tests read it: fewer than the requests when they come together). */
  locks = 0;
  /** How many bytes of the log the last look read (tests read it: the tail, never the whole). */
  tailBytes = 0;

  constructor(private readonly options: SharedPacerOptions) {
    // The key itself never touches the disk: the file is named by a hash of base URL and key
    // (not the rate: every profile using this key shares the one window).
    const id = bytesToHex(sha256(new TextEncoder().encode(`${options.baseUrl}\n${options.apiKey}`))).slice(0, 24);
    // (`window-*.json`, the whole state rewritten per request, and the token bucket's `pace-` files are left alone.)
    this.file = join(options.dir, `window-${id}.log`);
    this.lock = `${this.file}.lock`;
    this.shape = windowShape(options.ratePerMinute, options.windowMs);
    this.clock = options.clock;
    try {
      mkdirSync(options.dir, { recursive: true, mode: 0o700 });
    } catch {
      this.fallBack();
    }
  }

  /** True once the pacer has given up on the shared file. */
  get isShared(): boolean {
    return this.fallback === undefined;
  }

  async take(signal?: AbortSignal, options: TakeOptions = {}): Promise<number> {
    if (this.fallback) return this.fallback.take(signal, options);
    const start = this.clock.now();
    const outcome = await this.turn(signal, options.deadline);
    if ('failed' in outcome) {
      // Ctrl-C or the deadline while waiting for the lock: that ends the call, no fallback.
      if (signal?.aborted) throw abortError(signal, outcome.failed);
      return this.fallBack().take(signal, options);
    }
    if ('refusedMs' in outcome) throw new PacingTooLong(outcome.refusedMs);
    if (outcome.waitMs > 0) {
      options.onWait?.(outcome.waitMs);
      await this.clock.sleep(outcome.waitMs, signal);
      // Another process may have seen a 429 while we slept (without a wait, the slot was
      // reserved from the state just read under the lock, its pause included).
      await waitOutPause(() => this.readState()?.pausedUntil ?? 0, this.clock, signal, options);
    }
    return this.clock.now() - start;
  }

  pause(untilMs: number): void {
    this.fallback?.pause(untilMs);
    if (this.fallback) return;
    // Synchronous by interface; the record is written as soon as the lock is free.
    this.withLock(
      () => [`P${stamp(untilMs)}\n`],
      () => false,
    ).catch(() => this.fallBack().pause(untilMs));
  }

  private fallBack(): Pacer {
    this.fallback ??= new SlidingWindowPacer(this.options.ratePerMinute, this.clock, this.options.windowMs);
    return this.fallback;
  }

  /** Queues this caller for the next turn of the lock; Ctrl-C leaves the queue at once. */
  private turn(signal: AbortSignal | undefined, deadline: number | undefined) {
    return new Promise<{ waitMs: number } | { refusedMs: number } | { failed: unknown }>((resolve) => {
      const waiter: Waiter = { deadline, done: resolve };
      const onAbort = () => {
        this.queue = this.queue.filter((w) => w !== waiter);
        resolve({ failed: signal?.reason });
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      waiter.done = (outcome) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      this.queue.push(waiter);
      if (!this.serving) void this.serve();
    });
  }

  /** Serves the queue, one turn of the lock for every caller waiting when it is taken. */
  private async serve(): Promise<void> {
    this.serving = true;
    try {
      while (this.queue.length > 0) {
        let batch: Waiter[] = [];
        const outcomes: Array<{ waitMs: number } | { refusedMs: number }> = [];
        try {
          await this.withLock(
            (state, now) => {
              batch = this.queue.splice(0);
              const records: string[] = [];
              for (const waiter of batch) {
                const reserved = reserve(state.current, now, this.shape, waiter.deadline);
                if ('refusedMs' in reserved) outcomes.push(reserved);
                else {
                  state.current = reserved.state;
                  outcomes.push({ waitMs: reserved.waitMs });
                  records.push(`S${stamp(now + reserved.waitMs)}\n`);
                }
              }
              return records;
            },
            () => this.queue.length === 0,
          );
        } catch (failed) {
          for (const waiter of [...batch, ...this.queue.splice(0)]) waiter.done({ failed });
          continue;
        }
        batch.forEach((waiter, i) => waiter.done(outcomes[i]!));
      }
    } finally {
      this.serving = false;
    }
  }

  /**
   * Under the lock: reads the window, asks `change` for the records to append, appends them in
   * one write, and rewrites the log to its window when it has grown too large. `nobodyWaits`
   * ends the wait for the lock (everyone waiting left: Ctrl-C).
   */
  private async withLock(
    change: (state: { current: WindowState | undefined }, now: number) => string[],
    nobodyWaits: () => boolean,
  ): Promise<void> {
    await this.acquire(nobodyWaits);
    this.locks++;
    let fd: number | undefined;
    try {
      fd = openLog(this.file, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT);
      const now = this.clock.now();
      const tail = this.readTail(fd);
      const state = { current: this.stateOf(tail.records, now) };
      const records = change(state, now);
      if (records.length > 0) writeSync(fd, records.join(''));
      const kept = ((state.current?.sent.length ?? 0) + 1) * RECORD_BYTES;
      if (tail.size > COMPACT_BYTES && tail.size > 2 * kept) this.compact(state.current);
    } finally {
      if (fd !== undefined) closeSync(fd);
      this.release();
    }
  }

  /** The log cut to its window (write and rename: readers see the old log or the new, whole). */
  private compact(state: WindowState | undefined): void {
    const tmp = `${this.file}.${process.pid}.tmp`;
    const lines = (state?.sent ?? []).map((t) => `S${stamp(t)}\n`);
    if (state && state.pausedUntil > 0) lines.push(`P${stamp(state.pausedUntil)}\n`);
    try {
      writeFileSync(tmp, lines.join(''), { mode: 0o600 });
      renameSync(tmp, this.file);
    } catch {
      // A full disk, say: the log stays as it is, a little larger; no half-written copy stays behind.
      rmSync(tmp, { force: true });
    }
  }

  /** The window as the log's tail says it (for a wait's end; no lock needed: records are appended whole). */
  private readState(): WindowState | undefined {
    try {
      const fd = openLog(this.file, constants.O_RDONLY);
      try {
        return this.stateOf(this.readTail(fd).records, this.clock.now());
      } finally {
        closeSync(fd);
      }
    } catch {
      return undefined;
    }
  }

  /** The last records of the log: the limit's worth and a little more, never the whole of a large file. */
  private readTail(fd: number): { records: string[]; size: number } {
    const size = fstatSync(fd).size;
    const length = Math.min(size, (Math.min(this.shape.limit, MAX_COUNTED) + TAIL_SLACK) * RECORD_BYTES);
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const n = readSync(fd, buffer, read, length - read, size - length + read);
      if (n === 0) break;
      read += n;
    }
    this.tailBytes = read;
    const lines = buffer.toString('latin1', 0, read).split('\n');
    // Started inside the file: the first piece may be the end of a record. The last one is empty or being written.
    if (size > length) lines.shift();
    lines.pop();
    return { records: lines, size };
  }

  /** The records replayed into a window. Anything that is no record (another program wrote there) is left out. */
  private stateOf(records: string[], now: number): WindowState | undefined {
    let state: WindowState | undefined;
    for (const record of records) {
      const match = /^([SP])(\d{14})$/.exec(record);
      if (!match) continue;
      const t = Number(match[2]);
      state ??= { sent: [], pausedUntil: 0 };
      if (match[1] === 'P') state = pauseState(state, t, now);
      else if (state.sent.push(t) > 2 * this.shape.limit) state.sent.splice(0, state.sent.length - this.shape.limit);
    }
    if (!state) return undefined;
    // A pause is only ever stored for at most a window (core.ts never stores a longer Retry-After);
    // one further away than that was not written by kagent and is not obeyed. Nor is a
    // request stamped further ahead than a window (a reservation lies at most that far
    // ahead): it was made under a clock since set back, and kept, it would hold every
    // later command back for as long as the clock was wrong.
    const latest = now + this.shape.windowMs;
    return {
      sent: state.sent
        .filter((t) => t <= latest && t > now - this.shape.windowMs)
        .sort((a, b) => a - b)
        .slice(-this.shape.limit),
      pausedUntil: state.pausedUntil > latest ? 0 : state.pausedUntil,
    };
  }

  /** Waits for the lock file; gives up when nobody waits any more (Ctrl-C, the deadline) or after LOCK_GIVE_UP_MS. */
  private async acquire(nobodyWaits: () => boolean): Promise<void> {
    const giveUpAt = Date.now() + LOCK_GIVE_UP_MS;
    for (;;) {
      try {
        closeSync(openSync(this.lock, 'wx', 0o600));
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      this.breakStaleLock();
      if (Date.now() > giveUpAt) throw new Error(`could not lock ${this.lock}`);
      if (nobodyWaits()) throw new Error('nobody waits for the lock any more');
      // Lock contention is between processes on real time, whatever the pacing clock is.
      await abortableSleep(LOCK_RETRY_MS);
    }
  }

  /** A lock left by a process that died holding it goes; what is no lock file (a directory, say) is no lock: pace alone at once. */
  private breakStaleLock(): void {
    let info;
    try {
      info = lstatSync(this.lock);
    } catch {
      return; // gone already
    }
    if (!info.isFile()) throw new Error(`${this.lock} is not a lock file`);
    if (Date.now() - info.mtimeMs <= STALE_LOCK_MS) return;
    try {
      unlinkSync(this.lock);
    } catch {
      // removed by another process meanwhile
    }
  }

  private release(): void {
    try {
      unlinkSync(this.lock);
    } catch {
      // removed as stale by another process; nothing to do
    }
  }
}

/** Opens the log, never following a link and never waiting on what is no plain file (a FIFO would hang every command). */
function openLog(file: string, flags: number): number {
  const fd = openSync(file, flags | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o600);
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw new Error(`${file} is not a plain file`);
  }
  return fd;
}

/** Epoch ms as a record's 14 digits. */
function stamp(ms: number): string {
  return String(Math.max(0, Math.round(ms))).padStart(14, '0');
}

export function createSharedPacer(options: SharedPacerOptions): Pacer {
  return new SharedFilePacer(options);
}
