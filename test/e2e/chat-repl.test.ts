// The chat REPL in a real pseudo-terminal, against the built binary
// (bin/kagent.js → dist/): `script` from util-linux gives the process a
// terminal, and the test types into it like a person — a message, an answer to
// the agent's choice (arrow down, Enter in the select prompt), /exit; and
// Ctrl-D on an empty line. The sandbox runs in this test process at 20× speed,
// so a 3-second turn takes 150 ms.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plain, runInPty, unwrap, type PtyStep } from '../helpers/binary.js';
import { binaryAgainstSandbox, type BinarySandbox } from '../helpers/binary-sandbox.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: BinarySandbox;
let t: TestSandbox;

beforeAll(async () => {
  s = await binaryAgainstSandbox('kagent-pty-', { speed: 20 });
  t = s.t;
  await t.call('POST', '/docs', {
    body: { title: 'Vector search notes', markdown: 'HNSW graphs make vector search fast.' },
  });
}, 60_000);
afterAll(() => s?.close());

/** Runs kagent in a pseudo-terminal and types each step's keys once its text is on screen. */
const chat = (args: string[], steps: PtyStep[]) => runInPty(args, { env: s.env, steps });

async function userMessages(conversationId: string): Promise<string[]> {
  const page = (await t.call('GET', `/conversations/${conversationId}/messages`)).body;
  return page.messages.filter((m: any) => m.role === 'user').map((m: any) => m.parts[0].text);
}

