// Idempotency on every create-style endpoint: the same Idempotency-Key within
// 24 hours replays the first answer (`idempotent-replayed: true`) without doing
// the work again; a different body is 422; a retry while the first call still
// runs is 409 IDEMPOTENCY_IN_PROGRESS; keys are at most 200 characters.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { OperationId } from '../../src/api/operations.js';
import { routes } from '../../src/sandbox/routes/index.js';
import type { CallResult } from '../helpers/sandbox.js';
import { accountId, key, t, useAccountPerTest } from '../helpers/account-per-test.js';

// A fresh account per test: lists start empty.
useAccountPerTest();

interface CreateStyle {
  op: OperationId;
  success: number;
  send(idempotencyKey: string | undefined, variant: 'a' | 'b'): Promise<CallResult>;
}

const json =
  (method: string, path: string, bodies: Record<'a' | 'b', unknown>) =>
  (idempotencyKey: string | undefined, variant: 'a' | 'b') =>
    t.call(method, path, {
      key,
      body: bodies[variant],
      headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
    });

const createStyle: CreateStyle[] = [
  { op: 'createSpace', success: 201, send: json('POST', '/spaces', { a: { name: 'Alpha' }, b: { name: 'Beta' } }) },
  {
    op: 'saveLink',
    success: 201,
    send: json('POST', '/library', { a: { url: 'https://example.com/a' }, b: { url: 'https://example.com/b' } }),
  },
  { op: 'createDoc', success: 201, send: json('POST', '/docs', { a: { title: 'A' }, b: { title: 'B' } }) },
  {
    op: 'uploadFile',
    success: 201,
    send: (idempotencyKey, variant) =>
      t.call('POST', '/library/files', {
        key,
        raw: `contents of file ${variant}`,
        headers: { 'x-file-name': `${variant}.txt`, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
      }),
  },
  {
    op: 'createWatch',
    success: 202,
    send: json('POST', '/watches', {
      a: { intent: 'Track lighthouse restoration news' },
      b: { intent: 'Track canal boat prices' },
    }),
  },
  {
    op: 'startMedia',
    success: 202,
    send: json('POST', '/media', {
      a: { url: 'https://www.youtube.com/watch?v=aaaaaaaaaaa' },
      b: { url: 'https://www.youtube.com/watch?v=bbbbbbbbbbb' },
    }),
  },
  {
    op: 'sendMessage',
    success: 202,
    send: json('POST', '/conversations/messages', { a: { text: 'Hello there' }, b: { text: 'Something else' } }),
  },
];

const executions = async (op: OperationId): Promise<number> =>
  (await t.call('GET', '/_sandbox/stats', { key: null })).body.executions[op] ?? 0;

describe.each(createStyle)('$op', ({ op, success, send }) => {
  it('has a route in the sandbox', () => {
    expect(routes[op], op).toBeDefined();
  });

  it('replays the first answer for the same key, with idempotent-replayed: true, doing the work once', async () => {
    const before = await executions(op);
    const first = await send('key-1', 'a');
    expect(first.status).toBe(success);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await send('key-1', 'a');
    expect(again.status).toBe(success);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await executions(op)).toBe(before + 1);
  });

  it('answers 422 for the same key with a different body', async () => {
    expect((await send('key-2', 'a')).status).toBe(success);
    const res = await send('key-2', 'b');
    expect(res.status).toBe(422);
    expect(typeof res.body.error.code).toBe('string');
    expect(typeof res.body.error.message).toBe('string');
  });

  it('does the work again without a key, or with another key', async () => {
    const before = await executions(op);
    await send(undefined, 'a');
    await send('key-3', 'b');
    await send('key-4', 'b');
    expect(await executions(op)).toBe(before + 3);
  });

  it('forgets a key after 24 hours', async () => {
    await send('key-5', 'a');
    await t.advance(24 * 3600_000 + 1000);
    const later = await send('key-5', 'a');
    expect(later.headers['idempotent-replayed']).toBeUndefined();
  });

  it('accepts keys of 200 characters and refuses longer ones with 400 INVALID_INPUT', async () => {
    expect((await send('k'.repeat(200), 'a')).status).toBe(success);
    const res = await send('k'.repeat(201), 'b');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_INPUT');
    expect(res.body.error.issues[0].path).toBe('Idempotency-Key');
  });
});

