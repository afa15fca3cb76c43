import type { Context } from '../../src/context.js';
import type { EditOp, Revision } from '../../src/api/shapes.js';
import { ApiError, CliError, ExitCode, UsageError } from '../../src/errors.js';
import { sanitizeLine } from '../../src/io/sanitize.js';
import { checkInput, defineCommand } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';
import { withNotFound } from '../../src/io/not-found.js';
import { readDoc, isConflict, conflictError, printRevision } from './shared.js';
import { note, printItem } from '../../src/io/output.js';
import { asFileText, sameText } from '../../src/docsync/final-newline.js';
import { hasFrontMatter, parseOps } from '../../src/docsync/edit-text.js';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { fileInside, safeFileName, systemReason } from '../../src/io/file-name.js';
import { saveEditedDoc } from '../../src/docsync/editing.js';
import { readBounded, inputBounds } from '../../src/io/input.js';
import * as S from '../../src/api/shapes.js';

interface EditOptions {
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
  const edits: SourcedEdit[] = [];
  replace.forEach((find, i) => {
    edits.push({
      op: { op: 'replace', find, replace: withText[i] as string },
      source: numbered('--replace', i, replace.length),
      flags: { find: numbered('--replace', i, replace.length), replace: numbered('--with', i, replace.length) },
    });
  });
  after.forEach((anchor, i) => {
    edits.push({
      op: { op: 'insert_after', after: anchor, content: content[i] as string },
      source: numbered('--insert-after', i, after.length),
      flags: { after: numbered('--insert-after', i, after.length), content: numbered('--content', i, after.length) },
    });
  });
  (opts.prepend ?? []).forEach((text, i, all) => {
    edits.push({
      op: { op: 'prepend', content: text },
      source: numbered('--prepend', i, all.length),
      flags: { content: numbered('--prepend', i, all.length) },
    });
  });
  (opts.append ?? []).forEach((text, i, all) => {
    edits.push({
      op: { op: 'append', content: text },
      source: numbered('--append', i, all.length),
      flags: { content: numbered('--append', i, all.length) },
    });
  });
  return edits;
}

/** "--replace "old text…"" for messages. */
function describeEdit(edit: SourcedEdit): string {
  const op = edit.op as Record<string, unknown>;
  const quoted = typeof op.find === 'string' ? op.find : typeof op.after === 'string' ? op.after : undefined;
  if (quoted === undefined) return edit.source;
  const line = sanitizeLine(quoted);
  return `${edit.source} "${line.length > 40 ? `${line.slice(0, 39)}…` : line}"`;
}

/** Which edit did not apply (from the answer: `edit.index`, or "edits[i]" in its message), and what to do. */
async function notApplicable(ctx: Context, error: ApiError, id: string, edits: SourcedEdit[]): Promise<CliError> {
  const body = error.body as
    { edit?: { index?: unknown; reason?: unknown }; error?: { edit?: { index?: unknown } } } | undefined;
  let index =
    typeof body?.edit?.index === 'number'
      ? body.edit.index
      : typeof body?.error?.edit?.index === 'number'
        ? body.error.edit.index
        : undefined;
  if (index === undefined) {
    const match = /edits\[(\d+)\]/.exec(error.message);
    if (match) index = Number(match[1]);
  }
  const which = index !== undefined && edits[index] ? edits[index] : undefined;
  const reason = typeof body?.edit?.reason === 'string' ? body.edit.reason : undefined;
  const what = which
    ? `edit ${(index as number) + 1} of ${edits.length} (${describeEdit(which)}) ${reason ?? 'does not match the current text'}`
    : `an edit does not match the current text (${error.message})`;
  return new CliError(`${what}; doc ${id} was not changed`, {
    exitCode: ExitCode.USAGE,
    code: 'EDIT_NOT_APPLICABLE',
    hint: `read the document again (\`${suggest(ctx, 'doc show', id, '--raw')}\`) and give text that matches it exactly, once — include more of the surrounding text when it occurs several times`,
    cause: error,
  });
}

