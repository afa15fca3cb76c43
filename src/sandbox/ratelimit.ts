// Requests per minute per account, over a sliding window. The sandbox gives it
// real time plus explicit clock advances: the clock's speed does not make the
// service more lenient, but a test that moves the clock a minute sees the budget back.

export class RateLimiter {
  private readonly windows = new Map<string, number[]>();

  constructor(
    public perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records the request and returns 0, or returns the milliseconds until one is allowed. */
  take(key: string): number {
    if (this.perMinute <= 0) return 0;
    const now = this.now();
    const times = this.windows.get(key) ?? [];
    while (times.length > 0 && (times[0] ?? 0) <= now - 60_000) times.shift();
    if (times.length >= this.perMinute) return (times[0] ?? now) + 60_000 - now;
    times.push(now);
    this.windows.set(key, times);
    return 0;
  }

  reset(): void {
    this.windows.clear();
  }
}
