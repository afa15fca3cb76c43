import type { IssueSummary } from '../../src/api/shapes.js';
import { UsageError } from '../../src/errors.js';
import { defineCommand } from '../../src/kit/define.js';
import { withWatch } from './shared.js';

// ---------------------------------------------------------------- issues

export default defineCommand<{ limit?: number; all?: boolean }, { slug: string }>({
  name: 'issues',
  summary: "A watch's briefs, newest first",
  arguments: [{ name: 'slug', description: 'the watch' }],
  options: [
    { flags: '-L, --limit <n>', description: 'at most this many (default: the first page)', type: 'integer', min: 1 },
    { flags: '--all', description: 'every brief, following every page' },
  ],
  examples: ['kagent watch issues ai-chips', 'kagent watch issues ai-chips --all --json | jq length', 'kagent watch issues ai-chips --limit 5 | cut -f1'],
  async run(ctx, opts, args) {
    if (opts.all && opts.limit !== undefined) throw new UsageError('use --limit or --all, not both');
    const { printList } = await import('../../src/io/output.js');
    const api = await ctx.api();
    const items = api.paginate('listWatchIssues', { params: { slug: args.slug }, signal: ctx.signal }, { limit: opts.limit, all: opts.all });
    await withWatch(ctx, args.slug, () =>
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