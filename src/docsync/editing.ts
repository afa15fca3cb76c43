// `doc edit ID` in $EDITOR: the body opens as a file ending with a newline, and
// what is saved goes as the smallest exact-match edits on the revision opened.
// When someone saved the document meanwhile, the text edited, the revision it
// was opened at and the latest revision are merged; a clean merge is saved (and
// said), conflicts reopen the editor with the markers, and when the markers are
// left in (or the editor fails) the text is kept in a recovery file as the last resort.
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { Context } from '../context.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { saveMerging, stoppedMidFlight, type SaveOutcome } from './sync.js';
import { markersLeft } from './text.js';
import { hasFrontMatter } from './edit-text.js';
import { asFileText, sameText } from './final-newline.js';
import { printRevision, readDoc } from './revision.js';
import { kagentCommand } from '../io/command-line.js';
import { fileInside, safeFileName, systemReason } from '../io/file-name.js';
import { withNotFound } from '../io/not-found.js';
import { note, warn } from '../io/output.js';
import { printDone } from '../io/outcome.js';

/** No edit flags on a terminal: the body in $EDITOR, the change sent as one exact-match edit on the revision edited. */
export async function editInEditor(ctx: Context, id: string): Promise<void> {
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
    await printDone(
      ctx,
      { id: doc.id, revision: doc.revision, updatedAt: doc.updatedAt },
      {
        piped: (r) => `${r.id}\t${r.revision}`,
      },
    );
    return;
  }
  const keep = (text: string, why: string | ((path: string) => string)) => keepText(ctx, doc, text, why);
  if (hasFrontMatter(edited))
    throw new UsageError(
      'the edited text starts with front matter (a --- block): documents have none; nothing was saved',
      await keep(edited, 'remove the block and try again'),
    );
  // Saved as the smallest exact-match edits; a save made meanwhile is merged (saveEditedDoc below).
  const outcome = await withNotFound(ctx, 'doc', id, () =>
    saveEditedDoc(ctx, { id, body: doc.body, revision: doc.revision, edited, keep }),
  );
  if (outcome.outcome === 'unchanged') return;
  const how =
    outcome.mergedWith !== undefined
      ? `Merged with revision ${outcome.mergedWith} (saved meanwhile) and saved`
      : 'Saved';
  await printRevision(ctx, outcome.saved, how);
}

/**
 * Keeps the user's text in a new file of the temporary directory; returns `why` with
 * "your text is kept in PATH", or, when `why` is a function, what it says given the path.
 */
async function keepText(
  ctx: Context,
  doc: { id: string; revision: number },
  text: string,
  why: string | ((path: string) => string),
): Promise<string> {
  const path = fileInside(
    tmpdir(),
    safeFileName(`kagent-${doc.id}`, { suffix: `-r${doc.revision}-${ctx.clock.now()}.md` }),
  );
  try {
    // A new file only (O_EXCL): never written through a link someone left at that name.
    await writeFile(path, text, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    return `${typeof why === 'string' ? why : 'nothing was saved'}; your text could not be kept in ${path} (${systemReason(error)})`;
  }
  return typeof why === 'string' ? `${why}; your text is kept in ${path}` : why(path);
}

/** The editor is reopened on conflicts at most this many times. */
const REOPEN_MAX = 3;

export interface EditedDoc {
  id: string;
  /** The body opened in the editor, and its revision. */
  body: string;
  revision: number;
  /** What the editor saved. */
  edited: string;
  /**
   * Writes `text` to a recovery file; returns `why` with "your text is kept in PATH",
   * or, when `why` is a function, what it says given the file's path.
   */
  keep: (text: string, why: string | ((path: string) => string)) => Promise<string>;
}

export type EditSaved = Extract<SaveOutcome, { outcome: 'saved' } | { outcome: 'unchanged' }>;

export async function saveEditedDoc(ctx: Context, doc: EditedDoc): Promise<EditSaved> {
  let base = doc.body;
  let revision = doc.revision;
  let text = doc.edited;
  for (let round = 0; ; round++) {
    let outcome: SaveOutcome;
    let sending = false;
    try {
      outcome = await saveMerging(ctx, {
        id: doc.id,
        base,
        baseRevision: revision,
        text,
        labels: (latest) => ({
          mine: 'your edit',
          base: `revision ${revision} (opened)`,
          theirs: `revision ${latest} (saved meanwhile)`,
        }),
        inFlight: (now) => {
          sending = now;
        },
      });
    } catch (error) {
      if (sending && stoppedMidFlight(ctx, error)) throw await outcomeUnknown(doc, revision, text, error);
      if (error instanceof CliError) error.hint = await doc.keep(text, error.hint ?? 'nothing was saved');
      throw error;
    }
    if (outcome.outcome !== 'conflict') return outcome;
    const n = outcome.conflicts;
    const what = `doc ${doc.id} changed since revision ${revision} (now ${outcome.latest.revision}): ${n} hunk${n === 1 ? '' : 's'} conflict${n === 1 ? 's' : ''} with your edit`;
    if (round >= REOPEN_MAX || !ctx.io.canPrompt)
      throw await gaveUp(ctx, doc, what, outcome.text, outcome.latest.revision);
    await warn(ctx, `${what}; reopening the editor with both sides between <<<<<<< and >>>>>>> markers`);
    let resolved: string;
    try {
      resolved = await ctx.editor.edit(outcome.text, { extension: '.md' });
    } catch (error) {
      if (error instanceof CliError) error.hint = await doc.keep(outcome.text, error.hint ?? 'nothing was saved');
      throw error;
    }
    // Only the markers this merge wrote count: a document of the service's may hold marker-like lines of its own.
    if (markersLeft(resolved, outcome.markers) !== undefined)
      throw await gaveUp(ctx, doc, `${what}, and the markers are still in the text`, resolved, outcome.latest.revision);
    base = outcome.latest.body;
    revision = outcome.latest.revision;
    text = resolved;
  }
}

/**
 * The save was sent and no answer came: the service may have applied it or
 * not. Said as such (never "nothing was saved"), with how to find out and
 * where the text is kept; the error's exit code stands (130, or 129/143 for
 * SIGHUP/SIGTERM from the binary).
 */
async function outcomeUnknown(doc: EditedDoc, revision: number, text: string, error: unknown): Promise<CliError> {
  const cause = error instanceof CliError ? error : undefined;
  const check = `check with \`kagent doc show ${doc.id}\`: revision ${revision} is the one you edited, a later one holding your change means it was saved`;
  return new CliError(
    `${cause?.message ?? 'stopped'} while the save of doc ${doc.id} was on its way: whether the service applied it is unknown`,
    {
      exitCode: cause?.exitCode ?? ExitCode.INTERRUPTED,
      code: cause?.code ?? 'INTERRUPTED',
      hint: await doc.keep(text, check),
      cause: error,
    },
  );
}

/**
 * Conflicts left: the text with the markers is kept in a file, and the hint is the
 * command that sends that file once resolved, on the revision it was merged with
 * (`doc edit` again would open the latest revision, without your text).
 */
async function gaveUp(
  ctx: Pick<Context, 'flags'>,
  doc: EditedDoc,
  what: string,
  text: string,
  latest: number,
): Promise<CliError> {
  return new CliError(`${what}; nothing was saved`, {
    exitCode: ExitCode.CONFLICT,
    code: 'MERGE_CONFLICT',
    hint: await doc.keep(
      text,
      (path) =>
        `your text is kept in ${path}: resolve the markers there, then send it with \`${kagentCommand(ctx, 'doc update', doc.id, '--file', path, '--revision', String(latest))}\``,
    ),
  });
}
