// `kagent home` against the sandbox: every section on a terminal (with the
// commands that act on it), the piped TSV lines with their section column,
// --json as the API's Home, an empty account, and sanitised server text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addInbox } from '../../src/sandbox/inbox/model.js';
import { writeProfile } from '../../src/config/store.js';
import { hasForeignEscapes, runCli, tempDir, type RunCliOptions } from '../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { sandboxClock, type SandboxClock } from '../helpers/sandbox-clock.js';

let s: {
  t: TestSandbox;
  configDir: string;
  kagent: (argv: string[], options?: RunCliOptions) => ReturnType<typeof runCli>;
  close(): Promise<void>;
};
let clock: SandboxClock;
let home: any;

const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

function kagent(argv: string[], options: RunCliOptions = {}) {
  return s.kagent(argv, { clock, ...options });
}

beforeAll(async () => {
  // Speed 0: the sandbox clock moves only when told, so the running task is still where the snapshot saw it.
  const t = await startTestSandbox({ speed: 0 });
  const configDir = tempDir('kagent-config-');
  await writeProfile(
    configDir,
    'default',
    { baseUrl: t.baseUrl, apiKey: t.apiKey, rateLimit: 100_000 },
    { makeCurrent: true },
  );
  s = { t, configDir, kagent: (argv, options = {}) => runCli(argv, { configDir, ...options }), close: () => t.close() };
  clock = sandboxClock(s.t);
  // Something in every section: a link read, a followed watch's brief, a task running,
  // an action waiting, suggestions, unread inbox items, conversations.
  await s.t.call('POST', '/library', { body: { url: 'https://blog.example.com/posts/heat-pumps-explained' } });
  await s.t.call('PUT', '/watches/ai-chips/follow', { body: {} });
  await s.t.call('POST', '/conversations/messages', { body: { text: 'Create a doc about heat pumps' } });
  await s.t.advance(5_000);
  await s.t.call('POST', '/watches', { body: { intent: 'Geothermal energy in Iceland' } });
  home = (await s.t.call('GET', '/home')).body;
  for (const key of ['read', 'briefs', 'tasks', 'actions', 'suggestions', 'conversations'])
    expect(home[key].length, key).toBeGreaterThan(0);
  expect(home.inbox.items.length).toBeGreaterThan(0);
});
afterAll(() => s.close());

