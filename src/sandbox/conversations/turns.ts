// Chat turns: sending a message starts a turn and answers at once with the id
// the agent's reply will have; `running` is true until the reply is written (3 s
// of sandbox time plus 1 s per extra tool the turn uses). A turn costs 1 credit
// plus 0.5 per extra tool, charged when the message is sent (402
// CREDITS_EXHAUSTED when not enough is left; nothing is created then). The reply
// itself is composed by ../agent/compose.ts from the message and the account's
// own content. The routes are in ../routes/conversations.ts.
import type * as S from '../../api/shapes.js';
import { composeReply } from '../agent/compose.js';
import { planTurn, turnLang } from '../agent/plan.js';
import { HttpFail, type Account, type ScheduledEvent } from '../types.js';
import { notFound, type World } from '../world.js';
import { appendMessage, endRunning, findConversation } from './model.js';

/** Starts a turn: in the conversation given (409 while it is still running) or a new one. */
export function sendMessage(world: World, account: Account, input: S.SendMessageRequest): S.TurnStarted {
  let conversation: S.Conversation | undefined;
  if (input.conversationId !== undefined) {
    conversation = findConversation(account, input.conversationId);
    if (!conversation) throw notFound('CONVERSATION_NOT_FOUND', `Conversation ${input.conversationId}`);
    if (conversation.running)
      throw new HttpFail(
        409,
        'CONVERSATION_BUSY',
        'The agent is still answering in this conversation; wait until `running` is false',
      );
  }
  const spaceId = conversation ? conversation.spaceId : newConversationSpace(world, account, input.spaceId);
  const lang = turnLang(account, input.text, input.lang);
  const plan = planTurn(input.text);
  world.spend(account, plan.credits, 'this message');

  const now = world.now();
  if (!conversation) {
    const firstLine = input.text.trim().split('\n')[0] ?? '';
    conversation = {
      id: world.id('cv'),
      title:
        firstLine.length > 60
          ? `${firstLine.slice(0, 59)}…`
          : firstLine || (lang === 'zh' ? '新对话' : 'New conversation'),
      spaceId,
      channel: 'api',
      preview: '',
      messageCount: 0,
      updatedAt: now,
      running: false,
    };
    account.conversations.push(conversation);
    account.messages[conversation.id] = [];
  }
  const userMessage: S.ChatMessage = {
    id: world.id('msg'),
    conversationId: conversation.id,
    role: 'user',
    parts: [{ type: 'text', text: input.text }],
    ...(input.context ? { context: input.context } : {}),
    createdAt: now,
  };
  appendMessage(world, account, conversation, userMessage);
  const replyId = world.id('msg');
  conversation.running = true;
  world.schedule(now + plan.durationMs, 'chat.reply', account.id, {
    conversationId: conversation.id,
    messageId: replyId,
    text: input.text,
    lang,
    credits: plan.credits,
  });
  const started: S.TurnStarted = {
    conversationId: conversation.id,
    messageId: replyId,
    userMessageId: userMessage.id,
  };
  return started;
}

/** The space a new conversation goes in: the one named (404 when there is none), else the default one. */
function newConversationSpace(world: World, account: Account, spaceId: string | null | undefined): string {
  return (spaceId ? world.space(account, spaceId) : world.defaultSpace(account)).id;
}

/** Deletes a conversation, its messages and any reply still due. */
export function deleteConversation(world: World, account: Account, id: string): void {
  const conversation = findConversation(account, id);
  if (!conversation) throw notFound('CONVERSATION_NOT_FOUND', `Conversation ${id}`);
  world.cancelEvents((e) => e.kind === 'chat.reply' && e.data.conversationId === conversation.id);
  account.conversations = account.conversations.filter((c) => c.id !== conversation.id);
  delete account.messages[conversation.id];
}

/** The `chat.reply` job: the agent's reply is written and the conversation stops running. */
export function replyJob(world: World, event: ScheduledEvent): void {
  const account = world.state.accounts[event.accountId ?? ''];
  const data = event.data as {
    conversationId: string;
    messageId: string;
    text: string;
    lang: S.Locale;
    credits: number;
  };
  const conversation = account ? findConversation(account, data.conversationId) : undefined;
  if (!account || !conversation) return;
  const parts = composeReply(world, account, conversation, data.text, data.lang);
  const message: S.ChatMessage = {
    id: data.messageId,
    conversationId: conversation.id,
    role: 'assistant',
    parts,
    credits: data.credits,
    createdAt: world.now(),
  };
  appendMessage(world, account, conversation, message);
  endRunning(world, account, conversation);
}
