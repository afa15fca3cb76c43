// Shape chaos: every command of every group, taken from the command tree
// (src/manifest.ts + loadGroup), run in-process in the three output modes
// against a sandbox whose answers come back with changed shapes (fields
// removed, renamed, retyped, nested, flattened, added; seeded). Zero crashes
// (no UNEXPECTED, nothing thrown out of the program), and --json output always
// parses. Clean errors with their own code (NOT_FOUND after a renamed id, a
// list that is not a list, ...) are allowed: they are not crashes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandSpec } from '../../src/kit/define.js';
import { groups, loadGroup } from '../../src/manifest.js';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';
import { tempDir, type RunCliResult } from '../helpers/run.js';
import { sandboxClock } from '../helpers/sandbox-clock.js';

/** Seeds tried; each seed is a fresh sandbox whose chaos stream differs. Bounded so the file runs well under a minute. */
const SEEDS = [11, 23, 37, 41, 59, 67, 73, 89, 97, 101, 103, 107, 109, 113, 127, 131];
/** Commands that do not read the service's answers and never return by themselves. */
const NOT_RUN = new Set(['sandbox']);

interface Leaf {
  path: string[];
  spec: CommandSpec;
}

function leaves(spec: CommandSpec, parent: string[] = []): Leaf[] {
  const path = [...parent, spec.name];
  const own = spec.run ? [{ path, spec }] : [];
  return [...own, ...(spec.commands ?? []).flatMap((sub) => leaves(sub, path))];
}

interface Ids {
  slug: string;
  ownSlug: string;
  entry: string;
  item: string;
  doc: string;
  media: string;
  task: string;
  conversation: string;
  action: string;
  inbox: string;
  space: string;
  file: string;
}

/** A plausible value for each positional argument, by command and argument name. */
function argumentValue(path: string[], name: string, ids: Ids): string {
  const group = path[1];
  const verb = path[2];
  switch (name) {
    case 'slug':
      return verb === 'settings' ? ids.ownSlug : ids.slug;
    case 'query':
    case 'q':
      return 'battery';
    case 'url':
      return group === 'media' ? 'https://www.youtube.com/watch?v=chaos-1' : 'https://example.com/chaos';
    case 'rating':
      return 'up';
    case 'shell':
      return 'bash';
    case 'method':
      return 'GET';
    case 'key':
      return 'lang';
    case 'value':
      return 'en';
    case 'profile':
      return 'default';
    case 'message':
      return 'Please research sodium ion batteries';
    case 'name':
      return group === 'space' ? 'Chaos' : 'Chaos agent';
    case 'space':
      return ids.space;
    case 'intent':
    case 'subject':
      return 'Battery recycling in Europe';
    case 'paths':
    case 'files':
    case 'file':
      return ids.file;
  }
  if (name === 'path') return group === 'api' ? '/me' : ids.file;
  if (name === 'topic') return 'exit-codes';
  const byGroup: Record<string, string> = {
    entry: ids.entry,
    lib: ids.item,
    doc: ids.doc,
    media: ids.media,
    task: ids.task,
    conversation: ids.conversation,
    actions: ids.action,
    inbox: ids.inbox,
  };
  return byGroup[group ?? ''] ?? 'chaos';
}

/** Flags some commands need to do anything at all (the commands themselves still come from the tree). */
const EXTRA: Record<string, string[]> = {
  'space edit': ['--name', 'Renamed'],
  'watch settings': ['--cadence', 'weekly'],
  'lib edit': ['--note', 'chaos'],
  'doc create': ['--title', 'Chaos', '--body', 'Some text.'],
  'doc update': ['--title', 'Chaos 2'],
  'doc edit': ['--append', 'More text.'],
  'agent memory': ['--append', 'Likes tidy answers.'],
};
/** Optional arguments worth giving: without them the command only asks for them. */
const GIVE_OPTIONAL = new Set(['message', 'topic', 'intent', 'path']);

/** argv for one command: its arguments, its required options, and --no-wait where it has one. */
function argvFor(leaf: Leaf, ids: Ids): string[] {
  const argv = leaf.path.slice(1);
  for (const argument of leaf.spec.arguments ?? []) {
    if (argument.optional && !GIVE_OPTIONAL.has(argument.name)) continue;
    argv.push(argument.choices?.[0] ?? argumentValue(leaf.path, argument.name, ids));
  }
  for (const option of leaf.spec.options ?? []) {
    const flag = option.flags.split(/[ ,]+/).find((part) => part.startsWith('--')) as string;
    if (flag === '--no-wait') argv.push(flag);
    else if (option.required) {
      const value = option.choices?.[0] ?? (option.type ? String(option.min ?? 1) : 'chaos');
      argv.push(flag, value);
    }
  }
  return [...argv, ...(EXTRA[leaf.path.slice(1, 3).join(' ')] ?? [])];
}

function crashed(r: RunCliResult): string | undefined {
  if (r.stderr.includes('UNEXPECTED')) return `UNEXPECTED: ${r.stderr.slice(0, 400)}`;
  return undefined;
}

/** Prints a shell script whatever the flags: it reads no answer of the service. */
const NOT_JSON = new Set(['completion']);

