import { UsageError } from '../../src/errors.js';
import { checkInput, defineCommand } from '../../src/kit/define.js';
import { fieldsGiven } from '../../src/kit/options.js';
import { resolveSpace } from '../../src/kit/space.js';
import { label } from './shared.js';
import { printDone } from '../../src/io/outcome.js';
import { UpdateSpaceRequest } from '../../src/api/shapes.js';

export default defineCommand({
  name: 'edit',
  summary: "Change a space's name, icon, description or position",
  arguments: [{ name: 'space', description: 'id or name of the space', complete: 'space' }],
  options: [
    { flags: '--name <name>', description: 'new name' },
    { flags: '--icon <emoji>', description: 'new icon' },
    { flags: '--no-icon', description: 'remove the icon' },
    { flags: '--description <text>', description: 'new description' },
    { flags: '--position <n>', description: 'new place in the list (0 is first)', type: 'integer', min: 0 },
  ],
  examples: [
    'kagent space edit Research --name "Research notes"',
    'kagent space edit sp_3k9x8q2m7d --position 0',
    'kagent space edit Research --no-icon',
  ],
  async run(ctx, opts, args) {
    const body = fieldsGiven({
      name: opts.name,
      icon: opts.icon === false ? null : opts.icon,
      description: opts.description,
      position: opts.position,
    });
    if (Object.keys(body).length === 0)
      throw new UsageError(
        'nothing to change',
        'pass at least one of --name, --icon, --no-icon, --description, --position',
      );
    checkInput(UpdateSpaceRequest, body, {
      name: '--name',
      icon: '--icon',
      description: '--description',
      position: '--position',
    });

    const space = await resolveSpace(ctx, args.space);
    const api = await ctx.api();
    await api.call('updateSpace', { params: { id: space.id }, body, signal: ctx.signal });
    // The service answers 204: show the space as it now stands.
    const { items } = await api.call('listSpaces', { signal: ctx.signal });
    const updated = items.find((item) => item.id === space.id) ?? { ...space, ...body };
    await printDone(ctx, updated, {
      piped: (space) => space.id,
      said: `Updated space ${label(updated)}`,
    });
  },
});
