// Rate limit: 60 requests per minute per account by default; beyond it 429
// RATE_LIMITED with Retry-After; configurable, and off with 0.
import { afterEach, describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/sandbox/ratelimit.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let t: TestSandbox | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('rate limit', () => {
  it('allows 60 requests a minute by default and answers the 61st with 429 RATE_LIMITED and Retry-After', async () => {
    t = await startTestSandbox({ rateLimit: undefined });
    for (let i = 0; i < 60; i++) expect((await t.call('GET', '/spaces')).status).toBe(200);
    const res = await t.call('GET', '/spaces');
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe('RATE_LIMITED');
    const retryAfter = Number(res.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('counts every endpoint, writes included', async () => {
    t = await startTestSandbox({ rateLimit: 3 });
    expect((await t.call('GET', '/me')).status).toBe(200);
    expect((await t.call('POST', '/docs', { body: {} })).status).toBe(201);
    expect((await t.call('GET', '/library')).status).toBe(200);
    expect((await t.call('POST', '/docs', { body: {} })).status).toBe(429);
  });

  it('does not do the work of a rate-limited request', async () => {
    t = await startTestSandbox({ rateLimit: 1 });
    await t.call('GET', '/me');
    expect((await t.call('POST', '/spaces', { body: { name: 'Limited' } })).status).toBe(429);
    t.sandbox.limiter.reset();
    const spaces = await t.call('GET', '/spaces');
    expect(spaces.body.items.map((s: any) => s.name)).not.toContain('Limited');
  });

  it('keeps one budget per account, shared by all keys of that account', async () => {
    t = await startTestSandbox({ rateLimit: 2 });
    const other = await t.newAccount();
    const secondKey = (await t.call('POST', `/_sandbox/accounts/${t.sandbox.accountId}/keys`, { key: null })).body
      .apiKey as string;
    expect((await t.call('GET', '/me')).status).toBe(200);
    expect((await t.call('GET', '/me', { key: secondKey })).status).toBe(200);
    expect((await t.call('GET', '/me', { key: secondKey })).status).toBe(429);
    expect((await t.call('GET', '/me')).status).toBe(429);
    expect((await t.call('GET', '/me', { key: other.apiKey })).status).toBe(200);
  });

  it('answers 401 rather than 429 for requests without a valid key, and does not count them', async () => {
    t = await startTestSandbox({ rateLimit: 1 });
    for (let i = 0; i < 3; i++) expect((await t.call('GET', '/me', { key: 'kak_wrong' })).status).toBe(401);
    expect((await t.call('GET', '/me')).status).toBe(200);
  });

  it('never limits the API description or the admin routes', async () => {
    t = await startTestSandbox({ rateLimit: 1 });
    await t.call('GET', '/me');
    for (let i = 0; i < 5; i++) {
      expect((await t.call('GET', '/openapi.json', { key: null })).status).toBe(200);
      expect((await t.call('GET', '/_sandbox/clock', { key: null })).status).toBe(200);
    }
  });

  it('gives the budget back a minute later, also when the sandbox clock is moved a minute', async () => {
    t = await startTestSandbox({ rateLimit: 2 });
    await t.call('GET', '/me');
    await t.call('GET', '/me');
    const limited = await t.call('GET', '/me');
    expect(limited.status).toBe(429);
    await t.advance(Number(limited.headers['retry-after']) * 1000);
    expect((await t.call('GET', '/me')).status).toBe(200);
  });

  it('is not made more lenient by the clock speed', async () => {
    t = await startTestSandbox({ rateLimit: 2, speed: 3600 });
    await t.call('GET', '/me');
    await t.call('GET', '/me');
    expect((await t.call('GET', '/me')).status).toBe(429);
  });

  it('is off with 0', async () => {
    t = await startTestSandbox({ rateLimit: 0 });
    for (let i = 0; i < 150; i++) expect((await t.call('GET', '/spaces')).status).toBe(200);
  });

  it('can be changed at run time through the admin route', async () => {
    t = await startTestSandbox({ rateLimit: 0 });
    const set = await t.call('POST', '/_sandbox/rate-limit', { key: null, body: { perMinute: 2 } });
    expect(set.body).toEqual({ perMinute: 2 });
    await t.call('GET', '/me');
    await t.call('GET', '/me');
    expect((await t.call('GET', '/me')).status).toBe(429);
    await t.call('POST', '/_sandbox/rate-limit', { key: null, body: { perMinute: 0 } });
    expect((await t.call('GET', '/me')).status).toBe(200);
    expect((await t.call('POST', '/_sandbox/rate-limit', { key: null, body: { perMinute: -1 } })).status).toBe(400);
  });
});

describe('the sliding window (a clock of our own instead of waiting a minute)', () => {
  it('frees a slot exactly one minute after the oldest request, and says how long to wait', () => {
    let now = 1_000_000;
    const limiter = new RateLimiter(2, () => now);
    expect(limiter.take('acc')).toBe(0);
    now += 10_000;
    expect(limiter.take('acc')).toBe(0);
    now += 5_000;
    expect(limiter.take('acc')).toBe(45_000);
    now += 45_000;
    expect(limiter.take('acc')).toBe(0);
    expect(limiter.take('acc')).toBe(10_000);
  });
});
