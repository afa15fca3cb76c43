import type { Context } from '../../src/context.js';
import type { Doc, DocSummary } from '../../src/api/shapes.js';
import { CliError, ExitCode, UsageError } from '../../src/errors.js';
import { pullAll, type Pulled } from '../../src/docsync/pull-all.js';
import { defineCommand } from '../../src/kit/define.js';
import { withNotFound } from '../../src/io/not-found.js';
import { spaceOption } from '../../src/kit/options.js';

import { printList, warn } from '../../src/io/output.js';
import { printDone } from '../../src/io/outcome.js';
import { writableDoc } from '../../src/docsync/sidecar.js';
import { checkPullTarget, writePulled, pullTarget } from '../../src/docsync/files.js';
import { listItems } from '../../src/kit/listing.js';

const columns = [
  { header: 'Status', value: (p: Pulled) => p.status },
  { header: 'Id', value: (p: Pulled) => p.id },
  { header: 'Rev', value: (p: Pulled) => p.revision, kind: 'number' as const },
  { header: 'File', value: (p: Pulled) => p.file, flex: true },
];

/** Every document (of a space) into one directory; a file with changes not pushed is kept (exit 5 at the end). */
async function pullEvery(ctx: Context, opts: { space?: string; output?: string; force?: boolean }): Promise<void> {
  const summaries: DocSummary[] = [];
  for await (const summary of await listItems(ctx, 'listDocs', { space: opts.space }, { all: true }))
    summaries.push(summary);
  const results = await pullAll(ctx, summaries, opts.output ?? '.', opts.force === true);
  await printList(ctx, results, { columns, empty: `No documents${opts.space ? ` in ${opts.space}` : ''} to pull.` });
  const kept = results.filter((r) => r.status === 'kept');
  const failed = results.filter((r) => r.status === 'failed');
  for (const k of [...failed, ...kept]) await warn(ctx, k.reason ?? `${k.file} ${k.status}`);
  const of = `of ${results.length} file${results.length === 1 ? '' : 's'}`;
  if (failed.length > 0) {
    const alsoKept = kept.length > 0 ? `; ${kept.length} kept (changes not pushed yet)` : '';
    throw new CliError(`${failed.length} ${of} could not be written${alsoKept}`, {
      exitCode: ExitCode.ERROR,
      code: 'WRITE_FAILED',
      hint: 'the reasons are above; the other documents were pulled — run the same command again once those are mended',
    });
  }
  if (kept.length > 0) {
    throw new CliError(`${kept.length} ${of} kept: they have changes not pushed yet`, {
      exitCode: ExitCode.CONFLICT,
      code: 'LOCAL_CHANGES',
      hint: 'push them (`kagent doc push FILE`), or pull again with --force to overwrite them',
    });
  }
}

export default defineCommand({
  name: 'pull',
  summary: "Write a document's Markdown to a file, remembering its revision for push",
  description:
    "Writes the body to FILE (-o; default: `<slug-of-title>.md` in the current directory, or in -o DIR when DIR is a directory or ends with /; a name made from the service's title or id is always one file name inside that directory, cut to the file system's limit) and remembers, beside it, " +
    'the id, the revision and its text in `.kagent/docs/<file name>.json` (add `.kagent/` to .gitignore). `kagent doc push FILE` later sends your change against that revision. ' +
    'The file ends with a newline, as editors expect, even when the body has none; a change that is only the final newline is no change (for push and status too). ' +
    'A file that exists is overwritten only when it was pulled from the same document and not changed since (else exit 2, or exit 5 for changes not pushed); --force overwrites. ' +
    "--all (with --space S to keep to one space) mirrors every document into -o DIR, one file per document: the list's revisions say which files are already up to date (status unchanged, nothing read), the others are read a few at a time; files with changes not pushed are kept and the run ends with exit 5; a file that cannot be written is said, the others are still pulled, and the run ends with exit 1. " +
    'Piped, prints "status<TAB>id<TAB>revision<TAB>file" (status: pulled, unchanged, kept, failed); --json an array of {id, title, revision, file, status}.',
  arguments: [{ name: 'id', description: 'the document (leave out with --all)', optional: true, complete: 'doc' }],
  options: [
    {
      flags: '-o, --output <path>',
      description: 'the file to write, or a directory (default: <slug-of-title>.md here)',
    },
    spaceOption('with --all: only the documents of this space (id or name)'),
    { flags: '--all', description: 'every document (of --space), one file each, into -o DIR' },
    { flags: '--force', description: 'overwrite a file even if it has changes not pushed' },
  ],
  examples: [
    'kagent doc pull doc_8f2k3xq9mz',
    'kagent doc pull doc_8f2k3xq9mz -o notes/plan.md',
    'kagent doc pull --space Research --all -o research/',
    'kagent doc pull doc_8f2k3xq9mz -o plan.md --force',
  ],
  async run(ctx, opts, args) {
    if (opts.output?.trim() === '') throw new UsageError('-o needs a file or a directory (got an empty name)');
    if (opts.all) {
      if (args.id !== undefined) throw new UsageError('give an ID or --all, not both');
      return pullEvery(ctx, opts);
    }
    if (args.id === undefined)
      throw new UsageError('which document? give its ID, or --all for every one', 'ids are shown by `kagent doc list`');
    if (opts.space !== undefined) throw new UsageError('--space goes with --all (a document is named by its ID)');
    const id = args.id;
    const api = await ctx.api();
    const doc: Doc = writableDoc(
      await withNotFound(ctx, 'doc', id, () => api.call('getDoc', { params: { id }, signal: ctx.signal })),
      id,
    );
    const file = await pullTarget(doc, opts.output, '.');
    await checkPullTarget(file, doc.id, opts.force === true);
    await writePulled(file, doc);
    const result: Pulled = { id: doc.id, title: doc.title, revision: doc.revision, file, status: 'pulled' };
    await printDone(ctx, result, {
      said: `Pulled doc ${doc.id} (revision ${doc.revision}) into ${file}`,
      piped: (r) => `${r.status}\t${r.id}\t${r.revision}\t${r.file}`,
    });
  },
});
