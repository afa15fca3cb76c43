import { defineCommand } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';
import { pageOptions, spaceOption } from '../../src/kit/options.js';
import { KINDS, printItems } from './shared.js';
import { listItems } from '../../src/kit/listing.js';

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the library, newest first',
  description: 'Columns when piped: id, kind, title, saved (ISO time), space id, link or file name.',
  options: [
    spaceOption('only items of this space (id or name)'),
    { flags: '--kind <kind>', description: 'only this kind: entry, link, file or media', choices: KINDS },
    ...pageOptions('every item', 50),
  ],
  examples: [
    'kagent lib list',
    'kagent lib list --kind file --limit 10',
    'kagent lib list --space Research --all --json | jq -r ".[].title"',
    '# ids of every uploaded file',
    'kagent lib list --kind file --all | cut -f1',
  ],
  async run(ctx, opts) {
    const items = await listItems(ctx, 'listLibrary', { space: opts.space, kind: opts.kind }, opts, { kind: '--kind' });
    await printItems(
      ctx,
      items,
      `Nothing in the library${opts.kind ? ` of kind ${opts.kind}` : ''}${opts.space ? ` in ${opts.space}` : ''}: save a link with \`${suggest(ctx, 'lib save URL')}\` or upload files with \`${suggest(ctx, 'lib upload PATH')}\`.`,
    );
  },
});
