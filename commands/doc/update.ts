import type { Revision } from '../../src/api/shapes.js';
import { UsageError } from '../../src/errors.js';
import { checkInput, defineCommand } from '../../src/kit/define.js';
import { fieldsGiven } from '../../src/kit/options.js';
import { withNotFound } from '../../src/io/not-found.js';
import { bodyFrom } from './shared.js';
import { conflictError, isConflict, printRevision, readDoc } from '../../src/docsync/revision.js';
import { warn } from '../../src/io/output.js';
import { refuseFrontMatter } from '../../src/docsync/edit-text.js';
import * as S from '../../src/api/shapes.js';

export default defineCommand({
  name: 'update',
  summary: "Replace a document's title and/or body",
  description:
    'Sends the revision the change is based on: --revision N, or else the revision read just before saving. ' +
    'If someone saved the document in between, nothing is saved: REVISION_CONFLICT (exit 5) says which revision it is at now. ' +
    '--force then reads the document again and saves over that latest revision (once). ' +
    'Bounds are checked first (title at most 200 characters, body at most 500000; no front matter). Piped, prints "id<TAB>revision"; --json prints the Revision.',
  arguments: [{ name: 'id', description: 'the document', complete: 'doc' }],
  options: [
    { flags: '--title <title>', description: 'the new title (at most 200 characters)' },
    { flags: '--file <path>', description: 'the new Markdown body from this file, or - for stdin' },
    { flags: '--body <markdown>', description: 'the new Markdown body as text' },
    {
      flags: '--revision <n>',
      description: 'the revision your change is based on (default: the one read just before saving)',
      type: 'integer',
      min: 1,
    },
    { flags: '--force', description: 'on a conflict, read the latest revision and save over it (once)' },
  ],
  examples: [
    'kagent doc show doc_8f2k3xq9mz --raw > notes.md && $EDITOR notes.md && kagent doc update doc_8f2k3xq9mz --file notes.md --revision 3',
    'kagent doc update doc_8f2k3xq9mz --title "Meeting notes (final)"',
    'cat notes.md | kagent doc update doc_8f2k3xq9mz --file -',
    'kagent doc update doc_8f2k3xq9mz --file notes.md --force',
  ],
  async run(ctx, opts, args) {
    const given = await bodyFrom(ctx, opts);
    const request = fieldsGiven({ title: opts.title, body: given?.text });
    if (Object.keys(request).length === 0)
      throw new UsageError('nothing to change: give --title and/or the body (--file PATH, --file - or --body TEXT)');
    checkInput(
      S.UpdateDocRequest,
      { ...request, baseRevision: opts.revision },
      { title: '--title', body: given?.flag ?? '--body', baseRevision: '--revision' },
    );
    if (given) refuseFrontMatter(given.text, given.flag);

    const api = await ctx.api();
    const save = (baseRevision: number) =>
      withNotFound(ctx, 'doc', args.id, () =>
        api.call('updateDoc', { params: { id: args.id }, body: { ...request, baseRevision }, signal: ctx.signal }),
      );
    const based = opts.revision ?? (await readDoc(ctx, args.id)).revision;
    let saved: Revision;
    try {
      saved = await save(based);
    } catch (error) {
      if (!isConflict(error)) throw error;
      if (!opts.force)
        throw await conflictError(ctx, error, args.id, based, `or save over the latest revision with --force`);
      const latest = await readDoc(ctx, args.id);
      await warn(
        ctx,
        based > latest.revision
          ? `doc ${args.id} has no revision ${based}: --force saves over revision ${latest.revision}, the latest`
          : `doc ${args.id} changed since revision ${based}: --force saves over revision ${latest.revision}`,
      );
      try {
        saved = await save(latest.revision);
      } catch (again) {
        if (isConflict(again))
          throw await conflictError(
            ctx,
            again,
            args.id,
            latest.revision,
            'it is being changed right now: try again in a moment',
          );
        throw again;
      }
    }
    await printRevision(ctx, saved, 'Saved');
  },
});
