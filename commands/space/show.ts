import type { Space } from '../../src/api/shapes.js';
import { defineCommand } from '../../src/kit/define.js';
import { resolveSpace } from '../../src/kit/space.js';
import { pipedFieldsHelp, printItem, type ItemView } from '../../src/io/output.js';

const view: ItemView<Space> = {
  fields: [
    { key: 'id', label: 'Id', json: 'id' },
    {
      key: 'name',
      label: 'Name',
      value: (s) => s.name,
      display: (s) => (s.icon ? `${s.icon} ${s.name}` : s.name),
      json: 'name',
    },
    { key: 'icon', value: (s) => s.icon ?? '', json: 'icon' },
    {
      key: 'description',
      label: 'Description',
      display: (s) => s.description || undefined,
      json: 'description',
    },
    {
      key: 'default',
      label: 'Default',
      kind: 'bool',
      display: (s) => (s.isDefault ? 'yes (where the contents of deleted spaces go)' : 'no'),
      json: 'isDefault',
    },
    { key: 'created', label: 'Created', kind: 'time', json: 'createdAt' },
  ],
};

export default defineCommand({
  name: 'show',
  summary: 'Show one space',
  description: `The space named by its id or its name (exact, then ignoring case), as --space takes it. ${pipedFieldsHelp(view)}`,
  arguments: [{ name: 'space', description: 'id or name of the space', complete: 'space' }],
  examples: [
    'kagent space show Research',
    'kagent space show sp_3k9x8q2m7d --json',
    'kagent space show Research | cut -f2',
  ],
  async run(ctx, _opts, args) {
    await printItem(ctx, await resolveSpace(ctx, args.space), view);
  },
});
