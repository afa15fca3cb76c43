import type { WatchCard } from '../../src/api/shapes.js';
import { checkInput, defineCommand } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';

import { printList } from '../../src/io/output.js';
import * as S from '../../src/api/shapes.js';

export default defineCommand({
  name: 'search',
  summary: 'Find public watches to follow',
  arguments: [{ name: 'query', description: 'words to look for in titles and intents' }],
  examples: [
    'kagent watch search "ai chips"',
    'kagent watch search battery --json | jq -r ".[].slug"',
    'kagent watch search rust | cut -f1 | head -1 | xargs kagent watch follow',
  ],
  async run(ctx, _opts, args) {
    checkInput(S.Queries.searchWatches, { q: args.query }, { q: 'QUERY' });
    const { items } = await (await ctx.api()).call('searchWatches', { query: { q: args.query } });
    await printList<WatchCard>(ctx, items, {
      empty: `No public watch matches "${args.query}": start one with \`${suggest(ctx, 'watch create', args.query)}\``,
      columns: [
        { header: 'Slug', value: (w) => w.slug },
        { header: 'Title', value: (w) => w.title, flex: true },
        { header: 'Type', value: (w) => w.type },
        { header: 'Cadence', value: (w) => w.cadence },
        { header: 'Followers', value: (w) => w.followers, kind: 'number' },
        { header: 'Last brief', value: (w) => w.lastBriefAt, kind: 'time' },
        { header: 'Intent', value: (w) => w.intent, only: 'plain' },
      ],
    });
  },
});
