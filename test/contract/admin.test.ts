// Sandbox-only admin routes under /_sandbox/: accounts and keys, credits,
// verification and limits, the clock, stats and scheduled events. Also the
// answers for paths and methods the API does not have.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Me } from '../../src/api/shapes.js';
import { validate } from '../../src/api/validate.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

const admin = (method: string, path: string, body?: unknown, key: string | null = null) =>
  t.call(method, `/_sandbox/${path}`, { key, body });

describe('admin routes', () => {
  it('lists themselves at /_sandbox/', async () => {
    const res = await admin('GET', '');
    expect(res.status).toBe(200);
    expect(res.body.routes.join('\n')).toContain('/_sandbox/clock/advance');
  });

  it('creates accounts with credits, limits and verification, each with a working key', async () => {
    const res = await admin('POST', 'accounts', {
      email: 'ci@example.test',
      credits: 5,
      emailVerified: false,
      limits: { fileBytes: 1234 },
      lang: 'zh',
    });
    expect(res.status).toBe(201);
    const { account, apiKey } = res.body;
    const me = (await t.call('GET', '/me', { key: apiKey })).body;
    expect(me).toMatchObject({ id: account.id, email: 'ci@example.test', emailVerified: false, lang: 'zh' });
    expect(me.credits.total).toBe(5);
    expect(me.limits.fileBytes).toBe(1234);
    const spaces = (await t.call('GET', '/spaces', { key: apiKey })).body.items;
    expect(spaces.filter((s: any) => s.isDefault)).toHaveLength(1);
  });

  it('reads and changes an account; adds keys', async () => {
    const { account } = (await admin('POST', 'accounts', {})).body;
    expect((await admin('GET', `accounts/${account.id}`)).body.id).toBe(account.id);
    const patched = await admin('PATCH', `accounts/${account.id}`, {
      credits: 42,
      emailVerified: false,
      limits: { follows: 1 },
      storageUsed: 10,
    });
    expect(patched.status).toBe(200);
    const key = (await admin('POST', `accounts/${account.id}/keys`)).body.apiKey;
    const me = (await t.call('GET', '/me', { key })).body;
    expect(me).toMatchObject({ id: account.id, emailVerified: false });
    expect(me.credits.total).toBe(42);
    expect(me.limits.follows).toBe(1);
    expect(me.usage.storageBytes).toBe(10);
    expect((await admin('GET', 'accounts/acc_missing')).status).toBe(404);
  });

  it('acts on the bearer key’s account through /_sandbox/account', async () => {
    const { apiKey } = (await admin('POST', 'accounts', {})).body;
    expect((await admin('PATCH', 'account', { credits: 7 }, apiKey)).status).toBe(200);
    expect((await t.call('GET', '/me', { key: apiKey })).body.credits.total).toBe(7);
    expect((await admin('GET', 'account')).status).toBe(401);
  });

  it('checks account changes against the shapes GET /me then serves: 400 INVALID_INPUT with issues, nothing changed', async () => {
    const { account, apiKey } = (await admin('POST', 'accounts', { credits: 10 })).body;
    const before = (await t.call('GET', '/me', { key: apiKey })).body;
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ credits: [{ pool: 'monthly', remaining: 5, total: 5 }] }, 'credits.0.resetsAt'],
      [{ credits: [{ pool: 'monthly', remaining: '5', total: 5, resetsAt: null }] }, 'credits.0.remaining'],
      [{ credits: [{ pool: 'bonus', remaining: 1, total: null, resetsAt: 'next week' }] }, 'credits.0.resetsAt'],
      [{ credits: 'lots' }, 'credits'],
      [{ limits: { follows: 'many' } }, 'limits.follows'],
      [{ limits: { fileBytes: 1.5 } }, 'limits.fileBytes'],
      [{ plan: { id: 'pro' } }, 'plan.name'],
      [{ trial: { active: 'yes', endsAt: null } }, 'trial.active'],
      [{ emailVerified: 'no' }, 'emailVerified'],
      [{ storageUsed: -1 }, 'storageUsed'],
      [{ watchesThisMonth: 0.5 }, 'watchesThisMonth'],
      [{ lang: 'fr' }, 'lang'],
    ];
    for (const [patch, path] of bad) {
      const res = await admin('PATCH', `accounts/${account.id}`, patch);
      expect(res.status, JSON.stringify(patch)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_INPUT');
      expect(res.body.error.issues.map((i: any) => i.path)).toContain(path);
    }
    const created = await admin('POST', 'accounts', { credits: [{ pool: 'monthly', remaining: 1, total: 1 }] });
    expect(created.status).toBe(400);
    expect((await admin('POST', 'accounts', { limits: { follows: 'x' } })).status).toBe(400);
    const after = (await t.call('GET', '/me', { key: apiKey })).body;
    expect(after).toEqual(before);
    expect(validate(Me, after)).toEqual([]);

    // Pools set in full, with resetsAt (null for a pool that never resets): /me keeps its shape.
    const pools = [
      { pool: 'monthly', remaining: 5, total: 10, resetsAt: '2030-01-01T00:00:00.000Z' },
      { pool: 'bonus', remaining: 2, total: null, resetsAt: null },
    ];
    expect(
      (
        await admin('PATCH', `accounts/${account.id}`, {
          credits: pools,
          trial: { active: true, endsAt: null },
          plan: { id: 'pro', name: 'Pro' },
        })
      ).status,
    ).toBe(200);
    const me = (await t.call('GET', '/me', { key: apiKey })).body;
    expect(validate(Me, me)).toEqual([]);
    expect(me.credits).toEqual({ total: 7, pools });
    const withPools = (await admin('POST', 'accounts', { credits: pools })).body;
    const fresh = (await t.call('GET', '/me', { key: withPools.apiKey })).body;
    expect(fresh.credits).toEqual({ total: 7, pools });
    expect(validate(Me, fresh)).toEqual([]);
  });

  it('reads and advances the clock', async () => {
    const before = (await admin('GET', 'clock')).body;
    expect(before.iso).toBe(new Date(before.now).toISOString());
    const after = (await admin('POST', 'clock/advance', { hours: 2, minutes: 30 })).body;
    expect(after.now - before.now).toBeGreaterThanOrEqual(2.5 * 3600_000);
    expect(after.now - before.now).toBeLessThan(2.5 * 3600_000 + 5000);
    expect((await admin('POST', 'clock/advance', { ms: -5 })).status).toBe(400);
  });

  it('changes the clock speed', async () => {
    const res = await admin('POST', 'clock/speed', { speed: 60 });
    expect(res.body.speed).toBe(60);
    await admin('POST', 'clock/speed', { speed: 1 });
    expect((await admin('POST', 'clock/speed', { speed: 0 })).status).toBe(400);
  });

  it('counts requests, executions and statuses, and resets the counts', async () => {
    await admin('DELETE', 'stats');
    await t.call('GET', '/me');
    await t.call('GET', '/me', { key: 'kak_bad' });
    const stats = (await admin('GET', 'stats')).body;
    expect(stats.requests.getMe).toBe(2);
    expect(stats.executions.getMe).toBe(1);
    expect(stats.statuses['401']).toBe(1);
  });

  it('shows scheduled background work', async () => {
    const res = await admin('GET', 'events');
    expect(Array.isArray(res.body.events)).toBe(true);
  });

  it('answers 404 for an unknown admin route', async () => {
    expect((await admin('GET', 'nothing-here')).status).toBe(404);
  });
});

describe('paths and methods outside the API', () => {
  it('answers 404 for an unknown path, with the error envelope', async () => {
    const res = await t.call('GET', '/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect((await t.call('GET', '/api/v2/me')).status).toBe(404);
  });

  it('answers 405 for a method a path does not take', async () => {
    const res = await t.call('PUT', '/me');
    expect(res.status).toBe(405);
    expect(res.body.error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('a 405 carries an Allow header listing the methods the path takes (RFC 9110)', async () => {
    expect((await t.call('PUT', '/me')).headers.allow).toBe('GET');
    const docs = await t.call('PUT', '/docs/doc_x');
    expect(docs.status).toBe(405);
    expect(docs.headers.allow!.split(', ').sort()).toEqual(['DELETE', 'GET', 'PATCH']);
    const spaces = await t.call('DELETE', '/spaces');
    expect(spaces.headers.allow!.split(', ').sort()).toEqual(['GET', 'POST']);
  });

  it('answers 400 INVALID_INPUT for a body that is not JSON', async () => {
    const res = await t.call('POST', '/spaces', { raw: '{not json', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_INPUT');
    expect(res.body.error.issues).toHaveLength(1);
  });
});
