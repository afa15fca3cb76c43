// The sandbox clock: real time scaled by `speed`, plus whatever tests and the
// admin route advanced it by. Background work is scheduled on this clock, so
// tests move time forward instead of sleeping.

export class SandboxClock {
  private readonly realStart: number;

  constructor(
    private readonly start: number,
    private speed: number,
    /** Milliseconds added by advance(); kept in the persisted state. */
    public advancedMs = 0,
    private readonly realNow: () => number = Date.now,
  ) {
    this.realStart = realNow();
  }

  now(): number {
    return Math.floor(this.start + (this.realNow() - this.realStart) * this.speed + this.advancedMs);
  }

  iso(ms = this.now()): string {
    return new Date(ms).toISOString();
  }

  advance(ms: number): number {
    this.advancedMs += Math.max(0, ms);
    return this.now();
  }

  get multiplier(): number {
    return this.speed;
  }

  setSpeed(speed: number): void {
    // Keep "now" continuous across the change.
    const now = this.now();
    this.speed = speed;
    this.advancedMs += now - this.now();
  }
}
