// Lines that split a diff into small independent pieces: lines that occur
// exactly once in every text and in the same order in all of them (the
// "patience" anchors). node-diff3's LCS slows down sharply on texts with many
// equal lines (blank lines in Markdown) — 500,000 characters with 2,500 blank
// lines took seconds — so it is run only on the pieces between anchors, each
// small. Anchors are unchanged lines on every side, so diffing or merging the
// pieces one by one gives a correct result.

/** Index tuples [i0, i1, …] (one per text) of the anchor lines, increasing in every text. */
export function anchors(texts: string[][]): number[][] {
  const counts = texts.map((lines) => {
    const seen = new Map<string, number>();
    lines.forEach((line, i) => seen.set(line, seen.has(line) ? -1 : i));
    return seen;
  });
  const [first, ...rest] = counts as [Map<string, number>, ...Map<string, number>[]];
  const tuples: number[][] = [];
  for (const [line, i0] of first) {
    if (i0 < 0) continue;
    const others = rest.map((seen) => seen.get(line) ?? -1);
    if (others.every((i) => i >= 0)) tuples.push([i0, ...others]);
  }
  tuples.sort((x, y) => (x[0] as number) - (y[0] as number));
  // The longest run increasing in the second text (patience sorting), then kept only where every other text increases too.
  const chain = longestIncreasing(tuples, 1);
  const kept: number[][] = [];
  for (const tuple of chain) {
    const last = kept[kept.length - 1];
    if (!last || tuple.every((v, k) => v > (last[k] as number))) kept.push(tuple);
  }
  return kept;
}

function longestIncreasing(tuples: number[][], key: number): number[][] {
  if (tuples.length === 0 || (tuples[0] as number[]).length < 2) return tuples;
  const tails: number[] = []; // index into tuples of the smallest tail of each length
  const previous = new Array<number>(tuples.length).fill(-1);
  tuples.forEach((tuple, i) => {
    const value = tuple[key] as number;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (((tuples[tails[mid] as number] as number[])[key] as number) < value) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[i] = tails[lo - 1] as number;
    tails[lo] = i;
  });
  const out: number[][] = [];
  for (let i = tails[tails.length - 1] as number; i !== -1; i = previous[i] as number) out.push(tuples[i] as number[]);
  return out.reverse();
}
