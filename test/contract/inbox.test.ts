// Inbox: finished tasks, briefs, alerts, suggestions and approvals. Actions
// waiting for a decision come first, then everything else newest first, 30 per
// page; `unread` counts open unread items; done and dismissed items leave the lists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const DAY = 86_400_000;
let t: TestSandbox;
beforeAll(async () => {
  // speed 0: the clock moves only when a test advances it, so timings are exact.
  t = await startTestSandbox({ speed: 0 });
});
afterAll(() => t.close());

type Acc = { accountId: string; apiKey: string };

async function list(acc: Acc | null, query: Record<string, string> = {}) {
  const res = await t.call('GET', '/inbox', { key: acc ? acc.apiKey : undefined, query });
  expect(res.status).toBe(200);
  return res.body as { items: any[]; nextCursor: string | null; unread: number };
}

async function mark(acc: Acc, id: string, body: unknown) {
  return t.call('POST', `/inbox/${id}`, { key: acc.apiKey, body });
}

/** An account with one of each: approval (oldest), task, brief, alert. */
async function busyAccount() {
  const acc = await t.newAccount();
  const chat = await t.call('POST', '/conversations/messages', {
    key: acc.apiKey,
    body: { text: 'Create a doc about kites' },
  });
  expect(chat.status).toBe(202);
  await t.advance(10_000);
  const watch = await t.call('POST', '/watches', {
    key: acc.apiKey,
    body: { intent: 'Kite surfing gear', alerts: ['kite'] },
  });
  expect(watch.status).toBe(202);
  await t.advance(61_000);
  return {
    acc,
    conversationId: chat.body.conversationId as string,
    slug: watch.body.slug as string,
    taskId: watch.body.taskId as string,
  };
}

