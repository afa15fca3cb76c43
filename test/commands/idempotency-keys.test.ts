// --idempotency-key on every command whose operation takes one (space create,
// lib save, actions approve/reject here; watch/doc/media/chat in their own
// files): a rerun with the same key does the work once and says so, the same key
// with other values is exit 2, over 200 characters is exit 2 before sending, and
// --help says what a script should pass. And a replay of kagent's own key after a
// lost answer is this run's work, said as such (not "already created").
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';

let s: LoggedIn;
let key: string;

beforeAll(async () => {
  s = await loggedInSandbox();
});
afterAll(() => s.close());
beforeEach(async () => {
  ({ apiKey: key } = await s.t.newAccount({ credits: 1000 }));
});

const kagent = (argv: string[], options: Parameters<LoggedIn['kagent']>[1] = {}) =>
  s.kagent(argv, { ...options, env: { KAGENT_API_KEY: key, ...options.env } });
const executions = async (op: string): Promise<number> =>
  (await s.t.call('GET', '/_sandbox/stats', { key: null })).body.executions[op] ?? 0;

/** A pending action of this account: a message whose reply proposes one. */
async function pendingAction(): Promise<string> {
  const res = await s.t.call('POST', '/conversations/messages', {
    key,
    body: { text: 'Create a doc about rye bread' },
  });
  await s.t.advance(5_000);
  const page = (await s.t.call('GET', `/conversations/${res.body.conversationId}/messages`, { key })).body;
  return page.messages.at(-1).parts.find((p: any) => p.type === 'action').action.id;
}

describe('--idempotency-key where the operation takes one', () => {
  it('space create: a rerun returns the first space; other values under the key are exit 2; too long is exit 2 before sending', async () => {
    const first = await kagent(['space', 'create', 'Release 1', '--idempotency-key', 'run-7-space']);
    expect(first.code).toBe(0);
    const before = await executions('createSpace');
    const again = await kagent(['space', 'create', 'Release 1', '--idempotency-key', 'run-7-space']);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    expect(again.stderr).toContain(
      `this key already created space ${first.stdout.trim()} within the last 24 hours: nothing new was created`,
    );
    expect(await executions('createSpace')).toBe(before);
    expect(
      (await s.t.call('GET', '/spaces', { key })).body.items.filter((sp: any) => sp.name === 'Release 1'),
    ).toHaveLength(1);
    const other = await kagent(['space', 'create', 'Release 2', '--idempotency-key', 'run-7-space']);
    expect(other.code).toBe(2);
    const long = await kagent(['space', 'create', 'Release 3', '--idempotency-key', 'k'.repeat(201)]);
    expect(long.code).toBe(2);
    expect(long.stderr).toContain('--idempotency-key must be 1 to 200 characters (got 201)');
  });

  it('lib save: a rerun saves and charges once', async () => {
    const first = await kagent(['lib', 'save', 'https://example.com/article', '--idempotency-key', 'run-7-save']);
    expect(first.code).toBe(0);
    const credits = (await s.t.call('GET', '/me', { key })).body.credits.total;
    const again = await kagent(['lib', 'save', 'https://example.com/article', '--idempotency-key', 'run-7-save']);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    expect(again.stderr).toContain(`this key already saved ${first.stdout.trim()} within the last 24 hours`);
    expect((await s.t.call('GET', '/me', { key })).body.credits.total).toBe(credits);
    expect((await s.t.call('GET', '/library', { key })).body.items).toHaveLength(1);
    expect((await kagent(['lib', 'save', 'https://example.com/other', '--idempotency-key', 'run-7-save'])).code).toBe(
      2,
    );
  });

  it('actions approve / reject: a rerun returns the first decision instead of ACTION_DECIDED', async () => {
    const id = await pendingAction();
    const first = await kagent(['actions', 'approve', id, '--yes', '--idempotency-key', 'run-7-approve']);
    expect(first.code).toBe(0);
    const again = await kagent(['actions', 'approve', id, '--yes', '--idempotency-key', 'run-7-approve']);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    expect(again.stderr).toContain(
      `this key already approved action ${id} within the last 24 hours: nothing was decided again`,
    );
    // Without the key a rerun is a second decision: refused.
    expect((await kagent(['actions', 'approve', id, '--yes'])).code).toBe(5);

    const other = await pendingAction();
    const rejected = await kagent(['actions', 'reject', other, '--idempotency-key', 'run-7-reject']);
    expect(rejected.code).toBe(0);
    const rerun = await kagent(['actions', 'reject', other, '--idempotency-key', 'run-7-reject']);
    expect(rerun.code).toBe(0);
    expect(rerun.stdout).toBe(rejected.stdout);
    expect(rerun.stderr).toContain('this key already rejected action');
    // The same key for another action is another request: exit 2.
    expect((await kagent(['actions', 'reject', id, '--idempotency-key', 'run-7-reject'])).code).toBe(2);
  });

  it('--help says what a script should pass', async () => {
    for (const argv of [
      ['space', 'create'],
      ['lib', 'save'],
      ['actions', 'approve'],
      ['actions', 'reject'],
      ['doc', 'create'],
      ['watch', 'create'],
      ['media', 'start'],
      ['chat'],
    ]) {
      const help = await kagent([...argv, '--help'], { env: { COLUMNS: '400' }, columns: 400 });
      expect(help.code, argv.join(' ')).toBe(0);
      expect(help.stdout.replace(/\s+/g, ' '), argv.join(' ')).toMatch(
        /--idempotency-key <key> .*--idempotency-key "\$GITHUB_RUN_ID-[\w-]+"/,
      );
    }
  });
});

describe('a replay after a lost answer', () => {
  it("kagent's own key: the doc this run created is said as created, not as an earlier run's", async () => {
    await s.t.inject({ kind: 'reset-after', method: 'POST', path: '/api/v1/docs' });
    // On a terminal: the ✓ line is for one.
    const r = await kagent(['doc', 'create', '--title', 'Once only', '--allow-empty'], { tty: true, columns: 200 });
    expect(r.code).toBe(0);
    expect(r.stderr.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(/Created doc doc_\w+ "Once only"/);
    expect(r.stderr).not.toContain('already');
    expect((await s.t.call('GET', '/docs', { key })).body.items).toHaveLength(1);
  });

  it('a key of the user after a lost answer: once, by this run or an earlier one', async () => {
    await s.t.inject({ kind: 'reset-after', method: 'POST', path: '/api/v1/spaces' });
    const r = await kagent(['space', 'create', 'Lost answer', '--idempotency-key', 'run-8-space']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /created space \S+ under this key, once: by this run \(its first answer was lost on the way\) or by an earlier run/,
    );
    expect(
      (await s.t.call('GET', '/spaces', { key })).body.items.filter((sp: any) => sp.name === 'Lost answer'),
    ).toHaveLength(1);
  });
});
