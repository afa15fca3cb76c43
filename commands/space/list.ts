import type { Space } from '../../src/api/shapes.js';
import type { Column } from '../../src/io/output.js';
import { defineCommand } from '../../src/kit/define.js';
import { pipedRowsHelp, printList } from '../../src/io/output.js';

const columns: Column<Space>[] = [
  { header: 'id', value: (space) => space.id, json: 'id' },
  {
    header: 'name',
    value: (space) => space.name,
    display: (space) => (space.icon ? `${space.icon} ${space.name}` : space.name),
    flex: true,
    json: 'name',
  },
  { header: 'icon', value: (space) => space.icon, only: 'plain', json: 'icon' },
  { header: 'description', value: (space) => space.description, flex: true, json: 'description' },
  { header: 'default', value: (space) => space.isDefault, kind: 'bool', json: 'isDefault' },
  { header: 'created', value: (space) => space.createdAt, kind: 'time', json: 'createdAt' },
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
