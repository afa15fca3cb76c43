import type { Context } from '../../src/context.js';
import type { Sidecar } from '../../src/docsync/sidecar.js';
import type { SaveOutcome } from '../../src/docsync/sync.js';
import { CliError, ExitCode, UsageError } from '../../src/errors.js';
import { defineCommand } from '../../src/kit/define.js';
import { withNotFound } from '../../src/views/not-found.js';
import { kagentCommand } from '../../src/io/command-line.js';
import { note, printItem, success } from '../../src/io/output.js';
import { readSidecar, writeSidecar, writeText } from '../../src/docsync/sidecar.js';
import { conflictMarkersLeft, readLocal } from '../../src/docsync/files.js';
import { saveMerging, stoppedMidFlight } from '../../src/docsync/sync.js';
import { asFileText, sameText } from '../../src/io/final-newline.js';

export default defineCommand({
  name: 'push',
  summary: 'Send the changes made to a pulled file, merging with saves made meanwhile',
  description: [
    'Sends what changed in FILE since it was pulled (or last pushed) as the smallest exact-match edits, or as the whole body when that is smaller, based on the revision pulled. Nothing changed: nothing is sent (a final newline added or removed is no change; the body keeps its own).',
    'If someone saved the document since, the pulled text, your file and the latest revision are merged (three-way, like git): a clean merge is saved, written into FILE and said; ' +
      'changes to the same lines are a conflict: they are written into FILE between <<<<<<< ||||||| ======= >>>>>>> markers, nothing is sent and the command ends with exit 5, counting the conflicting hunks. ' +
      'Resolve them, then push again (a file that still holds the markers kagent wrote is refused, exit 2; lines of the document itself that look like markers are not).',
    'Stopped (Ctrl-C, SIGTERM, a closed terminal) while the save is on its way, it says that whether the document took it is unknown; pushing again is safe (a change already applied is not sent twice).',
    'Piped, prints "id<TAB>revision<TAB>file"; --json {id, revision, updatedAt, file, status, mergedWith, edits} (status: pushed, unchanged).',
  ].join('\n\n'),
  arguments: [{ name: 'file', description: 'a file written by `kagent doc pull`' }],
  examples: [
    'kagent doc push plan.md',
    'kagent doc pull doc_8f2k3xq9mz -o plan.md && $EDITOR plan.md && kagent doc push plan.md',
  ],
  async run(ctx, _opts, args) {
    const file = args.file;
    const { sidecar, text } = await readPulled(ctx, file);
    const outcome = await sendChanges(ctx, file, sidecar, text);
    if (outcome.outcome === 'unchanged') return reportUnchanged(ctx, file, sidecar);
    if (outcome.outcome === 'conflict') return keepConflict(ctx, file, sidecar, outcome);
    await reportPushed(ctx, file, sidecar, text, outcome);
  },
});

type Outcome<K extends SaveOutcome['outcome']> = Extract<SaveOutcome, { outcome: K }>;

/** The line of the piped output: "id<TAB>revision<TAB>file". */
const line = (r: { id: string; revision: number; file: string }) => `${r.id}\t${r.revision}\t${r.file}`;

/** FILE and its sidecar, refused when it was not pulled, is gone, or still holds the markers of kagent's merge. */
async function readPulled(ctx: Context, file: string): Promise<{ sidecar: Sidecar; text: string }> {
  const sidecar = await readSidecar(file);
  if (!sidecar)
    throw new UsageError(
      `${file} was not pulled: kagent does not know which document it is`,
      'pull it first: `kagent doc pull ID -o FILE`, then edit and push',
    );
  const text = await readLocal(file);
  if (text === undefined)
    throw new UsageError(
      `${file}: no such file (it was pulled from doc ${sidecar.id})`,
      `pull it again: \`${kagentCommand(ctx, 'doc pull', sidecar.id, '-o', file, '--force')}\``,
    );
  const left = conflictMarkersLeft(text, sidecar);
  if (left !== undefined)
    throw new UsageError(
      `${file} still holds conflict markers written by kagent's merge (${left} …); nothing was sent`,
      'keep the lines you want, remove the markers, then push again',
    );
  return { sidecar, text };
}

