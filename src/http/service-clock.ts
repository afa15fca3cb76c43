// The service's clock, as its answers tell it. Relative times ("5 minutes ago", "until
// in 2 minutes") compare the service's timestamps with the service's now, not this
// machine's: a skewed local clock, or a sandbox running fast (`--speed 60`), never shows
// a past event in the future.
import type { Clock } from './clock.js';

/** Sent by `kagent sandbox` with every answer: its clock, to the millisecond (docs/sandbox.md). */
export const SANDBOX_NOW_HEADER = 'sandbox-now';

type Headers = Record<string, string | string[] | undefined>;

export class ServiceClock {
  /** The service's now minus the local now, as last seen; 0 until an answer says otherwise. */
  private offsetMs = 0;

  constructor(private readonly local: Clock) {}

  /** Learns the offset from an answer just received: the sandbox's own clock, else the Date header. */
  observe(headers: Headers): void {
    const sandbox = Date.parse(first(headers[SANDBOX_NOW_HEADER]) ?? '');
    const date = Date.parse(first(headers.date) ?? '');
    // Date drops the milliseconds: the service's now is within the second after it. Its end
    // keeps anything that already happened out of the future (a real service's synced clock
    // is then at most a second ahead, which no relative time shows).
    const serviceMs = Number.isNaN(sandbox) ? date + 999 : sandbox;
    if (!Number.isNaN(serviceMs)) this.offsetMs = serviceMs - this.local.now();
  }

  now(): number {
    return this.local.now() + this.offsetMs;
  }
}

/** The now relative times are of: the service's when the context has learnt it, else the local clock's. */
export function serviceNow(ctx: { clock: Clock; serviceClock?: ServiceClock }): number {
  return (ctx.serviceClock ?? ctx.clock).now();
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
