import { UsageError } from '../../src/errors.js';
import { checkInput, defineCommand } from '../../src/kit/define.js';
import { getAgent } from './shared.js';
import { printDone } from '../../src/io/outcome.js';
import { sanitizeLine } from '../../src/io/sanitize.js';
import * as S from '../../src/api/shapes.js';

export default defineCommand({
  name: 'rename',
  summary: 'Give your agent a new name',
  description: 'Piped, prints the new name; --json prints the Agent.',
  arguments: [{ name: 'name', description: 'the new name (1 to 60 characters)' }],
  examples: ['kagent agent rename Ada', 'kagent agent rename "Research assistant" --json'],
  async run(ctx, _opts, args) {
    const body = { name: args.name };
    checkInput(S.UpdateAgentRequest, body, { name: 'NAME' });
    if (args.name.trim() === '') throw new UsageError('NAME must not be blank');
    const before = await getAgent(ctx);
    await (await ctx.api()).call('updateAgent', { body, signal: ctx.signal });
    const after = await getAgent(ctx);
    await printDone(ctx, after, {
      said: `Renamed your agent: ${sanitizeLine(before.name)} → ${sanitizeLine(after.name)}`,
      piped: (a) => a.name,
    });
  },
});
