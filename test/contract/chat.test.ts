// Conversations: a message starts a turn and returns 202 at once; `running` is
// true until the reply is written a few sandbox seconds later. The reply is made
// from the message and the account's own library and docs: tool parts with
// localized labels, text with [n] citations, a citations part, and, when the
// message asks for it, action, choice, memory, task, media and changes parts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let t: TestSandbox;
beforeAll(async () => {
  // speed 0: the clock moves only when a test advances it, so timings are exact.
  t = await startTestSandbox({ speed: 0 });
});
afterAll(() => t.close());

type Acc = { accountId: string; apiKey: string };

async function send(acc: Acc, body: Record<string, unknown>) {
  return t.call('POST', '/conversations/messages', { key: acc.apiKey, body });
}

async function messages(acc: Acc, id: string, query: Record<string, number> = {}) {
  const res = await t.call('GET', `/conversations/${id}/messages`, { key: acc.apiKey, query });
  expect(res.status).toBe(200);
  return res.body as { conversation: any; messages: any[] };
}

/** Sends a message, lets the turn end, and returns the reply. */
async function turn(acc: Acc, body: Record<string, unknown>) {
  const res = await send(acc, body);
  expect(res.status).toBe(202);
  await t.advance(10_000);
  const all = await messages(acc, res.body.conversationId);
  const reply = all.messages.find((m) => m.id === res.body.messageId);
  expect(reply).toBeDefined();
  return { started: res.body, reply, conversation: all.conversation };
}

function partsOf(reply: any, type: string): any[] {
  return reply.parts.filter((p: any) => p.type === type);
}

async function withContent(acc: Acc) {
  const doc = await t.call('POST', '/docs', {
    key: acc.apiKey,
    body: {
      title: 'Solar panel maintenance',
      markdown: '# Solar panel maintenance\n\nClean the solar panels twice a year. Check the inverter every spring.',
    },
  });
  expect(doc.status).toBe(201);
  const link = await t.call('POST', '/library', {
    key: acc.apiKey,
    body: { url: 'https://energy.example.com/guides/solar-panel-cleaning' },
  });
  expect(link.status).toBe(201);
  await t.call('POST', '/docs', {
    key: acc.apiKey,
    body: { title: 'Sourdough starter', markdown: 'Feed the starter daily with flour and water.' },
  });
  return { docId: doc.body.id as string, item: link.body.item };
}

