// `kagent conversation list/show/delete` against the sandbox, time driven by
// the sandbox clock: terminal, piped and --json modes; --space, --limit,
// --all and their bounds; show rendered like chat (server text sanitised),
// --follow waiting for a running turn (and --timeout → 8); delete confirmed on
// a terminal, refused without --yes elsewhere; 404 → 4.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';
import { hasForeignEscapes, type RunCliOptions } from '../helpers/run.js';
import { sandboxClock, type SandboxClock } from '../helpers/sandbox-clock.js';
import { pipedKeysOf } from '../helpers/piped-help.js';
import conversationShow from '../../commands/conversation/show.js';

let s: LoggedIn;
let clock: SandboxClock;
let first: string;
let second: string;
let research: { id: string; spaceId: string };

const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

function kagent(argv: string[], options: RunCliOptions = {}) {
  return s.kagent(argv, { clock, ...options });
}

async function turn(text: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await s.t.call('POST', '/conversations/messages', { body: { text, ...extra } });
  expect(res.status).toBe(202);
  await s.t.advance(5_000);
  return res.body.conversationId;
}

async function stats(): Promise<Record<string, number>> {
  return (await s.t.call('GET', '/_sandbox/stats', { key: null })).body.requests;
}

beforeAll(async () => {
  s = await loggedInSandbox();
  clock = sandboxClock(s.t);
  await s.t.call('POST', '/docs', {
    body: { title: 'Sourdough starter', markdown: 'Feed the sourdough starter daily with flour and water.' },
  });
  first = await turn('What do I know about sourdough?');
  await s.t.call('POST', '/conversations/messages', {
    body: { text: 'And how often should I feed it?', conversationId: first },
  });
  await s.t.advance(5_000);
  second = await turn('hello');
  const space = (await s.t.call('POST', '/spaces', { body: { name: 'Research' } })).body;
  research = { id: await turn('hello from research', { spaceId: space.id }), spaceId: space.id };
});
afterAll(() => s.close());

describe('conversation list', () => {
  it('most recently active first: piped rows, a terminal table, --json', async () => {
    const json = JSON.parse((await kagent(['conversation', 'list', '--json'])).stdout);
    expect(json.map((c: any) => c.id)).toEqual([research.id, second, first]);
    expect(json).toEqual((await s.t.call('GET', '/conversations')).body.items);

    const piped = await kagent(['conversation', 'list']);
    const rows = piped.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    const c = json[2];
    expect(rows[2]).toEqual([
      c.id,
      c.title,
      '4',
      'api',
      'false',
      new Date(c.updatedAt).toISOString(),
      c.spaceId,
      c.preview,
    ]);

    const tty = await kagent(['conversation', 'list'], { tty: true });
    const out = plain(tty.stdout);
    expect(out).toMatch(/ID\s+TITLE\s+MESSAGES\s+CHANNEL\s+RUNNING\s+UPDATED/);
    expect(out).toMatch(new RegExp(`${first}\\s+What do I know about sourdough\\?\\s+4\\s+api`));
  });

  it('a running conversation is marked; --space (by name), --limit, --all', async () => {
    const started = await s.t.call('POST', '/conversations/messages', {
      body: { text: 'are you there?', conversationId: second },
    });
    const tty = plain((await kagent(['conversation', 'list'], { tty: true })).stdout);
    expect(tty).toMatch(new RegExp(`${second}\\s+hello\\s+3\\s+api\\s+● answering`));
    expect((await kagent(['conversation', 'list'])).stdout).toContain(`${second}\thello\t3\tapi\ttrue\t`);
    await s.t.advance(5_000);
    void started;

    const inSpace = JSON.parse((await kagent(['conversation', 'list', '--space', 'research', '--json'])).stdout);
    expect(inSpace.map((c: any) => c.id)).toEqual([research.id]);
    expect((await kagent(['conversation', 'list', '--limit', '1'])).stdout.trim().split('\n')).toHaveLength(1);
    const all = JSON.parse((await kagent(['conversation', 'list', '--all', '--json'])).stdout);
    expect(all).toHaveLength(3);
    expect((await kagent(['conversation', 'list', '--space', 'Nowhere'])).code).toBe(4);
  });

  it('bounds before any request: --limit at least 1, --space 1 to 80, not --limit with --all; an empty list says so', async () => {
    const before = (await stats()).listConversations ?? 0;
    expect((await kagent(['conversation', 'list', '--limit', '0'])).code).toBe(2);
    const space = await kagent(['conversation', 'list', '--space', 's'.repeat(81)]);
    expect(space.code).toBe(2);
    expect(space.stderr).toContain('--space must be 1 to 80 characters (got 81)');
    expect((await kagent(['conversation', 'list', '--limit', '2', '--all'])).code).toBe(2);
    expect((await stats()).listConversations ?? 0).toBe(before);

    const fresh = await s.t.newAccount();
    const env = { KAGENT_BASE_URL: s.t.baseUrl, KAGENT_API_KEY: fresh.apiKey };
    const empty = await kagent(['conversation', 'list'], { tty: true, env });
    expect(empty.code).toBe(0);
    expect(empty.stdout).toBe('');
    expect(empty.stderr).toContain('No conversations yet');
    expect((await kagent(['conversation', 'list', '--json'], { env })).stdout).toBe('[]\n');
  });
});

