// The Liftoff-only window of the first request and the compiles that must not
// fall into it never overlap, whichever starts first.
import { describe, expect, it } from 'vitest';
import { baselineWasmDuring, optimisedWasmDuring } from '../../src/wasm-tiers.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('wasm tiers', () => {
  it('a window waits for a compile that is running, and a compile waits for an open window', async () => {
    const events: string[] = [];
    const compile = deferred();
    const compiling = optimisedWasmDuring(async () => {
      events.push('compile starts');
      await compile.promise;
      events.push('compile ends');
    });
    const request = deferred();
    const first = baselineWasmDuring(async () => {
      events.push('window opens');
      await request.promise;
      events.push('window closes');
      return 'answer';
    });
    const later = optimisedWasmDuring(async () => {
      events.push('later compile');
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events).toEqual(['compile starts']);
    compile.resolve();
    await compiling;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events).toEqual(['compile starts', 'compile ends', 'window opens']);
    request.resolve();
    expect(await first).toBe('answer');
    await later;
    expect(events).toEqual(['compile starts', 'compile ends', 'window opens', 'window closes', 'later compile']);
  });

  it('a failed compile or request does not hold the other back', async () => {
    await expect(optimisedWasmDuring(() => Promise.reject(new Error('no module')))).rejects.toThrow('no module');
    await expect(baselineWasmDuring(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(await optimisedWasmDuring(async () => 'compiled')).toBe('compiled');
  });
});
