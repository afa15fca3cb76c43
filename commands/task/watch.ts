import { defineCommand } from '../../src/kit/define.js';
import { FOLLOW_DESCRIPTION, followToEnd } from './shared.js';

// The older name of `task show ID --follow`, kept so that scripts and habits go on
// working; hidden from help, completion and the command reference.
export default defineCommand({
  name: 'watch',
  aliases: ['follow'],
  hidden: true,
  summary: 'Follow a task until it ends (the same as `task show ID --follow`)',
  description: FOLLOW_DESCRIPTION.replace('With --follow (-f) shows', 'Shows'),
  arguments: [{ name: 'id', description: 'the task', complete: 'task' }],
  examples: ['kagent task show tk_3k9x8q2m7d --follow'],
  async run(ctx, _opts, args) {
    await followToEnd(ctx, args.id);
  },
});
