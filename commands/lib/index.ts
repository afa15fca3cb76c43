// `kagent lib`: the library — saved links, saved brief entries, uploaded files, saved media.
//   list     listLibrary (newest first; --space, --kind, --limit, --all)
//   search   listLibrary with q (best matches, no paging)
//   show     getLibraryItem (summary and key points rendered as Markdown on a terminal)
//   text     readLibraryText (one chunk, or --all streaming every chunk in order)
//   save     saveLink (video and podcast links: points to `kagent media quote`)
//   edit     updateLibraryItem (note, space)
//   delete   deleteLibraryItem (several ids; confirmed on a terminal, --yes elsewhere)
//   upload   uploadFile (files, folders, globs, `-` for stdin; see src/upload/)
//   sync     a folder kept in step with a space: uploadFile, then deleteLibraryItem for replaced and removed files (src/upload/sync.ts)
// Writes answered with 204 print, with --json, what was done: {id, note?, spaceId?}
// for edit, [{id, deleted, error?}] for delete.
import { defineGroup } from '../../src/kit/define.js';
import list from './list.js';
import search from './search.js';
import show from './show.js';
import text from './text.js';
import save from './save.js';
import edit from './edit.js';
import remove from './delete.js';
import upload from './upload.js';
import sync from './sync.js';

export default defineGroup({
  examples: [
    'kagent lib list --kind file',
    'kagent lib upload docs/ --space Research',
    'kagent lib sync docs/ --space Research --delete',
    'kagent lib search "harbour expansion"',
    'kagent lib text li_8f2k3xq9mz --all > report.txt',
  ],
  commands: [list, search, show, text, save, edit, remove, upload, sync],
});
