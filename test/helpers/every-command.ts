// Every command of every group, taken from the command tree (src/cli/manifest.ts +
// the groups' modules), with plausible arguments made from a sandbox: what
// the tests that must cover the whole surface (--json everywhere, shape chaos)
// run. A command added to the tree is covered by them without a word here.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandSpec } from '../../src/kit/define.js';
import { loadGroup } from '../../src/cli/groups.js';
import { groups } from '../../src/cli/manifest.js';
import { tempDir } from './run.js';
import type { TestSandbox } from './sandbox.js';

export interface Leaf {
  /** ['kagent', group, verb…] */
  path: string[];
  spec: CommandSpec;
}

function leaves(spec: CommandSpec, parent: string[] = []): Leaf[] {
  const path = [...parent, spec.name];
  const own = spec.run ? [{ path, spec }] : [];
  return [...own, ...(spec.commands ?? []).flatMap((sub) => leaves(sub, path))];
}

/** Every runnable command, in the root help's order. */
export async function everyCommand(): Promise<Leaf[]> {
  const specs = await Promise.all(groups.map((group) => loadGroup(group.name)));
  return specs.flatMap((spec) => leaves(spec, ['kagent']));
}

/** `group verb` (or `group` for a runnable group): how tests name a command. */
export function nameOf(leaf: Leaf): string {
  return leaf.path.slice(1).join(' ');
}

export interface Ids {
  slug: string;
  ownSlug: string;
  entry: string;
  item: string;
  /** An uploaded file: the only kind of item with text to read. */
  fileItem: string;
  doc: string;
  media: string;
  task: string;
  conversation: string;
  action: string;
  inbox: string;
  space: string;
  file: string;
  /** A folder for lib sync, with bytes of its own. */
  syncDir: string;
  /** Where `doc pull` writes. */
  pullTo: string;
}

/** Something of every kind the commands take an id of, in a fresh sandbox account. */
export async function makeFixtures(t: TestSandbox, label: string): Promise<Ids> {
  await t.patchAccount(t.sandbox.accountId, { limits: { watchesPerMonth: 1000 }, credits: 100_000 });
  const slug = (await t.call('GET', '/watches/search', { query: { q: 'chips' } })).body.items[0].slug;
  await t.call('PUT', `/watches/${slug}/follow`, { body: {} });
  const entry = (await t.call('GET', `/watches/${slug}`)).body.brief.entries[0].id;
  const own = await t.call('POST', '/watches', { body: { intent: 'Tidal energy projects in Europe' } });
  const space = (await t.call('POST', '/spaces', { body: { name: `Fixture ${label}` } })).body.id;
  const item = (await t.call('POST', '/library', { body: { url: 'https://example.com/articles/tides' } })).body.item.id;
  const fileItem = (
    await t.call('POST', '/library/files', {
      raw: '# Notes\n\nSodium ion cells.\n',
      headers: { 'x-file-name': 'notes.md' },
    })
  ).body.item.id;
  const doc = (
    await t.call('POST', '/docs', { body: { title: 'Fixture notes', markdown: 'Sodium ion batteries are cheap.' } })
  ).body.id;
  const media = (await t.call('POST', '/media', { body: { url: 'https://www.youtube.com/watch?v=fixture-0' } })).body
    .mediaId;
  const turn = (await t.call('POST', '/conversations/messages', { body: { text: 'Create a doc about batteries' } }))
    .body;
  await t.advance(120_000);
  const messages = (await t.call('GET', `/conversations/${turn.conversationId}/messages`)).body.messages;
  const actionPart = messages.flatMap((m: any) => m.parts).find((p: any) => p.type === 'action');
  const inbox = (await t.call('GET', '/inbox')).body.items;
  const dir = tempDir('kagent-fixture-');
  const file = join(dir, 'notes.md');
  writeFileSync(file, '# Fixture\n\nA file to upload.\n');
  // A folder of its own for lib sync: bytes no other command sends (the service keeps one item per content).
  const syncDir = join(dir, 'synced');
  mkdirSync(syncDir);
  writeFileSync(join(syncDir, 'synced.md'), '# Synced\n\nA folder to sync.\n');
  return {
    slug,
    ownSlug: own.body.slug,
    entry,
    item,
    fileItem,
    doc,
    media,
    task: own.body.taskId,
    conversation: turn.conversationId,
    action: actionPart?.action.id ?? 'act_none',
    inbox: inbox[0]?.id ?? 'inb_none',
    space,
    file,
    syncDir,
    pullTo: join(dir, 'pulled', 'notes.md'),
  };
}

