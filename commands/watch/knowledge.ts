import { defineCommand } from '../../src/kit/define.js';
import { withNotFound } from '../../src/io/not-found.js';
import { printItem } from '../../src/io/output.js';
import { renderKnowledge } from '../../src/views/brief.js';

export default defineCommand({
  name: 'knowledge',
  pager: true,
  summary: "A watch's latest weekly report and its timeline of important items",
  description:
    "Piped, the report's Markdown source comes first, then `--`, then one row per timeline item: date, importance, entry id, headline, URL.",
  arguments: [{ name: 'slug', description: 'the watch', complete: 'watch' }],
  examples: [
    'kagent watch knowledge ai-chips',
    'kagent watch knowledge ai-chips --jq .report.markdown',
    `kagent watch knowledge ai-chips --jq '.timeline[] | select(.importance > 0.9) | .headline'`,
  ],
  async run(ctx, _opts, args) {
    const data = await withNotFound(ctx, 'watch', args.slug, async () =>
      (await ctx.api()).call('getWatchKnowledge', { params: { slug: args.slug }, signal: ctx.signal }),
    );
    await printItem(ctx, data, (k, f) => renderKnowledge(ctx, k, f));
  },
});
