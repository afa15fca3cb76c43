// Relative times are of the service's now: against a sandbox at `--speed 60` (the
// README's advice), run ahead of this machine's clock as it is after 14 real seconds,
// a space just created is not "in 14 minutes" and an undo window of 10 minutes is not
// "until in 24 minutes". kagent runs on the real clock here, as a user's does; the
// sandbox tells its clock in every answer (sandbox-now), a real service in its Date header.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';

let s: LoggedIn;
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');
const MINUTE = 60_000;

beforeAll(async () => {
  s = await loggedInSandbox({ speed: 60, startTime: Date.now() });
  await s.t.advance(14 * MINUTE);
});
afterAll(() => s.close());

describe('relative times against a sandbox at --speed 60', () => {
  it('every answer carries the sandbox clock, to the millisecond', async () => {
    const r = await s.t.call('GET', '/me');
    const told = Date.parse(r.headers['sandbox-now'] ?? '');
    expect(told - Date.now()).toBeGreaterThan(13 * MINUTE);
  });

  it('a space just created: "just now" or "ago", never in the future', async () => {
    const space = (await s.t.call('POST', '/spaces', { body: { name: 'Fresh space' } })).body;
    const r = await s.kagent(['space', 'show', space.id], { tty: true });
    expect(r.code).toBe(0);
    const created = /^Created\s+(.*)$/m.exec(plain(r.stdout))?.[1];
    expect(created).toMatch(/^(just now|\d+ minutes? ago)$/);
  });

  it('an executed action: undo until in at most 10 minutes (its window), not 24', async () => {
    const sent = await s.t.call('POST', '/conversations/messages', { body: { text: 'Create a doc about rye bread' } });
    await s.t.advance(5_000);
    const messages = (await s.t.call('GET', `/conversations/${sent.body.conversationId}/messages`)).body.messages;
    const action = messages.at(-1).parts.find((p: any) => p.type === 'action').action;
    expect((await s.t.call('POST', `/actions/${action.id}/decide`, { body: { approve: true } })).status).toBe(200);
    await s.t.advance(3_000);

    const r = await s.kagent(['conversation', 'show', sent.body.conversationId], { tty: true });
    expect(r.code).toBe(0);
    const minutes = /undo \(until in (\d+) minutes\)/.exec(plain(r.stdout))?.[1];
    expect(Number(minutes)).toBeGreaterThanOrEqual(5);
    expect(Number(minutes)).toBeLessThanOrEqual(10);
  });
});
