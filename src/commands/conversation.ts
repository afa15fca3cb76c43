// `kagent conversation`: conversations with the agent.
//   list    listConversations (--space, --limit, --all), most recently active first
//   show    getConversationMessages, rendered as `kagent chat` renders replies;
//           --follow waits for a running turn (the chat follower, src/io/chat.ts)
//   delete  deleteConversation (confirmed on a terminal, --yes elsewhere)
import type { Context } from '../context.js';
import type { Conversation, Messages } from '../api/shapes.js';
import { ApiError, UsageError } from '../errors.js';
import { checkInput, defineCommand, defineGroup } from './define.js';

async function command(ctx: Pick<Context, 'flags'>, words: string): Promise<string> {
  const { kagentCommand } = await import('../io/task-follow.js');
  return kagentCommand(ctx, words);
}

/** 404s on a conversation say how to find one. */
async function conversationHint(ctx: Context, error: unknown, id: string): Promise<unknown> {
  if (error instanceof ApiError && error.status === 404 && !error.hint) {
    error.hint = `no conversation "${id}": \`${await command(ctx, 'conversation list')}\` shows yours`;
  }
  return error;
}

function iso(ms: unknown): string {
  return typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString() : ms === undefined || ms === null ? '' : String(ms);
}

// ---------------------------------------------------------------- list

interface ListOptions {
  space?: string;
  limit?: number;
  all?: boolean;
}

const list = defineCommand<ListOptions>({
  name: 'list',
  aliases: ['ls'],
  summary: 'List your conversations, most recently active first',
  description: 'Piped, each row is: id, title, messages, channel, running (true/false), updated (ISO 8601), space id, preview.',
  options: [
    { flags: '--space <space>', description: 'only conversations of this space (id or name)' },
    { flags: '-L, --limit <n>', description: 'at most this many (default: the first page)', type: 'integer', min: 1 },
    { flags: '--all', description: 'every conversation, following every page' },
  ],
  examples: ['kagent conversation list', 'kagent conversation list --space Research --limit 5', 'kagent conversation list --all --json | jq -r ".[] | select(.running) | .id"', 'kagent conversation list | head -1 | cut -f1'],
  async run(ctx, opts) {
    if (opts.all && opts.limit !== undefined) throw new UsageError('use --limit or --all, not both');
    const S = await import('../api/shapes.js');
    const query: Record<string, string | undefined> = { space: opts.space };
    checkInput(S.Queries.listConversations, query, { space: '--space' });
    if (opts.space !== undefined) {
      const { resolveSpace } = await import('./space.js');
      query.space = (await resolveSpace(ctx, opts.space)).id;
    }
    const { printList } = await import('../io/output.js');
    const api = await ctx.api();
    const items = api.paginate('listConversations', { query, signal: ctx.signal }, { limit: opts.limit, all: opts.all });
    await printList<Conversation>(ctx, items, {
      empty: 'No conversations yet: start one with `kagent chat`.',
      columns: [
        { header: 'Id', value: (c) => c.id },
        { header: 'Title', value: (c) => c.title, flex: true },
        { header: 'Messages', value: (c) => c.messageCount, kind: 'number' },
        { header: 'Channel', value: (c) => c.channel },
        { header: 'Running', value: (c) => c.running === true, display: (c, f) => (c.running ? f.cyan('● answering') : '') },
        { header: 'Updated', value: (c) => iso(c.updatedAt), kind: 'time' },
        { header: 'Space', value: (c) => c.spaceId, only: 'plain' },
        { header: 'Preview', value: (c) => c.preview, only: 'plain' },
      ],
    });
  },
});

// ---------------------------------------------------------------- show

interface ShowOptions {
  limit?: number;
  follow?: boolean;
}

