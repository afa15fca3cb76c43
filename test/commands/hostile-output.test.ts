// Hostile text from the service never drives the terminal. A proxy in front of
// the sandbox appends escape sequences (OSC 52 clipboard write, screen clear,
// window title, 8-bit CSI) and bidi controls to every free-text field of every
// answer — names, titles, headlines, bodies, notes, error messages — and every
// read command that renders service text runs through it, on a terminal and
// piped. What comes out carries no escape sequence but kagent's own colour and
// hyperlinks, no C0/C1 control and no bidi control; the bidi controls are shown
// as visible <U+XXXX> markers (which also proves the hostile text was printed).
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeProfile } from '../../src/config/store.js';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';
import { runCli, tempDir } from '../helpers/run.js';
import { sandboxClock } from '../helpers/sandbox-clock.js';

const HOSTILE = ' \x1b[8m\x1b]52;c;cHduZWQ=\x07\x1b[2J\x1b]0;pwned\x07\u202E\u2066\u200F\x9b2J\x1bP1$r\x1b\\';
/** Fields that carry free text (never ids, enums, times or URLs, which views parse). */
const TEXT_FIELDS = new Set([
  'name',
  'title',
  'headline',
  'why',
  'summary',
  'text',
  'body',
  'markdown',
  'note',
  'message',
  'label',
  'excerpt',
  'source',
  'category',
  'description',
  'content',
  'intent',
  'question',
  'snippet',
  'preview',
  'memory',
  'subject',
  'detail',
  'reason',
  'fileName',
  'filename',
  'query',
  'prompt',
  'answer',
  'topic',
  'headlines',
  'alerts',
  'displayName',
]);

function poison(value: unknown, key?: string): unknown {
  if (typeof value === 'string') return key !== undefined && TEXT_FIELDS.has(key) ? `${value}${HOSTILE}` : value;
  if (Array.isArray(value)) return value.map((item) => poison(item, key));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, poison(v, k)]));
  return value;
}

/** Our own styling: colour (SGR) and hyperlinks (OSC 8). Anything else left is foreign. */
function withoutOwnStyling(text: string): string {
  return text.replace(/\x1b\[[0-9;]*m/g, '').replace(/\x1b\]8;[^\x07\x1b]*\x1b\\/g, '');
}
const FOREIGN = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

let s: LoggedIn;
let proxy: Server;
let proxyConfig: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  s = await loggedInSandbox();
  const t = s.t;
  ids.space = (await t.call('POST', '/spaces', { body: { name: 'Ops' } })).body.id;
  const upload = await t.call('POST', '/library/files', {
    raw: 'Quarterly numbers for the ops review.\n',
    query: { space: ids.space },
    headers: { 'content-type': 'application/octet-stream', 'x-file-name': encodeURIComponent('numbers.txt') },
  });
  ids.item = upload.body.item.id;
  ids.doc = (
    await t.call('POST', '/docs', { body: { title: 'Runbook', markdown: '# Runbook\n\nRestart the ops queue.' } })
  ).body.id;
  const watch = await t.call('POST', '/watches', { body: { intent: 'Battery recycling in Europe', cadence: 'daily' } });
  ids.watch = watch.body.slug;
  ids.task = watch.body.taskId;
  ids.media = (
    await t.call('POST', '/media', { body: { url: 'https://www.youtube.com/watch?v=kagent-hostile' } })
  ).body.mediaId;
  ids.conversation = (
    await t.call('POST', '/conversations/messages', { body: { text: 'Write a doc about the ops queue' } })
  ).body.conversationId;
  await t.advance(120_000);

  // The proxy: forwards to the sandbox and poisons every JSON answer.
  const upstream = new URL(t.baseUrl);
  proxy = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = { ...req.headers };
    delete headers.host;
    delete headers.connection;
    const answer = await request(`${upstream.origin}${req.url}`, {
      method: req.method as 'GET',
      headers,
      body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
    });
    const raw = Buffer.from(await answer.body.arrayBuffer());
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(answer.headers))
      if (typeof value === 'string' && !['content-length', 'transfer-encoding', 'connection'].includes(name))
        out[name] = value;
    let body: Buffer = raw;
    if (/json/.test(String(answer.headers['content-type'])) && raw.length > 0)
      body = Buffer.from(JSON.stringify(poison(JSON.parse(raw.toString()))));
    res.writeHead(answer.statusCode, out);
    res.end(body);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyConfig = tempDir('kagent-config-');
  const { port } = proxy.address() as AddressInfo;
  await writeProfile(
    proxyConfig,
    'default',
    { baseUrl: `http://127.0.0.1:${port}/api/v1`, apiKey: t.apiKey, rateLimit: 100_000 },
    { makeCurrent: true },
  );
}, 60_000);

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await s.close();
});

