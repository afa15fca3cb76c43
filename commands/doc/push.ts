import type { Context } from '../../src/context.js';
import { CliError, ExitCode } from '../../src/errors.js';
import { defineCommand } from '../../src/kit/define.js';
import { note, printList, warn } from '../../src/io/output.js';
import { printDone } from '../../src/io/outcome.js';
import { isDirectory } from '../../src/docsync/files.js';
import { pushEach, pushFile, pushFiles, type PushResult } from '../../src/docsync/push.js';

export default defineCommand({
  name: 'push',
  summary: 'Send the changes made to pulled files, merging with saves made meanwhile',
  description: [
    'Sends what changed in FILE since it was pulled (or last pushed) as the smallest exact-match edits, or as the whole body when that is smaller, based on the revision pulled. Nothing changed: nothing is sent (a final newline added or removed is no change; the body keeps its own).',
    'If someone saved the document since, the pulled text, your file and the latest revision are merged (three-way, like git): a clean merge is saved, written into FILE and said; ' +
      'changes to the same lines are a conflict: they are written into FILE between <<<<<<< ||||||| ======= >>>>>>> markers, nothing is sent and the command ends with exit 5, counting the conflicting hunks. ' +
      'Resolve them, then push again (a file that still holds the markers kagent wrote is refused, exit 2; lines of the document itself that look like markers are not).',
    'Several FILEs, or a directory (as pulled with `doc pull --all -o DIR`: it stands for every file pulled into it; none there is exit 2), are pushed in turn, one row each (status: pushed, unchanged, conflict, failed); unchanged files cost no request. ' +
      'A file that cannot be pushed is said and the others still go: the run ends with exit 1 naming the failed files, else with exit 5 when some conflicted (their markers are in the files).',
    'Stopped (Ctrl-C, SIGTERM, a closed terminal) while the save is on its way, it says that whether the document took it is unknown; pushing again is safe (a change already applied is not sent twice).',
    'Piped, prints "id<TAB>revision<TAB>file" (several: "status<TAB>id<TAB>revision<TAB>file"); --json {id, revision, updatedAt, file, status, mergedWith, edits} (status: pushed, unchanged), an array of them for several.',
  ].join('\n\n'),
  arguments: [{ name: 'files', description: 'files written by `kagent doc pull`, or directories', variadic: true }],
  examples: [
    'kagent doc push plan.md',
    'kagent doc pull doc_8f2k3xq9mz -o plan.md && $EDITOR plan.md && kagent doc push plan.md',
    'kagent doc pull --all -o mirror/ && $EDITOR mirror/*.md && kagent doc push mirror/',
  ],
  async run(ctx, _opts, args) {
    const [only, ...more] = args.files;
    if (only !== undefined && more.length === 0 && !(await isDirectory(only))) return pushOne(ctx, only);
    await pushSeveral(ctx, await pushFiles(args.files));
  },
});

/** The line of the piped output: "id<TAB>revision<TAB>file". */
const line = (r: { id: string; revision: number; file: string }) => `${r.id}\t${r.revision}\t${r.file}`;

async function pushOne(ctx: Context, file: string): Promise<void> {
  const result = await pushFile(ctx, file);
  if (result.error) throw result.error;
  const merged =
    result.mergedWith !== null
      ? ` (merged with revision ${result.mergedWith}, saved meanwhile; ${file} now holds the merge)`
      : '';
  if (result.status === 'unchanged')
    await note(ctx, `No changes: ${file} is doc ${result.id} at revision ${result.revision}; nothing was sent.`);
  const said =
    result.status === 'unchanged'
      ? undefined
      : `Pushed ${file}: doc ${result.id} is now at revision ${result.revision}${merged}`;
  await printDone(ctx, result, { said, piped: line });
}

const columns = [
  { header: 'Status', value: (r: PushResult) => r.status },
  { header: 'Id', value: (r: PushResult) => r.id },
  { header: 'Rev', value: (r: PushResult) => r.revision, kind: 'number' as const },
  { header: 'File', value: (r: PushResult) => r.file, flex: true },
];

/** One row per file; failures and conflicts are said, and the exit code tells the worst (1, then 5). */
async function pushSeveral(ctx: Context, files: string[]): Promise<void> {
  const results = await pushEach(ctx, files);
  await printList(ctx, results, { columns, empty: 'No files to push.' });
  const failed = results.filter((r) => r.status === 'failed');
  const conflicts = results.filter((r) => r.status === 'conflict');
  for (const r of [...failed, ...conflicts]) {
    const reason = r.reason ?? r.status;
    await warn(ctx, reason.includes(r.file) ? reason : `${r.file}: ${reason}`);
  }
  const of = `of ${results.length} file${results.length === 1 ? '' : 's'}`;
  const alsoConflicts = conflicts.length > 0 ? `; ${conflicts.length} conflicted (markers written into them)` : '';
  if (failed.length > 0)
    throw new CliError(
      `${failed.length} ${of} could not be pushed (${failed.map((r) => r.file).join(', ')})${alsoConflicts}`,
      {
        exitCode: ExitCode.ERROR,
        code: 'PUSH_FAILED',
        hint: 'the reasons are above; the other files were pushed and nothing of the failed ones was lost — push them again once mended',
      },
    );
  if (conflicts.length > 0)
    throw new CliError(`${conflicts.length} ${of} conflicted with saves made meanwhile; nothing of them was sent`, {
      exitCode: ExitCode.CONFLICT,
      code: 'MERGE_CONFLICT',
      hint: 'both sides are written into each between <<<<<<< and >>>>>>> markers: keep what you want, remove the markers, then push again',
    });
}
