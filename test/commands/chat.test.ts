// `kagent chat` in-process against the sandbox (real HTTP on loopback), the
// turn followed by advancing the sandbox clock (no real sleeping): one-shot in
// terminal, piped and --json modes, --no-wait, stdin, --continue and
// --conversation, every bound of the message checked before sending, the
// service's refusals (CREDITS_EXHAUSTED → 6, CONVERSATION_BUSY → 5, 404 → 4),
// --timeout (8) and Ctrl-C (130) with the resume command, every ChatPart type
// rendered and sanitised (an unknown type too), and the REPL with scripted
// answers (the pseudo-terminal run is in test/e2e/chat-repl.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';
import { hasForeignEscapes, runCli, type RunCliOptions } from '../helpers/run.js';
import { unwrap } from '../helpers/binary.js';
import { sandboxClock, type SandboxClock } from '../helpers/sandbox-clock.js';
import { tinyServer, type TinyServer } from '../helpers/tiny-server.js';

let s: LoggedIn;
let clock: SandboxClock;
let fileId: string;

const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

function kagent(argv: string[], options: RunCliOptions = {}) {
  return s.kagent(argv, { clock, ...options });
}

async function stats(): Promise<Record<string, number>> {
  return (await s.t.call('GET', '/_sandbox/stats', { key: null })).body.requests;
}

async function messagesOf(id: string) {
  return (await s.t.call('GET', `/conversations/${id}/messages`)).body as { conversation: any; messages: any[] };
}

/** The conversation a one-shot names in its closing footer. */
function conversationIn(stderr: string): string {
  const match = /conversation (cv_\w+)/.exec(stderr);
  expect(match).not.toBeNull();
  return match![1]!;
}

beforeAll(async () => {
  s = await loggedInSandbox();
  clock = sandboxClock(s.t);
  await s.t.call('POST', '/docs', {
    body: {
      title: 'Vector search notes',
      markdown: '# Vector search notes\n\nHNSW graphs make vector search fast. Quantisation saves memory.',
    },
  });
  await s.t.call('POST', '/library', { body: { url: 'https://blog.example.com/posts/vector-search-at-scale' } });
  const up = await s.t.call('POST', '/library/files', {
    raw: '# Beekeeping log\n\nThe hive swarmed in May. Add a super before the honey flow.',
    headers: { 'content-type': 'application/octet-stream', 'x-file-name': 'beekeeping.md' },
  });
  fileId = up.body.item.id;
});
afterAll(() => s.close());