function unparsableJson(r: RunCliResult): string | undefined {
  if (r.stdout.trim() === '') return r.code === 0 ? 'exit 0 with nothing on stdout' : undefined;
  try {
    JSON.parse(r.stdout);
    return undefined;
  } catch {
    // Some commands print one JSON document per line (one per file uploaded...).
    for (const line of r.stdout.split('\n').filter(Boolean)) {
      try {
        JSON.parse(line);
      } catch {
        return `stdout is not JSON: ${r.stdout.slice(0, 300)}`;
      }
    }
    return undefined;
  }
}

let tree: Leaf[] = [];

beforeAll(async () => {
  const specs = await Promise.all(groups.map(async (g) => loadGroup(g.name)));
  // Commands that change the login itself (config unset, auth logout) go last, so the others still reach the sandbox.
  const last = (leaf: Leaf) => (leaf.path[1] === 'config' ? 1 : leaf.path[1] === 'auth' ? 2 : 0);
  tree = specs
    .flatMap((spec) => leaves(spec, ['kagent']))
    .filter((leaf) => !NOT_RUN.has(leaf.path[1] as string))
    .sort((a, b) => last(a) - last(b));
});

describe('shape chaos', () => {
  it('covers every command of every group in the command tree', () => {
    const groupsCovered = new Set(tree.map((leaf) => leaf.path[1]));
    for (const g of groups) if (!NOT_RUN.has(g.name)) expect(groupsCovered.has(g.name)).toBe(true);
    expect(tree.length).toBeGreaterThan(60);
  });

  for (const seed of SEEDS) {
    describe(`seed ${seed}`, () => {
      let s: LoggedIn;
      let ids: Ids;

      beforeAll(async () => {
        s = await loggedInSandbox({ seed });
        const t = s.t;
        await t.patchAccount(t.sandbox.accountId, { limits: { watchesPerMonth: 1000 }, credits: 100_000 });
        const slug = (await t.call('GET', '/watches/search', { query: { q: 'chips' } })).body.items[0].slug;
        await t.call('PUT', `/watches/${slug}/follow`, { body: {} });
        const entry = (await t.call('GET', `/watches/${slug}`)).body.brief.entries[0].id;
        const own = await t.call('POST', '/watches', { body: { intent: 'Tidal energy projects in Europe' } });
        const space = (await t.call('POST', '/spaces', { body: { name: `Chaos ${seed}` } })).body.id;
        const item = (await t.call('POST', '/library', { body: { url: 'https://example.com/articles/tides' } })).body.item.id;
        const doc = (await t.call('POST', '/docs', { body: { title: 'Chaos notes', markdown: 'Sodium ion batteries are cheap.' } })).body.id;
        const media = (await t.call('POST', '/media', { body: { url: 'https://www.youtube.com/watch?v=chaos-0' } })).body.mediaId;
        const turn = (await t.call('POST', '/conversations/messages', { body: { text: 'Create a doc about batteries' } })).body;
        await t.advance(120_000);
        const messages = (await t.call('GET', `/conversations/${turn.conversationId}/messages`)).body.messages;
        const actionPart = messages.flatMap((m: any) => m.parts).find((p: any) => p.type === 'action');
        const inbox = (await t.call('GET', '/inbox')).body.items;
        const dir = tempDir('kagent-chaos-');
        const file = join(dir, 'notes.md');
        writeFileSync(file, '# Chaos\n\nA file to upload.\n');
        ids = {
          slug,
          ownSlug: own.body.slug,
          entry,
          item,
          doc,
          media,
          task: own.body.taskId,
          conversation: turn.conversationId,
          action: actionPart?.action.id ?? 'act_none',
          inbox: inbox[0]?.id ?? 'inb_none',
          space,
          file,
        };
        // From here on every answer comes back with a changed shape.
        await t.inject({ kind: 'shape', count: 1_000_000 });
      });
      afterAll(() => s.close());

      it('no command crashes on a changed answer, in any mode; --json always parses', async () => {
        const clock = sandboxClock(s.t);
        const failures: string[] = [];
        let runs = 0;
        for (const leaf of tree) {
          const argv = [...argvFor(leaf, ids), '--yes', '--no-input', '--timeout', '30'];
          for (const mode of ['tty', 'piped', 'json'] as const) {
            const r = await s.kagent(mode === 'json' ? [...argv, '--json'] : argv, { tty: mode === 'tty', clock });
            runs++;
            const problem = crashed(r) ?? (mode === 'json' && !NOT_JSON.has(leaf.path[1] as string) ? unparsableJson(r) : undefined);
            if (process.env.CHAOS_LOG) console.log(mode, argv.slice(0, 3).join(' '), r.code, (r.stderr.match(/\(([A-Z_]+)\)|"code":"([A-Z_]+)"/) ?? [])[0] ?? '', r.stdout.length);
            if (problem) failures.push(`${mode} kagent ${argv.join(' ')} → exit ${r.code}: ${problem}`);
          }
        }
        expect(failures).toEqual([]);
        expect(runs).toBe(tree.length * 3);
      });
    });
  }
});
