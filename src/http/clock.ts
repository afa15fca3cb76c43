// The real clock. Everything that waits (backoff, pacing, polling) takes a Clock
// so tests can drive time instead of sleeping.
import { abortError } from '../errors.js';
/** What waits: the real clock below, or a test's that drives time. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => abortableSleep(ms, signal),
};

/** setTimeout as a promise that rejects, when aborted, with what the abort means (errors.ts abortError): the deadline's error or InterruptedError. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