/** No edit flags on a terminal: the body in $EDITOR, the change sent as one exact-match edit on the revision edited. */
async function editInEditor(ctx: Context, id: string): Promise<void> {
  if (!ctx.io.canPrompt) {
    throw new UsageError(
      'no edits given: pass --replace/--with, --insert-after/--content, --append, --prepend or --ops FILE',
      'on a terminal, `kagent doc edit ID` alone opens the document in $EDITOR',
    );
  }
  const doc = await readDoc(ctx, id);
  // The file ends with a newline, as editors expect (vi adds one on save): that alone is no change.
  const edited = await ctx.editor.edit(asFileText(doc.body), { extension: '.md' });
  if (sameText(edited, doc.body)) {
    await note(ctx, `No changes: doc ${id} stays at revision ${doc.revision}.`);
    await printItem(ctx, { id: doc.id, revision: doc.revision, updatedAt: doc.updatedAt }, (r, f) =>
      f.tty ? '' : `${r.id}\t${r.revision}`,
    );
    return;
  }
  const keep = async (why: string | ((path: string) => string), text = edited): Promise<string> => {
    const path = fileInside(
      tmpdir(),
      safeFileName(`kagent-${id}`, { suffix: `-r${doc.revision}-${ctx.clock.now()}.md` }),
    );
    try {
      // A new file only (O_EXCL): never written through a link someone left at that name.
      await writeFile(path, text, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      return `${typeof why === 'string' ? why : 'nothing was saved'}; your text could not be kept in ${path} (${systemReason(error)})`;
    }
    return typeof why === 'string' ? `${why}; your text is kept in ${path}` : why(path);
  };
  if (hasFrontMatter(edited))
    throw new UsageError(
      'the edited text starts with front matter (a --- block): documents have none; nothing was saved',
      await keep('remove the block and try again'),
    );
  // Saved as the smallest exact-match edits; a save made meanwhile is merged (src/docsync/editing.ts).
  const outcome = await withNotFound(ctx, 'doc', id, () =>
    saveEditedDoc(ctx, { id, body: doc.body, revision: doc.revision, edited, keep: (text, why) => keep(why, text) }),
  );
  if (outcome.outcome === 'unchanged') return;
  const how =
    outcome.mergedWith !== undefined
      ? `Merged with revision ${outcome.mergedWith} (saved meanwhile) and saved`
      : 'Saved';
  await printRevision(ctx, outcome.saved, how);
}

export default defineCommand({
  name: 'edit',
  summary: 'Change a document with exact-match edits, or in $EDITOR',
  description: [
    'Edits (1 to 20 per request) apply in this order: every --replace FIND --with TEXT pair, every --insert-after ANCHOR --content TEXT pair, every --prepend, every --append. ' +
      "Texts are taken as given, without escapes: for a newline, write $'…\\n…' in bash or zsh. " +
      'FIND and ANCHOR must match the current text exactly, once; otherwise the service refuses the request (EDIT_NOT_APPLICABLE, exit 2) and the message names the edit. ' +
      'For another order, or a rewrite, give --ops FILE: a JSON array of edits ({"op":"replace","find":…,"replace":…}, {"op":"insert_after","after":…,"content":…}, {"op":"append"|"prepend","content":…}, {"op":"rewrite","content":…}), or - for stdin.',
    'With no edits given, on a terminal, the body opens in $VISUAL / $EDITOR (as a file ending with a newline; a change that is only the final newline is no change); when you save and quit, your change is sent as the smallest exact-match edits of the lines you changed ' +
      '(or as the whole body when that is smaller), based on the revision you edited. If someone saved the document meanwhile, your edit and theirs are merged (three-way): a clean merge is saved and said; ' +
      'changes to the same lines reopen the editor with both sides between <<<<<<< and >>>>>>> markers. Markers left in save nothing (exit 5), nor does an editor that fails (exit 1), and either way your text is kept in a file the message names; ' +
      'after markers left in, the hint is the `kagent doc update ID --file FILE --revision M` that sends that file once resolved. ' +
      'Only the markers kagent wrote count: lines of the document itself that look like markers are saved as they are. ' +
      'Stopped (Ctrl-C, SIGTERM, a closed terminal) while the save is on its way, it says that whether the service applied it is unknown, how to check, and where your text is kept.',
    'Every bound is checked before anything is sent (find 1 to 20000 characters, replace at most 40000, anchor 1 to 4000, content 1 to 40000). ' +
      '--revision N makes the edits apply only to that revision. Piped, prints "id<TAB>revision"; --json prints the Revision.',
  ].join('\n\n'),
  arguments: [{ name: 'id', description: 'the document', complete: 'doc' }],
  options: [
    {
      flags: '--replace <find>',
      description: 'text to replace, matching exactly once (repeatable; pair each with --with)',
      repeatable: true,
    },
    { flags: '--with <text>', description: 'what replaces the matching --replace ("" deletes it)', repeatable: true },
    {
      flags: '--insert-after <anchor>',
      description: 'insert after this text, matching exactly once (repeatable; pair each with --content)',
      repeatable: true,
    },
    { flags: '--content <text>', description: 'what to insert after the matching --insert-after', repeatable: true },
    { flags: '--append <text>', description: 'add this at the end (repeatable)', repeatable: true },
    { flags: '--prepend <text>', description: 'add this at the start (repeatable)', repeatable: true },
    { flags: '--ops <file>', description: 'a JSON array of edits from this file, or - for stdin' },
    {
      flags: '--revision <n>',
      description: 'apply only if the document is still at this revision',
      type: 'integer',
      min: 1,
    },
  ],
  examples: [
    'kagent doc edit doc_8f2k3xq9mz',
    'kagent doc edit doc_8f2k3xq9mz --replace "Status: draft" --with "Status: final"',
    "kagent doc edit doc_8f2k3xq9mz --insert-after $'## Decisions\\n' --content $'- Ship on Friday\\n' --append $'\\n_Reviewed_'",
    'kagent doc edit doc_8f2k3xq9mz --ops edits.json --revision 7',
    `echo '[{"op":"prepend","content":"> Archived\\n\\n"}]' | kagent doc edit doc_8f2k3xq9mz --ops -`,
  ],
  async run(ctx, opts, args) {
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
    if (edits.length === 0 && opts.ops === undefined) return editInEditor(ctx, args.id);

    // Each edit against its shape, naming the flag; then the request (1 to 20 edits).
    for (const edit of edits) {
      const fromFile = Object.fromEntries(
        ['op', 'find', 'replace', 'after', 'content'].map((field) => [field, `${edit.source}.${field}`]),
      );
      checkInput(S.EditOp, edit.op, { '(body)': edit.source, ...fromFile, ...edit.flags });
    }
    checkInput(
      S.EditDocRequest,
      { edits: edits.map((e) => e.op), ...(revision !== undefined ? { revision } : {}) },
      { edits: 'edits', revision: '--revision' },
    );

    const api = await ctx.api();
    let saved: Revision;
    try {
      saved = await withNotFound(ctx, 'doc', args.id, () =>
        api.call('editDoc', {
          params: { id: args.id },
          body: { edits: edits.map((e) => e.op), ...(revision !== undefined ? { revision } : {}) },
          signal: ctx.signal,
        }),
      );
    } catch (error) {
      if (isConflict(error))
        throw await conflictError(
          ctx,
          error,
          args.id,
          revision,
          'or leave out --revision: exact-match edits are safe on the latest text',
        );
      if (error instanceof ApiError && error.code === 'EDIT_NOT_APPLICABLE')
        throw await notApplicable(ctx, error, args.id, edits);
      throw error;
    }
    await printRevision(ctx, saved, `Applied ${edits.length} edit${edits.length === 1 ? '' : 's'}`);
  },
});