describe('sendMessage', () => {
  it('answers 202 TurnStarted at once; the conversation is running and holds only the user message', async () => {
    const acc = await t.newAccount();
    const res = await send(acc, { text: 'Hello there' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      conversationId: expect.stringMatching(/^cv_/),
      messageId: expect.stringMatching(/^msg_/),
      userMessageId: expect.stringMatching(/^msg_/),
    });
    const now = await messages(acc, res.body.conversationId);
    expect(now.conversation).toMatchObject({
      id: res.body.conversationId,
      title: 'Hello there',
      channel: 'api',
      running: true,
      messageCount: 1,
    });
    const spaces = (await t.call('GET', '/spaces', { key: acc.apiKey })).body.items;
    expect(now.conversation.spaceId).toBe(spaces[0].id);
    expect(now.messages).toHaveLength(1);
    expect(now.messages[0]).toMatchObject({
      id: res.body.userMessageId,
      role: 'user',
      conversationId: res.body.conversationId,
      parts: [{ type: 'text', text: 'Hello there' }],
    });
    expect(now.messages.some((m) => m.id === res.body.messageId)).toBe(false);

    await t.advance(2_000);
    expect((await messages(acc, res.body.conversationId)).conversation.running).toBe(true);
    await t.advance(1_500);
    const after = await messages(acc, res.body.conversationId);
    expect(after.conversation.running).toBe(false);
    expect(after.conversation.messageCount).toBe(2);
    expect(after.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    const reply = after.messages[1];
    expect(reply.id).toBe(res.body.messageId);
    expect(reply.credits).toBe(1);
    expect(reply.createdAt).toBeGreaterThan(after.messages[0].createdAt);
    expect(partsOf(reply, 'text')[0].text).toMatch(/^Hello!/);
    expect(after.conversation.preview).toBe(partsOf(reply, 'text')[0].text);
  });

  it('shows tool parts with localized labels and status', async () => {
    const acc = await t.newAccount();
    const { reply } = await turn(acc, { text: 'What do I know about tides?' });
    const tools = partsOf(reply, 'tool');
    expect(tools.map((p) => p.name)).toEqual(['search_library', 'search_docs']);
    expect(tools.map((p) => p.label)).toEqual(['Searching your library', 'Searching your docs']);
    expect(tools.every((p) => p.status === 'done' && /^tl_/.test(p.id))).toBe(true);
    expect(partsOf(reply, 'text')[0].text).toBe('I found nothing about “tides” in your library or docs yet.');
    expect(partsOf(reply, 'citations')).toEqual([]);

    const zh = await turn(acc, { text: '我保存过哪些关于潮汐的内容？' });
    expect(partsOf(zh.reply, 'tool').map((p) => p.label)).toEqual(['正在搜索你的资料库', '正在搜索你的文档']);
    expect(partsOf(zh.reply, 'text')[0].text).toMatch(/[\u4e00-\u9fff]/);
    const forced = await turn(acc, { text: 'tides again', lang: 'zh' });
    expect(partsOf(forced.reply, 'tool')[0].label).toBe('正在搜索你的资料库');
    const zhAccount = await t.newAccount({ lang: 'zh' });
    const byAccount = await turn(zhAccount, { text: 'tides' });
    expect(partsOf(byAccount.reply, 'text')[0].text).toMatch(/[\u4e00-\u9fff]/);
  });

  it('answers with [n] citations drawn from the account library and docs', async () => {
    const acc = await t.newAccount();
    const { docId, item } = await withContent(acc);
    const { reply } = await turn(acc, { text: 'What do I know about solar panels?' });
    const text = partsOf(reply, 'text')[0].text as string;
    const cites = partsOf(reply, 'citations');
    expect(cites).toHaveLength(1);
    const items = cites[0].items;
    expect(items.length).toBe(2);
    items.forEach((c: any, i: number) => {
      expect(c.n).toBe(i + 1);
      expect(text).toContain(`[${c.n}]`);
    });
    const doc = items.find((c: any) => c.url === `/docs/${docId}`);
    expect(doc).toMatchObject({ title: 'Solar panel maintenance', source: 'Docs' });
    const link = items.find((c: any) => c.url === item.url);
    expect(link).toMatchObject({ title: item.title, source: 'energy.example.com' });
    expect(text).toContain('Clean the solar panels twice a year.');
    expect(text).not.toContain('Sourdough');
    // Another account's content is never cited.
    const other = await t.newAccount();
    const theirs = await turn(other, { text: 'What do I know about solar panels?' });
    expect(partsOf(theirs.reply, 'citations')).toEqual([]);
  });

  it('continues a conversation; 409 CONVERSATION_BUSY while the agent is answering', async () => {
    const acc = await t.newAccount();
    const first = await send(acc, { text: 'First question' });
    const busy = await send(acc, { text: 'Second question', conversationId: first.body.conversationId });
    expect(busy.status).toBe(409);
    expect(busy.body.error.code).toBe('CONVERSATION_BUSY');
    // Another conversation is not busy.
    expect((await send(acc, { text: 'Elsewhere' })).status).toBe(202);
    await t.advance(5_000);
    const second = await send(acc, { text: 'Second question', conversationId: first.body.conversationId });
    expect(second.status).toBe(202);
    expect(second.body.conversationId).toBe(first.body.conversationId);
    await t.advance(5_000);
    const all = await messages(acc, first.body.conversationId);
    expect(all.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(all.conversation.messageCount).toBe(4);
    expect(all.conversation.title).toBe('First question');
  });

  it('spends credits per turn: 402 CREDITS_EXHAUSTED when none are left, and nothing is created', async () => {
    const none = await t.newAccount({ credits: 0 });
    const res = await send(none, { text: 'Anything?' });
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe('CREDITS_EXHAUSTED');
    expect((await t.call('GET', '/conversations', { key: none.apiKey })).body.items).toEqual([]);
    const half = await t.newAccount({ credits: 0.5 });
    expect((await send(half, { text: 'Anything?' })).status).toBe(402);
    const one = await t.newAccount({ credits: 1 });
    const ok = await send(one, { text: 'Anything?' });
    expect(ok.status).toBe(202);
    expect((await t.call('GET', '/me', { key: one.apiKey })).body.credits.total).toBe(0);
    await t.advance(5_000);
    const again = await send(one, { text: 'More?', conversationId: ok.body.conversationId });
    expect(again.status).toBe(402);
    expect((await messages(one, ok.body.conversationId)).messages).toHaveLength(2);
    // A turn that uses more tools costs more: 1 + 0.5 per extra tool.
    const rich = await t.newAccount({ credits: 100 });
    const { reply } = await turn(rich, { text: 'Please create a doc about tides' });
    expect(reply.credits).toBe(1.5);
    expect((await t.call('GET', '/me', { key: rich.apiKey })).body.credits.total).toBe(98.5);
  });

  it('answers 404 for an unknown conversation or space', async () => {
    const res = await t.call('POST', '/conversations/messages', { body: { text: 'hi', conversationId: 'cv_nope' } });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('CONVERSATION_NOT_FOUND');
    const space = await t.call('POST', '/conversations/messages', { body: { text: 'hi', spaceId: 'sp_nope' } });
    expect(space.status).toBe(404);
    expect(space.body.error.code).toBe('SPACE_NOT_FOUND');
  });

  it('validates the message', async () => {
    const acc = await t.newAccount({ credits: 1000 });
    const cases: Array<[unknown, number]> = [
      [{}, 400],
      [{ text: '' }, 400],
      [{ text: 'x' }, 202],
      [{ text: 'x'.repeat(20000) }, 202],
      [{ text: 'x'.repeat(20001) }, 400],
      [{ text: 'hi', conversationId: '' }, 400],
      [{ text: 'hi', lang: 'fr' }, 400],
      [{ text: 'hi', context: { refs: Array.from({ length: 11 }, () => ({ kind: 'doc', id: 'd' })) } }, 400],
      [{ text: 'hi', context: { refs: [{ kind: 'doc', id: 'd'.repeat(41) }] } }, 400],
      [{ text: 'hi', context: { refs: [{ kind: 'page', id: 'd' }] } }, 400],
      [{ text: 'hi', context: { path: '/watches/ai-chips', refs: [{ kind: 'watch', id: 'ai-chips' }] } }, 202],
      [{ text: 42 }, 400],
    ];
    for (const [body, status] of cases) {
      const res = await t.call('POST', '/conversations/messages', { key: acc.apiKey, body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      if (status === 400) expect(res.body.error.code).toBe('INVALID_INPUT');
    }
    const withContext = await send(acc, {
      text: 'context kept',
      context: { path: '/docs/x', refs: [{ kind: 'doc', id: 'x' }] },
    });
    const all = await messages(acc, withContext.body.conversationId);
    expect(all.messages[0].context).toEqual({ path: '/docs/x', refs: [{ kind: 'doc', id: 'x' }] });
  });
});

describe('reply parts asked for by the message', () => {
  it('proposes an action needing approval to create a doc', async () => {
    const acc = await t.newAccount();
    await withContent(acc);
    const { reply, started } = await turn(acc, { text: 'Please create a doc about solar panels' });
    expect(partsOf(reply, 'tool').map((p) => p.name)).toEqual(['search_library', 'search_docs', 'create_doc']);
    expect(partsOf(reply, 'tool')[2].label).toBe('Drafting a document');
    const [part] = partsOf(reply, 'action');
    expect(part.action).toMatchObject({
      tool: 'create_doc',
      risk: 'low',
      status: 'pending',
      ruleScope: 'docs.create',
      undoUntil: null,
      conversationId: started.conversationId,
      taskId: null,
      title: 'Create the document “Notes on solar panels”',
    });
    expect(part.action.preview.title).toBe('Notes on solar panels');
    expect(partsOf(reply, 'text')[0].text).toContain('Approve the action to create it.');
    expect(partsOf(reply, 'changes')).toEqual([]);
    const inbox = (await t.call('GET', '/inbox', { key: acc.apiKey, query: { filter: 'approval' } })).body.items;
    expect(inbox).toHaveLength(1);
    expect(inbox[0].action.id).toBe(part.action.id);
    for (const text of ['Save this as a note', 'Write a document titled Weekly plan', '帮我创建一篇关于太阳能的文档']) {
      const other = await turn(acc, { text });
      expect(partsOf(other.reply, 'action')[0]?.action.tool, text).toBe('create_doc');
    }
    const titled = await turn(acc, { text: 'Write a document titled Weekly plan' });
    expect(partsOf(titled.reply, 'action')[0].action.preview.title).toBe('Weekly plan');
    const zh = await turn(acc, { text: '帮我创建一篇关于太阳能的文档' });
    expect(partsOf(zh.reply, 'action')[0].action).toMatchObject({
      title: '创建文档“关于太阳能的笔记”',
      preview: { title: '关于太阳能的笔记' },
    });
    expect(partsOf(zh.reply, 'text')[0].text).toContain('批准后就会创建');
  });

  it('shows a files part when it cites an uploaded file', async () => {
    const acc = await t.newAccount();
    const up = await t.call('POST', '/library/files', {
      key: acc.apiKey,
      raw: '# Beekeeping log\n\nThe hive swarmed in May. Add a super before the honey flow.',
      headers: { 'content-type': 'application/octet-stream', 'x-file-name': 'beekeeping.md' },
    });
    expect(up.status).toBe(201);
    const { reply } = await turn(acc, { text: 'When did the hive swarm? Check my beekeeping notes' });
    const [files] = partsOf(reply, 'files');
    expect(files.items).toEqual([
      { id: up.body.item.id, name: 'beekeeping.md', mime: up.body.item.mime, url: `/library/${up.body.item.id}` },
    ]);
    expect(partsOf(reply, 'citations')[0].items[0]).toMatchObject({
      n: 1,
      url: `/library/${up.body.item.id}`,
      source: 'Library',
    });
  });

  it('asks to connect a service with a connect card', async () => {
    const acc = await t.newAccount();
    const { reply } = await turn(acc, { text: 'Can you read my Slack channels?' });
    const [connect] = partsOf(reply, 'connect');
    expect(connect.card).toEqual({
      connector: 'slack',
      name: 'Slack',
      logo: null,
      reason: 'To answer from Slack, I need you to connect it first.',
      recipe: null,
      access: 'Read channels you choose',
      href: '/connect/slack',
      waitId: null,
      state: 'available',
    });
    const gmail = await turn(acc, { text: '帮我连接邮箱' });
    expect(partsOf(gmail.reply, 'connect')[0].card).toMatchObject({
      connector: 'gmail',
      name: 'Gmail',
      access: '读取你的邮件（只读）',
      recipe: { id: 'daily-email-digest' },
    });
  });

  it('offers a choice', async () => {
    const acc = await t.newAccount();
    await withContent(acc);
    const { reply } = await turn(acc, { text: 'Which solar note should I read first?' });
    const [choice] = partsOf(reply, 'choice');
    expect(choice.id).toMatch(/^ch_/);
    expect(choice.question).toBe('Which should I focus on?');
    expect(choice.options).toHaveLength(2);
    expect(choice.options.map((o: any) => o.label)).toContain('Solar panel maintenance');
    const plain = await turn(acc, { text: 'Which one?' });
    expect(partsOf(plain.reply, 'choice')[0].options).toEqual([
      { id: 'summary', label: 'A short summary', hint: 'a few sentences' },
      { id: 'details', label: 'The details' },
      { id: 'sources', label: 'Just the sources' },
    ]);
    const zh = await turn(acc, { text: 'Which one?', lang: 'zh' });
    expect(partsOf(zh.reply, 'choice')[0]).toMatchObject({
      question: '你希望我重点看哪一个？',
      options: [
        { id: 'summary', label: '简短摘要', hint: '几句话' },
        { id: 'details', label: '详细内容' },
        { id: 'sources', label: '只要来源' },
      ],
    });
  });

  it('remembers at once with a memory part that can be undone', async () => {
    const acc = await t.newAccount();
    const { reply } = await turn(acc, { text: 'Remember that I prefer short answers.' });
    const [memory] = partsOf(reply, 'memory');
    expect(memory.text).toBe('I prefer short answers');
    expect(memory.actionId).toMatch(/^ac_/);
    expect((await t.call('GET', '/agent', { key: acc.apiKey })).body.memory).toBe('- I prefer short answers');
    await turn(acc, { text: 'remember my cat is called Miso' });
    expect((await t.call('GET', '/agent', { key: acc.apiKey })).body.memory).toBe(
      '- I prefer short answers\n- my cat is called Miso',
    );
    const undone = await t.call('POST', `/actions/${memory.actionId}/undo`, { key: acc.apiKey });
    expect(undone.status).toBe(200);
    expect(undone.body).toMatchObject({ status: 'undone', tool: 'update_memory' });
    expect((await t.call('GET', '/agent', { key: acc.apiKey })).body.memory).toBe('');
  });

  it('a video link: the quote comes first, as an action awaiting approval that carries it; nothing is charged until it is approved', async () => {
    const acc = await t.newAccount({ credits: 1000 });
    const url = 'https://www.youtube.com/watch?v=chat123';
    const q = (await t.call('POST', '/media/quote', { key: acc.apiKey, body: { url } })).body;
    const { reply } = await turn(acc, { text: `Summarise this talk ${url}` });
    expect(partsOf(reply, 'media')).toEqual([]);
    expect(partsOf(reply, 'task')).toEqual([]);
    const [{ action }] = partsOf(reply, 'action');
    expect(action).toMatchObject({ tool: 'start_media', status: 'pending', ruleScope: null, undoUntil: null });
    expect(action.preview).toEqual({
      url,
      title: q.title,
      kind: q.kind,
      durationSec: q.durationSec,
      minutes: q.minutes,
      pricePerMinute: q.pricePerMinute,
      credits: q.credits,
    });
    expect(partsOf(reply, 'text')[0].text).toContain(`costs ${q.credits} credits`);
    expect(reply.credits).toBe(1.5);
    // Only the turn is paid: no transcription, no media, until someone approves.
    expect((await t.call('GET', '/me', { key: acc.apiKey })).body.credits.total).toBe(1000 - 1.5);
    expect((await t.call('GET', '/media', { key: acc.apiKey })).body.items).toEqual([]);
    const inbox = (await t.call('GET', '/inbox', { key: acc.apiKey, query: { filter: 'approval' } })).body;
    expect(JSON.stringify(inbox)).toContain(action.id);

    const approved = await t.call('POST', `/actions/${action.id}/decide`, { key: acc.apiKey, body: { approve: true } });
    expect(approved.status).toBe(200);
    await t.advance(3_000);
    const [media] = (await t.call('GET', '/media', { key: acc.apiKey })).body.items;
    expect(media).toMatchObject({ title: q.title, url });
    expect((await t.call('GET', '/me', { key: acc.apiKey })).body.credits.total).toBe(1000 - 1.5 - q.credits);
    const after = (await messages(acc, reply.conversationId)).messages.at(-1);
    expect(partsOf(after, 'changes')[0].items[0]).toMatchObject({
      kind: 'media',
      id: media.id,
      action: 'created',
      actionIds: [action.id],
    });
    expect(partsOf(after, 'media')).toEqual([{ type: 'media', mediaId: media.id, title: q.title }]);
    expect(partsOf(after, 'task')[0]).toMatchObject({ kind: 'transcription', taskId: expect.stringMatching(/^tk_/) });
    await t.advance(50_000);
    expect((await t.call('GET', `/media/${media.id}`, { key: acc.apiKey })).body.status).toBe('ready');
    // Read back, the change says where the media stands now.
    const later = (await messages(acc, reply.conversationId)).messages.at(-1);
    expect(partsOf(later, 'changes')[0].items[0]).toMatchObject({ id: media.id, pending: false, outcome: 'done' });
  });

  it('a rejected transcription charges nothing; one approved without enough credits fails and says why', async () => {
    const acc = await t.newAccount({ credits: 3 });
    const first = await turn(acc, { text: 'Transcribe https://www.youtube.com/watch?v=toolong please' });
    const [{ action }] = partsOf(first.reply, 'action');
    expect(action.tool).toBe('start_media');
    const left = (await t.call('GET', '/me', { key: acc.apiKey })).body.credits.total;
    expect(
      (await t.call('POST', `/actions/${action.id}/decide`, { key: acc.apiKey, body: { approve: true } })).status,
    ).toBe(200);
    await t.advance(3_000);
    const failed = (await messages(acc, first.reply.conversationId)).messages.at(-1);
    expect(partsOf(failed, 'text')[0].text).toContain('CREDITS_EXHAUSTED');
    expect((await t.call('GET', '/media', { key: acc.apiKey })).body.items).toEqual([]);
    expect((await t.call('GET', '/me', { key: acc.apiKey })).body.credits.total).toBe(left);

    const rich = await t.newAccount({ credits: 1000 });
    const second = await turn(rich, { text: 'Transcribe https://www.youtube.com/watch?v=rejectme' });
    const [{ action: other }] = partsOf(second.reply, 'action');
    const before = (await t.call('GET', '/me', { key: rich.apiKey })).body.credits.total;
    expect(
      (await t.call('POST', `/actions/${other.id}/decide`, { key: rich.apiKey, body: { approve: false } })).body.status,
    ).toBe('rejected');
    await t.advance(3_000);
    expect((await t.call('GET', '/me', { key: rich.apiKey })).body.credits.total).toBe(before);
    expect((await t.call('GET', '/media', { key: rich.apiKey })).body.items).toEqual([]);
  });

  it('an approved transcription can be undone within the window: it is cancelled and the minutes not transcribed come back', async () => {
    const acc = await t.newAccount({ credits: 1000 });
    const { reply } = await turn(acc, { text: 'Transcribe https://www.youtube.com/watch?v=undome' });
    const [{ action }] = partsOf(reply, 'action');
    await t.call('POST', `/actions/${action.id}/decide`, { key: acc.apiKey, body: { approve: true } });
    await t.advance(2_500);
    const charged = (await t.call('GET', '/me', { key: acc.apiKey })).body.credits.total;
    const undone = await t.call('POST', `/actions/${action.id}/undo`, { key: acc.apiKey });
    expect(undone.status).toBe(200);
    expect(undone.body).toMatchObject({ status: 'undone', tool: 'start_media' });
    const [media] = (await t.call('GET', '/media', { key: acc.apiKey })).body.items;
    expect(media.status).toBe('failed');
    expect((await t.call('GET', '/me', { key: acc.apiKey })).body.credits.total).toBeGreaterThan(charged);
    const after = (await messages(acc, reply.conversationId)).messages.at(-1);
    expect(partsOf(after, 'changes')[0].items[0]).toMatchObject({
      id: media.id,
      undone: true,
      pending: false,
      outcome: 'failed',
    });
  });

  it('reports a link it could not quote with an error tool part, and proposes nothing', async () => {
    const acc = await t.newAccount({ credits: 1000 });
    const { reply } = await turn(acc, { text: 'Transcribe https://www.youtube.com/watch?v=unavailable please' });
    const tool = partsOf(reply, 'tool').find((p) => p.name === 'start_media');
    expect(tool.status).toBe('error');
    expect(partsOf(reply, 'text')[0].text).toContain('MEDIA_UNAVAILABLE');
    expect(partsOf(reply, 'action')).toEqual([]);
  });

  it('starts research as a task that waits on approval to save the report', async () => {
    const acc = await t.newAccount();
    await withContent(acc);
    const { reply } = await turn(acc, { text: 'Research solar panel cleaning' });
    const [task] = partsOf(reply, 'task');
    expect(task.kind).toBe('research');
    expect(task.title).toBe('Research: solar panel cleaning');
    expect(partsOf(reply, 'changes')[0].items[0]).toMatchObject({
      kind: 'task',
      id: task.taskId,
      pending: true,
      actionIds: [],
    });
    await t.advance(40_000);
    const detail = (await t.call('GET', `/tasks/${task.taskId}`, { key: acc.apiKey })).body;
    expect(detail.status).toBe('waiting');
    expect(detail.waitingOn).toHaveLength(1);
    expect(detail.waitingOn[0]).toMatchObject({
      tool: 'save_report',
      status: 'pending',
      taskId: task.taskId,
      ruleScope: 'docs.create',
    });
    expect(detail.milestones.map((m: any) => m.status)).toEqual(['done', 'done', 'done', 'done', 'running']);
    const decided = await t.call('POST', `/actions/${detail.waitingOn[0].id}/decide`, {
      key: acc.apiKey,
      body: { approve: true },
    });
    expect(decided.body.status).toBe('approved');
    await t.advance(3_000);
    const done = (await t.call('GET', `/tasks/${task.taskId}`, { key: acc.apiKey })).body;
    expect(done.status).toBe('done');
    expect(done.waitingOn).toEqual([]);
    expect(done.result.kind).toBe('doc');
    const doc = await t.call('GET', `/docs/${done.result.id}`, { key: acc.apiKey });
    expect(doc.status).toBe(200);
    expect(doc.body.title).toBe('Research: solar panel cleaning');
    expect(doc.body.body).toContain('## Sources');
  });
});

describe('listConversations / getConversationMessages / deleteConversation', () => {
  it('lists most recently active first, pages, filters by space, bounds limit to 1..100', async () => {
    const acc = await t.newAccount({ credits: 1000 });
    const space = (await t.call('POST', '/spaces', { key: acc.apiKey, body: { name: 'Chat space' } })).body;
    const ids: string[] = [];
    for (let i = 0; i < 32; i++) {
      const res = await send(acc, { text: `Conversation ${i}`, ...(i < 2 ? { spaceId: space.id } : {}) });
      ids.push(res.body.conversationId);
      await t.advance(4_000);
    }
    const first = (await t.call('GET', '/conversations', { key: acc.apiKey })).body;
    expect(first.items).toHaveLength(30);
    expect(first.items[0].id).toBe(ids[31]);
    const second = (await t.call('GET', '/conversations', { key: acc.apiKey, query: { cursor: first.nextCursor } }))
      .body;
    expect(second.items.map((c: any) => c.id)).toEqual([ids[1], ids[0]]);
    expect(second.nextCursor).toBeNull();
    // Talking again moves a conversation to the top.
    await send(acc, { text: 'back again', conversationId: ids[0] });
    await t.advance(4_000);
    const top = (await t.call('GET', '/conversations', { key: acc.apiKey, query: { limit: 1 } })).body.items;
    expect(top.map((c: any) => c.id)).toEqual([ids[0]]);
    expect(top[0]).toMatchObject({ messageCount: 4, running: false });
    const inSpace = (await t.call('GET', '/conversations', { key: acc.apiKey, query: { space: space.id } })).body.items;
    expect(inSpace.map((c: any) => c.id)).toEqual([ids[0], ids[1]]);
    expect((await t.call('GET', '/conversations', { key: acc.apiKey, query: { limit: 100 } })).body.items).toHaveLength(
      32,
    );
    for (const limit of [0, 101])
      expect((await t.call('GET', '/conversations', { key: acc.apiKey, query: { limit } })).status).toBe(400);
  });

  it('returns the most recent messages, oldest first, 60 by default, limit 1..200', async () => {
    const acc = await t.newAccount({ credits: 1000 });
    const first = await send(acc, { text: 'message 0' });
    const id = first.body.conversationId;
    await t.advance(4_000);
    for (let i = 1; i < 32; i++) {
      expect((await send(acc, { text: `message ${i}`, conversationId: id })).status).toBe(202);
      await t.advance(4_000);
    }
    const all = await messages(acc, id);
    expect(all.conversation.messageCount).toBe(64);
    expect(all.messages).toHaveLength(60);
    expect(all.messages[0].parts[0].text).toBe('message 2');
    expect(all.messages[59].role).toBe('assistant');
    const times = all.messages.map((m) => m.createdAt);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    const last = await messages(acc, id, { limit: 1 });
    expect(last.messages).toHaveLength(1);
    expect(last.messages[0].id).toBe(all.messages[59].id);
    expect((await messages(acc, id, { limit: 200 })).messages).toHaveLength(64);
    for (const limit of [0, 201])
      expect((await t.call('GET', `/conversations/${id}/messages`, { key: acc.apiKey, query: { limit } })).status).toBe(
        400,
      );
    const missing = await t.call('GET', '/conversations/cv_nope/messages', { key: acc.apiKey });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('CONVERSATION_NOT_FOUND');
  });

  it('deletes a conversation (also while it runs); 404 afterwards', async () => {
    const acc = await t.newAccount();
    const res = await send(acc, { text: 'short-lived' });
    const del = await t.call('DELETE', `/conversations/${res.body.conversationId}`, { key: acc.apiKey });
    expect(del.status).toBe(204);
    await t.advance(10_000);
    expect(
      (await t.call('GET', `/conversations/${res.body.conversationId}/messages`, { key: acc.apiKey })).status,
    ).toBe(404);
    expect((await t.call('GET', '/conversations', { key: acc.apiKey })).body.items).toEqual([]);
    const again = await t.call('DELETE', `/conversations/${res.body.conversationId}`, { key: acc.apiKey });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('CONVERSATION_NOT_FOUND');
    expect((await send(acc, { text: 'x', conversationId: res.body.conversationId })).status).toBe(404);
  });
});

describe('determinism', () => {
  it('gives identical replies in two sandboxes with the same seed', async () => {
    const run = async () => {
      const sb = await startTestSandbox({ seed: 5, speed: 0 });
      try {
        await sb.call('POST', '/docs', {
          body: { title: 'Tea brewing', markdown: 'Green tea wants water at 80 degrees.' },
        });
        const a = (
          await sb.call('POST', '/conversations/messages', {
            body: { text: 'How hot for green tea? Create a doc and remember it.' },
          })
        ).body;
        await sb.advance(10_000);
        return (await sb.call('GET', `/conversations/${a.conversationId}/messages`)).body;
      } finally {
        await sb.close();
      }
    };
    const [a, b] = [await run(), await run()];
    expect(a).toEqual(b);
    expect(a.messages[1].parts.map((p: any) => p.type)).toEqual([
      'tool',
      'tool',
      'tool',
      'tool',
      'text',
      'citations',
      'action',
      'memory',
    ]);
  });
});
