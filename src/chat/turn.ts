// One turn of a conversation: the message sent with sendMessage (its errors in
// words that say what to do), then followed (src/follow/chat.ts) until the reply
// is there; and the conversation `--continue` means.
import type { ChatMessage, SendMessageRequest, TurnStarted } from '../api/shapes.js';
import type { Context } from '../context.js';
import { ApiError, CliError, ExitCode } from '../errors.js';
import { suggest } from '../kit/hints.js';
import { followConversation, replyOf, noReplyError } from '../follow/chat.js';

/** Messages read per look while a turn runs: the reply is the newest. */
const FOLLOW_LIMIT = 20;

/** What went wrong with sendMessage, in words that say what to do. */
async function explainSendError(ctx: Context, error: unknown, conversationId: string | undefined): Promise<unknown> {
  if (!(error instanceof ApiError)) return error;
  const show = conversationId ? suggest(ctx, 'conversation show', conversationId, '--follow') : undefined;
  if (error.code === 'CREDITS_EXHAUSTED') {
    return new CliError('no credits left for messages to the agent', {
      exitCode: error.exitCode,
      code: error.code,
      hint: `each message is charged by what it takes to answer; see what is left with \`${suggest(ctx, 'me')}\`. Reading (conversations, library, briefs) stays free`,
      cause: error,
    });
  }
  if (error.code === 'CONVERSATION_BUSY') {
    return new CliError(`the agent is still answering in conversation ${conversationId ?? ''}`.trimEnd(), {
      exitCode: error.exitCode,
      code: error.code,
      hint: `one turn at a time per conversation: wait for the reply${show ? ` with \`${show}\`` : ''}, then send again (or start a new conversation)`,
      cause: error,
    });
  }
  if (error.status === 404 && !error.hint) {
    error.hint = `no conversation "${conversationId ?? ''}": \`${suggest(ctx, 'conversation list')}\` shows yours`;
  }
  return error;
}

/** The conversation `--continue` means: the most recently active one (in the space, when given). */
export async function latestConversation(ctx: Context, spaceId: string | undefined): Promise<string> {
  const api = await ctx.api();
  const page = await api.call('listConversations', {
    query: { limit: 1, ...(spaceId ? { space: spaceId } : {}) },
    signal: ctx.signal,
  });
  const latest = page.items[0];
  if (!latest) {
    throw new CliError(`no conversation to continue${spaceId ? ' in that space' : ''}`, {
      exitCode: ExitCode.NOT_FOUND,
      code: 'NO_CONVERSATION',
      hint: `start one with \`${suggest(ctx, 'chat MESSAGE')}\``,
    });
  }
  return latest.id;
}

export interface Turn {
  started: TurnStarted;
  reply: ChatMessage;
}

export async function send(
  ctx: Context,
  body: SendMessageRequest,
  idempotencyKey: string | undefined,
): Promise<TurnStarted> {
  const api = await ctx.api();
  try {
    return await api.call('sendMessage', { body, idempotencyKey, signal: ctx.signal });
  } catch (error) {
    throw await explainSendError(ctx, error, body.conversationId);
  }
}

/** Sends one message and follows the turn to its reply. */
export async function runTurn(ctx: Context, body: SendMessageRequest, idempotencyKey?: string): Promise<Turn> {
  const started = await send(ctx, body, idempotencyKey);
  const show = suggest(ctx, 'conversation show', started.conversationId, '--follow');
  const page = await followConversation(ctx, started.conversationId, {
    replyId: started.messageId,
    limit: FOLLOW_LIMIT,
    justSent: true,
    resumeHint: `the reply will be in the conversation: \`${show}\``,
  });
  const reply = replyOf(page, started);
  if (!reply) throw noReplyError(ctx, started.conversationId);
  return { started, reply };
}