const show = defineCommand<ShowOptions, { id: string }>({
  name: 'show',
  pager: true,
  aliases: ['view'],
  summary: 'Show a conversation: its messages, rendered like chat replies',
  description:
    'Shows the most recent messages (60 unless --limit), oldest first. While the agent is answering, --follow waits for the reply ' +
    '(exit 8 when --timeout runs out, 130 on Ctrl-C; the turn goes on either way). ' +
    'Piped: label/value lines for the conversation, `--`, then for each message a line `message<TAB>id<TAB>role<TAB>time<TAB>credits` ' +
    "followed by the message, each of its lines indented by two spaces. --json prints the API's Messages {conversation, messages}.",
  arguments: [{ name: 'id', description: 'the conversation' }],
  options: [
    { flags: '-L, --limit <n>', description: 'the most recent N messages (1 to 200, default 60)', type: 'integer', min: 1, max: 200 },
    { flags: '-f, --follow', description: 'if the agent is answering, wait for its reply' },
  ],
  examples: ['kagent conversation show cv_3k9x0q2m', 'kagent conversation show cv_3k9x0q2m --follow --timeout 60', 'kagent conversation show cv_3k9x0q2m --json | jq ".messages | length"'],
  async run(ctx, opts, args) {
    const S = await import('../api/shapes.js');
    const query = opts.limit === undefined ? undefined : { limit: opts.limit };
    checkInput(S.Queries.getConversationMessages, query ?? {}, { limit: '--limit' });
    const api = await ctx.api();
    let page: Messages;
    try {
      if (opts.follow) {
        const { followConversation } = await import('../io/chat.js');
        page = await followConversation(ctx, args.id, {
          limit: opts.limit,
          resumeHint: `read it again with \`${await command(ctx, `conversation show ${args.id} --follow`)}\``,
        });
      } else {
        page = await api.call('getConversationMessages', { params: { id: args.id }, query, signal: ctx.signal });
      }
    } catch (error) {
      throw await conversationHint(ctx, error, args.id);
    }
    const { printItem, note } = await import('../io/output.js');
    const { renderTranscript } = await import('../io/chat.js');
    await printItem(ctx, page, (p, f) => renderTranscript(ctx, p, f));
    if (page.conversation?.running) await note(ctx, `the agent is still answering: ${await command(ctx, `conversation show ${args.id} --follow`)} waits for the reply`);
  },
});

// ---------------------------------------------------------------- delete

const remove = defineCommand<Record<string, never>, { id: string }>({
  name: 'delete',
  aliases: ['rm'],
  summary: 'Delete a conversation and its messages',
  description: 'Asks first on a terminal; elsewhere pass --yes. Piped, prints the id; --json prints the conversation as it was.',
  arguments: [{ name: 'id', description: 'the conversation' }],
  examples: ['kagent conversation delete cv_3k9x0q2m', 'kagent conversation delete cv_3k9x0q2m --yes --json'],
  async run(ctx, _opts, args) {
    const api = await ctx.api();
    let conversation: Conversation;
    try {
      conversation = (await api.call('getConversationMessages', { params: { id: args.id }, query: { limit: 1 }, signal: ctx.signal })).conversation;
    } catch (error) {
      throw await conversationHint(ctx, error, args.id);
    }
    const { sanitizeLine } = await import('../io/sanitize.js');
    const { confirmOrYes } = await import('../io/prompt.js');
    const running = conversation.running ? ' The agent is still answering in it; that turn stops.' : '';
    await confirmOrYes(ctx, {
      message: `Delete conversation "${sanitizeLine(conversation.title)}" (${args.id}, ${conversation.messageCount} messages)? This cannot be undone.${running}`,
      action: `delete conversation ${args.id}`,
    });
    try {
      await api.call('deleteConversation', { params: { id: args.id }, signal: ctx.signal });
    } catch (error) {
      throw await conversationHint(ctx, error, args.id);
    }
    const { printItem, success } = await import('../io/output.js');
    await printItem(ctx, conversation, (c, f) => (f.tty ? '' : c.id));
    await success(ctx, `Deleted conversation ${sanitizeLine(conversation.title)} (${args.id})`);
  },
});

export default defineGroup({
  name: 'conversation',
  summary: 'List, show and delete conversations',
  description: 'Conversations with your agent. Start or continue one with `kagent chat`.',
  examples: ['kagent conversation list', 'kagent conversation show cv_3k9x0q2m --follow', 'kagent conversation delete cv_3k9x0q2m --yes'],
  commands: [list, show, remove],
});