/** A plausible value for each positional argument, by command and argument name. */
function argumentValue(path: string[], name: string, ids: Ids): string {
  const group = path[1];
  const verb = path[2];
  const byName: Record<string, string> = {
    slug: verb === 'settings' ? ids.ownSlug : ids.slug,
    query: 'battery',
    q: 'battery',
    url: group === 'media' ? 'https://www.youtube.com/watch?v=fixture-1' : 'https://example.com/fixture',
    urls: 'https://www.youtube.com/watch?v=fixture-1',
    rating: 'up',
    shell: 'bash',
    method: 'GET',
    key: 'lang',
    value: 'en',
    // `config delete` gets a profile that is not saved: the one the tests are logged in with stays.
    profile: group === 'config' && verb === 'delete' ? 'fixture-unsaved' : 'default',
    message: 'Please research sodium ion batteries',
    name: group === 'space' ? 'Fixture space' : 'Fixture agent',
    space: ids.space,
    intent: 'Battery recycling in Europe',
    subject: 'Battery recycling in Europe',
    paths: ids.file,
    files: ids.file,
    file: ids.file,
    path: group === 'api' ? '/me' : ids.file,
    dir: ids.syncDir,
    topic: 'exit-codes',
  };
  if (byName[name] !== undefined) return byName[name];
  const byGroup: Record<string, string> = {
    entry: ids.entry,
    lib: verb === 'text' ? ids.fileItem : ids.item,
    doc: ids.doc,
    media: ids.media,
    task: ids.task,
    conversation: ids.conversation,
    actions: ids.action,
    inbox: ids.inbox,
  };
  return byGroup[group ?? ''] ?? 'fixture';
}

/** Arguments and flags some commands need to do anything at all (the commands themselves still come from the tree). */
const EXTRA = (ids: Ids): Record<string, string[]> => ({
  'doc pull': [ids.doc, '-o', ids.pullTo],
  'space create': ['--allow-duplicate'], // run twice (piped, terminal): the second is a second space of that name
  'space edit': ['--name', 'Renamed'],
  'watch settings': ['--cadence', 'weekly'],
  'watch create': ['--visibility', 'private'], // a choice kagent asks for, needed without a terminal
  'lib edit': ['--note', 'fixture'],
  'lib sync': ['--space', ids.space],
  'doc create': ['--title', 'Fixture', '--body', 'Some text.'],
  'doc update': ['--title', 'Fixture 2'],
  'doc edit': ['--append', 'More text.'],
  'agent memory': ['--append', 'Likes tidy answers.'],
});
/** Optional arguments worth giving: without them the command only asks for them. */
const GIVE_OPTIONAL = new Set(['message', 'topic', 'intent', 'path']);

/** argv for one command: its arguments, its required options, and --no-wait where it has one. */
export function argvFor(leaf: Leaf, ids: Ids): string[] {
  const argv = leaf.path.slice(1);
  for (const argument of leaf.spec.arguments ?? []) {
    if (argument.optional && !GIVE_OPTIONAL.has(argument.name)) continue;
    const value = argumentValue(leaf.path, argument.name, ids);
    argv.push(argument.choices && !argument.choices.includes(value) ? (argument.choices[0] as string) : value);
  }
  for (const option of leaf.spec.options ?? []) {
    const flag = option.flags.split(/[ ,]+/).find((part) => part.startsWith('--')) as string;
    if (flag === '--no-wait') argv.push(flag);
    else if (option.required)
      argv.push(flag, option.choices?.[0] ?? (option.type ? String(option.min ?? 1) : 'fixture'));
  }
  return [...argv, ...(EXTRA(ids)[leaf.path.slice(1, 3).join(' ')] ?? [])];
}
