// errorFormat 'problem': errors as RFC 9457 problem documents (the alternate
// description's form) with the same stable `code`, issues and extra fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox({ errorFormat: 'problem' });
});
afterAll(() => t.close());

describe('problem documents', () => {
  it('answers errors as application/problem+json with type, title, status, detail and code', async () => {
    const res = await t.call('GET', '/docs/doc_missing');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body).toEqual({
      type: 'about:blank',
      title: 'DOC_NOT_FOUND',
      status: 404,
      detail: expect.any(String),
      code: 'DOC_NOT_FOUND',
    });
  });

  it('carries issues for invalid input', async () => {
    const res = await t.call('POST', '/spaces', { body: { name: '' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_INPUT');
    expect(res.body.issues).toEqual([{ path: 'name', message: expect.any(String) }]);
  });

  it('carries `latest` for a revision conflict', async () => {
    const doc = (await t.call('POST', '/docs', { body: { markdown: 'v1' } })).body;
    await t.call('PATCH', `/docs/${doc.id}`, { body: { body: 'v2', baseRevision: 1 } });
    const res = await t.call('PATCH', `/docs/${doc.id}`, { body: { body: 'v3', baseRevision: 1 } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('REVISION_CONFLICT');
    expect(res.body.latest).toMatchObject({ revision: 2, body: 'v2' });
  });

  it('keeps 401 and success answers as they are', async () => {
    const denied = await t.call('GET', '/me', { key: null });
    expect(denied.status).toBe(401);
    expect(denied.body.status).toBe(401);
    const ok = await t.call('GET', '/me');
    expect(ok.headers['content-type']).toContain('application/json');
    expect(ok.body.id).toBeTruthy();
  });
});
