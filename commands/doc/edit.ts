// `kagent doc edit ID`: exact-match edits from flags or --ops, or the body in $EDITOR (src/docsync/edit.ts).
import { defineCommand } from '../../src/kit/define.js';
import { editDoc } from '../../src/docsync/edit.js';

export default defineCommand({
  name: 'edit',
  summary: 'Change a document with exact-match edits, or in $EDITOR',
  description: [
    'Edits (1 to 20 per request) apply in this order: every --replace FIND --with TEXT pair, every --insert-after ANCHOR --content TEXT pair, every --prepend, every --append. ' +
      "Texts are taken as given, without escapes: for a newline, write $'…\\n…' in bash or zsh. " +
      'FIND and ANCHOR must match the current text exactly, once; otherwise the service refuses the request (EDIT_NOT_APPLICABLE, exit 2) and the message names the edit. ' +
      'For another order, or a rewrite, give --ops FILE: a JSON array of edits ({"op":"replace","find":…,"replace":…}, {"op":"insert_after","after":…,"content":…}, {"op":"append"|"prepend","content":…}, {"op":"rewrite","content":…}), or - for stdin.',
    'With no edits given, on a terminal, the body opens in $VISUAL / $EDITOR (as a file ending with a newline; a change that is only the final newline is no change); when you save and quit, your change is sent as the smallest exact-match edits of the lines you changed ' +
      '(or as the whole body when that is smaller), based on the revision you edited. If someone saved the document meanwhile, your edit and theirs are merged (three-way): a clean merge is saved and said; ' +
      'changes to the same lines reopen the editor with both sides between <<<<<<< and >>>>>>> markers. Markers left in save nothing (exit 5), nor does an editor that fails (exit 1), and either way your text is kept in a file the message names; ' +
      'after markers left in, the hint is the `kagent doc update ID --file FILE --revision M` that sends that file once resolved. ' +
      'Only the markers kagent wrote count: lines of the document itself that look like markers are saved as they are. ' +
      'Stopped (Ctrl-C, SIGTERM, a closed terminal) while the save is on its way, it says that whether the service applied it is unknown, how to check, and where your text is kept.',
    'Every bound is checked before anything is sent (find 1 to 20000 characters, replace at most 40000, anchor 1 to 4000, content 1 to 40000). ' +
      '--revision N makes the edits apply only to that revision. Piped, prints "id<TAB>revision"; --json prints the Revision.',
  ].join('\n\n'),
  arguments: [{ name: 'id', description: 'the document', complete: 'doc' }],
  options: [
    {
      flags: '--replace <find>',
      description: 'text to replace, matching exactly once (repeatable; pair each with --with)',
      repeatable: true,
    },
    { flags: '--with <text>', description: 'what replaces the matching --replace ("" deletes it)', repeatable: true },
    {
      flags: '--insert-after <anchor>',
      description: 'insert after this text, matching exactly once (repeatable; pair each with --content)',
      repeatable: true,
    },
    { flags: '--content <text>', description: 'what to insert after the matching --insert-after', repeatable: true },
    { flags: '--append <text>', description: 'add this at the end (repeatable)', repeatable: true },
    { flags: '--prepend <text>', description: 'add this at the start (repeatable)', repeatable: true },
    { flags: '--ops <file>', description: 'a JSON array of edits from this file, or - for stdin' },
    {
      flags: '--revision <n>',
      description: 'apply only if the document is still at this revision',
      type: 'integer',
      min: 1,
    },
  ],
  examples: [
    'kagent doc edit doc_8f2k3xq9mz',
    'kagent doc edit doc_8f2k3xq9mz --replace "Status: draft" --with "Status: final"',
    "kagent doc edit doc_8f2k3xq9mz --insert-after $'## Decisions\\n' --content $'- Ship on Friday\\n' --append $'\\n_Reviewed_'",
    'kagent doc edit doc_8f2k3xq9mz --ops edits.json --revision 7',
    `echo '[{"op":"prepend","content":"> Archived\\n\\n"}]' | kagent doc edit doc_8f2k3xq9mz --ops -`,
  ],
  run: (ctx, opts, args) => editDoc(ctx, args.id, opts),
});
