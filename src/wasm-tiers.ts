// V8's WebAssembly tiers, which are process-wide. The first API request runs
// with Liftoff (the baseline compiler) only: undici compiles its llhttp parser
// then, and the optimising tier would cost ~120 ms of CPU at start-up (measured
// on Node 20: 259 ms → 131 ms for one GET from a fresh process, `node -e 0`
// being ~85 ms); parsing response headers with baseline code is plenty fast.
//
// A module compiled while that window is open stays baseline for good — in
// worker threads too: the xxHash of a large upload's key ran ~3× slower. So the
// window closes as soon as the first request has settled, and the two never
// overlap: code that needs fast WebAssembly compiles it inside
// `optimisedWasmDuring`, which waits for an open window to close, and a window
// waits for such compiles to finish. (Code compiled before the window runs at
// full speed through it: measured.)
import { setFlagsFromString } from 'node:v8';

let window: Promise<void> | undefined;
const compiling = new Set<Promise<unknown>>();

/** Runs `work` with WebAssembly compiled by Liftoff only; V8's default tiers are back once it settles. */
export function baselineWasmDuring<T>(work: () => Promise<T>): Promise<T> {
  // --liftoff-only also turns tier-up off; all three go back to V8's defaults.
  const restore = () => {
    for (const flag of ['--no-liftoff-only', '--wasm-tier-up', '--wasm-dynamic-tiering']) setFlagsFromString(flag);
  };
  const start = () => {
    setFlagsFromString('--liftoff-only');
    return work();
  };
  const running = compiling.size === 0 ? start() : Promise.allSettled([...compiling]).then(start);
  window = running.then(restore, restore);
  return running;
}

/** Runs `compile` outside any baseline window (waiting for an open one to close), and keeps windows out until it settles. */
export function optimisedWasmDuring<T>(compile: () => Promise<T>): Promise<T> {
  const running = window ? window.then(compile) : compile();
  compiling.add(running);
  const done = () => compiling.delete(running);
  running.then(done, done);
  return running;
}
