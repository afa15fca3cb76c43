// `doc edit` in $EDITOR when someone saved the document meanwhile: the text
// edited, the revision it was opened at and the latest revision are merged;
// a clean merge is saved (and said), conflicts reopen the editor with the
// markers, and when the markers are left in (or the editor fails) the text is
// kept in a recovery file as the last resort.
import type { Context } from '../context.js';
import { CliError, ExitCode } from '../errors.js';
import { saveMerging, stoppedMidFlight, type SaveOutcome } from './sync.js';
import { markersLeft } from './text.js';
import { kagentCommand } from '../io/command-line.js';
import { warn } from '../io/output.js';

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
