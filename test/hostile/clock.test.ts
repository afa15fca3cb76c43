// A clock set back does not freeze kagent. The shared rate window (a state file
// every kagent process of an account reads) stamps each request with the wall
// clock; stamps made while the clock ran two hours ahead must not hold later
// commands back for two hours once it is put right. Stamps from the future
// beyond one window (the farthest ahead a reservation can lie) are dropped
// when the file is read. Time here is the pacer's injectable clock.
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/http/clock.js';
import { SharedFilePacer } from '../../src/http/shared-pacer.js';
import { tempDir } from '../helpers/run.js';

const HOUR_MS = 3_600_000;

/** A wall clock a test sets; sleep() moves it and records the wait. */
function settableClock(start: number): Clock & { set(ms: number): void; sleeps: number[] } {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    set: (ms) => void (now = ms),
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

function pacerFor(dir: string, clock: Clock): SharedFilePacer {
  return new SharedFilePacer({
    dir,
    baseUrl: 'https://api.example.com/api/v1/',
    apiKey: 'ka_clock',
    ratePerMinute: 5,
    clock,
  });
}

describe('the shared rate window after the clock is set back', () => {
  it('five requests stamped two hours ahead do not hold the next command back', async () => {
    const dir = tempDir('kagent-clock-');
    const real = 1_800_000_000_000;
    const clock = settableClock(real + 2 * HOUR_MS);
    const ahead = pacerFor(dir, clock);
    for (let i = 0; i < 5; i++) expect(await ahead.take()).toBe(0);

    // The clock is put right; a later command (a new pacer on the same file) asks for a slot.
    clock.set(real);
    const later = pacerFor(dir, clock);
    expect(await later.take()).toBe(0);
    expect(clock.sleeps).toEqual([]);
  });

  it('stamps within a window ahead still count (a reservation another process is waiting for)', async () => {
    const dir = tempDir('kagent-clock-');
    const clock = settableClock(1_800_000_000_000);
    const first = pacerFor(dir, clock);
    for (let i = 0; i < 5; i++) await first.take();
    // The window is full: the sixth waits for the first to leave it, a minute (plus the margin) on.
    const waited = await pacerFor(dir, clock).take();
    expect(waited).toBe(61_000);
  });
});