describe('chat MESSAGE (one-shot)', () => {
  it('piped: sends, follows the turn on the sandbox clock, prints the answer only, [n] markers kept (sources and tools are for a terminal)', async () => {
    const before = await stats();
    const sleeps = clock.sleeps.length;
    const started = Date.now();
    const r = await kagent(['chat', 'what did I save about vector search?']);
    expect(r.code).toBe(0);
    // The turn took 3 sandbox seconds; the follower slept (on the sandbox clock) until it ended.
    const slept = clock.sleeps.slice(sleeps);
    expect(slept.length).toBeGreaterThan(0);
    expect(slept.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(3000);
    // No look in the turn's first second; then 1 s, 1.5 s: the 3-second turn is seen ended at 3.5 s.
    expect(slept).toEqual([1000, 1000, 1500]);
    expect(Date.now() - started).toBeLessThan(3000);
    const after = await stats();
    expect((after.sendMessage ?? 0) - (before.sendMessage ?? 0)).toBe(1);
    expect((after.getConversationMessages ?? 0) - (before.getConversationMessages ?? 0)).toBe(slept.length);

    const out = r.stdout;
    // stdout is the answer, as `llm "…" > out.md` writes it: no tool lines, no sources, nothing else.
    expect(out).toMatch(/^Here is what I found in your library and docs/);
    expect(out).toMatch(/\*\*Vector search notes\*\*: HNSW graphs make vector search fast\. \[\d\]/);
    for (const rest of ['Searching your', 'search_library', 'Sources', 'https://blog.example.com/'])
      expect(out, rest).not.toContain(rest);
    expect(out).not.toContain('\x1b');
    // stderr is no terminal either: the rest is left out (--json has it), -q changes nothing on stdout.
    expect(r.stderr).toBe('');
    const quiet = await kagent(['chat', '-q', 'what did I save about vector search?']);
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toMatch(/^Here is what I found in your library and docs/);
    expect(quiet.stdout).not.toContain('Sources');
    // Piped, the footer ("conversation … · continue: …") is left out: it is for a terminal.
    expect(r.stderr).not.toContain('continue:');
    const id = (await s.t.call('GET', '/conversations')).body.items[0].id as string;
    const { messages, conversation } = await messagesOf(id);
    expect(conversation.running).toBe(false);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(messages[0].parts[0].text).toBe('what did I save about vector search?');
  });

  it('terminal: Markdown rendered, [n] markers kept, the credits of the reply', async () => {
    const r = await kagent(['chat', 'what', 'did', 'I', 'save', 'about', 'vector', 'search?'], {
      tty: true,
      env: { FORCE_HYPERLINK: '1' },
    });
    expect(r.code).toBe(0);
    // Sources are links where the terminal can show them: http(s) only, a site path stays text.
    expect(r.stdout).toContain('\x1b]8;;https://blog.example.com/posts/vector-search-at-scale\x1b\\');
    expect(r.stdout).not.toContain('\x1b]8;;/docs/');
    const out = plain(r.stdout.replace(/\x1b\]8;;[^\x1b]*\x1b\\/g, ''));
    expect(out).toMatch(/✓ Searching your library/);
    expect(out).not.toContain('**');
    expect(out).toMatch(/Vector search notes: HNSW graphs make vector search fast\. \[\d\]/);
    expect(out).toMatch(
      /Sources\n {2}\[1\] Vector search notes — Docs\n {6}\/docs\/doc_\w+\n {2}\[2\] Vector Search Scale — blog\.example\.com\n/,
    );
    expect(plain(r.stderr)).toMatch(
      /conversation cv_\w+ · 1 credit · continue: kagent chat --conversation cv_\w+ MESSAGE/,
    );
    // The words were joined into one message.
    const id = conversationIn(plain(r.stderr));
    expect((await messagesOf(id)).messages[0].parts[0].text).toBe('what did I save about vector search?');
  });

  it('--json prints the assistant ChatMessage as the API has it; --jq picks from it', async () => {
    const r = await kagent(['chat', 'hello there', '--json']);
    expect(r.code).toBe(0);
    const reply = JSON.parse(r.stdout);
    expect(reply).toMatchObject({ role: 'assistant', conversationId: expect.stringMatching(/^cv_/), credits: 1 });
    const { messages } = await messagesOf(reply.conversationId);
    expect(reply).toEqual(messages[1]);
    const text = await kagent(['chat', 'hello again', '--jq', '.parts[] | select(.type == "text") | .text']);
    expect(text.stdout).toBe('Hello! Ask me about anything in your library or docs.\n');
  });

  it('--no-wait prints TurnStarted (TSV piped, JSON with --json) while the agent is still answering', async () => {
    const piped = await kagent(['chat', '--no-wait', 'hello']);
    expect(piped.code).toBe(0);
    const [conversationId, messageId, userMessageId] = piped.stdout.trim().split('\t');
    expect(conversationId).toMatch(/^cv_/);
    expect(messageId).toMatch(/^msg_/);
    expect(userMessageId).toMatch(/^msg_/);
    expect(piped.stderr).not.toMatch(/✓|read the reply/);
    expect((await messagesOf(conversationId!)).conversation.running).toBe(true);

    const json = await kagent(['chat', '--no-wait', '--json', 'hello']);
    const started = JSON.parse(json.stdout);
    expect(Object.keys(started).sort()).toEqual(['conversationId', 'messageId', 'userMessageId']);
    await s.t.advance(5_000);
    const after = await messagesOf(started.conversationId);
    expect(after.messages.find((m) => m.id === started.messageId)?.role).toBe('assistant');
  });

  it('reads the message from stdin when it is piped, or with `-`', async () => {
    const piped = await kagent(['chat', '--json'], { stdin: 'what is in my beekeeping notes?\n' });
    expect(piped.code).toBe(0);
    const reply = JSON.parse(piped.stdout);
    const { messages } = await messagesOf(reply.conversationId);
    expect(messages[0].parts[0].text).toBe('what is in my beekeeping notes?');
    const dash = await kagent(['chat', '-', '--json'], { stdin: 'line one\nline two\n' });
    expect(dash.code).toBe(0);
    expect((await messagesOf(JSON.parse(dash.stdout).conversationId)).messages[0].parts[0].text).toBe(
      'line one\nline two',
    );
  });

  it('no terminal and no message: exit 2, no request, no prompt', async () => {
    const before = await stats();
    const none = await kagent(['chat']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('error: no message: pass MESSAGE, or pipe it on stdin');
    const blank = await kagent(['chat'], { stdin: '  \n' });
    expect(blank.code).toBe(2);
    expect(blank.stderr).toContain('the message is empty');
    // A terminal, but --json: one reply is all it prints, so no conversation prompt.
    const json = await kagent(['chat', '--json'], { tty: true, answers: [] });
    expect(json.code).toBe(2);
    expect(json.prompts).toEqual([]);
    expect(unwrap(json.stderr)).toContain('--json prints one reply');
    // --no-wait and --idempotency-key are for one message: no conversation prompt either.
    const noWait = await kagent(['chat', '--no-wait'], { tty: true, answers: [] });
    expect(noWait.code).toBe(2);
    expect(noWait.prompts).toEqual([]);
    expect(unwrap(noWait.stderr)).toContain('no conversation prompt: --no-wait sends one message');
    const keyed = await kagent(['chat', '--idempotency-key', 'chat-key-1'], { tty: true, answers: [] });
    expect(keyed.code).toBe(2);
    expect(keyed.prompts).toEqual([]);
    expect(unwrap(keyed.stderr)).toContain('no conversation prompt: --idempotency-key is for one message');
    const noInput = await kagent(['chat', '--no-input'], { tty: true, answers: [] });
    expect(noInput.code).toBe(2);
    expect(noInput.stderr).toContain('--no-input was given');
    expect((await stats()).sendMessage ?? 0).toBe(before.sendMessage ?? 0);
  });

  it('bounds of SendMessageRequest are checked before sending: text 1 to 20000, --conversation 1 to 80, --space 1 to 80, --about', async () => {
    const before = await stats();
    const long = await kagent(['chat', 'x'.repeat(20_001)]);
    expect(long.code).toBe(2);
    expect(long.stderr).toContain('error: MESSAGE must be 1 to 20000 characters (got 20001) (INVALID_INPUT)');
    const fromStdin = await kagent(['chat'], { stdin: 'y'.repeat(20_001) });
    expect(fromStdin.code).toBe(2);
    expect(fromStdin.stderr).toContain('MESSAGE must be 1 to 20000 characters (got 20001)');
    const conv = await kagent(['chat', '--conversation', 'c'.repeat(81), 'hi']);
    expect(conv.code).toBe(2);
    expect(conv.stderr).toContain('--conversation must be 1 to 80 characters (got 81)');
    const space = await kagent(['chat', '--space', 's'.repeat(81), 'hi']);
    expect(space.code).toBe(2);
    expect(space.stderr).toContain('--space must be 1 to 80 characters (got 81)');
    const about = await kagent(['chat', '--about', 'doc:' + 'd'.repeat(41), 'hi']);
    expect(about.code).toBe(2);
    expect(about.stderr).toContain('--about must be at most 40 characters (got 41)');
    const aboutShape = await kagent(['chat', '--about', 'nonsense', 'hi']);
    expect(aboutShape.code).toBe(2);
    expect(aboutShape.stderr).toContain('--about must look like doc:ID, watch:SLUG or media:ID');
    const tooMany = await kagent([
      'chat',
      ...Array.from({ length: 11 }, (_, i) => ['--about', `doc:d${i}`]).flat(),
      'hi',
    ]);
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toContain('--about');
    const both = await kagent(['chat', '--continue', '--conversation', 'cv_x', 'hi']);
    expect(both.code).toBe(2);
    const key = await kagent(['chat', '--idempotency-key', 'k'.repeat(201), 'hi']);
    expect(key.code).toBe(2);
    expect(key.stderr).toContain('--idempotency-key must be 1 to 200 characters (got 201)');
    expect((await stats()).sendMessage ?? 0).toBe(before.sendMessage ?? 0);

    // At the limit it goes through.
    const atLimit = await kagent(['chat', '--no-wait', '--json', 'z'.repeat(20_000)]);
    expect(atLimit.code).toBe(0);
    await s.t.advance(5_000);
  });

  it("--lang (or the profile's language) is sent with the message: the reply comes in that language", async () => {
    const r = await kagent(['--lang', 'zh', 'chat', 'hello', '--json']);
    expect(r.code).toBe(0);
    const reply = JSON.parse(r.stdout);
    expect(reply.parts.find((p: any) => p.type === 'tool').label).toBe('正在搜索你的资料库');
    expect(reply.parts.find((p: any) => p.type === 'text').text).toMatch(/^你好/);
    const env = await kagent(['chat', 'hello', '--json'], { env: { KAGENT_LANG: 'zh' } });
    expect(JSON.parse(env.stdout).parts.find((p: any) => p.type === 'text').text).toMatch(/^你好/);
  });

  it('--about sends what the message is about; --space starts the conversation in that space (by name)', async () => {
    const space = (await s.t.call('POST', '/spaces', { body: { name: 'Bees' } })).body;
    const r = await kagent([
      'chat',
      '--space',
      'Bees',
      '--about',
      'doc:doc_1',
      '--about',
      'watch:ai-chips',
      '--json',
      'hello bees',
    ]);
    expect(r.code).toBe(0);
    const { conversation, messages } = await messagesOf(JSON.parse(r.stdout).conversationId);
    expect(conversation.spaceId).toBe(space.id);
    expect(messages[0].context).toEqual({
      refs: [
        { kind: 'doc', id: 'doc_1' },
        { kind: 'watch', id: 'ai-chips' },
      ],
    });
    const missing = await kagent(['chat', '--space', 'Nowhere', 'hi']);
    expect(missing.code).toBe(4);
  });

  it('--continue adds to the most recent conversation; --conversation ID to that one; an unknown one is exit 4', async () => {
    const first = JSON.parse((await kagent(['chat', '--json', 'first message'])).stdout).conversationId;
    const cont = await kagent(['chat', '--continue', '--json', 'second message']);
    expect(cont.code).toBe(0);
    expect(JSON.parse(cont.stdout).conversationId).toBe(first);
    const other = JSON.parse((await kagent(['chat', '--json', 'another conversation'])).stdout).conversationId;
    expect(other).not.toBe(first);
    const named = await kagent(['chat', '--conversation', first, '--json', 'third message']);
    expect(JSON.parse(named.stdout).conversationId).toBe(first);
    const texts = (await messagesOf(first)).messages.filter((m) => m.role === 'user').map((m) => m.parts[0].text);
    expect(texts).toEqual(['first message', 'second message', 'third message']);

    const unknown = await kagent(['chat', '--conversation', 'cv_nope', 'hi']);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toMatch(/\(CONVERSATION_NOT_FOUND\)/);
    expect(unknown.stderr).toContain('hint: no conversation "cv_nope": `kagent conversation list` shows yours');

    const fresh = await s.t.newAccount();
    const none = await runCli(['chat', '--continue', 'hi'], {
      env: { KAGENT_BASE_URL: s.t.baseUrl, KAGENT_API_KEY: fresh.apiKey },
    });
    expect(none.code).toBe(4);
    expect(none.stderr).toContain('error: no conversation to continue (NO_CONVERSATION)');
  });

  it('CONVERSATION_BUSY is exit 5 and says how to wait for the reply', async () => {
    const started = JSON.parse((await kagent(['chat', '--no-wait', '--json', 'hello'])).stdout);
    const r = await kagent(['chat', '--conversation', started.conversationId, 'are you there?']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain(
      `error: the agent is still answering in conversation ${started.conversationId} (CONVERSATION_BUSY)`,
    );
    expect(r.stderr).toContain(
      `wait for the reply with \`kagent conversation show ${started.conversationId} --follow\`, then send again`,
    );
    const json = await kagent(['chat', '--conversation', started.conversationId, '--json', 'still?']);
    expect(json.code).toBe(5);
    expect(JSON.parse(json.stderr).error.code).toBe('CONVERSATION_BUSY');
    await s.t.advance(5_000);
  });

  it('CREDITS_EXHAUSTED is exit 6 and points at `kagent me`; nothing is created', async () => {
    const broke = await s.t.newAccount({ credits: 0 });
    const env = { KAGENT_BASE_URL: s.t.baseUrl, KAGENT_API_KEY: broke.apiKey };
    const r = await runCli(['chat', 'hello'], { env });
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('error: no credits left for messages to the agent (CREDITS_EXHAUSTED)');
    expect(r.stderr).toContain('see what is left with `kagent me`');
    expect((await s.t.call('GET', '/conversations', { key: broke.apiKey })).body.items).toEqual([]);
  });

  it('--timeout: exit 8 with `kagent conversation show ID --follow`; the turn goes on', async () => {
    const r = await kagent(['chat', '--timeout', '1', 'hello slowly']);
    expect(r.code).toBe(8);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error: the agent is still answering after 1 s; the turn goes on (STILL_RUNNING)');
    const hint = /hint: the reply will be in the conversation: `kagent conversation show (cv_\w+) --follow`/.exec(
      r.stderr,
    );
    expect(hint).not.toBeNull();
    await s.t.advance(5_000);
    const { conversation, messages } = await messagesOf(hint![1]!);
    expect(conversation.running).toBe(false);
    expect(messages.at(-1).role).toBe('assistant');
  });

  it('Ctrl-C while waiting: exit 130 with the same resume command; the turn goes on', async () => {
    const controller = new AbortController();
    const local = sandboxClock(s.t);
    local.onSleep = (_ms, count) => {
      if (count === 2) controller.abort();
    };
    const r = await s.kagent(['chat', 'hello, interrupted'], { clock: local, signal: controller.signal, tty: true });
    expect(r.code).toBe(130);
    const screen = unwrap(plain(r.stderr));
    expect(screen).not.toContain('error');
    // The spinner's row cleared, the cursor shown, then one quiet line (wrapped at the width): what goes on, where to read it.
    const id =
      /\r\x1b\[2K\x1b\[\?25hthe turn goes on; the reply will be in the conversation: `kagent conversation show (cv_\w+) --follow`\n$/.exec(
        screen,
      )![1]!;
    expect((await messagesOf(id)).conversation.running).toBe(true);
    await s.t.advance(5_000);
    expect((await messagesOf(id)).messages.at(-1).role).toBe('assistant');
  });
});

describe('every ChatPart type', () => {
  it('a reply with tool, text, citations, files, action, choice, memory, task, media, connect and changes parts (terminal and piped)', async () => {
    await s.t.patchAccount(s.t.sandbox.accountId, { credits: 1000 });
    const message =
      'Remember that I keep bees. Which beekeeping notes should I read? Create a doc about beekeeping, research hive swarms, connect gmail and transcribe https://www.youtube.com/watch?v=bees123';
    // Wide enough for every part's line to fit (narrower, long lines wrap at word boundaries).
    const tty = await kagent(['chat', message], { tty: true, columns: 400, env: { FORCE_HYPERLINK: '1' } });
    expect(tty.code).toBe(0);
    expect(hasForeignEscapes(tty.stdout.replace(/\x1b\]8;;[^\x1b]*\x1b\\/g, ''))).toBe(false);
    // Hyperlinks only for http(s) URLs: the file's site path stays text.
    expect(tty.stdout).not.toContain('\x1b]8;;/library/');
    const out = plain(tty.stdout.replace(/\x1b\]8;;[^\x1b]*\x1b\\/g, ''));
    expect(out).toContain('✓ Updating memory');
    expect(out).not.toMatch(/update_memory|search_library|start_research/);
    expect(out).toContain('Sources');
    expect(out).toContain(`Files\n  ▪ beekeeping.md (text/markdown)  ${fileId}\n      open: kagent lib show ${fileId}`);
    expect(out).toMatch(/⏸ Waiting for your approval: Create the document “.*” \(risk low, create_doc, ac_\w+\)/);
    expect(out).toMatch(/ {4}approve: kagent actions approve ac_\w+\n {4}reject: {2}kagent actions reject ac_\w+/);
    expect(out).toMatch(/\? Which should I focus on\?\n {4}1\. /);
    expect(out).toMatch(/answer: kagent chat --conversation cv_\w+ '.+'/);
    expect(out).toMatch(/✎ Remembered: I keep bees.*\n {4}undo: kagent actions undo ac_\w+/);
    expect(out).toMatch(/▸ Task: Research: .* \(research, tk_\w+\)\n {4}follow: kagent task show tk_\w+ --follow/);
    // A video link is quoted first: an action awaiting approval that carries the price; nothing is transcribed yet.
    expect(out).toMatch(
      /⏸ Waiting for your approval: Transcribe “.*” \(\d+ min, \d+ credits\) \(risk medium, start_media, ac_\w+\)/,
    );
    expect(out).not.toMatch(/▸ Media:/);
    expect(out).toMatch(/⚡ Connect Gmail \(gmail\): .*\n {4}access: Read your email \(read-only\) · state: available/);
    expect(out).toContain('connect it in the web app: /connect/gmail');
    expect(out).toMatch(
      /Changes\n {2}\+ created task “Research: .*” \(tk_\w+\) in progress\n {6}open: kagent task show tk_\w+/,
    );

    const id = /conversation (cv_\w+)/.exec(plain(tty.stderr))![1]!;
    const transcribe = (await messagesOf(id)).messages[1].parts.find(
      (p: any) => p.type === 'action' && p.action.tool === 'start_media',
    ).action;
    // Approved, the transcription starts: the agent's next message shows its media and task parts.
    expect((await kagent(['actions', 'approve', transcribe.id, '--yes'])).code).toBe(0);
    await s.t.advance(3_000);
    const { messages } = await messagesOf(id);
    const types = new Set(messages[1].parts.map((p: any) => p.type));
    for (const type of [
      'tool',
      'text',
      'citations',
      'files',
      'action',
      'choice',
      'memory',
      'task',
      'connect',
      'changes',
    ])
      expect(types).toContain(type);
    expect(messages.at(-1).parts.map((p: any) => p.type)).toEqual(expect.arrayContaining(['media', 'task']));
    const shown = plain(
      (await kagent(['conversation', 'show', id], { tty: true, columns: 400 })).stdout.replace(
        /\x1b\]8;;[^\x1b]*\x1b\\/g,
        '',
      ),
    );
    expect(shown).toMatch(/▸ Media: .* \(md_\w+\)\n {4}open: kagent media show md_\w+/);

    const piped = await kagent(['conversation', 'show', id]);
    expect(piped.code).toBe(0);
    expect(piped.stdout).not.toContain('\x1b');
    expect(piped.stdout).toMatch(/\n {2}⏸ Waiting for your approval: Create the document/);
    expect(piped.stdout).toContain(`  Files\n    ▪ beekeeping.md (text/markdown)  ${fileId}`);
  });

  describe('from a service that sends what this version does not know', () => {
    let server: TinyServer;
    const reply = {
      id: 'msg_2',
      conversationId: 'cv_1',
      role: 'assistant',
      createdAt: Date.UTC(2026, 0, 15, 9, 0, 3),
      credits: 2,
      parts: [
        {
          type: 'tool',
          id: 't1',
          name: 'secret_tool_name',
          label: 'Looking \x1b]0;pwned\x07things up',
          status: 'done',
        },
        { type: 'tool', id: 't2', name: 'other_tool', label: 'Thinking hard', status: 'paused' },
        { type: 'text', text: 'Answer \x1b[2Jwith a marker [1] and \x9b31mC1 junk' },
        {
          type: 'citations',
          items: [
            { n: 1, title: 'Evil\x1b]8;;https://evil.test\x07 link', url: 'javascript:alert(1)', source: 'evil.test' },
            { n: 2, title: 'www.example.com', url: 'https://www.example.com/untitled-page' },
            { n: 3, url: 'https://example.org/no-title' },
          ],
        },
        { type: 'citations', items: 'not a list' },
        {
          type: 'action',
          action: {
            id: 'ac_1',
            tool: 'frobnicate',
            risk: 'extreme',
            title: 'Frobnicate\nthe thing',
            status: 'pending',
            preview: { target: 'x\x1b[31my' },
          },
        },
        { type: 'action', action: { id: 'ac_2', title: 'Odd', status: 'teleported' } },
        {
          type: 'changes',
          items: [
            {
              kind: 'hologram',
              id: 'h1',
              title: 'A hologram',
              action: 'created',
              href: '/holo/h1',
              actionIds: ['ac_9', 'ac_8'],
              undoUntil: Date.UTC(2030, 0, 1),
            },
          ],
        },
        { type: 'hologram', text: 'A \x1b[5mblinking\x1b[0m hologram' },
        { type: 'weather', forecast: { today: 'sunny' } },
        { type: 'connect', card: null },
        'a bare string part',
        null,
      ],
    };
    beforeAll(async () => {
      server = await tinyServer((req) => {
        if (req.method === 'POST')
          return { status: 202, body: { conversationId: 'cv_1', messageId: 'msg_2', userMessageId: 'msg_1' } };
        return {
          status: 200,
          body: {
            conversation: {
              id: 'cv_1',
              title: 'Odd \x1b]0;x\x07one',
              spaceId: null,
              channel: 'api',
              preview: '',
              messageCount: 2,
              updatedAt: Date.UTC(2026, 0, 15, 9, 0, 3),
              running: false,
            },
            messages: [
              {
                id: 'msg_1',
                conversationId: 'cv_1',
                role: 'user',
                parts: [{ type: 'text', text: 'hi' }],
                createdAt: Date.UTC(2026, 0, 15, 9, 0, 0),
              },
              reply,
            ],
          },
        };
      });
    });
    afterAll(() => server.close());
    const env = () => ({ KAGENT_BASE_URL: server.baseUrl, KAGENT_API_KEY: 'kak_tinyserverkey0001' });
    // Time that passes only when slept: the turn's first look waits 1 s, which here need not be real.
    let now = Date.UTC(2026, 0, 15, 9, 0, 0);
    const clock = { now: () => now, sleep: async (ms: number) => void (now += ms) };

    it('renders every part, unknown types as text, without crashing and without foreign escapes', async () => {
      // Piped, stdout is the answer only: the text parts, none of the others.
      const piped = await runCli(['chat', 'hi'], { env: env(), clock });
      expect(piped.code, piped.stderr).toBe(0);
      expect(hasForeignEscapes(piped.stdout)).toBe(false);
      expect(plain(piped.stdout)).toMatch(/Answer with a marker \[1\] and (31m)?C1 junk/);
      for (const rest of ['Looking things up', 'Evil link', 'Waiting for your approval', 'a bare string part'])
        expect(piped.stdout, rest).not.toContain(rest);
      // On a terminal, every part.
      {
        const r = await runCli(['chat', 'hi'], { tty: true, env: env(), clock });
        expect(r.code, r.stderr).toBe(0);
        expect(hasForeignEscapes(r.stdout)).toBe(false);
        expect(hasForeignEscapes(r.stderr)).toBe(false);
        const out = plain(r.stdout);
        expect(out).toContain('✓ Looking things up');
        expect(out).toContain('? Thinking hard (paused)');
        expect(out).not.toContain('secret_tool_name');
        expect(out).toContain('[1]');
        expect(out).toMatch(/Answer with a marker \[1\] and (31m)?C1 junk/);
        expect(out).toContain('[1] Evil link — evil.test');
        // a title that is only the URL's host, or none: the URL once, not the host and then the URL
        expect(out).toContain('[2] https://www.example.com/untitled-page\n');
        expect(out.split('https://www.example.com/untitled-page')).toHaveLength(2);
        expect(out).toContain('[3] https://example.org/no-title\n');
        expect(out.split('https://example.org/no-title')).toHaveLength(2);
        expect(out).not.toContain('\x1b]8;;javascript');
        expect(out).toContain('Waiting for your approval: Frobnicate the thing (risk extreme, frobnicate, ac_1)');
        expect(out).toContain('target: xy');
        expect(out).toContain('? Action teleported: Odd');
        expect(out).toMatch(
          /\+ created hologram “A hologram” \(h1\)\n {6}in the web app: \/holo\/h1\n {6}undo \(until .*\): kagent actions undo ac_9 ac_8/,
        );
        expect(out).toContain('[hologram] A blinking hologram');
        expect(out).toContain('[weather] {"forecast":{"today":"sunny"}}');
        expect(out).toContain('a bare string part');
        expect(out).toContain('Connect a service');
      }
      const json = await runCli(['chat', 'hi', '--json'], { env: env(), clock });
      expect(JSON.parse(json.stdout)).toEqual(reply);
    });
  });
});

describe('a turn in real time (sandbox at speed 1)', () => {
  it('a turn of about 3 s costs at most 4 requests: the POST and 3 looks, none in its first second', async () => {
    const live = await loggedInSandbox({ autoAdvance: true, speed: 1 });
    try {
      const started = Date.now();
      const r = await live.kagent(['chat', 'what did I save about vector search?']);
      expect(r.code, r.stderr).toBe(0);
      expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
      const sent = (await live.t.call('GET', '/_sandbox/stats', { key: null })).body.requests;
      expect(sent).toEqual({ sendMessage: 1, getConversationMessages: 3 });
    } finally {
      await live.close();
    }
  });
});

describe('the REPL (a terminal, no MESSAGE)', () => {
  it('prompts on the terminal, sends each line, prints each reply; /exit ends', async () => {
    const r = await kagent(['chat'], {
      tty: true,
      answers: ['hello there', 'what did I save about vector search?', '/exit'],
    });
    expect(r.code).toBe(0);
    expect(r.prompts).toEqual(['You', 'You', 'You']);
    expect(plain(r.stderr)).toMatch(/^Chatting with Ada\. \/new starts a new conversation/);
    const out = plain(r.stdout);
    expect(out).toContain('Hello! Ask me about anything in your library or docs.');
    expect(out).toContain('Here is what I found in your library and docs');
    // One conversation for both messages.
    const id = /conversation (cv_\w+): `kagent conversation show cv_\w+`/.exec(plain(r.stderr))![1]!;
    const texts = (await messagesOf(id)).messages.filter((m) => m.role === 'user').map((m) => m.parts[0].text);
    expect(texts).toEqual(['hello there', 'what did I save about vector search?']);
  });

  it('a choice is offered as a select prompt and the chosen label is sent as the next message', async () => {
    const r = await kagent(['chat'], { tty: true, answers: ['which should I read first?', 'details', '/exit'] });
    expect(r.code).toBe(0);
    expect(r.prompts).toEqual(['You', 'Which should I focus on?', 'You']);
    const id = /conversation (cv_\w+): /.exec(plain(r.stderr))![1]!;
    const texts = (await messagesOf(id)).messages.filter((m) => m.role === 'user').map((m) => m.parts[0].text);
    expect(texts).toEqual(['which should I read first?', 'The details']);
    // In the REPL the options come as the prompt, not as a command to type.
    expect(plain(r.stdout)).not.toContain('answer: kagent chat');
  });

  it('the choice is asked once: the prompt, not also a line of the choice part', async () => {
    const r = await kagent(['chat'], { tty: true, answers: ['which should I read first?', 'details', '/exit'] });
    expect(r.prompts.filter((p) => p === 'Which should I focus on?')).toHaveLength(1);
    // once, in the agent's own words; the choice part adds no second copy
    expect(plain(r.stdout).split('Which should I focus on?')).toHaveLength(2);
    expect(plain(r.stderr)).not.toContain('Which should I focus on?');
  });

  it('an action waiting for approval is approved inline; the agent carries on; /undo reverts it', async () => {
    const r = await kagent(['chat'], {
      tty: true,
      answers: ['Create a doc about rye bread', 'approve', '/undo', '/exit'],
    });
    expect(r.code, r.stderr).toBe(0);
    const title = /“([^”]+)”/.exec(r.prompts[1] ?? '')?.[1];
    expect(r.prompts[0]).toBe('You');
    expect(r.prompts[1]).toMatch(/^Create the document “.+”\?$/);
    expect(r.prompts.slice(2)).toEqual(['You', 'You']);
    const out = plain(r.stdout);
    expect(out).toContain('Waiting for your approval:');
    // decided right here: no command to go and type elsewhere
    expect(out).not.toContain('approve: kagent actions approve');
    const err = plain(r.stderr);
    expect(err).toMatch(/Approved: Create the document .* \(ac_\w+\); it runs in the background/);
    // the agent carries on: what it made, shown without leaving the REPL
    expect(out).toContain(`I created the document “${title}”.`);
    expect(out).toMatch(new RegExp(`\\+ created doc “${title}” \\(doc_\\w+\\)`));
    const id = /\((ac_\w+)\); it runs/.exec(err)![1]!;
    expect(err).toContain(`Undone: Create the document “${title}” (${id})`);
    const docs = (await s.t.call('GET', '/docs')).body.items.map((d: any) => d.title);
    expect(docs).not.toContain(title);
  });

  it('approve and remember (a rule scope); a high-risk action is confirmed, and declining says Cancelled.; /reject, /actions, /inbox, /help', async () => {
    const r = await kagent(['chat'], {
      tty: true,
      answers: [
        'Create a doc about spelt',
        'remember',
        '/help',
        'Delete the doc Vector search notes',
        'approve',
        false,
        '/actions',
        '/reject',
        '/actions',
        '/inbox',
        '/undo ac_nope',
        '/exit',
      ],
    });
    expect(r.code, r.stderr).toBe(0);
    const err = plain(r.stderr);
    expect(r.prompts[1]).toMatch(/^Create the document/);
    expect(err).toContain('from now on, actions of this kind (docs.create) are approved without asking');
    expect(err).toContain('/approve [ID]');
    expect(err).toContain('/inbox');
    // the high-risk one: the choice, then the confirmation (declined)
    expect(r.prompts.find((p) => /^Approve this high-risk action/.test(p))).toBeDefined();
    expect(err).toContain('Cancelled.');
    expect(err).not.toContain('error: did not approve');
    // /actions lists it (once: /reject, with no id, rejects the last one shown waiting here)
    const deleteId = /(ac_\w+) {2}high {2}Delete “Vector search notes”/.exec(err)?.[1];
    expect(deleteId).toBeDefined();
    expect(err.split(`${deleteId}  high`)).toHaveLength(2);
    expect(err).toContain(`Rejected: Delete “Vector search notes” (${deleteId}); nothing was done`);
    expect(err).toMatch(/error: no action|ACTION_NOT_FOUND|NOT_FOUND/);
    const docs = (await s.t.call('GET', '/docs')).body.items.map((d: any) => d.title);
    expect(docs).toContain('Vector search notes');
  });

  it('/new starts a new conversation; --continue starts in the latest; blank lines and unknown commands send nothing', async () => {
    const latest = JSON.parse((await kagent(['chat', '--json', 'the latest one'])).stdout).conversationId;
    const before = await stats();
    const r = await kagent(['chat', '--continue'], {
      tty: true,
      answers: ['', '/bogus', 'still here?', '/new', 'a fresh start', '/exit'],
    });
    expect(r.code).toBe(0);
    expect((await stats()).sendMessage! - (before.sendMessage ?? 0)).toBe(2);
    expect(plain(r.stderr)).toContain(`in conversation ${latest}`);
    expect(plain(r.stderr)).toContain('unknown command /bogus');
    expect(plain(r.stderr)).toContain('New conversation: your next message starts it.');
    const texts = (await messagesOf(latest)).messages.filter((m) => m.role === 'user').map((m) => m.parts[0].text);
    expect(texts).toEqual(['the latest one', 'still here?']);
    const fresh = /conversation (cv_\w+): `kagent conversation show/.exec(plain(r.stderr))![1]!;
    expect(fresh).not.toBe(latest);
  });

  it('an error the person can fix (busy, over the bound) is shown and the REPL goes on', async () => {
    const started = JSON.parse((await kagent(['chat', '--no-wait', '--json', 'busy one'])).stdout);
    const r = await kagent(['chat', '--conversation', started.conversationId], {
      tty: true,
      answers: ['are you done?', 'x'.repeat(20_001), '/exit'],
    });
    expect(r.code).toBe(0);
    expect(plain(r.stderr)).toContain('(CONVERSATION_BUSY)');
    expect(plain(r.stderr)).toContain('error: the message must be 1 to 20000 characters (got 20001) (INVALID_INPUT)');
    expect(r.prompts).toEqual(['You', 'You', 'You']);
    await s.t.advance(5_000);
  });
});
