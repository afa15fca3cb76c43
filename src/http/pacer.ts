// Client-side pacing: a sliding window, as the contract states the limit
// ("more than 60 requests per minute"), kept for every request of this process
// (and, with the shared pacer, of sibling processes), so bulk work and polling
// never provoke a 429 while a burst up to the limit still goes at once.
//
// The window remembers when each of the last `limit` requests left. A request
// goes at once while fewer than `limit` left in the last window; otherwise it
// waits until the oldest of them leaves the window — that one request, not the
// ones before it. Callers reserve their moment even when it lies in the future,
// so concurrent callers queue in order, first come first served.
//
// The window is a minute plus ARRIVAL_MARGIN_MS: kagent stamps a request when it
// is about to leave, the service when it arrives (after the connection is
// made, on a first request tens of milliseconds later). Without
// the margin the (limit+1)th request could reach the service while the service
// still counts the first one inside its minute.
import type { Clock } from './clock.js';

export interface TakeOptions {
  /** Epoch ms (of the pacer's clock) by which the request must be able to leave; a later moment is refused, nothing reserved. */
  deadline?: number;
  /** Told how long the caller is about to wait, before it waits (for the notice on stderr and the trace). */
  onWait?: (ms: number) => void;
}

export interface Pacer {
  /** Resolves when one more request may be sent; returns how long it waited (ms). Rejects with PacingTooLong past the deadline. */
  take(signal?: AbortSignal, options?: TakeOptions): Promise<number>;
  /** The service said "slow down": nothing leaves before `untilMs` (epoch ms of the pacer's clock). */
  pause(untilMs: number): void;
}

/** The next request could leave only after the caller's deadline: nothing was reserved. */
export class PacingTooLong extends Error {
  constructor(readonly waitMs: number) {
    super(`the rate limit lets the next request leave in ${waitMs} ms`);
    this.name = 'PacingTooLong';
  }
}

export interface WindowState {
  /** When each of the last requests leaves (or left), ascending; at most `limit` of them. */
  sent: number[];
  pausedUntil: number;
}

export interface WindowShape {
  limit: number;
  windowMs: number;
}

const MINUTE_MS = 60_000;
/** How much later than kagent's stamp the service may count a request (see the top of this file). */
export const ARRIVAL_MARGIN_MS = 1_000;

export function windowShape(ratePerMinute: number, windowMs = MINUTE_MS + ARRIVAL_MARGIN_MS): WindowShape {
  return { limit: Math.max(1, Math.floor(ratePerMinute)), windowMs };
}

/** The moment the next request may leave. Pure. */
export function nextSlot(state: WindowState | undefined, now: number, shape: WindowShape): number {
  const sent = state?.sent ?? [];
  const oldest = sent.length >= shape.limit ? sent[sent.length - shape.limit]! : undefined;
  return Math.max(now, state?.pausedUntil ?? 0, oldest === undefined ? now : oldest + shape.windowMs);
}

/**
 * Reserves the next moment and says how long to wait for it; with a deadline
 * that moment misses, reserves nothing and says how long the wait would be. Pure.
 */
export function reserve(
  previous: WindowState | undefined,
  now: number,
  shape: WindowShape,
  deadline?: number,
): { state: WindowState; waitMs: number } | { refusedMs: number } {
  const at = nextSlot(previous, now, shape);
  if (deadline !== undefined && at > deadline) return { refusedMs: at - now };
  const sent = (previous?.sent ?? []).filter((t) => t > now - shape.windowMs);
  sent.push(at);
  sent.sort((a, b) => a - b);
  return { state: { sent: sent.slice(-shape.limit), pausedUntil: previous?.pausedUntil ?? 0 }, waitMs: at - now };
}

/** After a 429: nothing leaves before `untilMs`; moments already reserved before it move to it. Pure. */
export function pauseState(previous: WindowState | undefined, untilMs: number, now: number): WindowState {
  const pausedUntil = Math.max(previous?.pausedUntil ?? 0, untilMs);
  const sent = (previous?.sent ?? []).map((t) => (t > now ? Math.max(t, pausedUntil) : t));
  return { sent, pausedUntil };
}

/** The in-process window. */
export class SlidingWindowPacer implements Pacer {
  private state: WindowState | undefined;
  private readonly shape: WindowShape;

  constructor(
    ratePerMinute: number,
    private readonly clock: Clock,
    windowMs?: number,
  ) {
    this.shape = windowShape(ratePerMinute, windowMs);
  }

  async take(signal?: AbortSignal, options: TakeOptions = {}): Promise<number> {
    const start = this.clock.now();
    const result = reserve(this.state, start, this.shape, options.deadline);
    if ('refusedMs' in result) throw new PacingTooLong(result.refusedMs);
    this.state = result.state;
    if (result.waitMs > 0) {
      options.onWait?.(result.waitMs);
      await this.clock.sleep(result.waitMs, signal);
    }
    // A 429 seen while we slept pushes everyone back, including reservations already made.
    await waitOutPause(() => this.state?.pausedUntil ?? 0, this.clock, signal, options);
    return this.clock.now() - start;
  }

  pause(untilMs: number): void {
    this.state = pauseState(this.state, untilMs, this.clock.now());
  }
}

/** Sleeps while a pause (read afresh each time) lasts; bounded by the deadline like the first wait. */
export async function waitOutPause(
  pausedUntil: () => number,
  clock: Clock,
  signal: AbortSignal | undefined,
  options: TakeOptions,
): Promise<void> {
  for (let until = pausedUntil(), now = clock.now(); until > now; until = pausedUntil(), now = clock.now()) {
    if (options.deadline !== undefined && until > options.deadline) throw new PacingTooLong(until - now);
    options.onWait?.(until - now);
    await clock.sleep(until - now, signal);
  }
}

// One window per (clock, base URL + key, rate) for the whole process: every client built
// for the same account shares it, tests with their own fake clock get their own.
const processPacers = new WeakMap<Clock, Map<string, Pacer>>();

export function processPacer(account: string, ratePerMinute: number, clock: Clock): Pacer {
  let byAccount = processPacers.get(clock);
  if (!byAccount) processPacers.set(clock, (byAccount = new Map()));
  const id = `${ratePerMinute}\n${account}`;
  let pacer = byAccount.get(id);
  if (!pacer) byAccount.set(id, (pacer = new SlidingWindowPacer(ratePerMinute, clock)));
  return pacer;
}
