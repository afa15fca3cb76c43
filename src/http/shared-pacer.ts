// A token bucket shared by every kagent process using the same base URL and key
// (parallel CI jobs on one runner, `xargs -P`): its state lives in a small file in
// the cache directory, read and written under a lock file. Same arithmetic as the
// in-process bucket (pacer.ts); one short critical section per request.
//
// The file's name hashes the key with @noble/hashes' SHA-256 (audited, plain
// JavaScript) rather than node:crypto, whose module loads all of Node's crypto
// and cost every API call 7-12 ms of start-up (measured on `kagent me --json`).
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../context.js';
import { abortableSleep } from './clock.js';
import { bucketShape, pauseState, reserve, TokenBucketPacer, type BucketShape, type BucketState, type Pacer } from './pacer.js';

export { defaultCacheDir } from '../cache-dir.js';

export interface SharedPacerOptions {
  dir: string;
  baseUrl: string;
  apiKey: string;
  ratePerMinute: number;
  /** Must be a wall clock shared by all processes (Date.now), or a test's fake one. */
  clock: Clock;
}

/** A held lock older than this belongs to a process that died inside the critical section. */
const STALE_LOCK_MS = 2_000;
const LOCK_RETRY_MS = 2;

/** Waiting longer than this for the lock means something is wrong with the directory: pace alone. */
const LOCK_GIVE_UP_MS = 5_000;

export class SharedFilePacer implements Pacer {
  readonly file: string;
  private readonly lock: string;
  private readonly shape: BucketShape;
  private readonly clock: Clock;
  /** Set when the state file cannot be used (read-only or full disk…): pacing goes on in-process. */
  private fallback: Pacer | undefined;

  constructor(private readonly options: SharedPacerOptions) {
    // The key itself never touches the disk: the file is named by a hash of base URL and key.
    const id = bytesToHex(sha256(new TextEncoder().encode(`${options.baseUrl}\n${options.apiKey}\n${options.ratePerMinute}`))).slice(0, 24);
    this.file = join(options.dir, `pace-${id}.json`);
    this.lock = `${this.file}.lock`;
    this.shape = bucketShape(options.ratePerMinute);
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

  async take(signal?: AbortSignal): Promise<number> {
    if (this.fallback) return this.fallback.take(signal);
    const start = this.clock.now();
    let waitMs: number;
    try {
      waitMs = await this.update((state, now) => reserve(state, now, this.shape));
    } catch {
      return this.fallBack().take(signal);
    }
    if (waitMs > 0) await this.clock.sleep(waitMs, signal);
    // Another process may have seen a 429 while we slept.
    for (;;) {
      const pausedUntil = this.read()?.pausedUntil ?? 0;
      const now = this.clock.now();
      if (pausedUntil <= now) break;
      await this.clock.sleep(pausedUntil - now, signal);
    }
    return this.clock.now() - start;
  }

  pause(untilMs: number): void {
    this.fallback?.pause(untilMs);
    if (this.fallback) return;
    // Synchronous by interface; the write happens as soon as the lock is free.
    this.update((state, now) => ({ state: pauseState(state, untilMs, now, this.shape), waitMs: 0 })).catch(() => this.fallBack().pause(untilMs));
  }

  private fallBack(): Pacer {
    this.fallback ??= new TokenBucketPacer(this.options.ratePerMinute, this.clock);
    return this.fallback;
  }

  /** Read-modify-write of the state under the lock. */
  private async update(change: (state: BucketState | undefined, now: number) => { state: BucketState; waitMs: number }): Promise<number> {
    await this.acquire();
    try {
      const { state, waitMs } = change(this.read(), this.clock.now());
      const tmp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(state), { mode: 0o600 });
      renameSync(tmp, this.file);
      return waitMs;
    } finally {
      this.release();
    }
  }

  private read(): BucketState | undefined {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return undefined; // no file yet: a full bucket
    }
    try {
      const state = JSON.parse(text) as Partial<BucketState>;
      if (typeof state.tokens === 'number' && typeof state.at === 'number') return { tokens: state.tokens, at: state.at, pausedUntil: state.pausedUntil ?? 0 };
    } catch {
      // fall through
    }
    // Unreadable state: assume the budget is spent rather than grant a fresh burst.
    return { tokens: 0, at: this.clock.now(), pausedUntil: 0 };
  }

  private async acquire(): Promise<void> {
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
      await abortableSleep(LOCK_RETRY_MS);
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
