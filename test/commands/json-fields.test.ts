// `--json FIELDS` on an item printed through its field table (src/io/declared.ts):
// the table's piped keys and the API's own names alike, under the names asked,
// with the API's values (a name that is both is the API's); a typo is exit 2 with
// "did you mean" and the table's keys listed first. For every key of several
// views, `--json KEY` gives that one key with the value of the API field it
// names; a property (fast-check) mixes keys and API names in any order. Seeded:
// the seed is printed, and KAGENT_PROPERTY_SEED=<seed> replays a run.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meView } from '../../commands/me/index.js';
import { quoteView } from '../../commands/media/quote.js';
import { pipedItem } from '../../commands/lib/shared.js';
import { jsonLinks, type ItemView } from '../../src/io/declared.js';
import { watchHead } from '../../src/views/brief.js';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';

const SEED = process.env.KAGENT_PROPERTY_SEED ? Number(process.env.KAGENT_PROPERTY_SEED) : Date.now() % 2 ** 31;
const VIDEO = 'https://www.youtube.com/watch?v=kagent-json-fields';

let s: LoggedIn;
let itemId: string;
let slug: string;

beforeAll(async () => {
  s = await loggedInSandbox();
  const saved = await s.t.call('POST', '/library', {
    body: { url: 'https://example.com/articles/fields', note: 'picked' },
  });
  itemId = saved.body.item.id;
  const created = await s.t.call('POST', '/watches', { body: { intent: 'Offshore wind auctions', cadence: 'daily' } });
  slug = created.body.slug;
  await s.t.advance(61_000);
});
afterAll(() => s?.close());

interface Case {
  name: string;
  argv: () => string[];
  view: ItemView<any>;
}

const cases: Case[] = [
  { name: 'me', argv: () => ['me'], view: meView },
  { name: 'media quote', argv: () => ['media', 'quote', VIDEO], view: quoteView() },
  { name: 'lib show', argv: () => ['lib', 'show', itemId], view: pipedItem },
  { name: 'watch show', argv: () => ['watch', 'show', slug], view: watchHead },
];

/** The value at a dotted path, undefined where the way is missing. */
function at(value: unknown, path: string): unknown {
  for (const name of path.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, name)) return undefined;
    value = (value as Record<string, unknown>)[name];
  }
  return value;
}

async function json(argv: string[], fields?: string[]): Promise<any> {
  const r = await s.kagent(fields ? [...argv, `--json=${fields.join(',')}`] : [...argv, '--json']);
  expect(r.code, `${argv.join(' ')} --json ${fields ?? ''}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout);
}

describe('--json FIELDS on an item with a field table', () => {
  it('a piped key gives the API field it shows, under the key asked; API names as before, in the order asked', async () => {
    const me = await json(['me']);
    expect(await json(['me'], ['plan-name', 'id', 'limits', 'storage-limit-bytes'])).toEqual({
      'plan-name': me.plan.name,
      id: me.id,
      limits: me.limits,
      'storage-limit-bytes': me.limits.storageBytes,
    });
    expect(Object.keys(await json(['me'], ['storage-limit-bytes', 'id']))).toEqual(['storage-limit-bytes', 'id']);
    // A name that is both a piped key and the API's (`plan`: the plan's id piped) is the API's.
    expect(await json(['me'], ['plan'])).toEqual({ plan: me.plan });
    // Nested keys of a page: `watch show`'s head reaches into the watch and its brief.
    const page = await json(['watch', 'show', slug]);
    expect(await json(['watch', 'show', slug], ['slug', 'date', 'brief-title'])).toEqual({
      slug,
      date: page.brief.date,
      'brief-title': page.brief.title,
    });
  });

  it('a typo is exit 2 with "did you mean", the table’s keys listed before the API’s names', async () => {
    const r = await s.kagent(['me', '--json', 'plan-nme']);
    expect(r.code).toBe(2);
    const { error } = JSON.parse(r.stderr);
    expect(error.message).toBe('unknown field for --json: plan-nme (did you mean "plan-name"?)');
    const known: string[] = error.hint.replace(/^known fields: /, '').split(', ');
    const keys = [...jsonLinks(meView).keys()];
    expect(known.slice(0, keys.length)).toEqual(keys);
    expect(known).toContain('limits');
    expect(new Set(known).size).toBe(known.length);
    const typo = await s.kagent(['lib', 'show', itemId, '--json=svaed']);
    expect(typo.code).toBe(2);
    expect(JSON.parse(typo.stderr).error.message).toContain('did you mean "saved"?');
  });

  it('for every key of every view, --json KEY gives that one key with the value of the API field it names', async () => {
    for (const c of cases) {
      const links = jsonLinks(c.view);
      expect(links.size, c.name).toBeGreaterThan(0);
      const full = await json(c.argv());
      for (const [key, path] of links) {
        const picked = await json(c.argv(), [key]);
        expect(Object.keys(picked), `${c.name} --json ${key}`).toEqual([key]);
        // A key that is also the API's name stands for that field: a link elsewhere could never be used.
        if (Object.hasOwn(full, key)) expect(path, `${c.name}: ${key}`).toBe(key);
        const expected = Object.hasOwn(full, key) ? full[key] : (at(full, path) ?? null);
        expect(picked[key], `${c.name} --json ${key}`).toEqual(expected);
      }
    }
  });

  it(`keys and API names mixed in any order give exactly the names asked, each its field (seed ${SEED})`, async () => {
    console.log(`json-fields property: seed ${SEED} (replay with KAGENT_PROPERTY_SEED=${SEED})`);
    const fulls = await Promise.all(cases.map((c) => json(c.argv())));
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: cases.length - 1 }).chain((index) => {
          const names = [...new Set([...jsonLinks(cases[index]!.view).keys(), ...Object.keys(fulls[index])])];
          return fc.tuple(fc.constant(index), fc.shuffledSubarray(names, { minLength: 1, maxLength: 6 }));
        }),
        async ([index, names]) => {
          const c = cases[index]!;
          const full = fulls[index];
          const links = jsonLinks(c.view);
          const picked = await json(c.argv(), names);
          expect(Object.keys(picked)).toEqual(names);
          for (const name of names)
            expect(picked[name], `${c.name} --json ${name}`).toEqual(
              Object.hasOwn(full, name) ? full[name] : (at(full, links.get(name)!) ?? null),
            );
        },
      ),
      { seed: SEED, numRuns: 40, endOnFailure: true },
    );
  });
});