/** Saves the changes, merging with what was saved meanwhile; stopped mid-flight, says the outcome is unknown. */
async function sendChanges(ctx: Context, file: string, sidecar: Sidecar, text: string): Promise<SaveOutcome> {
  let sending = false;
  return withNotFound(ctx, 'doc', sidecar.id, () =>
    saveMerging(ctx, {
      id: sidecar.id,
      base: sidecar.base,
      baseRevision: sidecar.revision,
      text,
      labels: (latest) => ({
        mine: file,
        base: `revision ${sidecar.revision} (pulled)`,
        theirs: `doc ${sidecar.id} revision ${latest}`,
      }),
      inFlight: (now) => {
        sending = now;
      },
    }),
  ).catch((error: unknown) => {
    // Stopped with the save on its way: the service may have applied it. FILE and its sidecar are as they were.
    if (!sending || !stoppedMidFlight(ctx, error)) throw error;
    const cause = error instanceof CliError ? error : undefined;
    throw new CliError(
      `${cause?.message ?? 'stopped'} while the push of ${file} was on its way: whether doc ${sidecar.id} took it is unknown`,
      {
        exitCode: cause?.exitCode ?? ExitCode.INTERRUPTED,
        code: cause?.code ?? 'INTERRUPTED',
        hint: `check with \`kagent doc show ${sidecar.id}\` (a revision after ${sidecar.revision} holding your change means it was saved), or push again: a change already applied is found there and not sent twice`,
        cause: error,
      },
    );
  });
}

async function reportUnchanged(ctx: Context, file: string, sidecar: Sidecar): Promise<void> {
  await note(ctx, `No changes: ${file} is doc ${sidecar.id} at revision ${sidecar.revision}; nothing was sent.`);
  await printItem(
    ctx,
    { id: sidecar.id, revision: sidecar.revision, file, status: 'unchanged', mergedWith: null, edits: 0 },
    (r, f) => (f.tty ? '' : line(r)),
  );
}

/** Writes the conflicting merge into FILE (the sidecar now based on the latest revision) and ends with exit 5. */
async function keepConflict(
  ctx: Context,
  file: string,
  sidecar: Sidecar,
  outcome: Outcome<'conflict'>,
): Promise<never> {
  await writeText(file, asFileText(outcome.text));
  await writeSidecar(file, {
    id: sidecar.id,
    revision: outcome.latest.revision,
    title: outcome.latest.title || sidecar.title,
    base: outcome.latest.body,
    markers: outcome.markers,
  });
  const n = outcome.conflicts;
  throw new CliError(
    `doc ${sidecar.id} changed since revision ${sidecar.revision} (now ${outcome.latest.revision}) and ${n} hunk${n === 1 ? '' : 's'} conflict${n === 1 ? 's' : ''} with your changes; nothing was sent`,
    {
      exitCode: ExitCode.CONFLICT,
      code: 'MERGE_CONFLICT',
      hint: `both sides are written into ${file} between <<<<<<< and >>>>>>> markers: keep what you want, remove the markers, then \`${kagentCommand(ctx, 'doc push', file)}\` again`,
    },
  );
}

/** Writes a merge back into FILE, moves the sidecar to the saved revision and says so. */
async function reportPushed(
  ctx: Context,
  file: string,
  sidecar: Sidecar,
  text: string,
  outcome: Outcome<'saved'>,
): Promise<void> {
  // A merge goes into FILE; the final newline alone (the file has one, the service's text not) is no change.
  if (!sameText(text, outcome.text)) await writeText(file, asFileText(outcome.text));
  await writeSidecar(file, {
    id: sidecar.id,
    revision: outcome.saved.revision,
    title: sidecar.title,
    base: outcome.text,
  });
  const merged =
    outcome.mergedWith !== undefined
      ? ` (merged with revision ${outcome.mergedWith}, saved meanwhile; ${file} now holds the merge)`
      : '';
  await success(ctx, `Pushed ${file}: doc ${sidecar.id} is now at revision ${outcome.saved.revision}${merged}`);
  const result = {
    ...outcome.saved,
    file,
    status: 'pushed',
    mergedWith: outcome.mergedWith ?? null,
    edits: outcome.edits,
  };
  await printItem(ctx, result, (r, f) => (f.tty ? '' : line(r)));
}
