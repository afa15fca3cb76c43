// A document's revisions as the `doc` commands meet them: reading the latest,
// saying a saved one, and what a REVISION_CONFLICT means (exit 5).
import type { Doc, Revision } from '../api/shapes.js';
import type { Context } from '../context.js';
import { ApiError, CliError, ExitCode } from '../errors.js';
import { kagentCommand } from '../io/command-line.js';
import { formatter } from '../io/format.js';
import { withNotFound } from '../io/not-found.js';
import { printDone } from '../io/outcome.js';

export async function readDoc(ctx: Context, id: string): Promise<Doc> {
  const api = await ctx.api();
  return withNotFound(ctx, 'doc', id, () => api.call('getDoc', { params: { id }, signal: ctx.signal }));
}

/** A saved Revision: "✓ Saved: doc X is now at revision N" on stderr; piped "id<TAB>revision"; --json the Revision. */
export async function printRevision(ctx: Context, revision: Revision, what: string): Promise<void> {
  await printDone(ctx, revision, {
    said: `${what}: doc ${revision.id} is now at revision ${revision.revision}`,
    piped: (r) => `${r.id}\t${r.revision}`,
  });
}

export function isConflict(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === 'REVISION_CONFLICT';
}

interface Latest {
  revision: number;
  title?: string;
  updatedAt?: string;
}

/** REVISION_CONFLICT in words: the revision given, the latest one, what to do (exit 5). */
export async function conflictError(
  ctx: Context,
  error: ApiError,
  id: string,
  based: number | undefined,
  retry: string,
): Promise<CliError> {
  let latest = latestOf(error);
  if (!latest) {
    try {
      latest = await readDoc(ctx, id);
    } catch {
      latest = undefined;
    }
  }
  const f = formatter(ctx, 'stderr');
  const now = latest
    ? `it is now at revision ${latest.revision}${latest.updatedAt ? ` (saved ${f.time(latest.updatedAt)})` : ''}`
    : 'it has a newer revision';
  const reread = kagentCommand(ctx, 'doc show', id, '--raw');
  // A --revision past the latest names a revision that never was: nothing changed since it.
  if (latest && based !== undefined && based > latest.revision)
    return new CliError(`doc ${id} has no revision ${based}: ${now}; nothing was saved`, {
      exitCode: ExitCode.CONFLICT,
      code: 'REVISION_CONFLICT',
      hint: `--revision names the revision your change is based on: ${latest.revision} is the latest (\`${reread}\`)`,
      cause: error,
    });
  const since = based !== undefined ? ` since revision ${based}` : '';
  return new CliError(`doc ${id} changed${since}: ${now}; nothing was saved`, {
    exitCode: ExitCode.CONFLICT,
    code: 'REVISION_CONFLICT',
    hint: `read it again (\`${reread}\`) and reapply your change; ${retry}`,
    cause: error,
  });
}

/** The current revision a REVISION_CONFLICT carries in `latest` (or undefined). */
function latestOf(error: ApiError): Latest | undefined {
  const latest = (error.body as { latest?: unknown } | undefined)?.latest;
  if (latest && typeof latest === 'object' && typeof (latest as Latest).revision === 'number') return latest as Latest;
  return undefined;
}
