// Actions: pending → approved → executed (2 s later, with a follow-up message) or
// failed; pending → rejected; pending → expired after 24 h; executed → undone
// within the 10-minute undo window. ACTION_DECIDED, ACTION_NOT_UNDOABLE, rules
// remembered with `remember: true`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const UNDO_MS = 10 * 60_000;
const EXPIRE_MS = 24 * 3_600_000;

let t: TestSandbox;
beforeAll(async () => {
  // speed 0: the clock moves only when a test advances it, so timings are exact.
  t = await startTestSandbox({ speed: 0 });
});
afterAll(() => t.close());

type Acc = { accountId: string; apiKey: string };

/** Sends a message and returns the reply once the turn has ended. */
async function ask(acc: Acc, text: string, sb: TestSandbox = t) {
  const res = await sb.call('POST', '/conversations/messages', { key: acc.apiKey, body: { text } });
  expect(res.status).toBe(202);
  await sb.advance(10_000);
  const all = (await sb.call('GET', `/conversations/${res.body.conversationId}/messages`, { key: acc.apiKey })).body;
  return {
    conversationId: res.body.conversationId as string,
    reply: all.messages.find((m: any) => m.id === res.body.messageId),
    all,
  };
}

function part(reply: any, type: string): any {
  return reply.parts.find((p: any) => p.type === type);
}

async function proposeDoc(acc: Acc, sb: TestSandbox = t) {
  const { reply, conversationId } = await ask(acc, 'Create a doc about tidal power', sb);
  const action = part(reply, 'action').action;
  expect(action.status).toBe('pending');
  return { action, conversationId };
}

async function decide(acc: Acc, id: string, body: Record<string, unknown>, sb: TestSandbox = t) {
  return sb.call('POST', `/actions/${id}/decide`, { key: acc.apiKey, body });
}

