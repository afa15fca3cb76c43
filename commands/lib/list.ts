import { UsageError } from '../../src/errors.js';
import { checkInput, defineCommand } from '../../src/kit/define.js';
import { spaceIdFor } from '../../src/kit/space.js';
import { type ListOptions, KINDS, shapes, printItems, command } from './shared.js';

export default defineCommand<ListOptions>({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the library, newest first',
  description: 'Columns when piped: id, kind, title, saved (ISO time), space id, link or file name.',
  options: [
    { flags: '--space <space>', description: 'only items of this space (id or name)' },
    { flags: '--kind <kind>', description: 'only this kind: entry, link, file or media', choices: KINDS },
    { flags: '-L, --limit <n>', description: 'at most this many (default: the first page, 50)', type: 'integer', min: 1 },
    { flags: '--all', description: 'every item, following every page' },
  ],
  examples: [
    'kagent lib list',
    'kagent lib list --kind file --limit 10',
    'kagent lib list --space Research --all --json | jq -r ".[].title"',
    '# ids of every uploaded file',
    'kagent lib list --kind file --all | cut -f1',
  ],
  async run(ctx, opts) {
    if (opts.all && opts.limit !== undefined) throw new UsageError('use --limit or --all, not both');
    const S = await shapes();
    const query: Record<string, string | undefined> = { space: opts.space, kind: opts.kind };
    checkInput(S.Queries.listLibrary, query, { space: '--space', kind: '--kind' });
    if (opts.space !== undefined) query.space = await spaceIdFor(ctx, opts.space);
    const api = await ctx.api();
    const items = api.paginate('listLibrary', { query, signal: ctx.signal }, { limit: opts.limit, all: opts.all });
    await printItems(ctx, items, `Nothing in the library${opts.kind ? ` of kind ${opts.kind}` : ''}${opts.space ? ` in ${opts.space}` : ''}: save a link with \`${await command(ctx, 'lib save URL')}\` or upload files with \`${await command(ctx, 'lib upload PATH')}\`.`);
  },
});