// Authentication: only a valid bearer key gets in; cookies never count; the
// published API description needs no key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

describe('authentication', () => {
  it('accepts the bearer API key', async () => {
    const res = await t.call('GET', '/me');
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(t.sandbox.accountId);
  });

  it('answers 401 without an Authorization header', async () => {
    const res = await t.call('GET', '/me', { key: null });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHENTICATED');
    expect(typeof res.body.error.message).toBe('string');
  });

  it('answers 401 for a key that does not exist', async () => {
    const res = await t.call('GET', '/spaces', { key: 'kak_not-a-real-key' });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHENTICATED');
  });

  it('answers 401 for a non-bearer scheme carrying a valid key', async () => {
    const res = await t.call('GET', '/me', { headers: { authorization: `Basic ${t.apiKey}` } });
    expect(res.status).toBe(401);
  });

  it('ignores cookies: a cookie-only request is 401', async () => {
    const res = await t.call('GET', '/me', {
      key: null,
      headers: { cookie: `session=${t.apiKey}; token=${t.apiKey}; apiKey=${t.apiKey}` },
    });
    expect(res.status).toBe(401);
  });

  it('answers 401 before validating input', async () => {
    const res = await t.call('POST', '/spaces', { key: null, body: { name: '' } });
    expect(res.status).toBe(401);
  });

  it('serves the API description without a key', async () => {
    const res = await t.call('GET', '/openapi.json', { key: null });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
  });

  it('keeps accounts apart: each key sees its own data', async () => {
    const other = await t.newAccount();
    const created = await t.call('POST', '/spaces', { key: other.apiKey, body: { name: 'Only mine' } });
    expect(created.status).toBe(201);
    const mine = await t.call('GET', '/spaces');
    expect(mine.body.items.map((s: any) => s.name)).not.toContain('Only mine');
    const theirs = await t.call('GET', '/spaces', { key: other.apiKey });
    expect(theirs.body.items.map((s: any) => s.name)).toContain('Only mine');
  });
});