describe('decideAction', () => {
  it('approves: approved at once, executed in the background, then a follow-up message with the change', async () => {
    const acc = await t.newAccount();
    const { action, conversationId } = await proposeDoc(acc);
    const res = await decide(acc, action.id, { approve: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: action.id, status: 'approved', undoUntil: null, tool: 'create_doc' });
    const during = (await t.call('GET', `/conversations/${conversationId}/messages`, { key: acc.apiKey })).body;
    expect(during.conversation.running).toBe(true);
    expect(part(during.messages[1], 'action').action.status).toBe('approved');
    // The agent is continuing the conversation: it is busy until the follow-up is written.
    const busy = await t.call('POST', '/conversations/messages', {
      key: acc.apiKey,
      body: { text: 'and?', conversationId },
    });
    expect(busy.status).toBe(409);
    expect(busy.body.error.code).toBe('CONVERSATION_BUSY');

    await t.advance(2_500);
    const after = (await t.call('GET', `/conversations/${conversationId}/messages`, { key: acc.apiKey })).body;
    expect(after.conversation.running).toBe(false);
    expect(after.messages).toHaveLength(3);
    const followUp = after.messages[2];
    expect(followUp.role).toBe('assistant');
    expect(part(followUp, 'tool')).toMatchObject({ name: 'create_doc', label: 'Drafting a document', status: 'done' });
    expect(part(followUp, 'text').text).toBe('I created the document “Notes on tidal power”.');
    const executed = part(after.messages[1], 'action').action;
    expect(executed.status).toBe('executed');
    expect(executed.undoUntil).toBe(followUp.createdAt + UNDO_MS);
    const [change] = part(followUp, 'changes').items;
    expect(change).toMatchObject({
      kind: 'doc',
      title: 'Notes on tidal power',
      action: 'created',
      actionIds: [action.id],
      undoUntil: executed.undoUntil,
    });
    expect(change.href).toBe(`/docs/${change.id}`);
    const doc = await t.call('GET', `/docs/${change.id}`, { key: acc.apiKey });
    expect(doc.status).toBe(200);
    expect(doc.body.title).toBe('Notes on tidal power');
    expect(doc.body.origin).toBe('agent');
    // The approval left the inbox's waiting list.
    expect((await t.call('GET', '/inbox', { key: acc.apiKey, query: { filter: 'approval' } })).body.items).toEqual([]);
  });

  it('rejects: nothing is done', async () => {
    const acc = await t.newAccount();
    const { action, conversationId } = await proposeDoc(acc);
    const res = await decide(acc, action.id, { approve: false });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('rejected');
    await t.advance(10_000);
    expect((await t.call('GET', '/docs', { key: acc.apiKey })).body.items).toEqual([]);
    const all = (await t.call('GET', `/conversations/${conversationId}/messages`, { key: acc.apiKey })).body;
    expect(all.messages).toHaveLength(2);
    expect(all.conversation.running).toBe(false);
  });

  it('answers 409 ACTION_DECIDED for any decided action, either way', async () => {
    const acc = await t.newAccount();
    const a = (await proposeDoc(acc)).action;
    await decide(acc, a.id, { approve: true });
    for (const approve of [true, false]) {
      const res = await decide(acc, a.id, { approve });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('ACTION_DECIDED');
    }
    await t.advance(3_000);
    expect((await decide(acc, a.id, { approve: true })).body.error.code).toBe('ACTION_DECIDED');
    const b = (await proposeDoc(acc)).action;
    await decide(acc, b.id, { approve: false });
    expect((await decide(acc, b.id, { approve: true })).body.error.code).toBe('ACTION_DECIDED');
  });

  it('replays a retried decision with the same Idempotency-Key instead of 409', async () => {
    const acc = await t.newAccount();
    const { action } = await proposeDoc(acc);
    const headers = { 'idempotency-key': 'decide-1' };
    const first = await t.call('POST', `/actions/${action.id}/decide`, {
      key: acc.apiKey,
      body: { approve: true },
      headers,
    });
    const again = await t.call('POST', `/actions/${action.id}/decide`, {
      key: acc.apiKey,
      body: { approve: true },
      headers,
    });
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    const mismatch = await t.call('POST', `/actions/${action.id}/decide`, {
      key: acc.apiKey,
      body: { approve: false },
      headers,
    });
    expect(mismatch.status).toBe(422);
  });

  it('answers 404 ACTION_NOT_FOUND and validates the body', async () => {
    const missing = await t.call('POST', '/actions/ac_nope/decide', { body: { approve: true } });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('ACTION_NOT_FOUND');
    const acc = await t.newAccount();
    const { action } = await proposeDoc(acc);
    for (const body of [{}, { approve: 'yes' }, { approve: true, remember: 'please' }]) {
      const res = await decide(acc, action.id, body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_INPUT');
    }
    // Someone else's action is not found.
    const other = await t.newAccount();
    expect((await decide(other, action.id, { approve: true })).status).toBe(404);
  });

  it('with remember: true records the rule scope; later actions of that scope run at once', async () => {
    const acc = await t.newAccount();
    const first = (await proposeDoc(acc)).action;
    expect((await decide(acc, first.id, { approve: true, remember: true })).body.status).toBe('approved');
    await t.advance(3_000);
    const { reply } = await ask(acc, 'Write a note about wave energy');
    const action = part(reply, 'action').action;
    expect(action.status).toBe('executed');
    expect(action.undoUntil).toBe(reply.createdAt + UNDO_MS);
    const [change] = part(reply, 'changes').items;
    expect(change).toMatchObject({
      kind: 'doc',
      action: 'created',
      actionIds: [action.id],
      undoUntil: action.undoUntil,
      title: 'Notes on wave energy',
    });
    expect(part(reply, 'text').text).toContain('I created the document “Notes on wave energy”.');
    expect((await t.call('GET', `/docs/${change.id}`, { key: acc.apiKey })).status).toBe(200);
    expect((await t.call('GET', '/inbox', { key: acc.apiKey, query: { filter: 'approval' } })).body.items).toEqual([]);
    // The rule does not cover actions of another scope, nor those without one.
    const watch = part((await ask(acc, 'Track heat pump subsidies')).reply, 'action').action;
    expect(watch).toMatchObject({ tool: 'create_watch', ruleScope: 'watches.create', status: 'pending' });
  });

  it('remembers nothing for an action without a rule scope', async () => {
    const acc = await t.newAccount();
    await t.call('POST', '/docs', { key: acc.apiKey, body: { title: 'Old plan', markdown: 'An old plan.' } });
    await t.call('POST', '/docs', { key: acc.apiKey, body: { title: 'Older plan', markdown: 'An older plan.' } });
    const a = part((await ask(acc, 'Delete the old plan')).reply, 'action').action;
    expect(a).toMatchObject({ tool: 'delete_doc', risk: 'high', ruleScope: null, status: 'pending' });
    await decide(acc, a.id, { approve: true, remember: true });
    await t.advance(3_000);
    const b = part((await ask(acc, 'Delete the older plan')).reply, 'action').action;
    expect(b.status).toBe('pending');
  });

  it('expires a pending action after 24 hours; deciding it then is 409 ACTION_DECIDED', async () => {
    const acc = await t.newAccount();
    const { action, conversationId } = await proposeDoc(acc);
    await t.advance(EXPIRE_MS - 60_000);
    expect((await t.call('GET', '/inbox', { key: acc.apiKey, query: { filter: 'approval' } })).body.items).toHaveLength(
      1,
    );
    await t.advance(60_000);
    const msgs = (await t.call('GET', `/conversations/${conversationId}/messages`, { key: acc.apiKey })).body.messages;
    expect(part(msgs[1], 'action').action.status).toBe('expired');
    const res = await decide(acc, action.id, { approve: true });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('ACTION_DECIDED');
    expect((await t.call('GET', '/inbox', { key: acc.apiKey, query: { filter: 'approval' } })).body.items).toEqual([]);
    expect((await t.call('POST', `/actions/${action.id}/undo`, { key: acc.apiKey })).body.error.code).toBe(
      'ACTION_NOT_UNDOABLE',
    );
  });

  it('fails an action whose execution cannot succeed (a watch for an unverified email)', async () => {
    const acc = await t.newAccount({ emailVerified: false });
    const { reply, conversationId } = await ask(acc, 'Please monitor fusion energy news');
    const action = part(reply, 'action').action;
    expect(action.tool).toBe('create_watch');
    await decide(acc, action.id, { approve: true });
    await t.advance(3_000);
    const msgs = (await t.call('GET', `/conversations/${conversationId}/messages`, { key: acc.apiKey })).body.messages;
    expect(part(msgs[1], 'action').action).toMatchObject({ status: 'failed', undoUntil: null });
    expect(part(msgs[2], 'tool').status).toBe('error');
    expect(part(msgs[2], 'text').text).toContain('EMAIL_NOT_VERIFIED');
    expect(part(msgs[2], 'changes')).toBeUndefined();
    expect((await t.call('POST', `/actions/${action.id}/undo`, { key: acc.apiKey })).body.error.code).toBe(
      'ACTION_NOT_UNDOABLE',
    );
  });
});

describe('undoAction', () => {
  it('undoes a created doc within the window; the change shows undone; a second undo is 409', async () => {
    const acc = await t.newAccount();
    const { action, conversationId } = await proposeDoc(acc);
    await decide(acc, action.id, { approve: true });
    await t.advance(2_500);
    let msgs = (await t.call('GET', `/conversations/${conversationId}/messages`, { key: acc.apiKey })).body.messages;
    const docId = part(msgs[2], 'changes').items[0].id;
    await t.advance(UNDO_MS - 60_000);
    const res = await t.call('POST', `/actions/${action.id}/undo`, { key: acc.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: action.id, status: 'undone' });
    expect((await t.call('GET', `/docs/${docId}`, { key: acc.apiKey })).status).toBe(404);
    msgs = (await t.call('GET', `/conversations/${conversationId}/messages`, { key: acc.apiKey })).body.messages;
    expect(part(msgs[2], 'changes').items[0].undone).toBe(true);
    const again = await t.call('POST', `/actions/${action.id}/undo`, { key: acc.apiKey });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('ACTION_NOT_UNDOABLE');
  });

  it('deletes a doc and a library item, each said as deleted, and undo puts each back as it was', async () => {
    const acc = await t.newAccount();
    const doc = await t.call('POST', '/docs', { key: acc.apiKey, body: { title: 'Tidal plan', markdown: 'Tides.' } });
    const link = await t.call('POST', '/library', {
      key: acc.apiKey,
      body: { url: 'https://energy.example.com/guides/solar-panel-cleaning' },
    });
    const item = link.body.item;
    for (const [text, tool, kind, href, get] of [
      ['Delete the tidal plan', 'delete_doc', 'doc', `/docs/${doc.body.id}`, `/docs/${doc.body.id}`],
      [`Delete ${item.title}`, 'delete_library_item', 'clip', `/library/${item.id}`, `/library/${item.id}`],
    ]) {
      const before = (await t.call('GET', get!, { key: acc.apiKey })).body;
      const { reply, conversationId } = await ask(acc, text!);
      const action = part(reply, 'action').action;
      expect(action.tool, text).toBe(tool);
      await decide(acc, action.id, { approve: true });
      await t.advance(2_500);
      const msgs = (await t.call('GET', `/conversations/${conversationId}/messages`, { key: acc.apiKey })).body
        .messages;
      expect(part(msgs[2], 'changes').items[0]).toMatchObject({ kind, href, action: 'updated', note: 'deleted' });
      expect((await t.call('GET', get!, { key: acc.apiKey })).status, text).toBe(404);
      expect((await t.call('POST', `/actions/${action.id}/undo`, { key: acc.apiKey })).status).toBe(200);
      expect((await t.call('GET', get!, { key: acc.apiKey })).body, text).toEqual(before);
    }
  });

  it('answers 409 ACTION_NOT_UNDOABLE once the window has passed, and for actions never executed', async () => {
    const acc = await t.newAccount();
    const { action } = await proposeDoc(acc);
    const pending = await t.call('POST', `/actions/${action.id}/undo`, { key: acc.apiKey });
    expect(pending.status).toBe(409);
    expect(pending.body.error.code).toBe('ACTION_NOT_UNDOABLE');
    await decide(acc, action.id, { approve: true });
    expect((await t.call('POST', `/actions/${action.id}/undo`, { key: acc.apiKey })).body.error.code).toBe(
      'ACTION_NOT_UNDOABLE',
    );
    await t.advance(2_500 + UNDO_MS + 1_000);
    const late = await t.call('POST', `/actions/${action.id}/undo`, { key: acc.apiKey });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('ACTION_NOT_UNDOABLE');
    expect((await t.call('GET', '/docs', { key: acc.apiKey })).body.items).toHaveLength(1);
    const rejected = (await proposeDoc(acc)).action;
    await decide(acc, rejected.id, { approve: false });
    expect((await t.call('POST', `/actions/${rejected.id}/undo`, { key: acc.apiKey })).body.error.code).toBe(
      'ACTION_NOT_UNDOABLE',
    );
    const missing = await t.call('POST', '/actions/ac_nope/undo', { key: acc.apiKey });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('ACTION_NOT_FOUND');
  });

  it('allows undo up to undoUntil itself and not one millisecond later', async () => {
    const sb = await startTestSandbox({ speed: 0 });
    try {
      const acc = await sb.newAccount();
      const make = async () => {
        const { action } = await proposeDoc(acc, sb);
        await decide(acc, action.id, { approve: true }, sb);
        await sb.advance(2_000);
        return action.id as string;
      };
      const a = await make();
      await sb.advance(UNDO_MS);
      expect((await sb.call('POST', `/actions/${a}/undo`, { key: acc.apiKey })).status).toBe(200);
      const b = await make();
      await sb.advance(UNDO_MS + 1);
      expect((await sb.call('POST', `/actions/${b}/undo`, { key: acc.apiKey })).status).toBe(409);
    } finally {
      await sb.close();
    }
  });

  it('restores a deleted doc and removes a created watch', async () => {
    const acc = await t.newAccount();
    const created = await t.call('POST', '/docs', {
      key: acc.apiKey,
      body: { title: 'Garden plan', markdown: 'Plant tomatoes in May.' },
    });
    const del = part((await ask(acc, 'Delete my garden plan')).reply, 'action').action;
    expect(del.preview).toMatchObject({ id: created.body.id, title: 'Garden plan', kind: 'doc' });
    await decide(acc, del.id, { approve: true });
    await t.advance(2_500);
    expect((await t.call('GET', `/docs/${created.body.id}`, { key: acc.apiKey })).status).toBe(404);
    expect((await t.call('POST', `/actions/${del.id}/undo`, { key: acc.apiKey })).status).toBe(200);
    const back = await t.call('GET', `/docs/${created.body.id}`, { key: acc.apiKey });
    expect(back.status).toBe(200);
    expect(back.body.body).toBe('Plant tomatoes in May.');

    const { reply, conversationId } = await ask(acc, 'Watch heat pump subsidies for me');
    const watch = part(reply, 'action').action;
    expect(watch.preview).toMatchObject({ type: 'topic', cadence: 'daily', visibility: 'private' });
    await decide(acc, watch.id, { approve: true });
    await t.advance(2_500);
    const msgs = (await t.call('GET', `/conversations/${conversationId}/messages`, { key: acc.apiKey })).body.messages;
    const change = part(msgs[2], 'changes').items[0];
    expect(change).toMatchObject({ kind: 'watch', action: 'created', pending: true, actionIds: [watch.id] });
    const page = await t.call('GET', `/watches/${change.id}`, { key: acc.apiKey });
    expect(page.body.watch).toMatchObject({ owner: true, visibility: 'private', status: 'setting_up' });
    expect((await t.call('GET', '/me', { key: acc.apiKey })).body.usage.watchesThisMonth).toBe(1);
    expect((await t.call('POST', `/actions/${watch.id}/undo`, { key: acc.apiKey })).status).toBe(200);
    expect((await t.call('GET', `/watches/${change.id}`, { key: acc.apiKey })).status).toBe(404);
    expect((await t.call('GET', '/watches', { key: acc.apiKey })).body.items).toEqual([]);
    expect((await t.call('GET', '/me', { key: acc.apiKey })).body.usage.watchesThisMonth).toBe(0);
    await t.advance(120_000);
    expect((await t.call('GET', `/watches/${change.id}`, { key: acc.apiKey })).status).toBe(404);
  });
});