describe('the chat REPL in a pseudo-terminal (built binary)', () => {
  it('type a message, see the reply, pick a choice with the arrow keys, /exit', async () => {
    const run = await chat(
      ['chat'],
      [
        { wait: /\? You/, type: 'what did I save about vector search?\r' },
        { wait: /HNSW graphs make vector search fast\.[\s\S]*\? You/, type: 'which should I choose?\r' },
        // The select prompt: the first option is highlighted; one down is "The details".
        { wait: /Which should I focus on\?[\s\S]*Something else/, type: '\x1b[B' },
        { wait: /❯ The details/, type: '\r' },
        { wait: /I found nothing about[\s\S]*\? You/, type: '/exit\r' },
      ],
    );
    const screen = plain(run.output);
    expect(run.code, screen).toBe(0);
    expect(screen).toContain('Chatting with Ada.');
    expect(screen).toContain('✓ Searching your library');
    expect(screen).toContain('Sources');
    expect(screen).toMatch(/\[1\] Vector search notes — Docs/);
    const id = /conversation (cv_\w+): `kagent conversation show cv_\w+`/.exec(screen)?.[1];
    expect(id).toBeDefined();
    expect(await userMessages(id!)).toEqual([
      'what did I save about vector search?',
      'which should I choose?',
      'The details',
    ]);
  });

  it('Ctrl-D on an empty line ends the conversation with exit 0', async () => {
    const run = await chat(
      ['chat'],
      [
        { wait: /\? You/, type: 'hello\r' },
        { wait: /Hello! Ask me about anything[\s\S]*\? You/, type: '\x04' },
      ],
    );
    const screen = plain(run.output);
    expect(run.code, screen).toBe(0);
    expect(screen).toMatch(/conversation cv_\w+: `kagent conversation show cv_\w+`/);
    // the goodbye on a line of its own, not glued to the prompt it ended
    expect(screen).toMatch(/(^|\n)conversation cv_\w+: `kagent conversation show/);
    expect(screen).not.toMatch(/You[ \t]*conversation cv_/);
    expect(screen).not.toContain('INTERRUPTED');
  });

  it('an action waiting for approval is approved right there (Enter on "Approve"), the agent carries on, /undo reverts it', async () => {
    const run = await chat(
      ['chat'],
      [
        { wait: /\? You/, type: 'Create a doc about barley malt\r' },
        { wait: /Decide later/, type: '\r' },
        { wait: /I created the document[\s\S]*\? You/, type: '/undo\r' },
        { wait: /Undone:[\s\S]*\? You/, type: '/exit\r' },
      ],
    );
    const screen = plain(run.output);
    expect(run.code, screen).toBe(0);
    expect(run.typed).toBe(4);
    expect(screen).toMatch(
      /Approved: Create the document “Notes on barley malt” \(ac_\w+\); it runs in the background/,
    );
    expect(screen).not.toContain('approve: kagent actions approve');
    const docs = (await t.call('GET', '/docs')).body.items.map((d: any) => d.title);
    expect(docs).not.toContain('Notes on barley malt');
    const id = /\((ac_\w+)\); it runs/.exec(screen)![1]!;
    expect(screen).toContain(`Undone: Create the document “Notes on barley malt” (${id})`);
  });

  it('a high-risk action: Enter alone picks "Decide later" (nothing decided, the action waits)', async () => {
    await t.call('POST', '/docs', { body: { title: 'Sourdough starter log' } });
    const run = await chat(
      ['chat'],
      [
        { wait: /\? You/, type: 'Delete the sourdough starter log doc\r' },
        { wait: /Decide later/, type: '\r' },
        { wait: /Delete “Sourdough starter log”[\s\S]*\? You/, type: '/exit\r' },
      ],
    );
    const screen = plain(run.output);
    expect(run.code, screen).toBe(0);
    expect(screen).not.toMatch(/Approved: Delete|Rejected: Delete/);
    expect(screen).not.toContain('Approve this high-risk action');
    const docs = (await t.call('GET', '/docs')).body.items.map((d: any) => d.title);
    expect(docs).toContain('Sourdough starter log');
    // still waiting: the inbox lists it for approval
    const id = /\/approve (ac_\w+)/.exec(screen)?.[1];
    expect(id).toBeDefined();
    const inbox = JSON.stringify((await t.call('GET', '/inbox')).body.items);
    expect(inbox).toContain(id);
  });

  it('Ctrl-C clears the prompt line (the REPL goes on); twice in a row ends it with exit 0', async () => {
    const run = await chat(
      ['chat'],
      [
        { wait: /\? You/, type: 'half a thought' },
        { wait: /half a thought/, type: '\x03' },
        { wait: /Ctrl-C again to end[\s\S]*\? You/, type: 'hello\r' },
        { wait: /Hello! Ask me about anything[\s\S]*\? You/, type: '\x03' },
        { wait: /Ctrl-C again to end/, type: '\x03' },
      ],
    );
    const screen = plain(run.output);
    expect(run.code, screen).toBe(0);
    expect(run.typed).toBe(5);
    const id = /conversation (cv_\w+): `kagent conversation show/.exec(screen)?.[1];
    expect(await userMessages(id!)).toEqual(['hello']);
    expect(screen).not.toContain('INTERRUPTED');
  });

  it('Ctrl-C while a turn runs stops waiting for it (the turn goes on) and the REPL goes on', async () => {
    // A sandbox at normal speed: the turn takes seconds, time to press Ctrl-C.
    const slow = await startTestSandbox({ speed: 1 });
    try {
      const run = await runInPty(['chat'], {
        env: { ...s.env, KAGENT_BASE_URL: slow.baseUrl, KAGENT_API_KEY: slow.apiKey },
        steps: [
          { wait: /\? You/, type: 'what did I save about vector search?\r' },
          { wait: /Searching|Thinking/, type: '\x03' },
          { wait: /Stopped waiting; the turn goes on[\s\S]*\? You/, type: '/exit\r' },
        ],
      });
      const screen = plain(run.output);
      expect(run.code, screen).toBe(0);
      expect(run.typed).toBe(3);
      expect(unwrap(screen)).toMatch(
        /Stopped waiting; the turn goes on: the reply will be in the conversation: `kagent conversation show cv_\w+ --follow`/,
      );
    } finally {
      await slow.close();
    }
  });
});
