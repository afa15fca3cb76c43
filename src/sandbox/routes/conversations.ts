// Conversation routes: list, messages, send and delete. Conversations and their
// messages are in ../conversations/model.ts; a turn (sending, its cost, the
// agent's reply on the sandbox clock) is in ../conversations/turns.ts.
import type * as S from '../../api/shapes.js';
import { refreshParts } from '../agent/refresh.js';
import { conversationView, findConversation } from '../conversations/model.js';
import { deleteConversation, replyJob, sendMessage } from '../conversations/turns.js';
import { newestBy } from '../order.js';
import type { Jobs, Routes } from '../types.js';
import { notFound, page } from '../world.js';

export const routes: Routes = {
  listConversations: ({ account, query }) => {
    let items = account.conversations;
    if (query.space !== undefined) {
      const named = account.spaces.find((s) => s.name === query.space);
      items = items.filter((c) => c.spaceId === query.space || (named !== undefined && c.spaceId === named.id));
    }
    const result = page(
      newestBy(items, (c) => c.updatedAt),
      query,
      `conversations:${account.id}:${query.space ?? ''}`,
      30,
    );
    return { body: { items: result.items.map(conversationView), nextCursor: result.nextCursor } };
  },

  getConversationMessages: ({ world, account, params, query }) => {
    const conversation = findConversation(account, params.id ?? '');
    if (!conversation) throw notFound('CONVERSATION_NOT_FOUND', `Conversation ${params.id}`);
    const limit: number = query.limit ?? 60;
    const all = account.messages[conversation.id] ?? [];
    const messages = all
      .slice(Math.max(0, all.length - limit))
      .map((m) => ({ ...m, parts: refreshParts(world, account, m.parts) }));
    const body: S.Messages = { conversation: conversationView(conversation), messages };
    return { body };
  },

  sendMessage: ({ world, account, body }) => ({
    status: 202,
    body: sendMessage(world, account, body as S.SendMessageRequest),
  }),

  deleteConversation: ({ world, account, params }) => {
    deleteConversation(world, account, params.id ?? '');
    return { status: 204 };
  },
};

export const jobs: Jobs = { 'chat.reply': replyJob };
