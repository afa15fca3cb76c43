import { UsageError } from '../../src/errors.js';
import { defineCommand } from '../../src/kit/define.js';
import { spaceOption } from '../../src/kit/options.js';
import { KINDS, printItems } from './shared.js';
import { checkedQuery } from '../../src/kit/listing.js';

export default defineCommand({
  name: 'search',
  summary: 'Search the library: titles, notes, summaries, key points and file text',
  description: 'Answers the best matches first (no paging). Columns when piped: as for `lib list`.',
  arguments: [{ name: 'query', description: 'words to look for (at most 200 characters)' }],
  options: [
    spaceOption('only items of this space (id or name)'),
    { flags: '--kind <kind>', description: 'only this kind: entry, link, file or media', choices: KINDS },
    {
      flags: '-L, --limit <n>',
      description: 'at most this many (1 to 200; default 50)',
      type: 'integer',
      min: 1,
      max: 200,
    },
  ],
  examples: [
    'kagent lib search "harbour expansion"',
    'kagent lib search budget --kind file --json',
    'kagent lib search invoice --jq ".[0].id"',
  ],
  async run(ctx, opts, args) {
    if (args.query.trim() === '') throw new UsageError('QUERY must not be empty');
    const query: Record<string, string | number | undefined> = {
      q: args.query,
      space: opts.space,
      kind: opts.kind,
      limit: opts.limit,
    };
    const checked = await checkedQuery(ctx, 'listLibrary', query, { q: 'QUERY', kind: '--kind', limit: '--limit' });
    const api = await ctx.api();
    const { items } = await api.call('listLibrary', { query: checked, signal: ctx.signal });
    await printItems(ctx, items, `Nothing in the library matches "${args.query}".`);
  },
});
