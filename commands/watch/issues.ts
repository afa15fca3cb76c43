import type { IssueSummary } from '../../src/api/shapes.js';
import { defineCommand } from '../../src/kit/define.js';
import { withNotFound } from '../../src/io/not-found.js';
import { pageOptions, paging } from '../../src/kit/options.js';
import { printList } from '../../src/io/output.js';

export default defineCommand({
  name: 'issues',
  summary: "A watch's briefs, newest first",
  arguments: [{ name: 'slug', description: 'the watch', complete: 'watch' }],
  options: [...pageOptions('every brief')],
  examples: [
    'kagent watch issues ai-chips',
    'kagent watch issues ai-chips --all --json | jq length',
    'kagent watch issues ai-chips --limit 5 | cut -f1',
  ],
  async run(ctx, opts, args) {
    const api = await ctx.api();
    const items = api.paginate('listWatchIssues', { params: { slug: args.slug }, signal: ctx.signal }, paging(opts));
    await withNotFound(ctx, 'watch', args.slug, () =>
      printList<IssueSummary>(ctx, items, {
        empty: `No briefs yet for ${args.slug}.`,
        columns: [
          { header: 'Date', value: (i) => i.date },
          { header: 'Id', value: (i) => i.id },
          { header: 'Entries', value: (i) => i.entryCount, kind: 'number' },
          { header: 'Title', value: (i) => i.title, flex: true },
          { header: 'Top headline', value: (i) => i.headlines[0] ?? '', flex: true, only: 'tty' },
          { header: 'Created', value: (i) => i.createdAt, only: 'plain' },
        ],
      }),
    );
  },
});