describe('listInbox', () => {
  it('starts empty for a new account; the default account has a welcome suggestion', async () => {
    const acc = await t.newAccount();
    expect(await list(acc)).toEqual({ items: [], nextCursor: null, unread: 0 });
    const mine = await list(null);
    const welcome = mine.items.find((i) => i.kind === 'suggestion');
    expect(welcome).toMatchObject({
      title: 'Welcome! Ask me anything about what you save',
      read: false,
      done: false,
      dismissed: false,
      action: null,
    });
  });

  it('puts actions waiting first, then the rest newest first, with the unread count', async () => {
    const { acc, slug, taskId } = await busyAccount();
    const box = await list(acc);
    expect(box.items[0].kind).toBe('approval');
    expect(box.items[0].action).toMatchObject({ tool: 'create_doc', status: 'pending' });
    const rest = box.items.slice(1);
    expect(rest.map((i) => i.kind)).toContain('task');
    expect(rest.map((i) => i.kind)).toContain('brief');
    expect(rest.map((i) => i.kind)).toContain('alert');
    const times = rest.map((i) => i.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(rest.find((i) => i.kind === 'task')).toMatchObject({
      taskId,
      title: 'Done: Set up watch: Kite surfing gear',
    });
    expect(rest.find((i) => i.kind === 'brief')).toMatchObject({
      watchSlug: slug,
      briefId: expect.stringMatching(/^br_/),
    });
    expect(box.unread).toBe(box.items.length);
    expect(box.nextCursor).toBeNull();
  });

  it('filters: unread, approval, task, brief (briefs and alerts)', async () => {
    const { acc } = await busyAccount();
    const all = await list(acc);
    expect((await list(acc, { filter: 'all' })).items).toEqual(all.items);
    expect((await list(acc, { filter: 'approval' })).items.map((i) => i.kind)).toEqual(['approval']);
    expect((await list(acc, { filter: 'task' })).items.every((i) => i.kind === 'task')).toBe(true);
    const briefs = (await list(acc, { filter: 'brief' })).items;
    expect(new Set(briefs.map((i) => i.kind))).toEqual(new Set(['brief', 'alert']));
    await mark(acc, all.items[1].id, { read: true });
    const unread = await list(acc, { filter: 'unread' });
    expect(unread.items.map((i) => i.id)).not.toContain(all.items[1].id);
    expect(unread.items).toHaveLength(all.items.length - 1);
    expect(unread.unread).toBe(all.items.length - 1);
    expect((await t.call('GET', '/inbox', { key: acc.apiKey, query: { filter: 'alerts' } })).status).toBe(400);
  });

  it('pages 30 at a time with an opaque cursor', async () => {
    const acc = await t.newAccount();
    for (const slug of ['ai-chips', 'open-source-llms', 'china-ev', 'rust-releases']) {
      expect((await t.call('PUT', `/watches/${slug}/follow`, { key: acc.apiKey, body: {} })).status).toBe(200);
    }
    await t.advance(9 * DAY);
    const first = await list(acc);
    expect(first.items).toHaveLength(30);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await list(acc, { cursor: first.nextCursor as string });
    expect(second.items).toHaveLength(6);
    expect(second.nextCursor).toBeNull();
    const ids = [...first.items, ...second.items].map((i) => i.id);
    expect(new Set(ids).size).toBe(36);
    expect(first.unread).toBe(36);
    expect((await t.call('GET', '/inbox', { key: acc.apiKey, query: { cursor: 'nonsense' } })).status).toBe(400);
    expect((await t.call('GET', '/inbox', { key: acc.apiKey, query: { cursor: 'c'.repeat(201) } })).status).toBe(400);
    expect(
      (
        await t.call('GET', '/inbox', {
          key: acc.apiKey,
          query: { filter: 'brief', cursor: first.nextCursor as string },
        })
      ).status,
    ).toBe(400);
  });

  it('drops a decided approval from the waiting list and marks it done', async () => {
    const { acc } = await busyAccount();
    const approval = (await list(acc, { filter: 'approval' })).items[0];
    await t.call('POST', `/actions/${approval.action.id}/decide`, { key: acc.apiKey, body: { approve: false } });
    expect((await list(acc, { filter: 'approval' })).items).toEqual([]);
    expect((await list(acc)).items.map((i) => i.id)).not.toContain(approval.id);
  });
});

describe('markInboxItem', () => {
  it('marks read and unread; done and dismissed items leave every list and the unread count', async () => {
    const { acc } = await busyAccount();
    const box = await list(acc);
    const [a, b, c] = box.items.slice(1);
    expect((await mark(acc, a.id, { read: true })).status).toBe(204);
    let now = await list(acc);
    expect(now.unread).toBe(box.unread - 1);
    expect(now.items.find((i) => i.id === a.id).read).toBe(true);
    await mark(acc, a.id, { read: false });
    expect((await list(acc)).unread).toBe(box.unread);
    expect((await mark(acc, b.id, { done: true })).status).toBe(204);
    expect((await mark(acc, c.id, { dismissed: true })).status).toBe(204);
    now = await list(acc);
    expect(now.items.map((i) => i.id)).not.toContain(b.id);
    expect(now.items.map((i) => i.id)).not.toContain(c.id);
    expect(now.unread).toBe(box.unread - 2);
    for (const filter of ['unread', 'task', 'brief', 'approval']) {
      const ids = (await list(acc, { filter })).items.map((i) => i.id);
      expect(ids).not.toContain(b.id);
      expect(ids).not.toContain(c.id);
    }
    // Marking an approval done does not decide its action.
    const approval = now.items[0];
    await mark(acc, approval.id, { done: true, read: true });
    const msgs = (await t.call('GET', '/home', { key: acc.apiKey })).body.actions;
    expect(msgs.map((x: any) => x.id)).toContain(approval.action.id);
    // Undone again, it comes back.
    await mark(acc, b.id, { done: false });
    expect((await list(acc)).items.map((i) => i.id)).toContain(b.id);
  });

  it('answers 404 INBOX_ITEM_NOT_FOUND and validates the body', async () => {
    const acc = await t.newAccount();
    const missing = await mark(acc, 'ib_nope', { read: true });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('INBOX_ITEM_NOT_FOUND');
    const mine = (await list(null)).items[0];
    expect((await mark(acc, mine.id, { read: true })).status).toBe(404);
    for (const body of [{}, { read: 'yes' }, { done: 1 }, { dismissed: null }]) {
      const res = await t.call('POST', `/inbox/${mine.id}`, { body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_INPUT');
    }
  });
});
