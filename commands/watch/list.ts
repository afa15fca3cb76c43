import type { FollowedWatch } from '../../src/api/shapes.js';
import { defineCommand } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';
import { spaceNames } from '../../src/kit/space.js';
import { printList } from '../../src/io/output.js';

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the watches you follow, each with its latest brief',
  examples: [
    'kagent watch list',
    '# slugs of the watches with a brief today',
    `kagent watch list --jq '.[] | select(.latestBrief.date == "2026-01-15") | .slug'`,
    'kagent watch list | cut -f1',
  ],
  async run(ctx) {
    const api = await ctx.api();
    const { items } = await api.call('listFollowedWatches');
    const names = await spaceNames(ctx, items);
    await printList<FollowedWatch>(ctx, items, {
      empty: `You follow no watches yet: find one with \`${suggest(ctx, 'watch search TOPIC')}\` or start one with \`${suggest(ctx, 'watch create "what to follow"')}\`.`,
      columns: [
        { header: 'Slug', value: (w) => w.slug },
        { header: 'Title', value: (w) => w.title, flex: true },
        { header: 'Type', value: (w) => w.type, priority: 3 },
        { header: 'Cadence', value: (w) => w.cadence, priority: 3 },
        { header: 'Owner', value: (w) => w.owner, kind: 'bool', priority: 3 },
        {
          header: 'Space',
          value: (w) => w.spaceId,
          display: (w) => (w.spaceId ? (names.get(w.spaceId) ?? w.spaceId) : ''),
          only: 'tty',
        },
        { header: 'Space', value: (w) => w.spaceId, only: 'plain' },
        {
          header: 'Latest brief',
          value: (w) => w.latestBrief?.date ?? '',
          display: (w, f) =>
            w.latestBrief
              ? `${w.latestBrief.date} ${f.dim(`· ${w.latestBrief.entryCount} entries`)}`
              : f.dim('none yet'),
        },
        { header: 'Brief', value: (w) => w.latestBrief?.id ?? '', only: 'plain' },
        { header: 'Entries', value: (w) => w.latestBrief?.entryCount ?? '', only: 'plain' },
        { header: 'Brief title', value: (w) => w.latestBrief?.title ?? '', only: 'plain' },
      ],
    });
  },
});
