// The service's clock as its answers tell it (src/http/service-clock.ts): a real
// service's Date header (whole seconds), the sandbox's sandbox-now (milliseconds),
// nothing usable (the local clock).
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/http/clock.js';
import { ServiceClock, serviceNow } from '../../src/http/service-clock.js';

const LOCAL = Date.UTC(2026, 11, 7, 12, 0, 0, 250);
const local: Clock = { now: () => LOCAL, sleep: async () => undefined };

describe('ServiceClock', () => {
  it('the Date header: the end of its second, so nothing done shows in the future', () => {
    const clock = new ServiceClock(local);
    clock.observe({ date: new Date(LOCAL + 3_600_000).toUTCString() });
    expect(clock.now()).toBe(Date.UTC(2026, 11, 7, 13, 0, 0, 999));
  });

  it("the sandbox's own clock wins over Date, to the millisecond", () => {
    const clock = new ServiceClock(local);
    clock.observe({ date: new Date(LOCAL).toUTCString(), 'sandbox-now': '2026-12-07T12:14:00.123Z' });
    expect(clock.now()).toBe(Date.UTC(2026, 11, 7, 12, 14, 0, 123));
  });

  it('no usable header: the last offset stays (none yet: the local clock)', () => {
    const clock = new ServiceClock(local);
    clock.observe({ date: 'not a date' });
    expect(clock.now()).toBe(LOCAL);
    clock.observe({ 'sandbox-now': '2026-12-07T12:01:00.250Z' });
    clock.observe({});
    expect(clock.now()).toBe(LOCAL + 60_000);
  });

  it('serviceNow: the local clock when the context has no service clock', () => {
    expect(serviceNow({ clock: local })).toBe(LOCAL);
  });
});
