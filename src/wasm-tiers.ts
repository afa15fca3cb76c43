// V8's WebAssembly tiers, which are process-wide. The first API request runs
// with Liftoff (the baseline compiler) only: undici compiles its llhttp parser
// then, and the optimising tier would cost ~120 ms of CPU at start-up (measured
// on Node 20: 259 ms → 131 ms for one GET from a fresh process, `node -e 0`
// being ~85 ms); parsing response headers with baseline code is plenty fast.
// A module compiled while the window is open stays baseline for good, so the
// window closes as soon as the first request has settled.
// node:v8 is required here, on the first request through undici, not imported at
// the top: loading it (and the heap utilities it brings) costs every API call
// start-up time, and most never go through undici (node-wire.ts).
import { createRequire } from 'node:module';

/** Runs `work` with WebAssembly compiled by Liftoff only; V8's default tiers are back once it settles. */
export function baselineWasmDuring<T>(work: () => Promise<T>): Promise<T> {
  const { setFlagsFromString } = createRequire(import.meta.url)('node:v8') as typeof import('node:v8');
  // --liftoff-only also turns tier-up off; all three go back to V8's defaults.
  const restore = () => {
    for (const flag of ['--no-liftoff-only', '--wasm-tier-up', '--wasm-dynamic-tiering']) setFlagsFromString(flag);
  };
  setFlagsFromString('--liftoff-only');
  const running = work();
  running.then(restore, restore);
  return running;
}
