// A sliding window shared by every kagent process using the same base URL and key
// (parallel CI jobs on one runner, `xargs -P`, a shell loop of `kagent me`): its
// state lives in a small file in the cache directory, read and written under a
// lock file. Same arithmetic as the in-process window (pacer.ts); one short
// critical section per request.
//
// The file's name hashes the key with @noble/hashes' SHA-256 (audited, plain
// JavaScript) rather than node:crypto, whose module loads all of Node's crypto
// and cost every API call 7-12 ms of start-up (measured on `kagent me --json`).
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { closeSync, mkdirSync, openSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from './clock.js';
import { abortableSleep } from './clock.js';
import { abortError } from '../errors.js';
import { readPlainFileSync } from '../config/plain-file.js';
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

export class SharedFilePacer implements Pacer {
  readonly file: string;
  private readonly lock: string;
  private readonly shape: WindowShape;
  private readonly clock: Clock;
  /** Set when the state file cannot be used (read-only or full disk...): pacing goes on in-process. */
  private fallback: Pacer | undefined;

  constructor(private readonly options: SharedPacerOptions) {
    // The key itself never touches the disk: the file is named by a hash of base URL and key.
    const id = bytesToHex(
      sha256(new TextEncoder().encode(`${options.baseUrl}\n${options.apiKey}\n${options.ratePerMinute}`)),
    ).slice(0, 24);
    // (`window-`: the token bucket kept its state in `pace-` files, which are left alone.)
    this.file = join(options.dir, `window-${id}.json`);
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
    let result: { waitMs: number } | { refusedMs: number };
    try {
      result = await this.update<{ waitMs: number } | { refusedMs: number }>(signal, (state, now) => {
        const reserved = reserve(state, now, this.shape, options.deadline);
        return 'refusedMs' in reserved
          ? { result: reserved }
          : { state: reserved.state, result: { waitMs: reserved.waitMs } };
      });
    } catch (error) {
      // Ctrl-C or the deadline while waiting for the lock: that ends the call, no fallback.
      if (signal?.aborted) throw abortError(signal, error);
      return this.fallBack().take(signal, options);
    }
    if ('refusedMs' in result) throw new PacingTooLong(result.refusedMs);
    if (result.waitMs > 0) {
      options.onWait?.(result.waitMs);
      await this.clock.sleep(result.waitMs, signal);
      // Another process may have seen a 429 while we slept (without a wait, the slot was
      // reserved from the state just read under the lock, its pause included).
      await waitOutPause(() => this.read()?.pausedUntil ?? 0, this.clock, signal, options);
    }
    return this.clock.now() - start;
  }

  pause(untilMs: number): void {
    this.fallback?.pause(untilMs);
    if (this.fallback) return;
    // Synchronous by interface; the write happens as soon as the lock is free.
    this.update(undefined, (state, now) => ({ state: pauseState(state, untilMs, now), result: undefined })).catch(() =>
      this.fallBack().pause(untilMs),
    );
  }

  private fallBack(): Pacer {
    this.fallback ??= new SlidingWindowPacer(this.options.ratePerMinute, this.clock, this.options.windowMs);
    return this.fallback;
  }

  /** Read-modify-write of the state under the lock; a change without a new state writes nothing. */
  private async update<T>(
    signal: AbortSignal | undefined,
    change: (state: WindowState | undefined, now: number) => { state?: WindowState; result: T },
  ): Promise<T> {
    await this.acquire(signal);
    try {
      const { state, result } = change(this.read(), this.clock.now());
      if (state) {
        const tmp = `${this.file}.${process.pid}.tmp`;
        try {
          writeFileSync(tmp, JSON.stringify(state), { mode: 0o600 });
          renameSync(tmp, this.file);
        } catch (error) {
          // A full disk, say: the half-written copy does not stay behind (the caller falls back as before).
          rmSync(tmp, { force: true });
          throw error;
        }
      }
      return result;
    } finally {
      this.release();
    }
  }

  private read(): WindowState | undefined {
    let text: string | undefined;
    try {
      // No file yet: an empty window. Nor is anything that is no plain file (a FIFO would hang every command).
      text = readPlainFileSync(this.file);
    } catch {
      text = undefined;
    }
    if (text === undefined) return undefined;
    try {
      const state = JSON.parse(text) as Partial<WindowState>;
      const sent = Array.isArray(state.sent)
        ? state.sent.filter((t): t is number => typeof t === 'number' && Number.isFinite(t))
        : undefined;
      const pausedUntil =
        typeof state.pausedUntil === 'number' && Number.isFinite(state.pausedUntil) ? state.pausedUntil : 0;
      // A pause is only ever stored for at most a window (core.ts never stores a longer Retry-After);
      // one further away than that was not written by kagent and is not obeyed. Nor is a
      // request stamped further ahead than a window (a reservation lies at most that far
      // ahead): it was made under a clock since set back, and kept, it would hold every
      // later command back for as long as the clock was wrong.
      const latest = this.clock.now() + this.shape.windowMs;
      if (sent) {
        return {
          sent: sent
            .filter((t) => t <= latest)
            .sort((a, b) => a - b)
            .slice(-this.shape.limit),
          pausedUntil: pausedUntil > latest ? 0 : pausedUntil,
        };
      }
    } catch {
      // fall through
    }
    // Unreadable state (the file is written whole, by rename, so something else wrote it): start an
    // empty window rather than hold every command back a minute; should that be too generous, the
    // service's 429 and its Retry-After pace us, and the next write repairs the file.
    return undefined;
  }

  /** Waits for the lock file; Ctrl-C or the deadline ends the wait (abortError), whoever holds the lock. */
  private async acquire(signal: AbortSignal | undefined): Promise<void> {
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
      // Lock contention is between processes on real time, whatever the pacing clock is.
      await abortableSleep(LOCK_RETRY_MS, signal);
    }
  }

  private breakStaleLock(): void {
    try {
      if (Date.now() - statSync(this.lock).mtimeMs > STALE_LOCK_MS) unlinkSync(this.lock);
    } catch {
      // gone already
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

export function createSharedPacer(options: SharedPacerOptions): Pacer {
  return new SharedFilePacer(options);
}
