// The text side of keeping a document as a file: the change from one text to
// another as the smallest exact-match edits the service applies (or a rewrite
// when that is smaller or the edits would break a bound), and the three-way
// merge of a pulled base, a local text and the latest revision (node-diff3, the
// diff3 algorithm of Khanna, Kunal and Pierce, on lines).
import { diff3Merge, diffPatch } from 'node-diff3';
import type { EditOp } from '../api/shapes.js';
import { validate } from '../api/validate.js';
import { anchors } from './anchors.js';

/** The service's bounds on one request (EditDocRequest): 1 to 20 edits. */
export const MAX_EDITS = 20;

/** Lines with their terminators, so that joining them gives the text back exactly. */
export function splitLines(text: string): string[] {
  const lines = text.match(/[^\n]*\n|[^\n]+$/g);
  return lines ? [...lines] : [];
}

interface Hunk {
  /** Offsets in the old text, in characters. */
  start: number;
  end: number;
  replacement: string;
}

/** Changed line ranges from `before` to `after` (common leading and trailing lines set aside first: fast on large, mostly equal texts). */
function hunks(before: string, after: string): Hunk[] {
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const offsets = [0];
  for (const line of a) offsets.push((offsets[offsets.length - 1] as number) + line.length);
  const middleA = a.slice(head, a.length - tail);
  const middleB = b.slice(head, b.length - tail);
  const found: Hunk[] = [];
  // The pieces between anchor lines, diffed one by one (see anchors.ts).
  let fromA = 0;
  let fromB = 0;
  for (const [toA, toB] of [...anchors([middleA, middleB]), [middleA.length, middleB.length]] as Array<
    [number, number]
  >) {
    for (const p of diffPatch(middleA.slice(fromA, toA), middleB.slice(fromB, toB))) {
      const at = head + fromA + p.buffer1.offset;
      found.push({
        start: offsets[at] as number,
        end: offsets[at + p.buffer1.length] as number,
        replacement: p.buffer2.chunk.join(''),
      });
    }
    fromA = toA + 1;
    fromB = toB + 1;
  }
  return found;
}

function occursOnce(text: string, needle: string): boolean {
  const first = text.indexOf(needle);
  return first !== -1 && text.indexOf(needle, first + 1) === -1;
}

/**
 * One hunk as a `replace` whose `find` occurs exactly once in `text` (the
 * text as the service has it when this edit applies): the changed lines,
 * widened a line at a time on both sides until they are unique.
 */
function replaceFor(text: string, hunk: Hunk): EditOp {
  let { start, end } = hunk;
  while (!(end > start && occursOnce(text, text.slice(start, end))) && (start > 0 || end < text.length)) {
    if (start > 0) start = start <= 1 ? 0 : text.lastIndexOf('\n', start - 2) + 1;
    if (end < text.length) {
      const next = text.indexOf('\n', end);
      end = next === -1 ? text.length : next + 1;
    }
  }
  return {
    op: 'replace',
    find: text.slice(start, end),
    replace: text.slice(start, hunk.start) + hunk.replacement + text.slice(hunk.end, end),
  };
}

export type PushPlan = { kind: 'none' } | { kind: 'edits'; edits: EditOp[] } | { kind: 'rewrite' };

/**
 * How to turn `before` (the service's text at a revision) into `after`: no
 * request, the smallest exact-match edits (applied by the service in order,
 * each on the text the previous one left: the hunks go last to first so the
 * offsets of the others hold), or the whole text when the edits would be more
 * than 20, out of an EditOp bound, or larger than the text itself.
 */
export function planPush(before: string, after: string, editOp: Record<string, unknown>): PushPlan {
  if (before === after) return { kind: 'none' };
  if (before === '' || after === '') return { kind: 'rewrite' };
  const all = hunks(before, after);
  if (all.length > MAX_EDITS) return { kind: 'rewrite' };
  let text = before;
  const edits: EditOp[] = [];
  for (const hunk of [...all].reverse()) {
    const edit = replaceFor(text, hunk);
    if (edit.op !== 'replace' || validate(editOp, edit).length > 0) return { kind: 'rewrite' };
    const at = text.indexOf(edit.find);
    text = text.slice(0, at) + edit.replace + text.slice(at + edit.find.length);
    edits.push(edit);
  }
  // The plan must give exactly the text wanted, and be smaller than sending it whole.
  if (text !== after || JSON.stringify(edits).length >= JSON.stringify(after).length) return { kind: 'rewrite' };
  return { kind: 'edits', edits };
}

