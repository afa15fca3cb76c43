// A Clock for command tests that drives the sandbox's clock: sleeping N ms
// advances sandbox time by N ms (running the background work that comes due)
// and returns at once. Polling commands (task followers) then see the sandbox
// move exactly as far as they waited, with no real sleeping.
import type { Clock } from '../../src/http/clock.js';
import type { TestSandbox } from './sandbox.js';

export interface SandboxClock extends Clock {
  /** Every duration asked of sleep(), in order. */
  sleeps: number[];
  /** Called before each sleep (e.g. to abort the run as Ctrl-C would). */
  onSleep?: (ms: number, count: number) => void;
}

export function sandboxClock(t: TestSandbox): SandboxClock {
  const world = t.sandbox.world;
  const clock: SandboxClock = {
    sleeps: [],
    now: () => world.now(),
    sleep(ms, signal) {
      clock.sleeps.push(ms);
      clock.onSleep?.(ms, clock.sleeps.length);
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        world.advance(Math.max(0, ms));
        setImmediate(resolve);
      });
    },
  };
  return clock;
}
