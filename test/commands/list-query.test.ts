// The list verbs read their items through one mechanism (src/kit/listing.ts):
// the query checked against the operation's bounds (a problem names the flag),
// --space named by id or name and sent by id, --limit or --all, never both.
// Every list verb that takes --space, and `lib search` and `doc pull --all`,
// which check their query the same way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';

let s: LoggedIn;
let space: string;

async function requests(): Promise<Record<string, number>> {
  return (await s.t.call('GET', '/_sandbox/stats', { key: null })).body.requests;
}

beforeAll(async () => {
  s = await loggedInSandbox();
  space = (await s.t.call('POST', '/spaces', { body: { name: 'Listing' } })).body.id;
  await s.t.call('POST', '/docs', { body: { title: 'In listing', markdown: 'x', spaceId: space } });
  await s.t.call('POST', '/docs', { body: { title: 'Elsewhere', markdown: 'y' } });
});
afterAll(() => s?.close());

const LISTS = [
  ['conversation', 'list'],
  ['doc', 'list'],
  ['media', 'list'],
  ['lib', 'list'],
  ['task', 'list'],
];

describe('a list verb', () => {
  it.each(LISTS)(
    '%s %s: --limit with --all is refused (exit 2) before any request, even with a space to look up',
    async (...verb) => {
      const before = await requests();
      const r = await s.kagent([...verb, '--limit', '2', '--all', '--space', 'Nowhere']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('use --limit or --all, not both');
      expect(await requests()).toEqual(before);
    },
  );

  it.each(LISTS)(
    '%s %s: a space over the bound names --space (exit 2); one that is not there is exit 4',
    async (...verb) => {
      const long = await s.kagent([...verb, '--space', 's'.repeat(81)]);
      expect(long.code).toBe(2);
      expect(long.stderr).toMatch(/--space .*80/);
      const missing = await s.kagent([...verb, '--space', 'Nowhere']);
      expect(missing.code).toBe(4);
      expect(missing.stderr).toContain('no space with id or name "Nowhere"');
    },
  );

  it('--space by name lists that space only, sent by its id', async () => {
    const r = await s.kagent(['doc', 'list', '--space', 'listing', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((doc: { title: string }) => doc.title)).toEqual(['In listing']);
  });

  it('lib search and doc pull --all check their query the same way', async () => {
    const search = await s.kagent(['lib', 'search', 'x', '--space', 's'.repeat(81)]);
    expect(search.code).toBe(2);
    expect(search.stderr).toMatch(/--space .*80/);
    expect((await s.kagent(['lib', 'search', 'x', '--space', 'Nowhere'])).code).toBe(4);
    expect((await s.kagent(['doc', 'pull', '--all', '--space', 'Nowhere', '-o', s.configDir])).code).toBe(4);
  });
});
