import type { Conversation } from '../../src/api/shapes.js';
import { defineCommand } from '../../src/kit/define.js';
import { pageOptions, spaceOption } from '../../src/kit/options.js';
import { isoTime } from '../../src/io/format.js';
import { pipedRowsHelp, printList, type Column } from '../../src/io/output.js';
import { listItems } from '../../src/kit/listing.js';

const columns: Column<Conversation>[] = [
  { header: 'Id', value: (c) => c.id },
  { header: 'Title', value: (c) => c.title, flex: true },
  { header: 'Messages', value: (c) => c.messageCount, kind: 'number' },
  { header: 'Channel', value: (c) => c.channel },
  {
    header: 'Running',
    value: (c) => c.running === true,
    display: (c, f) => (c.running ? f.cyan('● answering') : ''),
    about: 'true/false',
  },
  { header: 'Updated', value: (c) => isoTime(c.updatedAt), kind: 'time' },
  { header: 'Space', value: (c) => c.spaceId, only: 'plain', about: 'id' },
  { header: 'Preview', value: (c) => c.preview, only: 'plain' },
];

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List your conversations, most recently active first',
  description: pipedRowsHelp(columns),
  options: [spaceOption('only conversations of this space (id or name)'), ...pageOptions('every conversation')],
  examples: [
    'kagent conversation list',
    'kagent conversation list --space Research --limit 5',
    'kagent conversation list --all --json | jq -r ".[] | select(.running) | .id"',
    'kagent conversation list | head -1 | cut -f1',
  ],
  async run(ctx, opts) {
    const items = await listItems(ctx, 'listConversations', { space: opts.space }, opts);
    await printList<Conversation>(ctx, items, {
      empty: 'No conversations yet: start one with `kagent chat`.',
      columns,
    });
  },
});
