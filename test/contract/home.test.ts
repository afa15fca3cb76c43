// The home overview: what the agent read, latest briefs of followed watches,
// running tasks, actions waiting, suggestions, unread inbox items and recent conversations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let t: TestSandbox;
beforeAll(async () => {
  // speed 0: the clock moves only when a test advances it, so timings are exact.
  t = await startTestSandbox({ speed: 0 });
});
afterAll(() => t.close());

describe('getHome', () => {
  it('is empty but useful for a new account: suggestions to start with', async () => {
    const acc = await t.newAccount();
    const res = await t.call('GET', '/home', { key: acc.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      agent: { name: 'Ada' },
      read: [],
      briefs: [],
      tasks: [],
      actions: [],
      inbox: { unread: 0, items: [] },
      conversations: [],
    });
    expect(res.body.suggestions.map((s: any) => s.id)).toEqual(['sg_follow', 'sg_doc']);
    for (const s of res.body.suggestions) {
      expect(s.text.length).toBeGreaterThan(0);
      expect(s.prompt.length).toBeGreaterThan(0);
    }
    const zh = await t.newAccount({ lang: 'zh' });
    expect((await t.call('GET', '/home', { key: zh.apiKey })).body.suggestions[0].text).toMatch(/[\u4e00-\u9fff]/);
    // The default account's welcome suggestion from the inbox is offered too.
    const mine = (await t.call('GET', '/home')).body;
    expect(mine.suggestions.map((s: any) => s.text)).toContain('Welcome! Ask me anything about what you save');
  });

  it('gathers what the agent read, the latest briefs, running tasks, actions waiting, unread inbox items and recent conversations', async () => {
    const acc = await t.newAccount({ credits: 1000 });
    const link = (
      await t.call('POST', '/library', {
        key: acc.apiKey,
        body: { url: 'https://garden.example.com/notes/tomato-pruning' },
      })
    ).body.item;
    await t.call('PUT', '/watches/ai-chips/follow', { key: acc.apiKey, body: {} });
    await t.call('PUT', '/watches/china-ev/follow', { key: acc.apiKey, body: {} });
    const watch = (await t.call('POST', '/watches', { key: acc.apiKey, body: { intent: 'Tomato blight outbreaks' } }))
      .body;
    const chat = (
      await t.call('POST', '/conversations/messages', {
        key: acc.apiKey,
        body: { text: 'Create a doc about tomato pruning' },
      })
    ).body;
    await t.advance(10_000);

    let home = (await t.call('GET', '/home', { key: acc.apiKey })).body;
    expect(home.read.map((i: any) => i.id)).toEqual([link.id]);
    expect(home.briefs.map((b: any) => b.slug).sort()).toEqual(['ai-chips', 'china-ev']);
    expect(home.briefs[0].brief).toMatchObject({ id: expect.stringMatching(/^br_/), entryCount: expect.any(Number) });
    expect(home.briefs[0].watchTitle.length).toBeGreaterThan(0);
    expect(home.tasks.map((x: any) => x.id)).toEqual([watch.taskId]);
    expect(home.tasks[0].status).toBe('running');
    expect(home.actions).toHaveLength(1);
    expect(home.actions[0]).toMatchObject({
      tool: 'create_doc',
      status: 'pending',
      conversationId: chat.conversationId,
    });
    expect(home.inbox.unread).toBe(1);
    expect(home.inbox.items[0].kind).toBe('approval');
    expect(home.conversations.map((c: any) => c.id)).toEqual([chat.conversationId]);
    expect(home.suggestions.map((s: any) => s.id)).toEqual(['sg_ask', 'sg_doc']);
    expect(home.suggestions[0].text).toBe(`Ask about “${link.title}”`);

    await t.advance(60_000);
    home = (await t.call('GET', '/home', { key: acc.apiKey })).body;
    expect(home.tasks).toEqual([]);
    expect(home.briefs[0].slug).toBe(watch.slug);
    expect(home.inbox.unread).toBe(3);
    expect(home.inbox.items.map((i: any) => i.kind)).toEqual(['approval', 'brief', 'task']);
  });
});
