// `doc push`: a pulled file's changes sent against the revision it was pulled at
// (sync.ts merges with saves made meanwhile), and the file and its sidecar moved
// to what was saved. One file, or several (a directory pulled with `--all`
// stands for its pulled files): each pushed in turn, a failure said in its row.
import type { Context } from '../context.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { kagentCommand } from '../io/command-line.js';
import { asFileText, sameText } from './final-newline.js';
import { withNotFound } from '../io/not-found.js';
import { conflictMarkersLeft, isDirectory, readLocal } from './files.js';
import { pulledFiles, readSidecar, writeSidecar, writeText, type Sidecar } from './sidecar.js';
import { saveMerging, stoppedMidFlight, type SaveOutcome } from './sync.js';

export interface PushResult {
  id: string;
  revision: number;
  updatedAt?: string;
  file: string;
  status: 'pushed' | 'unchanged' | 'conflict' | 'failed';
  mergedWith: number | null;
  edits: number;
  /** For a conflict or a failure: why, as one file's push would say it. */
  reason?: string;
  /** The error a single push ends with (a conflict, exit 5). */
  error?: CliError;
}

type Outcome<K extends SaveOutcome['outcome']> = Extract<SaveOutcome, { outcome: K }>;

/** Pushes one pulled file: pushed or unchanged; a conflict is written into FILE and returned with its error. */
export async function pushFile(ctx: Context, file: string): Promise<PushResult> {
  const { sidecar, text } = await readPulled(ctx, file);
  const outcome = await sendChanges(ctx, file, sidecar, text);
  if (outcome.outcome === 'unchanged')
    return { id: sidecar.id, revision: sidecar.revision, file, status: 'unchanged', mergedWith: null, edits: 0 };
  if (outcome.outcome === 'conflict') return keepConflict(ctx, file, sidecar, outcome);
  return keepPushed(file, sidecar, text, outcome);
}

/** The files a push of several looks at: each FILE, and every pulled file of each directory given (none: exit 2). */
export async function pushFiles(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    if (!(await isDirectory(path))) {
      files.push(path);
      continue;
    }
    const pulled = await pulledFiles(path);
    if (pulled.length === 0)
      throw new UsageError(
        `${path} holds no pulled files: nothing was sent`,
        'pull into it first: `kagent doc pull --all -o DIR`, or `kagent doc pull ID -o DIR/`',
      );
    files.push(...pulled);
  }
  return [...new Set(files)];
}

/**
 * Pushes each file in turn; a file that fails (not pulled, markers left, its document deleted…) is a
 * failed row and the others still go. Stopped (Ctrl-C, a deadline) or refused as a whole (auth,
 * quota, the service away): that stops the run, as for one file.
 */
export async function pushEach(ctx: Context, files: readonly string[]): Promise<PushResult[]> {
  const results: PushResult[] = [];
  for (const file of files) {
    try {
      const result = await pushFile(ctx, file);
      results.push(result.error ? { ...result, reason: result.error.message } : result);
    } catch (error) {
      if (!(error instanceof CliError) || stopsTheRun(ctx, error)) throw error;
      const sidecar = await readSidecar(file).catch(() => undefined);
      results.push({
        id: sidecar?.id ?? '',
        revision: sidecar?.revision ?? 0,
        file,
        status: 'failed',
        mergedWith: null,
        edits: 0,
        reason: error.message,
      });
    }
  }
  return results.map(({ error: _error, ...row }) => row);
}

const RUN_WIDE: readonly number[] = [ExitCode.AUTH, ExitCode.QUOTA, ExitCode.UNAVAILABLE, ExitCode.INTERRUPTED];

function stopsTheRun(ctx: Context, error: CliError): boolean {
  return stoppedMidFlight(ctx, error) || RUN_WIDE.includes(error.exitCode);
}

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

/** Writes the conflicting merge into FILE (the sidecar now based on the latest revision); the error ends with exit 5. */
async function keepConflict(
  ctx: Context,
  file: string,
  sidecar: Sidecar,
  outcome: Outcome<'conflict'>,
): Promise<PushResult> {
  await writeText(file, asFileText(outcome.text));
  await writeSidecar(file, {
    id: sidecar.id,
    revision: outcome.latest.revision,
    title: outcome.latest.title || sidecar.title,
    base: outcome.latest.body,
    markers: outcome.markers,
  });
  const n = outcome.conflicts;
  const error = new CliError(
    `doc ${sidecar.id} changed since revision ${sidecar.revision} (now ${outcome.latest.revision}) and ${n} hunk${n === 1 ? '' : 's'} conflict${n === 1 ? 's' : ''} with your changes; nothing was sent`,
    {
      exitCode: ExitCode.CONFLICT,
      code: 'MERGE_CONFLICT',
      hint: `both sides are written into ${file} between <<<<<<< and >>>>>>> markers: keep what you want, remove the markers, then \`${kagentCommand(ctx, 'doc push', file)}\` again`,
    },
  );
  return {
    id: sidecar.id,
    revision: outcome.latest.revision,
    file,
    status: 'conflict',
    mergedWith: null,
    edits: 0,
    error,
  };
}

/** Writes a merge back into FILE and moves the sidecar to the saved revision. */
async function keepPushed(
  file: string,
  sidecar: Sidecar,
  text: string,
  outcome: Outcome<'saved'>,
): Promise<PushResult> {
  // A merge goes into FILE; the final newline alone (the file has one, the service's text not) is no change.
  if (!sameText(text, outcome.text)) await writeText(file, asFileText(outcome.text));
  await writeSidecar(file, {
    id: sidecar.id,
    revision: outcome.saved.revision,
    title: sidecar.title,
    base: outcome.text,
  });
  return {
    ...outcome.saved,
    file,
    status: 'pushed',
    mergedWith: outcome.mergedWith ?? null,
    edits: outcome.edits,
  };
}
