// Document text helpers for `kagent doc`: the front-matter rule, an `--ops` file
// of edits, and turning an edit made in $EDITOR into one small exact-match edit
// (what `doc edit` sends). Reading a file or stdin is src/io/input.ts.
import type { EditOp } from '../api/shapes.js';
import { UsageError } from '../errors.js';
import { validate } from '../api/validate.js';
import { MAX_ANSWER_DEPTH, nestedDeeperThan } from '../api/depth.js';

/**
 * The service's Markdown has no front matter: a leading `---` (YAML) or `+++`
 * (TOML) block closed by `---`, `+++` or `...`. (The same rule the sandbox applies.)
 */
export function hasFrontMatter(markdown: string): boolean {
  return /^\uFEFF?(---|\+\+\+)[ \t]*\r?\n[\s\S]*?\r?\n(---|\+\+\+|\.\.\.)[ \t]*(\r?\n|$)/.test(markdown);
}

export function refuseFrontMatter(markdown: string, flag: string, hint?: string): void {
  if (!hasFrontMatter(markdown)) return;
  throw new UsageError(
    `${flag} starts with front matter (a --- block): documents have none`,
    hint ?? 'remove the block; give the title with --title',
  );
}

/**
 * An `--ops` file: a JSON array of edits (`[{"op":"replace","find":…,"replace":…}, …]`),
 * or an object with `edits` (an EditDocRequest, whose `revision` is then used too).
 * Shapes are checked later against EditOp, one by one.
 */
export function parseOps(text: string, source: string): { edits: unknown[]; revision?: number } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `--ops ${source} is not valid JSON: ${(error as Error).message}`,
      'it holds a JSON array of edits, e.g. [{"op":"append","content":"\\n## Next steps\\n"}]',
    );
  }
  // The edits are written out again as the request: a file nested deeper than any answer kagent reads is refused here.
  if (nestedDeeperThan(parsed, MAX_ANSWER_DEPTH))
    throw new UsageError(`--ops ${source} is nested deeper than ${MAX_ANSWER_DEPTH} levels`);
  if (Array.isArray(parsed)) return { edits: parsed };
  if (parsed !== null && typeof parsed === 'object' && Array.isArray((parsed as { edits?: unknown }).edits)) {
    const request = parsed as { edits: unknown[]; revision?: unknown };
    return { edits: request.edits, ...(typeof request.revision === 'number' ? { revision: request.revision } : {}) };
  }
  throw new UsageError(`--ops ${source} must hold a JSON array of edits (or an object with "edits")`);
}

/**
 * The change from `before` to `after` as one exact-match edit: the changed
 * lines as a `replace` whose `find` occurs exactly once in `before` (widened
 * a line at a time until it does), so the request is small and lands where the
 * person edited. An empty document gets an `append`. When the change is too
 * large for a `replace` (its bounds come from EditOp), the whole text goes as a
 * `rewrite`. Undefined when nothing changed.
 */
export function editFromChange(before: string, after: string, editOp: Record<string, any>): EditOp | undefined {
  if (before === after) return undefined;
  if (before === '') return { op: 'append', content: after };
  const fits = (op: EditOp) => validate(editOp, op).length === 0;

  let prefix = 0;
  const most = Math.min(before.length, after.length);
  while (prefix < most && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (
    suffix < most - prefix &&
    before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)
  )
    suffix++;

  // Whole lines: from the start of the line where the change begins to the end of the line where it ends.
  let start = prefix === 0 ? 0 : before.lastIndexOf('\n', prefix - 1) + 1;
  let endOld = lineEnd(before, before.length - suffix);
  let tail = before.length - endOld;
  const unique = (find: string) => find !== '' && countOf(before, find) === 1;
  while (!unique(before.slice(start, endOld)) && (start > 0 || endOld < before.length)) {
    if (start > 0) start = start === 1 ? 0 : before.lastIndexOf('\n', start - 2) + 1;
    if (endOld < before.length) endOld = lineEnd(before, endOld + 1);
    tail = before.length - endOld;
  }
  const edit: EditOp = {
    op: 'replace',
    find: before.slice(start, endOld),
    replace: after.slice(start, after.length - tail),
  };
  if (fits(edit)) return edit;
  return { op: 'rewrite', content: after };
}

function lineEnd(text: string, from: number): number {
  const at = text.indexOf('\n', from);
  return at === -1 ? text.length : at;
}

function countOf(text: string, needle: string): number {
  let n = 0;
  for (let at = text.indexOf(needle); at !== -1 && n < 2; at = text.indexOf(needle, at + 1)) n++;
  return n;
}
