// Conversations and their messages: appending a message (count, preview, time)
// and the `running` flag, which stays true while a turn or an approved action is
// still due. The routes are in ../routes/conversations.ts.
import type * as S from '../../api/shapes.js';
import type { Account } from '../types.js';
import type { World } from '../world.js';

export function findConversation(account: Account, id: string): S.Conversation | undefined {
  return account.conversations.find((c) => c.id === id);
}

function textOf(parts: S.ChatPart[]): string {
  const text = parts.find((p): p is Extract<S.ChatPart, { type: 'text' }> => p.type === 'text')?.text ?? '';
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 140 ? `${line.slice(0, 139)}…` : line;
}

export function appendMessage(
  world: World,
  account: Account,
  conversation: S.Conversation,
  message: S.ChatMessage,
): void {
  (account.messages[conversation.id] ??= []).push(message);
  conversation.messageCount = account.messages[conversation.id]?.length ?? 0;
  conversation.updatedAt = world.now();
  const preview = textOf(message.parts);
  if (preview) conversation.preview = preview;
}

export function appendAssistantMessage(
  world: World,
  account: Account,
  conversation: S.Conversation,
  parts: S.ChatPart[],
  options: { id?: string; at?: number } = {},
): S.ChatMessage {
  const message: S.ChatMessage = {
    id: options.id ?? world.id('msg'),
    conversationId: conversation.id,
    role: 'assistant',
    parts,
    createdAt: options.at ?? world.now(),
  };
  appendMessage(world, account, conversation, message);
  return message;
}

/** Clears `running` unless other work (a turn, an approved action) is still due for the conversation. */
export function endRunning(world: World, _account: Account, conversation: S.Conversation): void {
  const busy = world.state.events.some(
    (e) => (e.kind === 'chat.reply' || e.kind === 'action.execute') && e.data.conversationId === conversation.id,
  );
  if (!busy) conversation.running = false;
}

export function conversationView(c: S.Conversation): S.Conversation {
  return { ...c };
}