describe('kagent home', () => {
  it('a brief whose title starts with its watch title names the watch once, at 40, 80 and 200 columns', async () => {
    const b = home.briefs[0];
    expect(b.brief.title.startsWith(b.watchTitle)).toBe(true);
    for (const columns of [40, 80, 200]) {
      const out = plain((await kagent(['home'], { tty: true, columns })).stdout);
      // wrapped lines joined again: a narrow terminal may break the title
      const section = out
        .slice(out.indexOf('Latest briefs'), out.indexOf(`kagent watch show ${b.slug}`))
        .replace(/\s+/g, ' ');
      expect(section.split(b.watchTitle).length - 1, `${columns} columns: ${section}`).toBe(1);
      expect(section).toContain(`${b.watchTitle} — brief of ${b.brief.date}`);
    }
  });

  it('terminal: every section, with the commands that act on it', async () => {
    // Wide enough for every item on one line (narrower, long lines wrap: test/e2e/terminal-pty.test.ts).
    const r = await kagent(['home'], { tty: true, columns: 200 });
    expect(r.code).toBe(0);
    const out = plain(r.stdout);
    const action = home.actions[0];
    const task = home.tasks[0];
    expect(out).toMatch(new RegExp(`^Ada · ${home.inbox.unread} unread in your inbox · 1 action waiting for you\\n`));
    expect(out).toContain('\nWhat Ada read lately\n  • Heat Pumps Explained');
    expect(out).toMatch(
      // the date once: the brief's title says it already
      /\nLatest briefs\n {2}• .+ — brief of (\d{4}-\d\d-\d\d) · \d+ entries\n {6}kagent watch show ai-chips\n/,
    );
    expect(out).toContain(`\nRunning tasks\n  ● ${task.title} · ${task.status}`);
    expect(out).toContain(`      kagent task show ${task.id} --follow\n`);
    expect(out).toContain(
      `\nWaiting for your decision\n  ⏸ ${action.title} (risk low, create_doc, ${action.id})\n      approve: kagent actions approve ${action.id}\n      reject:  kagent actions reject ${action.id}\n`,
    );
    expect(out).toMatch(/\nSuggestions\n {2}• .+\n {6}kagent chat '.+'\n/);
    // Nothing in backticks: a command pasted from here runs as shown (a backtick pair would be a command substitution).
    expect(out).not.toContain('`');
    expect(out).toContain(`\nUnread in your inbox (${home.inbox.unread})\n  ● [approval] ${action.title}`);
    expect(out).toMatch(
      new RegExp(
        `\\nRecent conversations\\n {2}• Create a doc about heat pumps · 2 messages · .* · ${home.conversations[0].id}`,
      ),
    );
  });

  it('piped: one TSV line per row, the first column naming the section', async () => {
    const r = await kagent(['home']);
    expect(r.code).toBe(0);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    const sections = [...new Set(rows.map((row) => row[0]))];
    expect(sections).toEqual([
      'agent',
      'read',
      'brief',
      'task',
      'action',
      'suggestion',
      'unread',
      'inbox',
      'conversation',
    ]);
    expect(rows[0]).toEqual(['agent', 'Ada']);
    const a = home.actions[0];
    expect(rows.find((row) => row[0] === 'action')).toEqual([
      'action',
      a.id,
      'low',
      'create_doc',
      a.title,
      a.conversationId,
      '',
    ]);
    const b = home.briefs[0];
    expect(rows.find((row) => row[0] === 'brief')).toEqual([
      'brief',
      b.slug,
      b.brief.id,
      b.brief.date,
      String(b.brief.entryCount),
      b.watchTitle,
      b.brief.title,
    ]);
    const t = home.tasks[0];
    expect(rows.find((row) => row[0] === 'task')).toEqual([
      'task',
      t.id,
      t.kind,
      t.status,
      t.progress === null ? '' : String(t.progress),
      t.title,
    ]);
    expect(rows.find((row) => row[0] === 'unread')).toEqual(['unread', String(home.inbox.unread)]);
    const c = home.conversations[0];
    expect(rows.find((row) => row[0] === 'conversation')).toEqual([
      'conversation',
      c.id,
      c.title,
      String(c.messageCount),
      String(c.running),
      new Date(c.updatedAt).toISOString(),
    ]);
    expect(r.stdout).not.toContain('\x1b');
  });

  it('--json is the Home object; --jq picks from it', async () => {
    const json = JSON.parse((await kagent(['home', '--json'])).stdout);
    expect(json).toEqual((await s.t.call('GET', '/home')).body);
    expect((await kagent(['home', '--jq', '.actions[].id'])).stdout).toBe(`${home.actions[0].id}\n`);
  });

  it('`kagent status` is `kagent home` (piped, --json, flags before it)', async () => {
    const [status, homeRun] = [await kagent(['status']), await kagent(['home'])];
    expect(status.code).toBe(0);
    expect(status.stdout).toBe(homeRun.stdout);
    expect(status.stdout.split('\n')[0]).toBe('agent\tAda');
    expect(JSON.parse((await kagent(['-q', 'status', '--json'])).stdout)).toEqual(
      (await s.t.call('GET', '/home')).body,
    );
    expect((await kagent(['status', '--help'])).stdout).toContain('Usage: kagent home');
    for (const argv of [
      ['help', 'status'],
      ['--json', 'help', 'status'],
      ['help', '-q', 'status'],
    ]) {
      const help = await kagent(argv);
      expect(help.stderr, argv.join(' ')).toBe('');
      expect(help.code, argv.join(' ')).toBe(0);
      expect(help.stdout, argv.join(' ')).toContain('Usage: kagent home');
    }
  });

  it('a profile named like a command: `kagent -p status status` and `-p help help home` use the profile', async () => {
    await writeProfile(s.configDir, 'status', { baseUrl: s.t.baseUrl, apiKey: s.t.apiKey, rateLimit: 100_000 });
    await writeProfile(s.configDir, 'help', { baseUrl: s.t.baseUrl, apiKey: s.t.apiKey, rateLimit: 100_000 });
    const homeRun = await kagent(['home']);
    for (const argv of [
      ['-p', 'status', 'status'],
      ['--profile', 'status', 'status'],
      ['-qp', 'status', 'status'],
      ['--profile=status', 'status'],
      ['-p', 'help', 'status'],
    ]) {
      const r = await kagent(argv);
      expect(r.stderr, argv.join(' ')).toBe('');
      expect(r.code, argv.join(' ')).toBe(0);
      expect(r.stdout).toBe(homeRun.stdout);
    }
    const help = await kagent(['-p', 'help', 'help', 'home']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: kagent home');
  });

  it('a new account: sections with nothing in them are left out; server text is sanitised', async () => {
    const fresh = await s.t.newAccount();
    const env = { KAGENT_BASE_URL: s.t.baseUrl, KAGENT_API_KEY: fresh.apiKey };
    const r = await runCli(['home'], { tty: true, env });
    expect(r.code).toBe(0);
    const out = plain(r.stdout);
    expect(out).toMatch(/^Ada · 0 unread in your inbox · 0 actions waiting for you\n/);
    expect(out).not.toContain('Unread in your inbox');
    expect(out).not.toContain('Running tasks');
    expect(out).not.toContain('Waiting for your decision');
    expect(out).not.toContain('Recent conversations');
    expect(out).toContain('Suggestions');

    const world = s.t.sandbox.world;
    addInbox(world, world.state.accounts[fresh.accountId]!, {
      kind: 'alert',
      title: 'Breaking \x1b]0;owned\x07news\x1b[2J\nnow',
      body: '',
    });
    for (const tty of [true, false]) {
      const again = await runCli(['home'], { tty, env });
      expect(hasForeignEscapes(again.stdout)).toBe(false);
      expect(plain(again.stdout)).toContain('Breaking news now');
    }
  });
});
