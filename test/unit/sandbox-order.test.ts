// The sandbox's shared list orders (src/sandbox/order.ts): newest first, items of the
// same millisecond latest-arrived first. The property checks them against the orders
// the areas wrote by hand before they shared one. Seeded: the seed is printed, and
// KAGENT_PROPERTY_SEED=<seed> replays a run.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compare, newestBy, newestFirst } from '../../src/sandbox/order.js';

const SEED = Number(process.env.KAGENT_PROPERTY_SEED ?? Date.now() % 2 ** 31);

type Item = { id: number; createdAt: string };

/** The inbox's old order: ties by position, latest first. */
function byPosition(items: Item[]): Item[] {
  return items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => {
      if (a.item.createdAt === b.item.createdAt) return b.i - a.i;
      return a.item.createdAt < b.item.createdAt ? 1 : -1;
    })
    .map((x) => x.item);
}

/** The library's old order: reversed, then a stable sort on the time alone. */
function reversedStable(items: Item[]): Item[] {
  return [...items].reverse().sort((a, b) => {
    if (a.createdAt === b.createdAt) return 0;
    return a.createdAt < b.createdAt ? 1 : -1;
  });
}

describe('sandbox list order', () => {
  it('compares text and numbers', () => {
    expect(compare('2026-01-02T00:00:00.000Z', '2026-01-01T00:00:00.000Z')).toBe(1);
    expect(compare('a', 'b')).toBe(-1);
    expect(compare(3, 3)).toBe(0);
  });

  it('puts the newest first and, within a millisecond, the latest to arrive', () => {
    const items = [
      { id: 1, createdAt: '2026-01-01T00:00:00.000Z' },
      { id: 2, createdAt: '2026-01-02T00:00:00.000Z' },
      { id: 3, createdAt: '2026-01-01T00:00:00.000Z' },
    ];
    expect(newestFirst(items).map((i) => i.id)).toEqual([2, 3, 1]);
    expect(newestBy(items, (i) => -i.id).map((i) => i.id)).toEqual([1, 2, 3]);
    expect(items.map((i) => i.id)).toEqual([1, 2, 3]);
  });

  it(`orders as the areas' hand-written comparators did, seed ${SEED}`, () => {
    console.log(`sandbox order property: seed ${SEED} (replay with KAGENT_PROPERTY_SEED=${SEED})`);
    const time = fc.integer({ min: 0, max: 5 }).map((ms) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, ms)).toISOString());
    const items = fc.array(time, { maxLength: 30 }).map((times) => times.map((createdAt, id) => ({ id, createdAt })));
    fc.assert(
      fc.property(items, (list) => {
        const ids = newestFirst(list).map((i) => i.id);
        expect(ids).toEqual(byPosition(list).map((i) => i.id));
        expect(ids).toEqual(reversedStable(list).map((i) => i.id));
        expect(newestBy(list, (i) => Date.parse(i.createdAt)).map((i) => i.id)).toEqual(ids);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});
