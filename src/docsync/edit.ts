// `kagent doc edit ID` with edits given: the flags (--replace/--with,
// --insert-after/--content, --prepend, --append) or an --ops file become exact-match
// edits, each checked against its bounds naming the flag it came from, sent on
// the revision given; an edit that does not apply is named. With no edits, on a
// terminal, the body opens in $EDITOR (./editing.ts).
import type { EditOp, Revision } from '../api/shapes.js';
import * as S from '../api/shapes.js';
import type { Context } from '../context.js';
import { ApiError, CliError, ExitCode, UsageError } from '../errors.js';
import { kagentCommand } from '../io/command-line.js';
import { inputBounds, readBounded } from '../io/input.js';
import { withNotFound } from '../io/not-found.js';
import { checkInput } from '../kit/define.js';
import { sanitizeLine } from '../io/sanitize.js';
import { parseOps } from './edit-text.js';
import { editInEditor } from './editing.js';
import { conflictError, isConflict, printRevision } from './revision.js';

export interface EditOptions {
  replace?: string[];
  with?: string[];
  insertAfter?: string[];
  content?: string[];
  append?: string[];
  prepend?: string[];
  ops?: string;
  revision?: number;
}

/** An edit and the flags it came from, to name them when it is out of bounds or does not apply. */
interface SourcedEdit {
  op: EditOp;
  /** "--replace #2", "--append", "--ops edits[3]" */
  source: string;
  flags: Record<string, string>;
}

export async function editDoc(ctx: Context, id: string, opts: EditOptions): Promise<void> {
  let edits = editsFromFlags(opts);
  let revision = opts.revision;
  if (opts.ops !== undefined) {
    if (edits.length > 0)
      throw new UsageError('use --ops or the edit flags (--replace, --insert-after, --append, --prepend), not both');
    const parsed = parseOps(
      await readBounded(ctx, opts.ops, '--ops', (await inputBounds()).docOps),
      opts.ops === '-' ? 'stdin' : opts.ops,
    );
    edits = parsed.edits.map((op, i) => ({ op: op as EditOp, source: `--ops edits[${i}]`, flags: {} }));
    revision ??= parsed.revision;
  }
  if (edits.length === 0 && opts.ops === undefined) return editInEditor(ctx, id);
  const body = { edits: edits.map((e) => e.op), ...(revision !== undefined ? { revision } : {}) };
  checkEdits(edits, body);

  const api = await ctx.api();
  let saved: Revision;
  try {
    saved = await withNotFound(ctx, 'doc', id, () => api.call('editDoc', { params: { id }, body, signal: ctx.signal }));
  } catch (error) {
    if (isConflict(error))
      throw await conflictError(
        ctx,
        error,
        id,
        revision,
        'or leave out --revision: exact-match edits are safe on the latest text',
      );
    if (error instanceof ApiError && error.code === 'EDIT_NOT_APPLICABLE') throw notApplicable(ctx, error, id, edits);
    throw error;
  }
  await printRevision(ctx, saved, `Applied ${edits.length} edit${edits.length === 1 ? '' : 's'}`);
}

/** The edit flags in the order they apply: every --replace, every --insert-after, every --prepend, every --append. */
function editsFromFlags(opts: EditOptions): SourcedEdit[] {
  const replace = opts.replace ?? [];
  const withText = opts.with ?? [];
  if (replace.length !== withText.length) {
    throw new UsageError(
      `each --replace needs its --with (got ${replace.length} --replace and ${withText.length} --with)`,
      'e.g. --replace "old text" --with "new text"; --with "" deletes',
    );
  }
  const after = opts.insertAfter ?? [];
  const content = opts.content ?? [];
  if (after.length !== content.length) {
    throw new UsageError(
      `each --insert-after needs its --content (got ${after.length} --insert-after and ${content.length} --content)`,
      "e.g. --insert-after $'## Notes\\n' --content $'- a new line\\n'",
    );
  }
  const numbered = (flag: string, i: number, n: number) => (n > 1 ? `${flag} #${i + 1}` : flag);
  return [
    ...replace.map((find, i) => ({
      op: { op: 'replace', find, replace: withText[i] as string } as EditOp,
      source: numbered('--replace', i, replace.length),
      flags: { find: numbered('--replace', i, replace.length), replace: numbered('--with', i, replace.length) },
    })),
    ...after.map((anchor, i) => ({
      op: { op: 'insert_after', after: anchor, content: content[i] as string } as EditOp,
      source: numbered('--insert-after', i, after.length),
      flags: { after: numbered('--insert-after', i, after.length), content: numbered('--content', i, after.length) },
    })),
    ...(['prepend', 'append'] as const).flatMap((op) =>
      (opts[op] ?? []).map((text, i, all) => ({
        op: { op, content: text } as EditOp,
        source: numbered(`--${op}`, i, all.length),
        flags: { content: numbered(`--${op}`, i, all.length) },
      })),
    ),
  ];
}

/** Each edit against its shape, naming the flag; then the request (1 to 20 edits). */
function checkEdits(edits: SourcedEdit[], body: { edits: EditOp[]; revision?: number }): void {
  for (const edit of edits) {
    const fromFile = Object.fromEntries(
      ['op', 'find', 'replace', 'after', 'content'].map((field) => [field, `${edit.source}.${field}`]),
    );
    checkInput(S.EditOp, edit.op, { '(body)': edit.source, ...fromFile, ...edit.flags });
  }
  checkInput(S.EditDocRequest, body, { edits: 'edits', revision: '--revision' });
}

/** Which edit did not apply (from the answer: `edit.index`, or "edits[i]" in its message), and what to do. */
function notApplicable(ctx: Context, error: ApiError, id: string, edits: SourcedEdit[]): CliError {
  const body = error.body as
    { edit?: { index?: unknown; reason?: unknown }; error?: { edit?: { index?: unknown } } } | undefined;
  const index = [body?.edit?.index, body?.error?.edit?.index, indexInMessage(error.message)].find(
    (value): value is number => typeof value === 'number',
  );
  const which = index !== undefined ? edits[index] : undefined;
  const reason = typeof body?.edit?.reason === 'string' ? body.edit.reason : undefined;
  const what = which
    ? `edit ${(index as number) + 1} of ${edits.length} (${describeEdit(which)}) ${reason ?? 'does not match the current text'}`
    : `an edit does not match the current text (${error.message})`;
  return new CliError(`${what}; doc ${id} was not changed`, {
    exitCode: ExitCode.USAGE,
    code: 'EDIT_NOT_APPLICABLE',
    hint: `read the document again (\`${kagentCommand(ctx, 'doc show', id, '--raw')}\`) and give text that matches it exactly, once — include more of the surrounding text when it occurs several times`,
    cause: error,
  });
}

function indexInMessage(message: string): number | undefined {
  const match = /edits\[(\d+)\]/.exec(message);
  return match ? Number(match[1]) : undefined;
}

/** "--replace "old text…"" for messages. */
function describeEdit(edit: SourcedEdit): string {
  const op = edit.op as Record<string, unknown>;
  const quoted = [op.find, op.after].find((value): value is string => typeof value === 'string');
  if (quoted === undefined) return edit.source;
  const line = sanitizeLine(quoted);
  return `${edit.source} "${line.length > 40 ? `${line.slice(0, 39)}…` : line}"`;
}
