// The orders the sandbox's lists share: newest first, and items stamped in the same
// millisecond by when they arrived, latest first, so that a list never depends on
// the sort's tie-breaking.

/** -1, 0 or 1 as `a` comes before, with or after `b` (ISO timestamps compare as text). */
export function compare<T extends string | number>(a: T, b: T): number {
  if (a < b) return -1;
  if (a > b) return 1;
  return 0;
}

/** Newest first by `time`; items with the same time latest-arrived first. */
export function newestBy<T>(items: readonly T[], time: (item: T) => string | number): T[] {
  return items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => compare(time(b.item), time(a.item)) || b.i - a.i)
    .map((x) => x.item);
}

/** Newest first by creation time; items created in the same millisecond latest-arrived first. */
export function newestFirst<T extends { createdAt: string | number }>(items: readonly T[]): T[] {
  return newestBy(items, (item) => item.createdAt);
}