const reads: Array<[string, () => string[]]> = [
  ['me', () => ['me']],
  ['space list', () => ['space', 'list']],
  ['watch list', () => ['watch', 'list']],
  ['watch search', () => ['watch', 'search', 'battery']],
  ['watch show', () => ['watch', 'show', ids.watch!]],
  ['watch knowledge', () => ['watch', 'knowledge', ids.watch!]],
  ['watch issues', () => ['watch', 'issues', ids.watch!]],
  ['lib list', () => ['lib', 'list']],
  ['lib search', () => ['lib', 'search', 'numbers']],
  ['lib show', () => ['lib', 'show', ids.item!]],
  ['lib text', () => ['lib', 'text', ids.item!]],
  ['doc list', () => ['doc', 'list']],
  ['doc search', () => ['doc', 'search', 'runbook']],
  ['doc show', () => ['doc', 'show', ids.doc!]],
  ['media list', () => ['media', 'list']],
  ['media show', () => ['media', 'show', ids.media!]],
  ['media transcript', () => ['media', 'transcript', ids.media!]],
  ['agent show', () => ['agent', 'show']],
  ['home', () => ['home']],
  ['inbox', () => ['inbox']],
  ['task list', () => ['task', 'list']],
  ['task show', () => ['task', 'show', ids.task!]],
  ['task show --follow', () => ['task', 'show', ids.task!, '--follow']],
  ['conversation list', () => ['conversation', 'list']],
  ['conversation show', () => ['conversation', 'show', ids.conversation!]],
  ['actions list', () => ['actions', 'list']],
  ['an error the service words (404)', () => ['lib', 'show', 'li_nothere']],
];

describe.each([
  ['on a terminal', true],
  ['piped', false],
])('hostile service text %s', (_mode, tty) => {
  it.each(reads)(
    '%s prints no escape sequence, control or bidi control of the service (a body piped keeps its bidi characters)',
    async (_name, argv) => {
      const r = await runCli(argv(), {
        configDir: proxyConfig,
        tty,
        columns: 300,
        env: { CI: '1' },
        clock: sandboxClock(s.t),
      });
      // Piped, a document's body and an item's text are output meant for a file: their bidi and
      // format characters come through as the service holds them (escape sequences never do).
      const asHeld = !tty && (_name === 'doc show' || _name === 'lib text');
      const all = `${r.stdout}\n${r.stderr}`;
      const left = tty ? withoutOwnStyling(all) : asHeld ? all.replace(/\u202e\u2066\u200f/g, '') : all;
      if (!tty) expect(all).not.toContain('\x1b');
      expect(left.match(FOREIGN)).toBeNull();
      // The hostile text was printed, its bidi controls made visible (or, in a body piped, as held).
      expect(all).toContain(asHeld ? '\u202e\u2066\u200f' : '<U+202E><U+2066><U+200F>');
      expect(all).not.toContain('pwned');
      // The service's own colour codes (here: conceal) are removed too; only kagent's styling remains.
      expect(all).not.toContain('\x1b[8m');
    },
  );
});