export interface MergeLabels {
  /** Your side: "notes.md". */
  mine: string;
  /** The pulled base: "revision 3". */
  base: string;
  /** The service's side: "doc doc_8f2k3xq9mz revision 5". */
  theirs: string;
}

export interface Merged {
  text: string;
  /** Conflicting hunks, written into `text` between <<<<<<< ||||||| ======= >>>>>>> markers. */
  conflicts: number;
}

const ensureNewline = (lines: string[]) => {
  const text = lines.join('');
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
};

/**
 * The three-way merge of `mine` and `theirs`, both derived from `base`:
 * changes on one side only are taken; the same change on both sides is taken
 * once; different changes to the same lines are a conflict, written with
 * diff3-style markers (as `git merge-file --diff3` writes them).
 */
export function merge3(base: string, mine: string, theirs: string, labels: MergeLabels): Merged {
  const [open, separator, middle, close] = markerLines(labels);
  const [a, o, b] = [splitLines(mine), splitLines(base), splitLines(theirs)];
  // The pieces between anchor lines (unchanged on both sides), merged one by one (see anchors.ts).
  const regions: Array<{ ok?: string[]; conflict?: { a: string[]; o: string[]; b: string[] } }> = [];
  let from = [0, 0, 0];
  for (const to of [...anchors([a, o, b]), [a.length, o.length, b.length]]) {
    const [ta, to_, tb] = to as [number, number, number];
    regions.push(
      ...diff3Merge(a.slice(from[0], ta), o.slice(from[1], to_), b.slice(from[2], tb), { excludeFalseConflicts: true }),
    );
    if (ta < a.length) regions.push({ ok: [a[ta] as string] });
    from = [ta + 1, to_ + 1, tb + 1];
  }
  let text = '';
  let conflicts = 0;
  for (const region of regions) {
    if (region.ok) {
      text += region.ok.join('');
      continue;
    }
    const c = region.conflict;
    if (!c) continue;
    conflicts++;
    if (text !== '' && !text.endsWith('\n')) text += '\n';
    text += `${open}\n${ensureNewline(c.a)}${separator}\n${ensureNewline(c.o)}${middle}\n${ensureNewline(c.b)}${close}\n`;
  }
  return { text, conflicts };
}

/** The four marker lines merge3 writes around each conflicting hunk, for these labels (kept to one line each). */
export function markerLines(labels: MergeLabels): [string, string, string, string] {
  const one = (label: string) => label.replace(/[\r\n\u2028\u2029]+/g, ' ');
  return [`<<<<<<< ${one(labels.mine)}`, `||||||| ${one(labels.base)}`, '=======', `>>>>>>> ${one(labels.theirs)}`];
}

/**
 * Which marker lines kagent's own merge wrote, so that only those are refused
 * later — never a line of the document that merely looks like a marker (a
 * document about git, a setext heading underlined with =======): for each of
 * the four marker lines of a merge, how many copies of that very line the
 * merged text holds BESIDES the ones the merge wrote (one per conflicting
 * hunk). A text that holds more copies than that still holds kagent's
 * markers. Kept in the sidecar (`doc push`) or in memory (`doc edit`).
 */
export type MarkerLines = Record<string, number>;

export function writtenMarkers(merged: Merged, labels: MergeLabels): MarkerLines {
  const counts = lineCounts(merged.text);
  const record: MarkerLines = {};
  for (const line of markerLines(labels)) record[line] = Math.max(0, (counts.get(line) ?? 0) - merged.conflicts);
  return record;
}

/** The first marker line kagent wrote that `text` still holds (more copies than the document had of it), or undefined. */
export function markersLeft(text: string, markers: MarkerLines): string | undefined {
  const counts = lineCounts(text);
  return Object.keys(markers).find((line) => (counts.get(line) ?? 0) > (markers[line] ?? 0));
}

function lineCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  return counts;
}

/**
 * Whether a text holds conflict markers (lines starting <<<<<<< and >>>>>>>,
 * and a ======= line), whoever wrote them: only for a sidecar written before
 * kagent remembered its own markers (see MarkerLines).
 */
export function hasConflictMarkers(text: string): boolean {
  return /^<<<<<<< /m.test(text) && /^>>>>>>> /m.test(text) && /^=======$/m.test(text);
}