describe('conversation show', () => {
  it('terminal: the title, each message with who and when, replies rendered like chat', async () => {
    const r = await kagent(['conversation', 'show', first], { tty: true });
    expect(r.code).toBe(0);
    const out = plain(r.stdout);
    expect(out).toMatch(/^What do I know about sourdough\?\ncv_\w+ · api · 4 messages · updated /);
    expect(out.match(/^You · /gm)).toHaveLength(2);
    expect(out.match(/^Agent · .* · 1 credit$/gm)).toHaveLength(2);
    expect(out).toContain('What do I know about sourdough?');
    expect(out).toContain('✓ Searching your library');
    expect(out).toMatch(/Sources\n {2}\[1\] Sourdough starter — Docs/);
  });

  it('piped: label/value lines, `--`, then each message under a `message` line, indented', async () => {
    const r = await kagent(['conversation', 'show', first]);
    const [head, body] = r.stdout.split('\n--\n');
    // The help names every key of the head, in that order (one field table gives both).
    expect(pipedKeysOf(conversationShow.description)).toEqual(head!.split('\n').map((line) => line.split('\t')[0]));
    expect(head).toContain(`id\t${first}`);
    expect(head).toContain('messages\t4');
    expect(head).toContain('running\tfalse');
    const json = (await s.t.call('GET', `/conversations/${first}/messages`)).body;
    const headers = body!.split('\n').filter((l) => l.startsWith('message\t'));
    expect(headers).toEqual(
      json.messages.map((m: any) =>
        ['message', m.id, m.role, new Date(m.createdAt).toISOString(), m.credits ?? ''].join('\t'),
      ),
    );
    expect(body).toContain('\n  What do I know about sourdough?\n');
    expect(body!.split('\n').every((l) => l === '' || l.startsWith('message\t') || l.startsWith('  '))).toBe(true);
  });

  it("--json is the API's Messages; --limit reads the most recent N (1 to 200)", async () => {
    const json = JSON.parse((await kagent(['conversation', 'show', first, '--json'])).stdout);
    expect(json).toEqual((await s.t.call('GET', `/conversations/${first}/messages`)).body);
    // --json FIELDS takes the head's keys (into the conversation) and the API's names; `messages` is the API's list.
    const picked = JSON.parse(
      (await kagent(['conversation', 'show', first, '--json=id,updated,running,messages'])).stdout,
    );
    expect(picked).toEqual({
      id: json.conversation.id,
      updated: json.conversation.updatedAt,
      running: json.conversation.running,
      messages: json.messages,
    });
    const last = JSON.parse((await kagent(['conversation', 'show', first, '--limit', '1', '--json'])).stdout);
    expect(last.messages).toHaveLength(1);
    expect(last.messages[0].id).toBe(json.messages[3].id);
    const tty = plain((await kagent(['conversation', 'show', first, '--limit', '2'], { tty: true })).stdout);
    expect(tty).toContain('(the last 2 of 4 messages; --limit shows more)');
    expect((await kagent(['conversation', 'show', first, '--limit', '201'])).code).toBe(2);
    expect((await kagent(['conversation', 'show', first, '--limit', '0'])).code).toBe(2);
  });

  it('while the agent answers: a note without --follow; --follow waits for the reply on the sandbox clock', async () => {
    const started = (
      await s.t.call('POST', '/conversations/messages', { body: { text: 'one more thing', conversationId: first } })
    ).body;
    const now = await kagent(['conversation', 'show', first]);
    expect(now.stdout).toContain('running\ttrue');
    expect(now.stderr).toContain(
      `the agent is still answering: \`kagent conversation show ${first} --follow\` waits for the reply`,
    );
    const sleeps = clock.sleeps.length;
    const followed = await kagent(['conversation', 'show', first, '--follow', '--json']);
    expect(followed.code).toBe(0);
    expect(clock.sleeps.length).toBeGreaterThan(sleeps);
    const page = JSON.parse(followed.stdout);
    expect(page.conversation.running).toBe(false);
    expect(page.messages.at(-1).id).toBe(started.messageId);
    // Not running: --follow returns at once.
    const again = clock.sleeps.length;
    expect((await kagent(['conversation', 'show', first, '--follow'])).code).toBe(0);
    expect(clock.sleeps.length).toBe(again);
  });

  it('--follow --timeout: exit 8 with the command that reads it again', async () => {
    await s.t.call('POST', '/conversations/messages', { body: { text: 'slow one', conversationId: second } });
    const r = await kagent(['conversation', 'show', second, '--follow', '--timeout', '1']);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain(`hint: read it again with \`kagent conversation show ${second} --follow\``);
    await s.t.advance(5_000);
  });

  it('server text is sanitised and parts of unknown types are shown as text', async () => {
    const world = s.t.sandbox.world;
    const account = world.state.accounts[s.t.sandbox.accountId]!;
    const id = await turn('a conversation to tamper with');
    account.messages[id]!.push({
      id: 'msg_evil',
      conversationId: id,
      role: 'assistant',
      createdAt: world.now(),
      parts: [
        { type: 'text', text: 'Hello \x1b]0;owned\x07there \x1b[2J[1]' },
        { type: 'tool', id: 't', name: 'hidden_name', label: 'Peeking\x1b[31m around', status: 'error' },
        { type: 'sparkle', text: 'so \x9b1mshiny' } as any,
        {
          type: 'choice',
          id: 'ch',
          question: 'Pick\x07 one',
          options: [{ id: 'a', label: 'Option \x1b[1mA', hint: 'first' }],
        },
      ],
    });
    for (const tty of [true, false]) {
      const r = await kagent(['conversation', 'show', id], { tty });
      expect(r.code).toBe(0);
      expect(hasForeignEscapes(r.stdout)).toBe(false);
      const out = plain(r.stdout);
      expect(out).toContain('Hello there [1]');
      expect(out).toContain('✗ Peeking around (failed)');
      expect(out).not.toContain('hidden_name');
      expect(out).toContain('[sparkle] so shiny');
      expect(out).toContain('? Pick one');
      expect(out).toContain(`answer: kagent chat --conversation ${id} 'Option A'`);
    }
  });

  it('an unknown conversation is exit 4 with a hint', async () => {
    const r = await kagent(['conversation', 'show', 'cv_nope']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/\(CONVERSATION_NOT_FOUND\)/);
    expect(r.stderr).toContain('hint: no conversation "cv_nope": `kagent conversation list` shows yours');
  });
});

