// One turn of a conversation: the message (from the arguments or stdin), sent
// with sendMessage, followed by polling until the reply is there, and printed.
import type { ChatMessage, SendMessageRequest, TurnStarted } from '../../src/api/shapes.js';
import type { Context } from '../../src/context.js';
import { ApiError, CliError, ExitCode, UsageError } from '../../src/errors.js';
import { suggest } from '../../src/kit/hints.js';
import { getFormatter, note, printItem } from '../../src/io/output.js';
import { sanitizeDeep } from '../../src/io/sanitize.js';
import { followConversation, replyOf, noReplyError } from '../../src/follow/chat.js';
import { renderParts } from '../../src/views/chat.js';

/** The most a message read from stdin may hold before we stop reading (the service takes 20,000 characters). */
const STDIN_MAX_BYTES = 1024 * 1024;
/** Messages read per look while a turn runs: the reply is the newest. */
const FOLLOW_LIMIT = 20;

export async function readMessageFromStdin(ctx: Context): Promise<string> {
  let bytes = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.io.stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    bytes += buffer.length;
    if (bytes > STDIN_MAX_BYTES)
      throw new UsageError('the message on stdin is over 1 MiB; a message holds at most 20000 characters');
    chunks.push(buffer);
  }
  // One final newline (as `echo` adds) is not part of the message.
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** --about doc:ID → {kind: 'doc', id: 'ID'}. */
export function parseAbout(values: string[] | undefined): SendMessageRequest['context'] | undefined {
  if (!values || values.length === 0) return undefined;
  const refs = values.map((value) => {
    const match = /^(watch|doc|media):(.+)$/.exec(value);
    if (!match) throw new UsageError(`--about must look like doc:ID, watch:SLUG or media:ID (got "${value}")`);
    return { kind: match[1] as 'watch' | 'doc' | 'media', id: match[2] as string };
  });
  return { refs };
}

export const FLAG_FOR = {
  text: 'MESSAGE',
  conversationId: '--conversation',
  spaceId: '--space',
  lang: '--lang',
  context: '--about',
};

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

export async function printReply(
  ctx: Context,
  reply: ChatMessage,
  conversationId: string,
  repl: boolean,
): Promise<void> {
  if (ctx.io.stdoutIsTTY || repl)
    return printItem(ctx, reply, (m, f) => renderParts(ctx, m.parts, f, { conversationId, repl }));
  // Piped (`kagent chat "…" > answer.md`, as `llm` does): stdout is the answer, its text parts only.
  // The rest (tools used, sources, files, actions, changes) is for a person: on stderr at a terminal,
  // left out otherwise (--json has all of it); -q leaves it out too.
  const parts = Array.isArray(reply.parts) ? (reply.parts as unknown[]) : [];
  const isText = (part: unknown) => (part as { type?: unknown } | null)?.type === 'text';
  await printItem(ctx, { ...reply, parts: parts.filter(isText) }, (m, f) =>
    renderParts(ctx, m.parts, f, { conversationId }),
  );
  if (!ctx.io.stderrIsTTY || ctx.flags.quiet) return;
  const rest = await renderParts(
    ctx,
    sanitizeDeep(parts.filter((part) => !isText(part))),
    await getFormatter(ctx, 'stderr'),
    {
      conversationId,
    },
  );
  if (rest.trim() !== '') await note(ctx, () => rest);
}

export function creditsText(reply: ChatMessage): string {
  return typeof reply.credits === 'number' ? ` · ${reply.credits} ${reply.credits === 1 ? 'credit' : 'credits'}` : '';
}
