// Saving a local text against the revision it was based on, and what happens
// when someone else saved in between: the three-way merge of the base, the
// local text and the latest revision. A clean merge is saved (on the latest
// revision); conflicts come back as a text with markers and nothing is sent.
// Used by `doc push` and by `doc edit` in $EDITOR.
import type { Doc, Revision } from '../api/shapes.js';
import type { Context } from '../context.js';
import { ApiError, CliError, throwIfAborted } from '../errors.js';
import { commandLine } from '../io/command-line.js';
import { isRevision, writableDoc } from './sidecar.js';
import { withEndingOf } from './final-newline.js';
import { merge3, planPush, writtenMarkers, type MarkerLines, type MergeLabels } from './text.js';
import { EditOp } from '../api/shapes.js';

/** A merged save that meets yet another save is merged again, at most this many times. */
const MERGE_ROUNDS = 3;

export interface Latest {
  revision: number;
  body: string;
  title: string;
}

export type SaveOutcome =
  | { outcome: 'unchanged' }
  | {
      outcome: 'saved';
      saved: Revision;
      /** What the service now holds (the local text, or the merge). */
      text: string;
      how: 'edits' | 'rewrite';
      edits: number;
      /** Set when someone else's revision was merged in. */
      mergedWith?: number;
    }
  | {
      outcome: 'conflict';
      text: string;
      conflicts: number;
      latest: Latest;
      /** The marker lines this merge wrote (only those are refused later; see text.ts). */
      markers: MarkerLines;
    };

export interface SaveRequest {
  id: string;
  base: string;
  baseRevision: number;
  text: string;
  /** How the markers name each side; `theirs` is given the latest revision. */
  labels: (latestRevision: number) => MergeLabels;
  /**
   * Told true when a save request (editDoc or updateDoc) goes out, false once
   * the service answered it: a failure meanwhile (Ctrl-C, SIGHUP, a deadline)
   * leaves the save's outcome unknown.
   */
  inFlight?: (sending: boolean) => void;
}

/** Stopped (Ctrl-C, SIGTERM, SIGHUP, a deadline) rather than answered: a save on its way may have been applied. */
export function stoppedMidFlight(ctx: Pick<Context, 'signal'>, error: unknown): boolean {
  if (ctx.signal.aborted) return true;
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'INTERRUPTED' || code === 'TIMEOUT' || code === 'STILL_RUNNING';
}

export function isRevisionConflict(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === 'REVISION_CONFLICT';
}

/** The latest revision with its text: from the conflict's `latest` when it carries the body, else read again. */
async function latestAfter(ctx: Context, id: string, error: ApiError): Promise<Latest> {
  const latest = (error.body as { latest?: Partial<Latest> } | undefined)?.latest;
  if (latest && isRevision(latest.revision) && typeof latest.body === 'string') {
    return {
      revision: latest.revision,
      body: latest.body,
      title: typeof latest.title === 'string' ? latest.title : '',
    };
  }
  const doc = await readLatest(ctx, id);
  return { revision: doc.revision, body: doc.body, title: doc.title };
}

export async function readLatest(ctx: Context, id: string): Promise<Doc> {
  const api = await ctx.api();
  return writableDoc(await api.call('getDoc', { params: { id }, signal: ctx.signal }), id);
}

/** One save of `text` over `base` at `baseRevision`: the smallest exact-match edits, or the whole body (updateDoc with baseRevision). */
export async function sendChange(
  ctx: Context,
  id: string,
  base: string,
  baseRevision: number,
  text: string,
  inFlight: (sending: boolean) => void = () => {},
): Promise<{ saved: Revision; how: 'edits' | 'rewrite'; edits: number } | undefined> {
  const plan = planPush(base, text, EditOp);
  if (plan.kind === 'none') return undefined;
  const api = await ctx.api();
  // Stopped before anything left (Ctrl-C or SIGTERM while the editor was open): nothing is on its way.
  throwIfAborted(ctx.signal);
  inFlight(true);
  try {
    if (plan.kind === 'edits') {
      const saved = await api.call('editDoc', {
        params: { id },
        body: { edits: plan.edits, revision: baseRevision },
        signal: ctx.signal,
      });
      inFlight(false);
      return { saved: savedRevision(saved, id), how: 'edits', edits: plan.edits.length };
    }
    const saved = await api.call('updateDoc', {
      params: { id },
      body: { body: text, baseRevision },
      signal: ctx.signal,
    });
    inFlight(false);
    return { saved: savedRevision(saved, id), how: 'rewrite', edits: 0 };
  } catch (error) {
    // The service answered (a refusal): nothing of this request was applied.
    if (error instanceof ApiError) inFlight(false);
    throw error;
  }
}

/**
 * The answer to a save, which the sidecar moves to: without its new revision the save
 * took effect but cannot be remembered (a later push would send a revision that is not).
 */
function savedRevision(saved: Revision, id: string): Revision {
  if (isRevision((saved as Partial<Revision> | null)?.revision))
    return { ...saved, id: typeof saved.id === 'string' && saved.id !== '' ? saved.id : id };
  throw new CliError(
    `doc ${id} was saved, but the service's answer does not say its new revision: the file and what kagent remembers of it are left as they were`,
    {
      code: 'UNEXPECTED_ANSWER',
      hint: `\`${commandLine('doc pull', id, '-o', 'FILE', '--force')}\` brings the saved text and its revision`,
    },
  );
}

/**
 * Saves `text` (based on `base` at `baseRevision`). On REVISION_CONFLICT:
 * merges with the latest revision; a clean merge is saved on that revision
 * (again, if yet another save came in between), conflicts are returned.
 */
export async function saveMerging(ctx: Context, request: SaveRequest): Promise<SaveOutcome> {
  let { base, baseRevision } = request;
  // A final newline added (or dropped) by an editor or a pull is no change.
  let text = withEndingOf(request.text, base);
  let mergedWith: number | undefined;
  for (let round = 0; ; round++) {
    try {
      const sent = await sendChange(ctx, request.id, base, baseRevision, text, request.inFlight);
      if (!sent)
        return mergedWith === undefined
          ? { outcome: 'unchanged' }
          : { outcome: 'saved', saved: await revisionOf(ctx, request.id), text, how: 'edits', edits: 0, mergedWith };
      return {
        outcome: 'saved',
        saved: sent.saved,
        text,
        how: sent.how,
        edits: sent.edits,
        ...(mergedWith !== undefined ? { mergedWith } : {}),
      };
    } catch (error) {
      if (!isRevisionConflict(error) || round >= MERGE_ROUNDS) throw error;
      const latest = await latestAfter(ctx, request.id, error);
      const labels = request.labels(latest.revision);
      const merged = merge3(base, text, latest.body, labels);
      if (merged.conflicts > 0)
        return {
          outcome: 'conflict',
          text: merged.text,
          conflicts: merged.conflicts,
          latest,
          markers: writtenMarkers(merged, labels),
        };
      base = latest.body;
      baseRevision = latest.revision;
      text = merged.text;
      mergedWith = latest.revision;
    }
  }
}

/** When the merge equals the latest revision (their change contained yours), nothing is sent: the revision is the latest one. */
async function revisionOf(ctx: Context, id: string): Promise<Revision> {
  const doc = await readLatest(ctx, id);
  return { id: doc.id, revision: doc.revision, updatedAt: doc.updatedAt };
}
