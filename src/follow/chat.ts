// Following a chat turn to its reply: the conversation is polled (the shared
// poller) until it is no longer running, with a spinner saying what the agent
// does; --timeout and Ctrl-C stop the wait, never the turn.
import type { Context } from '../context.js';
import type { ChatMessage, Messages } from '../api/shapes.js';
import { CliError, StillRunningError } from '../errors.js';
import { poll } from '../http/poll.js';
import { kagentCommand } from '../io/command-line.js';
import { sanitizeLine } from '../io/sanitize.js';
import { startSpinner } from '../io/spinner.js';
import { timeoutMs } from '../http/deadline.js';

type FollowContext = Pick<Context, 'io' | 'flags' | 'api' | 'clock' | 'serviceClock' | 'signal'>;
type Loose = Record<string, unknown>;

/**
 * Polling a running turn. A turn takes seconds (the sandbox's: 3 s, plus 1 s per
 * extra tool), and a person is waiting for it. A turn just sent is first looked
 * at after 1 s (it cannot have ended sooner), then 1 s later, then each interval
 * half as long again (1.5 s, 2.25 s, 3.4 s) up to 4 s: looks at 1, 2, 3.5, 5.75,
 * 9.1, 13.1 s… A change in the reply (a tool starting) does not bring the end
 * nearer, so it does not shorten the interval. Cost per turn, the POST included:
 * 4 requests for a 3-second turn, 5 up to 5.75 s, then one more per 4 s; at most
 * 15 requests a minute however long it runs (a quarter of the 60/min budget).
 * Documented in docs/agent-and-chat.md.
 */
export const CHAT_POLL = { firstMs: 1_000, minMs: 1_000, maxMs: 4_000, factor: 1.5, resetOnChange: false } as const;

export interface FollowTurnOptions {
  /** How to pick the turn up again (the hint of exit 8 and 130). */
  resumeHint: string;
  /** The reply's id (TurnStarted.messageId): its running tools label the spinner. */
  replyId?: string;
  /** Messages to fetch per look (getConversationMessages `limit`). */
  limit?: number;
  /** Spinner text until a tool says what it is doing. */
  label?: string;
  /** The turn was sent just now: the first look waits CHAT_POLL.firstMs (else it is at once). */
  justSent?: boolean;
}

/**
 * Polls the conversation until `running` is false and returns its messages.
 * A spinner on stderr (terminal only) shows the running tool's label when the
 * service shows a partial reply. --timeout → exit 8, Ctrl-C → exit 130; the
 * turn goes on server-side in both cases and the hint says how to read it.
 */
export async function followConversation(
  ctx: FollowContext,
  conversationId: string,
  options: FollowTurnOptions,
): Promise<Messages> {
  const api = await ctx.api();
  const label = options.label ?? 'Thinking…';
  const spinner = startSpinner(ctx, label);
  try {
    return await poll<Messages>({
      fetch: (signal) =>
        api.call('getConversationMessages', {
          params: { id: conversationId },
          query: options.limit === undefined ? undefined : { limit: options.limit },
          signal,
        }),
      isDone: (page) => page.conversation?.running !== true,
      fingerprint: (page) => turnFingerprint(page),
      onUpdate: (page) => spinner.update(runningLabel(page, options.replyId) ?? label),
      timeoutMs: timeoutMs(ctx.flags),
      signal: ctx.signal,
      clock: ctx.clock,
      ...CHAT_POLL,
      firstMs: options.justSent ? CHAT_POLL.firstMs : 0,
      resumeHint: options.resumeHint,
      work: 'the turn',
    });
  } catch (error) {
    if (error instanceof StillRunningError) {
      throw new StillRunningError(
        `the agent is still answering after ${ctx.flags.timeout} s; the turn goes on`,
        error.hint,
      );
    }
    throw error;
  } finally {
    spinner.stop();
  }
}

/** What counts as a change while a turn runs: the flag, the messages and the parts of the last one. */
function turnFingerprint(page: Messages): string {
  const messages = Array.isArray(page.messages) ? page.messages : [];
  const last = messages[messages.length - 1];
  return JSON.stringify([
    page.conversation?.running,
    page.conversation?.messageCount,
    messages.length,
    last?.id,
    last?.parts,
  ]);
}

/** The label of the tool the reply is running right now, if the service shows a partial reply. */
function runningLabel(page: Messages, replyId: string | undefined): string | undefined {
  const messages = Array.isArray(page.messages) ? page.messages : [];
  const reply = replyId ? messages.find((m) => m.id === replyId) : undefined;
  const parts = Array.isArray(reply?.parts) ? (reply.parts as unknown[]) : [];
  for (const part of parts) {
    const p = part as Loose;
    if (p?.type === 'tool' && p.status === 'running' && typeof p.label === 'string') return `${sanitizeLine(p.label)}…`;
  }
  return undefined;
}

/**
 * The agent's reply to a turn: the message with the id TurnStarted gave, else
 * the last assistant message after the user's message.
 */
export function replyOf(page: Messages, turn: { messageId?: string; userMessageId?: string }): ChatMessage | undefined {
  const messages = Array.isArray(page.messages) ? page.messages : [];
  const byId = turn.messageId ? messages.find((m) => m.id === turn.messageId) : undefined;
  if (byId) return byId;
  const userIndex = turn.userMessageId ? messages.findIndex((m) => m.id === turn.userMessageId) : -1;
  if (turn.userMessageId && userIndex < 0) return undefined;
  return [...messages.slice(userIndex + 1)].reverse().find((m) => m.role === 'assistant');
}

/** The turn ended without a reply we can find (the service wrote none, or it is outside the messages read). */
export function noReplyError(ctx: Pick<Context, 'flags'>, conversationId: string): CliError {
  return new CliError(`the turn in conversation ${conversationId} ended without a reply`, {
    code: 'NO_REPLY',
    hint: `\`${kagentCommand(ctx, 'conversation show', conversationId)}\` shows the conversation as it stands`,
  });
}
