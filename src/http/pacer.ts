// Client-side pacing: a token bucket that keeps every request of this process
// (and, with the shared pacer, of sibling processes) under the account's rate,
// so bulk work and polling never provoke a 429.
//
// The bucket holds `burst` tokens and refills at (rate − burst) per minute, so
// in any 60-second window at most burst + (rate − burst) = rate requests leave.
// Callers reserve a token even when the bucket is empty and wait for it to be
// paid back: one reservation per request, first come first served.
import type { Clock } from '../context.js';

export interface Pacer {
  /** Resolves when one more request may be sent; returns how long it waited (ms). */
  take(signal?: AbortSignal): Promise<number>;
  /** The service said "slow down": nothing leaves before `untilMs` (epoch ms of the pacer's clock). */
  pause(untilMs: number): void;
}

export interface BucketState {
  tokens: number;
  /** When `tokens` was computed. */
  at: number;
  pausedUntil: number;
}

export interface BucketShape {
  burst: number;
  refillPerMs: number;
}

const MINUTE_MS = 60_000;

/** A small burst (≤ 5, about a twelfth of the rate); the rest of the minute's budget refills evenly. */
export function bucketShape(ratePerMinute: number): BucketShape {
  const rate = Math.max(1, Math.floor(ratePerMinute));
  const burst = Math.max(1, Math.min(5, Math.floor(rate / 12)));
  return { burst, refillPerMs: Math.max(1, rate - burst) / MINUTE_MS };
}

/** Takes one token (possibly going into debt) and says how long to wait for it. Pure. */
export function reserve(previous: BucketState | undefined, now: number, shape: BucketShape): { state: BucketState; waitMs: number } {
  const current = refill(previous, now, shape);
  const tokens = current.tokens - 1;
  const waitMs = tokens >= 0 ? 0 : Math.ceil(-tokens / shape.refillPerMs);
  return { state: { tokens, at: now, pausedUntil: current.pausedUntil }, waitMs: Math.max(waitMs, current.pausedUntil - now) };
}

/** After a 429: no request before `untilMs`, and at most one token waiting then. */
export function pauseState(previous: BucketState | undefined, untilMs: number, now: number, shape: BucketShape): BucketState {
  const current = refill(previous, now, shape);
  if (untilMs <= current.pausedUntil) return current;
  const tokensAtResume = Math.min(1, current.tokens + (untilMs - now) * shape.refillPerMs);
  return { tokens: tokensAtResume, at: untilMs, pausedUntil: untilMs };
}

function refill(state: BucketState | undefined, now: number, shape: BucketShape): BucketState {
  if (!state) return { tokens: shape.burst, at: now, pausedUntil: 0 };
  // `at` can lie in the future after a pause: the bucket then refills from there.
  const tokens = Math.min(shape.burst, state.tokens + (now - state.at) * shape.refillPerMs);
  return { tokens, at: now, pausedUntil: state.pausedUntil };
}

/** The in-process bucket. */
export class TokenBucketPacer implements Pacer {
  private state: BucketState | undefined;
  private readonly shape: BucketShape;

  constructor(
    ratePerMinute: number,
    private readonly clock: Clock,
  ) {
    this.shape = bucketShape(ratePerMinute);
  }

  async take(signal?: AbortSignal): Promise<number> {
    const start = this.clock.now();
    const { state, waitMs } = reserve(this.state, start, this.shape);
    this.state = state;
    if (waitMs > 0) await this.clock.sleep(waitMs, signal);
    // A 429 seen while we slept pushes everyone back, including reservations already made.
    for (let now = this.clock.now(); this.state.pausedUntil > now; now = this.clock.now()) {
      await this.clock.sleep(this.state.pausedUntil - now, signal);
    }
    return this.clock.now() - start;
  }

  pause(untilMs: number): void {
    this.state = pauseState(this.state, untilMs, this.clock.now(), this.shape);
  }
}

// One bucket per (clock, base URL + key, rate) for the whole process: every client built
// for the same account shares it, tests with their own fake clock get their own.
const processPacers = new WeakMap<Clock, Map<string, Pacer>>();

export function processPacer(account: string, ratePerMinute: number, clock: Clock): Pacer {
  let byAccount = processPacers.get(clock);
  if (!byAccount) processPacers.set(clock, (byAccount = new Map()));
  const id = `${ratePerMinute}\n${account}`;
  let pacer = byAccount.get(id);
  if (!pacer) byAccount.set(id, (pacer = new TokenBucketPacer(ratePerMinute, clock)));
  return pacer;
}
