import type { Conversation } from '../../src/api/shapes.js';
import { defineCommand } from '../../src/kit/define.js';
import { notFoundHint } from '../../src/io/not-found.js';
import { sanitizeLine } from '../../src/io/sanitize.js';
import { confirmOrYes } from '../../src/io/prompt.js';
import { printDone } from '../../src/io/outcome.js';

export default defineCommand({
  name: 'delete',
  aliases: ['rm'],
  summary: 'Delete a conversation and its messages',
  description:
    'Asks first on a terminal; elsewhere pass --yes. Piped, prints the id; --json prints the conversation as it was.',
  arguments: [{ name: 'id', description: 'the conversation', complete: 'conversation' }],
  examples: ['kagent conversation delete cv_3k9x8q2m7d', 'kagent conversation delete cv_3k9x8q2m7d --yes --json'],
  async run(ctx, _opts, args) {
    const api = await ctx.api();
    let conversation: Conversation;
    try {
      conversation = (
        await api.call('getConversationMessages', { params: { id: args.id }, query: { limit: 1 }, signal: ctx.signal })
      ).conversation;
    } catch (error) {
      throw notFoundHint(ctx, error, 'conversation', args.id);
    }
    const running = conversation.running ? ' The agent is still answering in it; that turn stops.' : '';
    await confirmOrYes(ctx, {
      message: `Delete conversation "${sanitizeLine(conversation.title)}" (${args.id}, ${conversation.messageCount} messages)? This cannot be undone.${running}`,
      action: `delete conversation ${args.id}`,
    });
    try {
      await api.call('deleteConversation', { params: { id: args.id }, signal: ctx.signal });
    } catch (error) {
      throw notFoundHint(ctx, error, 'conversation', args.id);
    }
    await printDone(ctx, conversation, {
      said: `Deleted conversation ${sanitizeLine(conversation.title)} (${args.id})`,
      piped: (c) => c.id,
    });
  },
});