describe('conversation delete', () => {
  it('piped without --yes: exit 2 and nothing deleted; with --yes: the id, then 404', async () => {
    const id = await turn('delete me later');
    const refused = await kagent(['conversation', 'delete', id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`refusing to delete conversation ${id} without confirmation: pass --yes`);
    expect((await s.t.call('GET', `/conversations/${id}/messages`)).status).toBe(200);
    const r = await kagent(['conversation', 'delete', id, '--yes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${id}\n`);
    expect((await s.t.call('GET', `/conversations/${id}/messages`)).status).toBe(404);
    expect((await kagent(['conversation', 'delete', id, '--yes'])).code).toBe(4);
  });

  it('terminal: asks first (no keeps it, exit 1); yes deletes; --json prints the conversation as it was', async () => {
    const id = await turn('delete me on a terminal');
    const no = await kagent(['conversation', 'delete', id], { tty: true, answers: [false] });
    expect(no.code).toBe(1);
    expect(no.prompts[0]).toBe(
      `Delete conversation "delete me on a terminal" (${id}, 2 messages)? This cannot be undone.`,
    );
    expect((await s.t.call('GET', `/conversations/${id}/messages`)).status).toBe(200);
    const yes = await kagent(['conversation', 'delete', id], { tty: true, answers: [true] });
    expect(yes.code).toBe(0);
    expect(plain(yes.stderr)).toContain(`✓ Deleted conversation delete me on a terminal (${id})`);
    expect((await s.t.call('GET', `/conversations/${id}/messages`)).status).toBe(404);

    const other = await turn('delete me as json');
    const before = (await s.t.call('GET', `/conversations/${other}/messages`)).body.conversation;
    const json = await kagent(['conversation', 'delete', other, '--yes', '--json']);
    expect(JSON.parse(json.stdout)).toEqual(before);
  });

  it('deleting while the agent answers says that turn stops', async () => {
    const started = (await s.t.call('POST', '/conversations/messages', { body: { text: 'still answering' } })).body;
    const r = await kagent(['conversation', 'delete', started.conversationId], { tty: true, answers: [true] });
    expect(r.code).toBe(0);
    expect(r.prompts[0]).toContain('The agent is still answering in it; that turn stops.');
  });
});
