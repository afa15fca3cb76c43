// A tour through all 49 operations in one account, the way a script would use
// them: each answers with the contract's success status, and (through the test
// helper) every answer validates against the served OpenAPI document. At the
// end the sandbox's own counters show every operation was reached.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationIds, operations, type OperationId } from '../../src/api/operations.js';
import { startTestSandbox, type CallOptions, type TestSandbox } from '../helpers/sandbox.js';

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

/** Calls an operation by id and checks it succeeded with its documented status. */
async function call(op: OperationId, params: Record<string, string> = {}, options: CallOptions = {}) {
  const info = operations[op];
  const path = info.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const res = await t.call(info.method, path, options);
  expect(res.status, `${op}: ${res.text.slice(0, 300)}`).toBe(info.success);
  return res.body;
}

describe('every operation, once', () => {
  it('answers each of the 49 operations with its success status and a conforming body', async () => {
    // Account and spaces
    await call('getMe');
    expect((await call('listSpaces')).items.length).toBeGreaterThan(0);
    const space = await call('createSpace', {}, { body: { name: 'Tour', icon: '🧭' } });
    await call('updateSpace', { id: space.id }, { body: { description: 'for the tour' } });

    // Watches, briefs and entries
    const created = await call(
      'createWatch',
      {},
      { body: { intent: 'Track news about tidal power plants', cadence: 'daily' } },
    );
    await t.advance(5 * 60_000);
    await call('getTask', { id: created.taskId });
    const page = await call('getWatch', { slug: created.slug });
    expect(page.brief).not.toBeNull();
    await call('getWatchKnowledge', { slug: created.slug });
    await call('listWatchIssues', { slug: created.slug }, { query: { limit: 5 } });
    await call('updateWatchSettings', { slug: created.slug }, { body: { cadence: 'weekly' } });
    const entry = page.brief.entries[0];
    await call('setEntryFeedback', { id: entry.id }, { body: { feedback: 'up' } });
    await call('setEntrySaved', { id: entry.id }, { body: { saved: true } });
    await call('listFollowedWatches');
    const found = await call('searchWatches', {}, { query: { q: 'AI' } });
    const publicWatch = found.items.find((w: { slug: string }) => w.slug !== created.slug) ?? found.items[0];
    expect(publicWatch).toBeDefined();
    await call('followWatch', { slug: publicWatch.slug }, { body: { spaceId: space.id } });
    await call('unfollowWatch', { slug: publicWatch.slug });

    // Library
    const saved = await call(
      'saveLink',
      {},
      { body: { url: 'https://example.com/tidal-energy-explained', note: 'tour' } },
    );
    await call('listLibrary', {}, { query: { kind: 'link' } });
    await call('getLibraryItem', { id: saved.item.id });
    await call('updateLibraryItem', { id: saved.item.id }, { body: { spaceId: space.id } });
    const file = await call(
      'uploadFile',
      {},
      { raw: 'Tidal range is the height difference between tides.', headers: { 'x-file-name': 'tides.txt' } },
    );
    await call('readLibraryText', { id: file.item.id }, { query: { limit: 100 } });
    await call('deleteLibraryItem', { id: saved.item.id });

    // Docs
    const doc = await call('createDoc', {}, { body: { title: 'Tour notes', markdown: '# Tides\n\nTwice a day.' } });
    await call('listDocs');
    await call('searchDocs', {}, { query: { q: 'tides' } });
    await call('getDoc', { id: doc.id });
    const revision = await call(
      'updateDoc',
      { id: doc.id },
      { body: { title: 'Tour notes (edited)', baseRevision: 1 } },
    );
    await call(
      'editDoc',
      { id: doc.id },
      { body: { revision: revision.revision, edits: [{ op: 'append', content: 'Spring and neap tides.' }] } },
    );
    await call('deleteDoc', { id: doc.id });

    // Media
    const url = 'https://www.youtube.com/watch?v=tour0000001';
    await call('quoteMedia', {}, { body: { url } });
    const media = await call('startMedia', {}, { body: { url } });
    await t.advance(30 * 60_000);
    await call('listMedia');
    await call('getMedia', { id: media.mediaId });
    await call('getTranscript', { id: media.mediaId });

    // Agent and home
    await call('getAgent');
    await call('updateAgent', {}, { body: { name: 'Tour guide' } });
    await call('getHome');

    // Tasks
    await call('listTasks', {}, { query: { limit: 10 } });
    const another = await call('createWatch', {}, { body: { intent: 'Track wave energy startups' } });
    await call('cancelTask', { id: another.taskId });

    // Conversations and actions
    const turn = await call('sendMessage', {}, { body: { text: 'Create a doc about tidal power' } });
    await t.advance(10_000);
    const messages = await call('getConversationMessages', { id: turn.conversationId });
    const reply = messages.messages.find((m: { id: string }) => m.id === turn.messageId);
    const action = reply.parts.find((p: { type: string }) => p.type === 'action')?.action;
    expect(action, 'the agent proposes an action for this message').toBeDefined();
    await call('decideAction', { id: action.id }, { body: { approve: true } });
    await t.advance(5_000);
    await call('undoAction', { id: action.id });
    await call('listConversations');

    // Inbox (finished tasks and briefs arrived along the way)
    const inbox = await call('listInbox');
    expect(inbox.items.length).toBeGreaterThan(0);
    await call('markInboxItem', { id: inbox.items[0].id }, { body: { read: true } });

    // Cleanup operations last
    await call('deleteConversation', { id: turn.conversationId });
    await call('deleteSpace', { id: space.id });

    const stats = (await t.call('GET', '/_sandbox/stats', { key: null })).body;
    expect(operationIds.filter((op) => !stats.executions[op])).toEqual([]);
    expect(operationIds).toHaveLength(49);
  });
});
