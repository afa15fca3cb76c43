// What several `kagent doc` verbs share.
// (Reading a document, a saved revision and a revision conflict: src/docsync/revision.ts.)
import type { Context } from '../../src/context.js';
import { UsageError } from '../../src/errors.js';
import { readBounded, inputBounds } from '../../src/io/input.js';

/** The body given by --file (path or -) or --body; undefined when neither. */
export async function bodyFrom(
  ctx: Context,
  opts: { file?: string; body?: string },
): Promise<{ text: string; flag: string } | undefined> {
  if (opts.file !== undefined && opts.body !== undefined) throw new UsageError('use --file or --body, not both');
  if (opts.body !== undefined) return { text: opts.body, flag: '--body' };
  if (opts.file === undefined) return undefined;
  return { text: await readBounded(ctx, opts.file, '--file', (await inputBounds()).docBody), flag: '--file' };
}
