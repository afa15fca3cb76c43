// Following background work: adaptive interval, change detection, timeout and Ctrl-C.
import { describe, expect, it } from 'vitest';
import { ExitCode, InterruptedError, StillRunningError } from '../../src/errors.js';
import { poll } from '../../src/http/poll.js';
import { createFakeClock } from '../helpers/fault-server.js';

/** A task whose status follows a script, one entry per fetch (the last one repeats). */
function scripted(states: string[]) {
  let calls = 0;
  return {
    fetch: async () => ({ status: states[Math.min(calls++, states.length - 1)]! }),
    get calls() {
      return calls;
    },
  };
}

describe('poll', () => {
  it('grows the interval ×1.5 up to 10 s while nothing changes, and resets it on change', async () => {
    const clock = createFakeClock();
    const task = scripted([
      'queued',
      'queued',
      'queued',
      'queued',
      'queued',
      'queued',
      'queued',
      'running',
      'running',
      'done',
    ]);
    const updates: string[] = [];
    const result = await poll({
      fetch: task.fetch,
      isDone: (t) => t.status === 'done',
      fingerprint: (t) => t.status,
      onUpdate: (t) => updates.push(t.status),
      clock,
    });
    expect(result.status).toBe('done');
    expect(updates).toEqual(['queued', 'running', 'done']);
    expect(clock.sleeps).toEqual([1000, 1500, 2250, 3375, 5063, 7595, 10000, 1000, 1500]);
  });

  it('firstMs waits before the first look; resetOnChange false keeps backing off through changes (the chat schedule)', async () => {
    const clock = createFakeClock();
    const task = scripted(['a', 'b', 'c', 'd', 'e', 'f', 'done']);
    const updates: string[] = [];
    await poll({
      fetch: task.fetch,
      isDone: (t) => t.status === 'done',
      fingerprint: (t) => t.status,
      onUpdate: (t) => updates.push(t.status),
      clock,
      firstMs: 1000,
      minMs: 1000,
      maxMs: 4000,
      factor: 1.5,
      resetOnChange: false,
    });
    expect(updates).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'done']);
    expect(clock.sleeps).toEqual([1000, 1000, 1500, 2250, 3375, 4000, 4000]);
  });

  it('returns at once when the work is already done', async () => {
    const clock = createFakeClock();
    const task = scripted(['done']);
    await poll({ fetch: task.fetch, isDone: (t) => t.status === 'done', clock });
    expect(task.calls).toBe(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('--timeout: StillRunningError (exit 8) with the resume hint, after a last look at the deadline', async () => {
    const clock = createFakeClock();
    const start = clock.now();
    const task = scripted(['running']);
    const error = await poll({
      fetch: task.fetch,
      isDone: (t) => t.status === 'done',
      timeoutMs: 30_000,
      clock,
      resumeHint: 'follow it again with: kagent task show t_1 --follow',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StillRunningError);
    expect((error as StillRunningError).exitCode).toBe(ExitCode.TIMEOUT);
    expect((error as StillRunningError).message).toMatch(/still running after 30 s/);
    expect((error as StillRunningError).hint).toBe('follow it again with: kagent task show t_1 --follow');
    expect(clock.now() - start).toBe(30_000);
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBe(30_000);
  });

  it('Ctrl-C while waiting: InterruptedError (exit 130) with the resume hint', async () => {
    const clock = createFakeClock();
    const controller = new AbortController();
    const task = scripted(['running']);
    const error = await poll({
      fetch: async () => {
        const value = await task.fetch();
        if (task.calls === 3) setImmediate(() => controller.abort());
        return value;
      },
      isDone: () => false,
      signal: controller.signal,
      clock,
      resumeHint: 'kagent task show t_1 --follow',
      work: 'the task',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InterruptedError);
    expect((error as InterruptedError).exitCode).toBe(ExitCode.INTERRUPTED);
    // What goes on, said in the one quiet line Ctrl-C prints (src/io/report.ts).
    expect((error as InterruptedError).message).toBe('the task goes on');
    expect((error as InterruptedError).hint).toBe('kagent task show t_1 --follow');
    expect(task.calls).toBe(3);
  });

  it('Ctrl-C during a fetch also ends with exit 130', async () => {
    const controller = new AbortController();
    const error = await poll({
      fetch: async () => {
        controller.abort();
        throw new Error('request aborted');
      },
      isDone: () => false,
      signal: controller.signal,
      clock: createFakeClock(),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InterruptedError);
  });

  it('other fetch errors pass through unchanged', async () => {
    const boom = new Error('boom');
    await expect(
      poll({ fetch: async () => Promise.reject(boom), isDone: () => true, clock: createFakeClock() }),
    ).rejects.toBe(boom);
  });

  it('without a fingerprint, any difference in the value counts as a change', async () => {
    const clock = createFakeClock();
    const values = [{ n: 1 }, { n: 1 }, { n: 2 }, { n: 2, done: true }];
    let i = 0;
    const seen: number[] = [];
    await poll({ fetch: async () => values[i++]!, isDone: (v) => 'done' in v, onUpdate: (v) => seen.push(v.n), clock });
    expect(seen).toEqual([1, 2, 2]);
    expect(clock.sleeps).toEqual([1000, 1500, 1000]);
  });
});
