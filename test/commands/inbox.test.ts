// `kagent inbox` (list, read, done, dismiss) against the sandbox: terminal,
// piped and --json modes; --filter, --limit, --all over cursors (30 a page);
// marks with several ids, unknown ids (exit 4, every id still tried).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addInbox } from '../../src/sandbox/inbox/model.js';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';
import { hasForeignEscapes, runCli, type RunCliOptions } from '../helpers/run.js';
import { sandboxClock, type SandboxClock } from '../helpers/sandbox-clock.js';

let s: LoggedIn;
let clock: SandboxClock;
let approvalItem: string;
let actionId: string;

const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

function kagent(argv: string[], options: RunCliOptions = {}) {
  return s.kagent(argv, { clock, ...options });
}

async function inbox(filter = 'all'): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | undefined;
  do {
    const page = (await s.t.call('GET', '/inbox', { query: { filter, cursor } })).body;
    items.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return items;
}

beforeAll(async () => {
  s = await loggedInSandbox();
  clock = sandboxClock(s.t);
  // A finished watch set-up (a task item and a brief item), and an action waiting (an approval item).
  await s.t.call('POST', '/watches', { body: { intent: 'Battery recycling in Europe' } });
  await s.t.advance(61_000);
  await s.t.call('POST', '/conversations/messages', { body: { text: 'Create a doc about batteries' } });
  await s.t.advance(5_000);
  const approval = (await inbox('approval'))[0];
  approvalItem = approval.id;
  actionId = approval.action.id;
});
afterAll(() => s.close());

describe('inbox list', () => {
  it('`kagent inbox` is `kagent inbox list`: actions waiting first; piped rows, terminal table, --json', async () => {
    const all = await inbox();
    const json = JSON.parse((await kagent(['inbox', '--json'])).stdout);
    expect(json).toEqual(all);
    expect(json[0]).toMatchObject({ id: approvalItem, kind: 'approval' });
    expect(JSON.parse((await kagent(['inbox', 'list', '--json'])).stdout)).toEqual(all);

    const piped = await kagent(['inbox']);
    const rows = piped.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows[0]).toEqual([approvalItem, 'approval', 'false', all[0].title, all[0].createdAt, actionId, '', '', '']);
    const brief = all.find((i) => i.kind === 'brief');
    expect(rows.find((r) => r[0] === brief.id)).toEqual([
      brief.id,
      'brief',
      'false',
      brief.title,
      brief.createdAt,
      '',
      brief.taskId ?? '',
      brief.watchSlug,
      brief.briefId,
    ]);

    const tty = await kagent(['inbox'], { tty: true });
    const out = plain(tty.stdout);
    expect(out).toMatch(/ID\s+KIND\s+TITLE\s+CREATED/);
    expect(out).toMatch(new RegExp(`${approvalItem}\\s+approval\\s+●\\s+Create the document`));
    const notes = plain(tty.stderr);
    expect(notes).toContain(`${all.length} unread`);
    expect(notes).toContain('mark: kagent inbox read|done|dismiss ID...');
    expect(notes).toContain('actions waiting: kagent actions approve ID or kagent actions reject ID');
    // No action among the items listed: the footer does not speak of actions waiting.
    const tasks = plain((await kagent(['inbox', '--filter', 'task'], { tty: true })).stderr);
    expect(tasks).toContain('mark: kagent inbox read|done|dismiss ID...');
    expect(tasks).not.toContain('actions waiting');
  });

  it('--filter approval | task | brief | unread', async () => {
    const approval = JSON.parse((await kagent(['inbox', '--filter', 'approval', '--json'])).stdout);
    expect(approval.map((i: any) => i.id)).toEqual([approvalItem]);
    const tasks = JSON.parse((await kagent(['inbox', 'list', '--filter', 'task', '--json'])).stdout);
    expect(tasks.length).toBeGreaterThan(0);
    expect(tasks.every((i: any) => i.kind === 'task')).toBe(true);
    const briefs = JSON.parse((await kagent(['inbox', '--filter', 'brief', '--json'])).stdout);
    expect(briefs.every((i: any) => i.kind === 'brief' || i.kind === 'alert')).toBe(true);
    const unread = JSON.parse((await kagent(['inbox', '--filter', 'unread', '--json'])).stdout);
    expect(unread.every((i: any) => i.read === false)).toBe(true);
    const bad = await kagent(['inbox', '--filter', 'spam']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('must be one of: all, unread, approval, task, brief');
  });

  it('--limit and --all follow the cursors (30 a page); the first page by default', async () => {
    const world = s.t.sandbox.world;
    const account = world.state.accounts[s.t.sandbox.accountId]!;
    for (let i = 0; i < 40; i++)
      addInbox(world, account, { kind: 'suggestion', title: `Suggestion ${i}`, body: 'try this' });
    const total = (await inbox()).length;
    expect(total).toBeGreaterThan(40);
    expect(JSON.parse((await kagent(['inbox', '--json'])).stdout)).toHaveLength(30);
    const all = JSON.parse((await kagent(['inbox', '--all', '--json'])).stdout);
    expect(all).toHaveLength(total);
    expect(new Set(all.map((i: any) => i.id)).size).toBe(total);
    expect((await kagent(['inbox', '--limit', '35'])).stdout.trim().split('\n')).toHaveLength(35);
    expect((await kagent(['inbox', '--limit', '0'])).code).toBe(2);
    expect((await kagent(['inbox', '--limit', '3', '--all'])).code).toBe(2);
    // Dismiss them again so the other tests see a short inbox.
    const ids = all.filter((i: any) => i.title.startsWith('Suggestion ')).map((i: any) => i.id);
    expect((await kagent(['inbox', 'dismiss', ...ids])).code).toBe(0);
    expect((await inbox()).length).toBe(total - 40);
  });

  it('an empty inbox says so; server text is sanitised', async () => {
    const fresh = await s.t.newAccount();
    const env = { KAGENT_BASE_URL: s.t.baseUrl, KAGENT_API_KEY: fresh.apiKey };
    const list = JSON.parse((await runCli(['inbox', '--json'], { env })).stdout);
    // A new account only has its welcome suggestion: dismiss it and the inbox is empty.
    for (const item of list) await runCli(['inbox', 'dismiss', item.id], { env });
    const empty = await runCli(['inbox'], { tty: true, env });
    expect(empty.code).toBe(0);
    expect(empty.stdout).toBe('');
    expect(empty.stderr).toContain('Your inbox is empty.');
    expect((await runCli(['inbox', '--filter', 'approval'], { tty: true, env })).stderr).toContain(
      'No actions are waiting for your decision.',
    );

    const world = s.t.sandbox.world;
    const account = world.state.accounts[fresh.accountId]!;
    addInbox(world, account, { kind: 'alert', title: 'Alert \x1b]0;owned\x07now\x1b[2J\nsecond line', body: '' });
    for (const tty of [true, false]) {
      const r = await runCli(['inbox'], { tty, env });
      expect(hasForeignEscapes(r.stdout)).toBe(false);
      expect(plain(r.stdout)).toContain('Alert now second line');
    }
  });
});

