import type { Space } from '../../src/api/shapes.js';
import type { Column } from '../../src/io/output.js';
import { defineCommand } from '../../src/kit/define.js';
import { pipedRowsHelp, printList } from '../../src/io/output.js';

const columns: Column<Space>[] = [
  { header: 'id', value: (space) => space.id },
  {
    header: 'name',
    value: (space) => space.name,
    display: (space) => (space.icon ? `${space.icon} ${space.name}` : space.name),
    flex: true,
  },
  { header: 'icon', value: (space) => space.icon, only: 'plain' },
  { header: 'description', value: (space) => space.description, flex: true },
  { header: 'default', value: (space) => space.isDefault, kind: 'bool' },
  { header: 'created', value: (space) => space.createdAt, kind: 'time' },
];

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List your spaces',
  description: pipedRowsHelp(columns),
  examples: ['kagent space list', 'kagent space list --json', 'kagent space list | cut -f2'],
  async run(ctx) {
    const api = await ctx.api();
    const { items } = await api.call('listSpaces', { signal: ctx.signal });
    await printList(ctx, items, { columns, empty: 'No spaces.' });
  },
});
