// `kagent chat [MESSAGE...]`: where the message goes (--conversation,
// --continue, or a new conversation in --space / the profile's space), then
// one turn (sent, followed to its reply, printed), --no-wait's TurnStarted, or
// the REPL on a terminal with no message (repl.ts).
import type { SendMessageRequest } from '../api/shapes.js';
import * as S from '../api/shapes.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { footer } from '../io/output.js';
import { sanitizeLine } from '../io/sanitize.js';
import { checkInput } from '../kit/define.js';
import { suggest } from '../kit/hints.js';
import { checkIdempotencyKey } from '../kit/idempotency-key.js';
import { resolveSpace } from '../kit/space.js';
import { creditsText, printReply } from '../views/chat-reply.js';
import { FLAG_FOR, messageOrRepl, parseAbout } from './message.js';
import { repl } from './repl.js';
import { latestConversation, runTurn, send } from './turn.js';
import { printDone, printOwnWay } from '../io/outcome.js';

/** The options of `kagent chat` (commands/chat/index.ts declares them). */
export interface ChatOptions {
  continue?: boolean;
  conversation?: string;
  space?: string;
  about?: string[];
  wait?: boolean;
  idempotencyKey?: string;
}

export async function runChat(ctx: Context, opts: ChatOptions, words: string[]): Promise<void> {
  if (opts.continue && opts.conversation !== undefined)
    throw new UsageError('use --continue or --conversation, not both');
  if (opts.space !== undefined && opts.conversation !== undefined) {
    throw new UsageError(
      '--space applies to a new conversation; --conversation continues one that already has its space',
    );
  }
  const context = parseAbout(opts.about);
  await checkIdempotencyKey(opts.idempotencyKey);
  // Bounds of what can be checked before any request (and before reading stdin).
  const probe: Record<string, unknown> = { text: 'x' };
  if (opts.conversation !== undefined) probe.conversationId = opts.conversation;
  if (opts.space !== undefined) probe.spaceId = opts.space;
  if (context) probe.context = context;
  checkInput(S.SendMessageRequest, probe, FLAG_FOR);

  const text = await messageOrRepl(ctx, opts, words.length > 0 ? words.join(' ') : undefined);
  if (text !== undefined && text.trim() === '') {
    throw new UsageError('the message is empty', 'pass MESSAGE, or pipe it on stdin');
  }
  const { conversationId, spaceId } = await target(ctx, opts);
  if (text === undefined) return repl(ctx, { conversationId, spaceId: conversationId ? undefined : spaceId, context });

  const body: SendMessageRequest = { text };
  if (conversationId) body.conversationId = conversationId;
  else if (spaceId) body.spaceId = spaceId;
  if (ctx.config.lang) body.lang = ctx.config.lang;
  if (context) body.context = context;
  checkInput(S.SendMessageRequest, body, FLAG_FOR);
  return opts.wait ? oneTurn(ctx, body, opts.idempotencyKey) : sendOnly(ctx, body, opts.idempotencyKey);
}

/** Where the conversation goes: --conversation, --continue, or a new one in --space / the profile's space. */
async function target(ctx: Context, opts: ChatOptions): Promise<{ conversationId?: string; spaceId?: string }> {
  const spaceRef =
    opts.conversation === undefined ? (opts.space ?? (opts.continue ? undefined : ctx.config.space)) : undefined;
  const spaceId = spaceRef === undefined ? undefined : (await resolveSpace(ctx, spaceRef)).id;
  const conversationId = opts.continue ? await latestConversation(ctx, spaceId) : opts.conversation;
  return { conversationId, spaceId };
}

/** --no-wait: the turn is started; its ids are the result. */
async function sendOnly(ctx: Context, body: SendMessageRequest, idempotencyKey: string | undefined): Promise<void> {
  const started = await send(ctx, body, idempotencyKey);
  await printDone(ctx, started, {
    said: `Sent; the agent is answering in conversation ${started.conversationId}`,
    piped: (s) => [s.conversationId, s.messageId, s.userMessageId].join('\t'),
  });
  await footer(ctx, `read the reply: ${suggest(ctx, 'conversation show', started.conversationId, '--follow')}`);
}

/** One turn followed to its reply, which is the result. */
async function oneTurn(ctx: Context, body: SendMessageRequest, idempotencyKey: string | undefined): Promise<void> {
  const turn = await runTurn(ctx, body, idempotencyKey);
  const id = turn.started.conversationId;
  if (!(await printOwnWay(ctx, turn.reply, (reply) => printReply(ctx, reply, id, false)))) return;
  const next = `${suggest(ctx, 'chat --conversation', id)} MESSAGE`;
  await footer(ctx, (f) => f.dim(sanitizeLine(`conversation ${id}${creditsText(turn.reply)} · continue: ${next}`)));
}
