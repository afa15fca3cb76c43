// The chat REPL in a real pseudo-terminal, against the built binary
// (bin/kagent.js → dist/): `script` from util-linux gives the process a
// terminal, and the test types into it like a person — a message, an answer to
// the agent's choice (arrow down, Enter in the select prompt), /exit; and
// Ctrl-D on an empty line. The sandbox runs in this test process at 20× speed,
// so a 3-second turn takes 150 ms.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, plain, runInPty, type PtyStep } from '../helpers/binary.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';


let t: TestSandbox;
let home: string;

beforeAll(async () => {
  ensureBuilt();
  t = await startTestSandbox({ speed: 20 });
  home = mkdtempSync(join(tmpdir(), 'kagent-pty-'));
  await t.call('POST', '/docs', { body: { title: 'Vector search notes', markdown: 'HNSW graphs make vector search fast.' } });
}, 60_000);
afterAll(async () => {
  await t?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

/** Runs kagent in a pseudo-terminal and types each step's keys once its text is on screen. */
const chat = (args: string[], steps: PtyStep[]) =>
  runInPty(args, { env: { HOME: home, KAGENT_CONFIG_DIR: join(home, 'config'), KAGENT_CACHE_DIR: join(home, 'cache'), KAGENT_BASE_URL: t.baseUrl, KAGENT_API_KEY: t.apiKey }, steps });

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
    const id = /conversation (cv_\w+): kagent conversation show cv_\w+/.exec(screen)?.[1];
    expect(id).toBeDefined();
    expect(await userMessages(id!)).toEqual(['what did I save about vector search?', 'which should I choose?', 'The details']);
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
    expect(screen).toMatch(/conversation cv_\w+: kagent conversation show cv_\w+/);
    expect(screen).not.toContain('INTERRUPTED');
  });
});