describe('idempotency details', () => {
  const createSpace = (name: string, idempotencyKey: string, apiKey = key) =>
    t.call('POST', '/spaces', { key: apiKey, body: { name }, headers: { 'idempotency-key': idempotencyKey } });

  it('answers 409 IDEMPOTENCY_IN_PROGRESS while the first call still runs, then replays it', async () => {
    await t.inject({ kind: 'slow', ms: 400, count: 1, method: 'POST', path: '/api/v1/spaces' });
    const first = createSpace('Slow', 'in-flight');
    await waitUntilRunning('createSpace', 'in-flight');
    const during = await createSpace('Slow', 'in-flight');
    expect(during.status).toBe(409);
    expect(during.body.error.code).toBe('IDEMPOTENCY_IN_PROGRESS');
    expect((await first).status).toBe(201);
    const after = await createSpace('Slow', 'in-flight');
    expect(after.status).toBe(201);
    expect(after.headers['idempotent-replayed']).toBe('true');
    expect(after.body.id).toBe((await first).body.id);
  });

  it('answers 409 while an upload with the same key is still streaming in, and replays it once done', async () => {
    const body = new PassThrough();
    const headers = { 'x-file-name': 'slow.txt', 'content-length': '20', 'idempotency-key': 'upload-1' };
    const first = t.call('POST', '/library/files', { key, raw: body, headers });
    body.write('0123456789');
    await waitUntilRunning('uploadFile', 'upload-1');
    const during = await t.call('POST', '/library/files', { key, raw: '0123456789abcdefghij', headers });
    expect(during.status).toBe(409);
    expect(during.body.error.code).toBe('IDEMPOTENCY_IN_PROGRESS');
    body.end('abcdefghij');
    const done = await first;
    expect(done.status).toBe(201);
    const replay = await t.call('POST', '/library/files', { key, raw: '0123456789abcdefghij', headers });
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(done.body);
    expect((await t.call('GET', '/library', { key })).body.items).toHaveLength(1);
  });

  it('frees the key of an upload whose client went away before its body was read', async () => {
    await t.inject({ kind: 'slow', ms: 300, count: 1, method: 'POST', path: '/api/v1/library/files' });
    const headers = { 'x-file-name': 'gone.txt', 'idempotency-key': 'upload-gone' };
    // Half a body, then the client goes away while the slow answer holds the request.
    const body = new PassThrough();
    const aborted = new AbortController();
    const first = t
      .call('POST', '/library/files', {
        key,
        raw: body,
        headers: { ...headers, 'content-length': '18' },
        signal: aborted.signal,
      })
      .catch(() => 'aborted');
    body.write('the client');
    await waitUntilRunning('uploadFile', 'upload-gone');
    aborted.abort();
    expect(await first).toBe('aborted');
    // Once the slow answer would have come, the key is free again.
    for (let i = 0; i < 100 && t.sandbox.world.state.idempotency[`${accountId} uploadFile upload-gone`]; i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const retry = await t.call('POST', '/library/files', { key, raw: 'the client gave up', headers });
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
  });

  it('treats an upload with another name or size under the same key as a different request (422)', async () => {
    const headers = { 'idempotency-key': 'upload-2' };
    expect(
      (await t.call('POST', '/library/files', { key, raw: 'abc', headers: { ...headers, 'x-file-name': 'a.txt' } }))
        .status,
    ).toBe(201);
    expect(
      (await t.call('POST', '/library/files', { key, raw: 'abc', headers: { ...headers, 'x-file-name': 'b.txt' } }))
        .status,
    ).toBe(422);
    expect(
      (await t.call('POST', '/library/files', { key, raw: 'abcd', headers: { ...headers, 'x-file-name': 'a.txt' } }))
        .status,
    ).toBe(422);
  });

  it('does not keep a failed first call: the same key may be retried after the cause is fixed', async () => {
    await t.patchAccount(accountId, { credits: 0 });
    const send = () =>
      t.call('POST', '/library', {
        key,
        body: { url: 'https://example.com/x' },
        headers: { 'idempotency-key': 'after-402' },
      });
    expect((await send()).status).toBe(402);
    await t.patchAccount(accountId, { credits: 10 });
    const retry = await send();
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
  });

  it('ignores the order of fields in the body', async () => {
    const send = (body: unknown) => t.call('POST', '/spaces', { key, body, headers: { 'idempotency-key': 'order' } });
    const first = await send({ name: 'Ordered', description: 'd' });
    const second = await send({ description: 'd', name: 'Ordered' });
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
  });

  it('keeps keys apart per account', async () => {
    const other = await t.newAccount();
    const mine = await createSpace('Mine', 'shared-key');
    const theirs = await createSpace('Mine', 'shared-key', other.apiKey);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('keeps keys apart per operation', async () => {
    await createSpace('Space', 'one-key');
    const doc = await t.call('POST', '/docs', {
      key,
      body: { title: 'Doc' },
      headers: { 'idempotency-key': 'one-key' },
    });
    expect(doc.status).toBe(201);
    expect(doc.headers['idempotent-replayed']).toBeUndefined();
  });

  async function waitUntilRunning(op: string, idempotencyKey: string): Promise<void> {
    const slot = `${accountId} ${op} ${idempotencyKey}`;
    for (let i = 0; i < 200; i++) {
      if (t.sandbox.world.state.idempotency[slot]?.status === 'running') return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error(`the first ${op} call never started`);
  }
});
