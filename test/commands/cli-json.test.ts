// --json on every command of every group, taken from the command tree: it
// succeeds, stdout parses as JSON (pretty on a terminal, compact when piped),
// and nothing else is printed there. A command added to the tree is run here
// without a word of this file changing; one that cannot print JSON fails it.
import { appendFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { argvFor, everyCommand, makeFixtures, nameOf, type Ids, type Leaf } from '../helpers/every-command.js';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';
import type { TestSandbox } from '../helpers/sandbox.js';

/** Commands run on their own below, with the reason. */
const ELSEWHERE: Record<string, string> = {
  sandbox: 'a server that runs until stopped: its --json line is tested in sandbox.test.ts',
  'auth login': 'reads the key from stdin: below',
  'auth logout': 'logs this config out: below',
  'config delete': 'deletes a profile (this config would lose its login): its --json is tested in config.test.ts',
};
/** Commands whose output is not data: a shell script. */
const NOT_JSON: Record<string, string> = {
  completion: 'prints a shell script for the shell to load',
};
/** Commands that stream one JSON document per line as they go (one per file): compact on a terminal too. */
const STREAMS = new Set(['lib upload', 'lib sync']);

/** What a command that uses something up gets: a fresh one, made through the API, for each run. */
async function freshIds(name: string, t: TestSandbox, ids: Ids, kagent: LoggedIn['kagent']): Promise<Partial<Ids>> {
  const turn = async (text: string) => {
    const started = (await t.call('POST', '/conversations/messages', { body: { text } })).body;
    await t.advance(120_000);
    return started.conversationId as string;
  };
  const pendingAction = async () => {
    const conversation = await turn('Create a doc about tidal power');
    const messages = (await t.call('GET', `/conversations/${conversation}/messages`)).body.messages;
    return messages.flatMap((m: any) => m.parts).find((p: any) => p.type === 'action').action.id as string;
  };
  switch (name) {
    case 'doc push': {
      // A file pulled, then changed: what push is for.
      const file = `${ids.pullTo}.${Date.now()}.md`;
      await kagent(['doc', 'pull', ids.doc, '-o', file]);
      appendFileSync(file, '\nOne more line.\n');
      return { file };
    }
    case 'space delete':
      return { space: (await t.call('POST', '/spaces', { body: { name: `Doomed ${Date.now()}` } })).body.id };
    case 'doc delete':
      return { doc: (await t.call('POST', '/docs', { body: { title: 'Doomed', markdown: 'Soon gone.' } })).body.id };
    case 'lib delete':
      return {
        item: (await t.call('POST', '/library', { body: { url: `https://example.com/doomed/${Date.now()}` } })).body
          .item.id,
      };
    case 'conversation delete':
      return { conversation: await turn('Hello there') };
    case 'watch unfollow':
    case 'watch follow': {
      const found = (await t.call('GET', '/watches/search', { query: { q: 'energy' } })).body.items;
      const slug = found.find((w: any) => w.slug !== ids.slug)?.slug ?? found[0].slug;
      if (name === 'watch unfollow') await t.call('PUT', `/watches/${slug}/follow`, { body: {} });
      return { slug };
    }
    case 'task cancel':
      return {
        task: (await t.call('POST', '/watches', { body: { intent: `Wind farms in the North Sea ${Date.now()}` } })).body
          .taskId,
      };
    case 'actions approve':
    case 'actions reject':
      return { action: await pendingAction() };
    case 'actions undo': {
      const action = await pendingAction();
      await t.call('POST', `/actions/${action}/decide`, { body: { approve: true } });
      await t.advance(5_000);
      return { action };
    }
    case 'inbox read':
    case 'inbox done':
    case 'inbox dismiss': {
      const items = (await t.call('GET', '/inbox')).body.items;
      return { inbox: items[items.length - 1].id };
    }
    default:
      return {};
  }
}

let s: LoggedIn;
let ids: Ids;
let tree: Leaf[];
beforeAll(async () => {
  s = await loggedInSandbox();
  ids = await makeFixtures(s.t, 'json');
  // The commands that change the settings (config) go last, so the others still reach the sandbox;
  // among them `config set` first (`config get` of a setting never set is exit 1, as with git) and `unset` last.
  const rank = (leaf: Leaf) =>
    leaf.path[1] !== 'config' ? 0 : leaf.path[2] === 'set' ? 1 : leaf.path[2] === 'unset' ? 3 : 2;
  tree = (await everyCommand()).filter((leaf) => !(nameOf(leaf) in ELSEWHERE)).sort((a, b) => rank(a) - rank(b));
});
afterAll(async () => {
  await s?.close();
});

describe('--json on every command', () => {
  it('runs every command of every group (and says which it runs elsewhere, and why)', async () => {
    const all = (await everyCommand()).map(nameOf);
    expect(all.length).toBeGreaterThan(70);
    for (const name of Object.keys(ELSEWHERE)) expect(all, name).toContain(name);
    expect(tree.map(nameOf).sort()).toEqual(all.filter((name) => !(name in ELSEWHERE)).sort());
  });

  it('succeeds and prints JSON (pretty on a terminal, compact piped), nothing else on stdout', async () => {
    const failures: string[] = [];
    for (const leaf of tree) {
      const name = nameOf(leaf);
      for (const tty of [false, true]) {
        const argv = [
          ...argvFor(leaf, { ...ids, ...(await freshIds(name, s.t, ids, s.kagent)) }),
          '--json',
          '--yes',
          '--timeout',
          '30',
        ];
        const r = await s.kagent(argv, { tty });
        const said = `${tty ? 'terminal' : 'piped'}: kagent ${argv.join(' ')} → exit ${r.code}`;
        if (r.code !== 0) failures.push(`${said}: ${r.stderr.slice(0, 300)}`);
        else if (!((leaf.path[1] as string) in NOT_JSON)) {
          const problem = jsonProblem(r.stdout, tty && !STREAMS.has(name));
          if (problem) failures.push(`${said}: ${problem}: ${r.stdout.slice(0, 200)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('auth logout and auth login too', async () => {
    const out = await s.kagent(['auth', 'logout', '--json']);
    expect(JSON.parse(out.stdout)).toEqual({ profile: 'default', loggedOut: true });
    const back = await s.kagent(['auth', 'login', '--base-url', s.t.baseUrl, '--with-key', '--json'], {
      stdin: s.t.apiKey,
    });
    expect(JSON.parse(back.stdout)).toMatchObject({ authenticated: true });
  });
});

/** What is wrong with stdout as --json output: not JSON, or not pretty on a terminal / compact when piped. */
function jsonProblem(stdout: string, tty: boolean): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch {
    // A stream of documents, one per line (one per file uploaded): each line parses.
    return everyLineParses(stdout) ? undefined : 'stdout is not JSON';
  }
  const multiline = stdout.trimEnd().includes('\n');
  const composite = typeof value === 'object' && value !== null && Object.keys(value).length > 0;
  if (tty && composite && !multiline) return 'JSON on a terminal is not pretty';
  if (!tty && multiline) return 'JSON piped is not compact';
  return undefined;
}

function everyLineParses(text: string): boolean {
  const lines = text.split('\n').filter(Boolean);
  return (
    lines.length > 0 &&
    lines.every((line) => {
      try {
        JSON.parse(line);
        return true;
      } catch {
        return false;
      }
    })
  );
}
