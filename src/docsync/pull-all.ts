// `doc pull --all`: every document (of a space) into one directory, one file per
// document. The list's revisions say which files are already up to date (pulled
// at that revision, not changed since): those cost no request. The others are
// read a few at a time, each request paced by the shared budget.
import type { Context } from '../context.js';
import type { Doc, DocSummary } from '../api/shapes.js';
import { ApiError, CliError, ExitCode } from '../errors.js';
import { fileInside } from '../io/file-name.js';
import { sameText } from './final-newline.js';
import { warn } from '../io/output.js';
import { checkPullTarget, docFileName, readLocal, writePulled } from './files.js';
import { isRevision, readSidecar, writableDoc } from './sidecar.js';

/** Documents read at once: enough to hide a round trip, few enough to leave the budget to others. */
export const PULL_CONCURRENCY = 4;

export interface Pulled {
  id: string;
  title: string;
  revision: number;
  file: string;
  status: 'pulled' | 'unchanged' | 'kept' | 'failed';
  reason?: string;
}

/** Pulls each listed document into `dir` (a file with changes not pushed is kept); rows in the list's order. */
export async function pullAll(
  ctx: Context,
  summaries: readonly DocSummary[],
  dir: string,
  force: boolean,
): Promise<Pulled[]> {
  const files = await fileNames(summaries, dir);
  const withoutRevision = summaries.filter((s) => !isRevision(s.revision)).length;
  if (withoutRevision > 0)
    await warn(
      ctx,
      `the document list gave no revision for ${withoutRevision} of the documents: reading ${withoutRevision === 1 ? 'it' : 'each of them'} to know`,
    );
  const results: Pulled[] = new Array<Pulled>(summaries.length);
  let next = 0;
  let fatal: unknown;
  const worker = async (): Promise<void> => {
    // A fatal error stops new work; documents already on their way finish.
    while (fatal === undefined && next < summaries.length) {
      const index = next++;
      try {
        results[index] = await pullOne(ctx, summaries[index]!, files[index]!, force);
      } catch (error) {
        fatal ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PULL_CONCURRENCY, summaries.length) }, worker));
  if (fatal !== undefined) throw fatal;
  return results;
}

/**
 * Each document's file, in the list's order: `<slug>.md`, or `<slug>-<id>.md` when
 * that name is taken by an earlier document or by a file pulled from another one.
 * Names from the service's data: one safe segment each, inside DIR (src/io/file-name.ts).
 */
async function fileNames(summaries: readonly DocSummary[], dir: string): Promise<Target[]> {
  const taken = new Set<string>();
  const files: Target[] = [];
  for (const summary of summaries) {
    let file: string;
    try {
      file = fileInside(dir, docFileName(summary));
    } catch (error) {
      files.push({ file: dir, error });
      continue;
    }
    let owner;
    try {
      owner = await readSidecar(file);
    } catch (error) {
      files.push({ file, error });
      continue;
    }
    if (taken.has(file) || (owner && owner.id !== summary.id)) {
      file = fileInside(dir, docFileName(summary, true));
      for (let n = 2; taken.has(file); n++) file = fileInside(dir, docFileName(summary, n));
    }
    taken.add(file);
    files.push({ file });
  }
  return files;
}

/** Where a document goes, or why its place could not be told (said in its row, or fatal: see pullOne). */
interface Target {
  file: string;
  error?: unknown;
}

async function pullOne(ctx: Context, summary: DocSummary, target: Target, force: boolean): Promise<Pulled> {
  let row = { id: summary.id, title: summary.title, revision: summary.revision };
  const { file } = target;
  // One document's file that cannot be written (or whose state cannot be read), or an id that can name
  // nothing ("..": refused before any request), does not stop the others.
  try {
    if (target.error !== undefined) throw target.error;
    if (!force && (await upToDate(summary, file))) return { ...row, file, status: 'unchanged' };
    // A file that may not be overwritten is kept without reading its document.
    await checkPullTarget(file, summary.id, force);
    const api = await ctx.api();
    const doc: Doc = writableDoc(
      await api.call('getDoc', { params: { id: summary.id }, signal: ctx.signal }),
      summary.id,
    );
    row = { id: doc.id, title: doc.title, revision: doc.revision };
    await checkPullTarget(file, doc.id, force);
    await writePulled(file, doc);
  } catch (error) {
    // A state directory that is a link (or not a directory) is the whole directory's problem: stop there.
    if (!(error instanceof CliError) || error instanceof ApiError || error.code === 'UNSAFE_PATH') throw error;
    const kept = error.exitCode === ExitCode.CONFLICT;
    return { ...row, file, status: kept ? 'kept' : 'failed', reason: error.message };
  }
  return { ...row, file, status: 'pulled' };
}

/** Pulled from this document at the revision the list gives, and not changed since: nothing to read or write. */
async function upToDate(summary: DocSummary, file: string): Promise<boolean> {
  if (!isRevision(summary.revision)) return false;
  const sidecar = await readSidecar(file);
  if (!sidecar || sidecar.id !== summary.id || sidecar.revision !== summary.revision) return false;
  const text = await readLocal(file);
  return text !== undefined && sameText(text, sidecar.base);
}
