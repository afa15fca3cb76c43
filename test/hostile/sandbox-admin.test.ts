// The sandbox's admin routes driven into the ground or polluted: every number
// they take has a bound named in its 400 (an unbounded speed pegged the process,
// 100,000 days with a daily watch ran it out of memory); ids never reach object
// prototypes (PATCH /_sandbox/accounts/__proto__ polluted every account made
// after it); an apiKey already in use is 409, not taken from its account.
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

const admin = (method: string, path: string, body?: unknown) =>
  t.call(method, `/_sandbox/${path}`, { key: null, body });

describe('numbers on the admin routes', () => {
  it.each([
    ['clock/speed', { speed: 1e308 }, 'speed must be a number from 0.001 to 1000000'],
    ['clock/speed', { speed: 0.0001 }, 'speed must be a number from 0.001 to 1000000'],
    ['clock/speed', { speed: '60' }, 'speed must be a number from 0.001 to 1000000'],
    ['clock/advance', { days: 100_000 }, 'days must be a number from 0 to 366'],
    ['clock/advance', { days: 200, hours: 24 * 200 }, 'an advance is at most 366 days (31622400000 ms) at a time'],
    ['clock/advance', { ms: 1e308 }, 'ms must be a number from 0 to 31622400000'],
    ['clock/advance', { hours: -1, days: 1 }, 'hours must be a number from 0 to 8784'],
    ['rate-limit', { perMinute: 1e308 }, 'perMinute must be a whole number from 0 to 1000000'],
    ['faults', { kind: '503', count: 1e9 }, 'count must be a whole number from 1 to 10000'],
    ['faults', { kind: 'slow', ms: 1e12 }, 'ms must be a whole number from 0 to 600000'],
  ])('POST %s %j: 400 naming the bound', async (path, body, message) => {
    const before = (await admin('GET', 'clock')).body;
    const res = await admin('POST', path, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_INPUT', message });
    const after = (await admin('GET', 'clock')).body;
    expect(after.speed).toBe(before.speed);
    expect(after.now - before.now).toBeLessThan(60_000);
  });

  it('the largest advance allowed, with a daily watch, is answered and the sandbox goes on', async () => {
    const created = await t.call('POST', '/watches', {
      body: { intent: 'Daily news about solar panels', cadence: 'daily', visibility: 'private' },
    });
    expect(created.status).toBe(202);
    const started = Date.now();
    const res = await admin('POST', 'clock/advance', { days: 366 });
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect((await t.call('GET', '/me')).status).toBe(200);
    // The daily watch wrote its briefs through the year (the advance did the work, not nothing).
    const events = (await admin('GET', 'events')).body.events;
    expect(events.length).toBeGreaterThan(0);
  }, 60_000);

  it('account numbers beyond the safe integers are refused', async () => {
    const res = await admin('PATCH', `accounts/${t.sandbox.accountId}`, { storageUsed: 1e308 });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('/storageUsed must be from');
  });
});

describe('ids and object prototypes', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    'PATCH /_sandbox/accounts/%s is 404, and accounts made afterwards inherit nothing',
    async (id) => {
      const res = await admin('PATCH', `accounts/${id}`, { credits: 777, emailVerified: false, lang: 'zh' });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('ACCOUNT_NOT_FOUND');
      expect((await admin('GET', `accounts/${id}`)).status).toBe(404);
      const made = await admin('POST', 'accounts', {});
      expect(made.status).toBe(201);
      const me = (await t.call('GET', '/me', { key: made.body.apiKey })).body;
      expect(me).toMatchObject({ emailVerified: true, lang: 'en' });
      expect(me.credits.total).not.toBe(777);
      expect(({} as Record<string, unknown>).credits).toBeUndefined();
      expect(({} as Record<string, unknown>).emailVerified).toBeUndefined();
    },
  );

  it.each(['__proto__', 'constructor'])('a bearer key named %s is no account (401)', async (key) => {
    const res = await t.call('GET', '/me', { key, validate: false });
    expect(res.status).toBe(401);
  });

  it.each(['/watches/__proto__', '/watches/constructor', '/briefs/__proto__', '/watches/by-slug/constructor'])(
    'GET %s is an answer, never a crash (no 500)',
    async (path) => {
      const res = await t.call('GET', path, { validate: false });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    },
  );

  it('a state whose journal names __proto__ sets no prototype when it is loaded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kagent-admin-proto-'));
    try {
      const stateFile = join(dir, 'state.json');
      await (await startTestSandbox({ stateFile })).close();
      const journal = readFileSync(`${stateFile}.journal`, 'utf8');
      const line = JSON.stringify([
        ['s', ['__proto__', 'polluted'], 'yes'],
        ['s', ['accounts', '__proto__', 'polluted'], 'yes'],
        ['s', ['constructor', 'prototype', 'polluted'], 'yes'],
      ]);
      writeFileSync(`${stateFile}.journal`, `${journal}${line}\n`);
      const again = await startTestSandbox({ stateFile });
      try {
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect((await again.call('GET', '/me')).status).toBe(200);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('an apiKey already in use', () => {
  it('POST /_sandbox/accounts with it is 409 KEY_IN_USE, and the key stays with its account', async () => {
    const res = await admin('POST', 'accounts', { apiKey: t.apiKey, email: 'thief@example.test' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('KEY_IN_USE');
    const me = (await t.call('GET', '/me')).body;
    expect(me.id).toBe(t.sandbox.accountId);
    const fresh = await admin('POST', 'accounts', { apiKey: 'kak_a_new_key_for_admin_test' });
    expect(fresh.status).toBe(201);
    expect((await t.call('GET', '/me', { key: 'kak_a_new_key_for_admin_test' })).body.id).toBe(fresh.body.account.id);
  });
});
