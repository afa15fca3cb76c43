// `kagent doc`: documents in the service's Markdown dialect (no front matter).
//   list     listDocs (most recently updated first; --space, --limit, --all)
//   search   searchDocs (keywords and meaning; best first, no paging)
//   show     getDoc (Markdown rendered on a terminal, the raw body when piped or --raw)
//   create   createDoc (--title, --file PATH|-, --body TEXT, --space, --folder)
//   update   updateDoc (replaces title and/or body; carries the revision read as baseRevision)
//   edit     editDoc (exact-match edits from flags, an --ops file, or $EDITOR)
//   delete   deleteDoc (confirmed on a terminal, --yes elsewhere)
//   pull     getDoc into a file, with the revision pulled beside it (.kagent/docs/); --all mirrors a space
//   push     a pulled file's change as exact-match edits; a save made meanwhile is merged (three-way)
//   status   each pulled file: unchanged, changed locally, on the service, or both
// Every save increments a doc's revision; update and edit send the revision
// they are based on, so a change never overwrites a newer one unnoticed
// (REVISION_CONFLICT, exit 5, explained with the latest revision).
// --json prints the API's answers: DocSummary[], DocHit[], Doc, DocCreated,
// Revision; delete (204) prints {"id": ..., "deleted": true}.
import { defineGroup } from '../../src/kit/define.js';
import list from './list.js';
import search from './search.js';
import show from './show.js';
import create from './create.js';
import update from './update.js';
import edit from './edit.js';
import remove from './delete.js';
import pull from './pull.js';
import push from './push.js';
import status from './status.js';

export default defineGroup({
  description:
    'Documents are Markdown (without front matter). Each save increments the revision; `update` and `edit` send the revision they are based on, so they never overwrite a newer change unnoticed.',
  examples: [
    'kagent doc list',
    'kagent doc create --title "Meeting notes" --file notes.md',
    'kagent doc edit doc_8f2k3xq9mz --replace "draft" --with "final"',
    'kagent doc show doc_8f2k3xq9mz --raw > notes.md',
  ],
  commands: [list, search, show, create, update, edit, remove, pull, push, status],
});