describe('inbox read / done / dismiss', () => {
  it('read: piped prints each id; the items are read (unread count down)', async () => {
    const items = (await inbox('unread')).slice(0, 2);
    const r = await kagent(['inbox', 'read', ...items.map((i) => i.id)]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(items.map((i) => `${i.id}\n`).join(''));
    const after = await inbox();
    for (const item of items) expect(after.find((i) => i.id === item.id)?.read).toBe(true);
    expect((await inbox('unread')).map((i) => i.id)).not.toContain(items[0].id);
  });

  it('done and dismiss: the items leave the inbox; terminal says so; --json prints what was done', async () => {
    const [a, b] = (await inbox('task')).concat(await inbox('brief'));
    const tty = await kagent(['inbox', 'done', a.id], { tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toBe('');
    expect(plain(tty.stderr)).toContain(`✓ Marked ${a.id} done`);
    const json = await kagent(['inbox', 'dismiss', b.id, '--json']);
    expect(JSON.parse(json.stdout)).toEqual([{ id: b.id, dismissed: true }]);
    const left = (await inbox()).map((i) => i.id);
    expect(left).not.toContain(a.id);
    expect(left).not.toContain(b.id);
  });

  it('an unknown id: exit 4 with a hint; with several ids every one is tried', async () => {
    const one = await kagent(['inbox', 'read', 'ib_nope']);
    expect(one.code).toBe(4);
    expect(one.stderr).toContain('(INBOX_ITEM_NOT_FOUND)');
    expect(one.stderr).toContain('hint: no inbox item "ib_nope": `kagent inbox list` shows the ids');

    const real = (await inbox())[0];
    const many = await kagent(['inbox', 'read', 'ib_nope', real.id, '--json']);
    expect(many.code).toBe(4);
    expect(JSON.parse(many.stdout)).toEqual([
      { id: 'ib_nope', read: false, error: { code: 'INBOX_ITEM_NOT_FOUND', message: expect.any(String) } },
      { id: real.id, read: true },
    ]);
    expect(JSON.parse(many.stderr).error).toMatchObject({
      code: 'INBOX_ITEM_NOT_FOUND',
      message: 'could not mark 1 of 2 items read',
    });
    expect((await inbox()).find((i) => i.id === real.id)?.read).toBe(true);
  });
});
