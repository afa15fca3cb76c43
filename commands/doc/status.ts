import { defineCommand } from '../../src/kit/define.js';
import { damagedError, statesOf, statusFiles, STATE_WORDS, type FileState } from '../../src/docsync/files.js';
import { printList } from '../../src/io/output.js';

export default defineCommand({
  name: 'status',
  summary: 'Say for each pulled file whether it changed here, on the service, or both',
  description:
    'For each FILE (default: every file pulled into the current directory; a directory stands for the files pulled into it): ' +
    'unchanged, unmerged (conflict markers of a merge left in the file: choose, then push), changed locally (push it), changed on the service (pull it), both (push merges them), file missing, deleted on the service, not pulled, or damaged (what kagent kept of the pull cannot be read: the others are still shown, and the run ends with exit 2). ' +
    'A FILE that does not exist and was never pulled is refused (exit 2) before anything is asked. ' +
    'Reads the revisions from the document list (one request per 500 documents; one file alone is read by itself). Piped, prints "state<TAB>file<TAB>id<TAB>revision pulled<TAB>latest revision" ' +
    '(state: unchanged, conflict, changed-locally, changed-on-service, both, missing-locally, deleted-on-service, not-pulled, damaged); --json an array of {file, state, id, revision, latest}, with error {code, message, hint} when damaged.',
  arguments: [{ name: 'files', description: 'pulled files or directories', optional: true, variadic: true }],
  examples: [
    'kagent doc status',
    'kagent doc status notes/plan.md',
    'kagent doc status research/ --json | jq -r \'.[] | select(.state != "unchanged") | .file\'',
  ],
  async run(ctx, _opts, args) {
    const files = await statusFiles(args.files && args.files.length > 0 ? args.files : ['.']);
    const states = await statesOf(ctx, files);
    await printList(ctx, states, {
      columns: [
        { header: 'State', value: (s: FileState) => s.state, display: (s: FileState) => STATE_WORDS[s.state] },
        { header: 'File', value: (s: FileState) => s.file, flex: true },
        { header: 'Id', value: (s: FileState) => s.id },
        { header: 'Rev', value: (s: FileState) => s.revision, kind: 'number' as const },
        { header: 'Latest', value: (s: FileState) => s.latest, kind: 'number' as const },
      ],
      empty: 'No pulled files here: `kagent doc pull ID` writes one.',
    });
    const damaged = damagedError(states);
    if (damaged) throw damaged;
  },
});