describe('--json stays faithful to the answer', () => {
  it('keeps every hostile character, escaped, so the parsed value is what the service sent', async () => {
    const r = await runCli(['space', 'list', '--json'], { configDir: proxyConfig, tty: true, env: { CI: '1' } });
    expect(r.code).toBe(0);
    expect(r.stdout.match(FOREIGN)).toBeNull();
    expect(r.stdout).toContain('\\u202e');
    const spaces = JSON.parse(r.stdout) as Array<{ id: string; name: string }>;
    expect(spaces.find((space) => space.id === ids.space)?.name).toBe(`Ops${HOSTILE}`);
  });
});

describe('a chat turn as it happens (piped, one-shot)', () => {
  it('prints the reply with no escape sequence or bidi control of the service', async () => {
    const r = await runCli(['chat', 'What is in my library?'], {
      configDir: proxyConfig,
      env: { CI: '1' },
      clock: sandboxClock(s.t),
    });
    expect(r.code).toBe(0);
    const all = `${r.stdout}\n${r.stderr}`;
    expect(all).not.toContain('\x1b');
    expect(all.match(FOREIGN)).toBeNull();
    expect(all).toContain('<U+202E><U+2066><U+200F>');
  });
});

describe('upload lines and their errors', () => {
  it('a file name with bidi controls is shown with markers in every line, and kept exactly in --json', async () => {
    const dir = tempDir('kagent-upload-');
    writeFileSync(join(dir, 'invoice\u202Edm.txt'), 'Totals for May.\n');
    writeFileSync(join(dir, 'empty\u2066.md'), '');
    for (const tty of [true, false]) {
      const r = await runCli(['lib', 'upload', dir], { configDir: proxyConfig, tty, env: { CI: '1' } });
      expect(r.code).toBe(2);
      const all = `${r.stdout}\n${r.stderr}`;
      expect(withoutOwnStyling(all).match(FOREIGN)).toBeNull();
      expect(all).toContain('invoice<U+202E>dm.txt');
      expect(all).toContain('empty<U+2066>.md');
      expect(all).toContain('EMPTY_FILE');
    }
    const json = await runCli(['lib', 'upload', dir, '--json'], { configDir: proxyConfig, env: { CI: '1' } });
    expect(json.stdout.match(FOREIGN)).toBeNull();
    const names = json.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).name)
      .sort();
    expect(names).toEqual(['empty\u2066.md', 'invoice\u202Edm.txt']);
  });
});

describe('live views while the work goes on', () => {
  it.each([
    ['on a terminal', true],
    ['piped', false],
  ])(
    'media show --follow and task show --follow %s: progress lines and results carry no control of the service',
    async (_mode, tty) => {
      const media = (
        await s.t.call('POST', '/media', { body: { url: `https://www.youtube.com/watch?v=kagent-live-${tty}` } })
      ).body.mediaId;
      const watch = (
        await s.t.call('POST', '/watches', { body: { intent: `Heat pumps in Nordic homes ${tty}`, cadence: 'daily' } })
      ).body;
      for (const argv of [
        ['media', 'show', media, '--follow'],
        ['task', 'show', watch.taskId, '--follow'],
      ]) {
        const r = await runCli(argv, { configDir: proxyConfig, tty, columns: 300, clock: sandboxClock(s.t) });
        const all = `${r.stdout}\n${r.stderr}`;
        expect(r.code, argv.join(' ')).toBe(0);
        if (!tty) expect(all).not.toContain('\x1b');
        expect(
          withoutOwnStyling(all)
            .replace(/\x1b\[\d*A\r?|\r?\x1b\[2K|\x1b\[J/g, '')
            .match(FOREIGN),
          argv.join(' '),
        ).toBeNull();
        expect(all, argv.join(' ')).toContain('<U+202E><U+2066><U+200F>');
        expect(all).not.toContain('\x1b[8m');
      }
    },
  );
});
