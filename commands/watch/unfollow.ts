import { defineCommand } from '../../src/kit/define.js';
import { withNotFound } from '../../src/io/not-found.js';
import { printDone } from '../../src/io/outcome.js';

export default defineCommand({
  name: 'unfollow',
  summary: 'Stop following a watch',
  description: 'With --json prints {"slug": ..., "following": false} (the service answers 204 with no body).',
  arguments: [{ name: 'slug', description: 'the watch', complete: 'watch' }],
  examples: [
    'kagent watch unfollow ai-chips',
    'kagent watch list | cut -f1 | grep ^test- | xargs -n1 kagent watch unfollow',
  ],
  async run(ctx, _opts, args) {
    await withNotFound(ctx, 'watch', args.slug, async () =>
      (await ctx.api()).call('unfollowWatch', { params: { slug: args.slug }, signal: ctx.signal }),
    );
    await printDone(
      ctx,
      { slug: args.slug, following: false },
      {
        said: `No longer following ${args.slug}`,
        piped: (s) => `${s.slug}\tfalse`,
      },
    );
  },
});
