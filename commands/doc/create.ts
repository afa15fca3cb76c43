import { UsageError } from '../../src/errors.js';
import { checkInput, defineCommand } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';
import { idempotencyKeyOption, spaceOption, fieldsGiven } from '../../src/kit/options.js';
import { spaceIdFor } from '../../src/kit/space.js';
import { checkIdempotencyKey, noteReplay } from '../../src/kit/idempotency-key.js';
import { bodyFrom } from './shared.js';
import { askText } from '../../src/io/prompt.js';
import { note } from '../../src/io/output.js';
import { atTerminal, printDone } from '../../src/io/outcome.js';
import { checkCreated } from '../../src/kit/created.js';
import { refuseFrontMatter } from '../../src/docsync/edit-text.js';
import * as S from '../../src/api/shapes.js';

/** --file - is stdin; another --file a path. */
function describeFile(file: string | undefined): string {
  return file === '-' ? '--file - (stdin)' : '--file';
}

/** A body that was read and came out empty (an empty stdin, an empty file, the editor left empty) is refused: likely a mistake. */
function refuseEmpty(text: string, from: string): void {
  if (text.trim() !== '') return;
  throw new UsageError(
    `${from} gave an empty body; nothing was created`,
    'give the body, or --allow-empty to create the document with an empty body',
  );
}

export default defineCommand({
  name: 'create',
  summary: 'Create a document from a file, stdin, text or $EDITOR',
  description:
    'The body comes from --file (a path, or - for stdin) or --body. With neither, on a terminal, kagent asks for the title and opens $EDITOR for the body; ' +
    'elsewhere give the title and the body. Bounds are checked before anything is sent: title at most 200 characters, body at most 500000. ' +
    'Documents have no front matter: a body starting with a --- block is refused (put the title in --title). ' +
    'An empty body is refused (exit 2) unless --allow-empty: none given (--title alone; stdin is read only with --file -), or one that comes out empty (an empty file or stdin, --body "", the editor left empty). ' +
    'Piped, prints the new id; --json prints {id, revision}.',
  options: [
    { flags: '--title <title>', description: 'the title (at most 200 characters)' },
    { flags: '--file <path>', description: 'read the Markdown body from this file, or - for stdin' },
    { flags: '--body <markdown>', description: 'the Markdown body as text' },
    spaceOption("the space to put it in (id or name; default: the profile's space, else your default space)"),
    { flags: '--folder <id>', description: 'the folder to put it in' },
    {
      flags: '--allow-empty',
      description: 'create it with an empty body (none given, or an empty file, stdin or editor)',
    },
    idempotencyKeyOption('a rerun within 24 h returns the first doc instead of creating another', 'doc'),
  ],
  examples: [
    'kagent doc create --title "Meeting notes" --file notes.md',
    'echo "# Ideas" | kagent doc create --title Ideas --file -',
    'kagent doc create --title Todo --body "- [ ] write the report" --space Work',
    'id=$(kagent doc create --title Draft --file draft.md)',
    'kagent doc create --title Placeholder --allow-empty',
  ],
  async run(ctx, opts) {
    const given = await bodyFrom(ctx, opts);
    const spaceRef = opts.space ?? ctx.config.space;
    const request = fieldsGiven({ title: opts.title, markdown: given?.text, spaceId: spaceRef, folderId: opts.folder });
    const flagFor = {
      title: '--title',
      markdown: given?.flag ?? 'the body',
      spaceId: opts.space !== undefined ? '--space' : "the profile's space",
      folderId: '--folder',
    };
    checkInput(S.CreateDocRequest, request, flagFor);
    await checkIdempotencyKey(opts.idempotencyKey);

    if (given) refuseFrontMatter(given.text, given.flag);
    if (given && !opts.allowEmpty)
      refuseEmpty(given.text, given.flag === '--file' ? describeFile(opts.file) : given.flag);
    if (!given && opts.title !== undefined && !opts.allowEmpty)
      throw new UsageError(
        'no body given (stdin is read only with --file -); nothing was created',
        'give the body with --file PATH, --file - for stdin, or --body TEXT; or --allow-empty to create the document with no body',
      );
    if (!given && opts.title === undefined) {
      if (!ctx.io.canPrompt)
        throw new UsageError(
          'nothing to create: give --title and/or the body (--file PATH, --file - for stdin, or --body TEXT)',
        );
      request.title = await askText(ctx, { message: 'Title', flag: '--title' });
      const text = await ctx.editor.edit('', { extension: '.md' });
      request.markdown = text;
      checkInput(S.CreateDocRequest, request, { ...flagFor, title: 'the title', markdown: 'the body' });
      refuseFrontMatter(text, 'the body', 'remove the block and run the command again');
      if (!opts.allowEmpty) refuseEmpty(text, 'the editor');
    }
    if (spaceRef !== undefined) request.spaceId = await spaceIdFor(ctx, spaceRef);

    const api = await ctx.api();
    const result = await api.callFull('createDoc', {
      body: request,
      idempotencyKey: opts.idempotencyKey,
      signal: ctx.signal,
    });
    const created = result.body;
    checkCreated(ctx, 'doc', { id: created.id }, 'doc list');
    const replayed = await noteReplay(
      ctx,
      result,
      opts.idempotencyKey,
      `created doc ${created.id}`,
      'nothing new was created',
    );
    await printDone(ctx, created, {
      said: replayed
        ? undefined
        : `Created doc ${created.id}${request.title ? ` "${String(request.title)}"` : ''} (revision ${created.revision})`,
      piped: (c) => c.id,
    });
    if (atTerminal(ctx)) await note(ctx, `read it: \`${suggest(ctx, 'doc show', created.id)}\``);
  },
});
