// Tasks: listed newest first with filters and cursors; a task's detail shows its
// milestones and the actions it waits on; cancelling an active task keeps what
// was done; cancelling a finished one is 409 TASK_NOT_ACTIVE.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let t: TestSandbox;
beforeAll(async () => {
  // speed 0: the clock moves only when a test advances it, so timings are exact.
  t = await startTestSandbox({ speed: 0 });
});
afterAll(() => t.close());

type Acc = { accountId: string; apiKey: string };

async function tasks(acc: Acc, query: Record<string, string | number> = {}) {
  return t.call('GET', '/tasks', { key: acc.apiKey, query });
}

async function research(acc: Acc, topic: string) {
  const res = await t.call('POST', '/conversations/messages', { key: acc.apiKey, body: { text: `Research ${topic}` } });
  await t.advance(10_000);
  const msgs = (await t.call('GET', `/conversations/${res.body.conversationId}/messages`, { key: acc.apiKey })).body
    .messages;
  return msgs[1].parts.find((p: any) => p.type === 'task').taskId as string;
}

describe('listTasks', () => {
  it('lists newest first, 30 by default, with cursors; limit 1..100', async () => {
    const acc = await t.newAccount({ credits: 100_000, limits: { watchesPerMonth: 100 } });
    const ids: string[] = [];
    for (let i = 0; i < 33; i++) {
      const res = await t.call('POST', '/media', { key: acc.apiKey, body: { url: `https://vimeo.com/${5000 + i}` } });
      ids.push(res.body.taskId);
    }
    const first = (await tasks(acc)).body;
    expect(first.items).toHaveLength(30);
    expect(first.items[0].id).toBe(ids[32]);
    expect(first.items[0]).toMatchObject({ kind: 'transcription', status: 'queued', progress: 0, finishedAt: null });
    const second = (await tasks(acc, { cursor: first.nextCursor })).body;
    expect(second.items.map((x: any) => x.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(second.nextCursor).toBeNull();
    expect((await tasks(acc, { limit: 1 })).body.items).toHaveLength(1);
    expect((await tasks(acc, { limit: 100 })).body.items).toHaveLength(33);
    for (const limit of [0, 101]) {
      const res = await tasks(acc, { limit });
      expect(res.status).toBe(400);
      expect(res.body.error.issues[0].path).toBe('limit');
    }
    expect((await tasks(acc, { cursor: 'garbage' })).status).toBe(400);
  });

  it('filters by active, kind and space', async () => {
    const acc = await t.newAccount({ credits: 1000 });
    const space = (await t.call('POST', '/spaces', { key: acc.apiKey, body: { name: 'Watching' } })).body;
    const done = (
      await t.call('POST', '/watches', { key: acc.apiKey, body: { intent: 'Finished set-up', spaceId: space.id } })
    ).body.taskId;
    await t.advance(61_000);
    const running = (await t.call('POST', '/watches', { key: acc.apiKey, body: { intent: 'Running set-up' } })).body
      .taskId;
    const waiting = await research(acc, 'kite design');
    await t.advance(40_000);
    const media = (await t.call('POST', '/media', { key: acc.apiKey, body: { url: 'https://vimeo.com/77' } })).body
      .taskId;
    const cancelled = (await t.call('POST', '/media', { key: acc.apiKey, body: { url: 'https://vimeo.com/78' } })).body
      .taskId;
    await t.call('POST', `/tasks/${cancelled}/cancel`, { key: acc.apiKey });

    const statuses = Object.fromEntries((await tasks(acc)).body.items.map((x: any) => [x.id, x.status]));
    expect(statuses[done]).toBe('done');
    expect(statuses[running]).toBe('running');
    expect(statuses[media]).toBe('queued');
    expect(statuses[waiting]).toBe('waiting');
    expect(statuses[cancelled]).toBe('cancelled');

    const active = (await tasks(acc, { active: 'true' })).body.items.map((x: any) => x.id);
    expect(active).toContain(waiting);
    expect(active).toContain(media);
    expect(active).toContain(running);
    expect(active).not.toContain(done);
    expect(active).not.toContain(cancelled);
    const inactive = (await tasks(acc, { active: 'false' })).body.items.map((x: any) => x.id);
    expect(inactive).toEqual([cancelled, done]);
    expect((await tasks(acc, { kind: 'research' })).body.items.map((x: any) => x.id)).toEqual([waiting]);
    expect((await tasks(acc, { kind: 'watch_setup' })).body.items.map((x: any) => x.id)).toEqual([running, done]);
    expect((await tasks(acc, { kind: 'scheduled' })).body.items).toEqual([]);
    expect((await tasks(acc, { space: space.id })).body.items.map((x: any) => x.id)).toEqual([done]);
    expect((await tasks(acc, { space: 'Watching' })).body.items.map((x: any) => x.id)).toEqual([done]);
    expect((await tasks(acc, { space: 'sp_unknown' })).body.items).toEqual([]);
    expect((await tasks(acc, { active: 'yes' })).status).toBe(400);
    expect((await tasks(acc, { kind: 'k'.repeat(41) })).status).toBe(400);
    expect((await tasks(acc, { space: '' })).status).toBe(400);
    expect((await tasks(acc, { space: 's'.repeat(81) })).status).toBe(400);
  });
});

describe('getTask', () => {
  it('shows milestones, the actions a waiting task waits on, and its result', async () => {
    const acc = await t.newAccount();
    const id = await research(acc, 'wind turbines');
    await t.advance(40_000);
    const detail = (await t.call('GET', `/tasks/${id}`, { key: acc.apiKey })).body;
    expect(detail).toMatchObject({ id, kind: 'research', status: 'waiting', result: null, finishedAt: null });
    expect(detail.milestones.map((m: any) => [m.kind, m.status])).toEqual([
      ['plan', 'done'],
      ['step', 'done'],
      ['step', 'done'],
      ['step', 'done'],
      ['output', 'running'],
    ]);
    expect(detail.milestones[1].detail).toMatch(/^Found \d+ sources$/);
    expect(detail.progress).toBe(0.8);
    expect(detail.waitingOn).toHaveLength(1);
    const action = detail.waitingOn[0];
    expect(action).toMatchObject({ tool: 'save_report', status: 'pending', taskId: id, risk: 'low' });
    // It keeps waiting until the action is decided.
    await t.advance(3_600_000);
    expect((await t.call('GET', `/tasks/${id}`, { key: acc.apiKey })).body.status).toBe('waiting');
    await t.call('POST', `/actions/${action.id}/decide`, { key: acc.apiKey, body: { approve: false } });
    const after = (await t.call('GET', `/tasks/${id}`, { key: acc.apiKey })).body;
    expect(after.status).toBe('done');
    expect(after.waitingOn).toEqual([]);
    expect(after.result).toBeNull();
    expect(after.milestones[4]).toMatchObject({ status: 'skipped', detail: 'Rejected; the report was not saved' });
  });

  it('finishes a waiting task without the report when its action expires', async () => {
    const acc = await t.newAccount();
    const id = await research(acc, 'tidal energy');
    await t.advance(25 * 3_600_000);
    const detail = (await t.call('GET', `/tasks/${id}`, { key: acc.apiKey })).body;
    expect(detail.status).toBe('done');
    expect(detail.milestones[4]).toMatchObject({
      status: 'skipped',
      detail: 'Not approved in time; the report was not saved',
    });
  });

  it("answers 404 TASK_NOT_FOUND, also for another account's task", async () => {
    const acc = await t.newAccount();
    const missing = await t.call('GET', '/tasks/tk_nope', { key: acc.apiKey });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('TASK_NOT_FOUND');
    const id = await research(acc, 'rockets');
    expect((await t.call('GET', `/tasks/${id}`)).status).toBe(404);
  });
});

describe('cancelTask', () => {
  it('cancels an active task: 200 Task cancelled; the action it waited on can no longer be decided', async () => {
    const acc = await t.newAccount();
    const id = await research(acc, 'ocean currents');
    await t.advance(40_000);
    const action = (await t.call('GET', `/tasks/${id}`, { key: acc.apiKey })).body.waitingOn[0];
    const res = await t.call('POST', `/tasks/${id}/cancel`, { key: acc.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: 'cancelled', kind: 'research' });
    expect(res.body.finishedAt).not.toBeNull();
    expect(res.body).not.toHaveProperty('milestones');
    const detail = (await t.call('GET', `/tasks/${id}`, { key: acc.apiKey })).body;
    expect(detail.milestones.map((m: any) => m.status)).toEqual(['done', 'done', 'done', 'done', 'skipped']);
    expect(detail.waitingOn).toEqual([]);
    const decided = await t.call('POST', `/actions/${action.id}/decide`, { key: acc.apiKey, body: { approve: true } });
    expect(decided.status).toBe(409);
    expect(decided.body.error.code).toBe('ACTION_DECIDED');
  });

  it('answers 409 TASK_NOT_ACTIVE for finished and cancelled tasks, 404 for unknown ones', async () => {
    const acc = await t.newAccount();
    const created = (await t.call('POST', '/watches', { key: acc.apiKey, body: { intent: 'Done soon' } })).body;
    await t.advance(61_000);
    const res = await t.call('POST', `/tasks/${created.taskId}/cancel`, { key: acc.apiKey });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('TASK_NOT_ACTIVE');
    const id = await research(acc, 'glaciers');
    expect((await t.call('POST', `/tasks/${id}/cancel`, { key: acc.apiKey })).status).toBe(200);
    expect((await t.call('POST', `/tasks/${id}/cancel`, { key: acc.apiKey })).body.error.code).toBe('TASK_NOT_ACTIVE');
    const missing = await t.call('POST', '/tasks/tk_nope/cancel', { key: acc.apiKey });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('TASK_NOT_FOUND');
  });
});
