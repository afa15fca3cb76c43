import type { Messages } from '../../src/api/shapes.js';
import { checkInput, defineCommand } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';
import { notFoundHint } from '../../src/io/not-found.js';
import { pipedFieldsHelp, note } from '../../src/io/output.js';
import { printView } from '../../src/io/outcome.js';
import { followConversation } from '../../src/follow/chat.js';
import { pipedTranscript, renderTranscript, transcriptHead } from '../../src/views/chat-transcript.js';
import * as S from '../../src/api/shapes.js';

export default defineCommand({
  name: 'show',
  pager: true,
  aliases: ['view'],
  summary: 'Show a conversation: its messages, rendered like chat replies',
  description:
    'Shows the most recent messages (60 unless --limit), oldest first. While the agent is answering, --follow waits for the reply ' +
    "(exit 8 when --timeout runs out, 130 on Ctrl-C; the turn goes on either way). --json prints the API's Messages {conversation, messages}. " +
    pipedFieldsHelp(transcriptHead),
  arguments: [{ name: 'id', description: 'the conversation', complete: 'conversation' }],
  options: [
    {
      flags: '-L, --limit <n>',
      description: 'the most recent N messages (1 to 200, default 60)',
      type: 'integer',
      min: 1,
      max: 200,
    },
    { flags: '-f, --follow', description: 'if the agent is answering, wait for its reply' },
  ],
  examples: [
    'kagent conversation show cv_3k9x8q2m7d',
    'kagent conversation show cv_3k9x8q2m7d --follow --timeout 60',
    'kagent conversation show cv_3k9x8q2m7d --json | jq ".messages | length"',
  ],
  async run(ctx, opts, args) {
    const query = opts.limit === undefined ? undefined : { limit: opts.limit };
    checkInput(S.Queries.getConversationMessages, query ?? {}, { limit: '--limit' });
    const api = await ctx.api();
    let page: Messages;
    try {
      if (opts.follow) {
        page = await followConversation(ctx, args.id, {
          limit: opts.limit,
          resumeHint: `read it again with \`${suggest(ctx, 'conversation show', args.id, '--follow')}\``,
        });
      } else {
        page = await api.call('getConversationMessages', { params: { id: args.id }, query, signal: ctx.signal });
      }
    } catch (error) {
      throw notFoundHint(ctx, error, 'conversation', args.id);
    }
    await printView(ctx, page, {
      table: transcriptHead,
      terminal: (p, f) => renderTranscript(ctx, p, f),
      piped: (p, f) => pipedTranscript(ctx, p, f),
    });
    if (page.conversation?.running)
      await note(
        ctx,
        `the agent is still answering: \`${suggest(ctx, 'conversation show', args.id, '--follow')}\` waits for the reply`,
      );
  },
});
