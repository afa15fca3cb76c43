import { checkInput, defineCommand } from '../../src/kit/define.js';
import { label } from './shared.js';

export default defineCommand({
  name: 'create',
  summary: 'Create a space',
  description: "The name, icon and description are checked against the service's bounds before anything is sent.",
  arguments: [{ name: 'name', description: "the new space's name" }],
  options: [
    { flags: '--icon <emoji>', description: 'an icon, usually one emoji' },
    { flags: '--description <text>', description: 'what the space is for' },
  ],
  examples: ['kagent space create Research', 'kagent space create "Reading list" --icon 📚 --description "Long reads for the weekend"', 'id=$(kagent space create Travel)'],
  async run(ctx, opts, args) {
    const { CreateSpaceRequest } = await import('../../src/api/shapes.js');
    const body = { name: args.name, ...(opts.icon !== undefined ? { icon: opts.icon } : {}), ...(opts.description !== undefined ? { description: opts.description } : {}) };
    checkInput(CreateSpaceRequest, body, { name: 'NAME', icon: '--icon', description: '--description' });
    const api = await ctx.api();
    const space = await api.call('createSpace', { body, signal: ctx.signal });
    const { printItem } = await import('../../src/io/output.js');
    await printItem(ctx, space, (created, f) => (f.tty ? `${f.green('✓')} Created space ${label(created)}` : created.id));
  },
});
