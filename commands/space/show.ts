import { defineCommand } from '../../src/kit/define.js';
import { resolveSpace } from '../../src/kit/space.js';
import { printItem } from '../../src/io/output.js';

export default defineCommand({
  name: 'show',
  summary: 'Show one space',
  description:
    'The space named by its id or its name (exact, then ignoring case), as --space takes it. ' +
    'Piped, one `key<TAB>value` line per field: id, name, icon, description, default (true/false), created (ISO 8601).',
  arguments: [{ name: 'space', description: 'id or name of the space', complete: 'space' }],
  examples: [
    'kagent space show Research',
    'kagent space show sp_3k9x8q2m7d --json',
    'kagent space show Research | cut -f2',
  ],
  async run(ctx, _opts, args) {
    const space = await resolveSpace(ctx, args.space);
    await printItem(ctx, space, (s, f) =>
      f.tty
        ? f.fields([
            ['Name', s.icon ? `${s.icon} ${s.name}` : s.name],
            ['Id', s.id],
            ['Description', s.description || undefined],
            ['Default', s.isDefault ? 'yes (where the contents of deleted spaces go)' : 'no'],
            ['Created', f.time(s.createdAt)],
          ])
        : f.fields([
            ['id', s.id],
            ['name', s.name],
            ['icon', s.icon ?? ''],
            ['description', s.description],
            ['default', String(s.isDefault)],
            ['created', s.createdAt],
          ]),
    );
  },
});
