import type { DocHit } from '../../src/api/shapes.js';
import { UsageError } from '../../src/errors.js';
import { checkInput, defineCommand } from '../../src/kit/define.js';

import { printList } from '../../src/io/output.js';
import * as S from '../../src/api/shapes.js';

export default defineCommand({
  name: 'search',
  summary: 'Search documents by keywords and meaning',
  description: 'Best matches first (no paging). Columns when piped: id, title, updated (ISO time), space id, excerpt.',
  arguments: [{ name: 'query', description: 'what to look for (1 to 200 characters)' }],
  examples: [
    'kagent doc search "quarterly budget"',
    'kagent doc search roadmap --json',
    "kagent doc search meeting --jq '.[0].id'",
  ],
  async run(ctx, _opts, args) {
    checkInput(S.Queries.searchDocs, { q: args.query }, { q: 'QUERY' });
    if (args.query.trim() === '') throw new UsageError('QUERY must not be blank');
    const api = await ctx.api();
    const { items } = await api.call('searchDocs', { query: { q: args.query }, signal: ctx.signal });
    await printList<DocHit>(ctx, items, {
      empty: `No document matches "${args.query}".`,
      columns: [
        { header: 'Id', value: (d) => d.id },
        { header: 'Title', value: (d) => d.title, flex: true },
        { header: 'Excerpt', value: (d) => d.excerpt, flex: true, only: 'tty' },
        { header: 'Updated', value: (d) => d.updatedAt, kind: 'time' },
        { header: 'Space', value: (d) => d.spaceId, only: 'plain' },
        { header: 'Excerpt', value: (d) => d.excerpt, only: 'plain' },
      ],
    });
  },
});
