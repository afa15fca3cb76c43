// The conversation on a terminal: prompt (on stderr) → spinner → reply, until
// /exit, Ctrl-D, or Ctrl-C twice; /new starts a new conversation; a reply with
// a choice offers it as a select prompt and sends the chosen label as the next
// message; actions waiting for approval are decided right there, and the slash
// commands of inline.ts work at the prompt. Ctrl-C clears the prompt line, or
// stops waiting for a running turn (the turn goes on server-side).
import type { ChatMessage, Messages, SendMessageRequest } from '../api/shapes.js';
import type { Context } from '../context.js';
import { CliError, ExitCode, InterruptedError } from '../errors.js';
import { checkInput } from '../kit/define.js';
import { suggest } from '../kit/hints.js';
import { decideInline, HELP, reportAndGoOn, slashCommand, type Session } from './inline.js';
import { FLAG_FOR } from './message.js';
import { runTurn, type Turn } from './turn.js';
import { creditsText, printReply } from '../views/chat-reply.js';
import { note, warn } from '../io/output.js';
import { emit } from '../io/streams.js';
import { sanitizeLine } from '../io/sanitize.js';
import type { onInterruptKey as OnInterruptKey } from '../io/interrupt-key.js';
import { onInterruptKey } from '../io/interrupt-key.js';
import { choicesOf } from '../views/chat.js';
import { followConversation } from '../follow/chat.js';
import * as S from '../api/shapes.js';

const EOT = '\x04';
/** Ctrl-C at a prompt (not the end of input). */
const INTERRUPT = Symbol('ctrl-c');

/**
 * One answer from the person, undefined when they end the input (Ctrl-D on an
 * empty line), or INTERRUPT for Ctrl-C. The prompter (on stderr) turns both
 * into an interruption; Ctrl-D is told apart by watching for the EOT byte it sends.
 */
async function ask<T>(ctx: Context, prompt: () => Promise<T>): Promise<T | undefined | typeof INTERRUPT> {
  let lastWasEot = false;
  const onData = (chunk: Buffer | string) => {
    lastWasEot = String(chunk).includes(EOT);
  };
  // Node 22+: on Ctrl-D the prompt's readline closes (pausing stdin) and the prompt
  // never settles; the process would end with a pending await (exit 13). Its pause
  // right after an EOT is the end of the input. (onData goes first: readline's own
  // data listener, added by an earlier prompt, closes it before later listeners run.)
  let endOfInput = () => {};
  const ended = new Promise<undefined>((resolve) => (endOfInput = () => resolve(undefined)));
  const onPause = () => {
    if (lastWasEot) endOfInput();
  };
  const stdin = ctx.io.stdin;
  const wasFlowing = stdin.readableFlowing === true;
  stdin.prependListener('data', onData);
  stdin.on('pause', onPause);
  // Ctrl-D leaves the cursor after the prompt: what is said next starts on a line of its own.
  const endLine = async () => {
    if (ctx.io.stderrIsTTY) await emit(ctx.io.stderr, '\n');
  };
  try {
    const answer = await Promise.race([prompt(), ended]);
    if (answer === undefined && lastWasEot) await endLine();
    return answer;
  } catch (error) {
    if (!(error instanceof InterruptedError) || ctx.signal.aborted) throw error;
    if (!lastWasEot) return INTERRUPT;
    await endLine();
    return undefined;
  } finally {
    stdin.off('data', onData);
    stdin.off('pause', onPause);
    if (!wasFlowing) stdin.pause();
  }
}

const OWN = '\u0000own';

export async function repl(
  ctx: Context,
  first: { conversationId?: string; spaceId?: string; context?: SendMessageRequest['context'] },
): Promise<void> {
  const session: Session = { conversationId: first.conversationId, waiting: [], approved: [] };
  await greet(ctx, session);
  const counted = countedPrompt(ctx, onInterruptKey);
  const prompt = counted.prompt;
  let next: string | undefined;
  for (;;) {
    const text = next ?? (await prompt(() => ctx.prompter.text('You')));
    next = undefined;
    if (text === undefined) break;
    counted.interrupts = 0;
    const trimmed = text.trim();
    if (trimmed === '') continue;
    if (trimmed === '/exit' || trimmed === '/quit') break;
    if (trimmed.startsWith('/') && !trimmed.startsWith('//')) {
      if ((await runSlash(ctx, trimmed, session, prompt)) === 'ended') break;
      continue;
    }
    const turn = await sendTurn(ctx, session, first, trimmed.startsWith('//') ? text.replace(/^\s*\//, '') : text);
    if (turn === 'stopped') {
      counted.interrupts = 1;
      continue;
    }
    if (!turn) continue;
    const shown = await showReply(ctx, session, turn.reply, prompt);
    if (shown.ended) break;
    next = shown.next;
  }
  if (session.conversationId)
    await note(
      ctx,
      `conversation ${session.conversationId}: \`${suggest(ctx, 'conversation show', session.conversationId)}\``,
    );
}

/** Says who the person is chatting with (the agent's name, when the service tells it) and how to go on. */
async function greet(ctx: Context, session: Session): Promise<void> {
  const api = await ctx.api();
  let name = 'your agent';
  try {
    name = sanitizeLine((await api.call('getAgent', { signal: ctx.signal })).name) || name;
  } catch (error) {
    if (ctx.signal.aborted) throw error;
  }
  await note(
    ctx,
    (f) =>
      `Chatting with ${f.bold(name)}${session.conversationId ? ` in conversation ${session.conversationId}` : ''}. ${f.dim('/new starts a new conversation, /help lists commands, /exit or Ctrl-D ends.')}`,
  );
}

/** The prompt of the loop and the count of the Ctrl-C presses in a row (two end the REPL). */
interface CountedPrompt {
  prompt: Prompt;
  interrupts: number;
}

/**
 * A prompt in this loop: Ctrl-C there counts towards the two that end it. Between
 * one prompt and the next the terminal stays raw, so a quick second Ctrl-C is a
 * key that counts too, not a signal that ends the command.
 */
function countedPrompt(ctx: Context, onInterruptKey: typeof OnInterruptKey): CountedPrompt {
  const counted: CountedPrompt = {
    interrupts: 0,
    prompt: async <T>(show: () => Promise<T>): Promise<T | undefined> => {
      for (;;) {
        const got = await ask(ctx, show);
        if (got !== INTERRUPT) return got;
        let again = false;
        const release = onInterruptKey(ctx.io, () => (again = true));
        if (++counted.interrupts >= 2) {
          release();
          return undefined;
        }
        try {
          await note(ctx, (f) => f.dim('(Ctrl-C again to end, or /exit)'));
        } finally {
          // Going on, the terminal stays raw until the next prompt takes it: a quick second Ctrl-C is a key that prompt reads.
          release(!again);
        }
        if (again) return undefined;
      }
    },
  };
  return counted;
}

/** A slash command typed at the prompt (/new, /help, or one of inline.ts); 'ended' when the person ended the REPL. */
async function runSlash(ctx: Context, trimmed: string, session: Session, prompt: Prompt): Promise<'ended' | 'go on'> {
  if (trimmed === '/new') {
    session.conversationId = undefined;
    await note(ctx, 'New conversation: your next message starts it.');
    return 'go on';
  }
  if (trimmed === '/help') {
    await note(ctx, HELP);
    return 'go on';
  }
  const done = await slashCommand(ctx, trimmed, session);
  if (!done)
    await warn(
      ctx,
      `unknown command ${trimmed.split(/\s/)[0]}: /help lists them (start with // to send a message beginning with /)`,
    );
  else if (done.approved.length > 0 && !(await carryOn(ctx, session, prompt))) return 'ended';
  return 'go on';
}

type Prompt = <T>(show: () => Promise<T>) => Promise<T | undefined>;

/**
 * Sends one message and waits for the reply; Ctrl-C while it runs stops waiting
 * ('stopped': the turn goes on). Errors the person can fix by typing again are
 * printed (undefined); the rest end the REPL.
 */
async function sendTurn(
  ctx: Context,
  session: Session,
  first: { spaceId?: string; context?: SendMessageRequest['context'] },
  message: string,
): Promise<Turn | 'stopped' | undefined> {
  const body: SendMessageRequest = { text: message };
  if (session.conversationId) body.conversationId = session.conversationId;
  else if (first.spaceId) body.spaceId = first.spaceId;
  if (ctx.config.lang) body.lang = ctx.config.lang;
  if (first.context) body.context = first.context;
  const stop = new AbortController();
  const release = onInterruptKey(ctx.io, () => stop.abort());
  try {
    checkInput(S.SendMessageRequest, body, { ...FLAG_FOR, text: 'the message' });
    const turn = await runTurn({ ...ctx, signal: AbortSignal.any([ctx.signal, stop.signal]) }, body);
    session.conversationId = turn.started.conversationId;
    return turn;
  } catch (error) {
    if (stop.signal.aborted && !ctx.signal.aborted) {
      // The follower's hint names the conversation, also of a first message.
      const resume = error instanceof CliError && error.hint ? `: ${error.hint}` : '';
      await note(ctx, (f) => f.dim(`Stopped waiting; the turn goes on${resume}. (Ctrl-C again to end)`));
      return 'stopped';
    }
    // What the person can fix by typing again keeps the REPL going; the rest ends it.
    const code = error instanceof CliError ? error.exitCode : undefined;
    if (
      !ctx.signal.aborted &&
      (code === ExitCode.USAGE || code === ExitCode.CONFLICT || code === ExitCode.QUOTA || code === ExitCode.NOT_FOUND)
    ) {
      await reportAndGoOn(ctx, error);
      if (code === ExitCode.NOT_FOUND && body.conversationId) session.conversationId = undefined;
      return undefined;
    }
    throw error;
  } finally {
    release();
  }
}

/** Prints a reply, decides its waiting actions, and offers its choice: the label picked is the next message. */
async function showReply(
  ctx: Context,
  session: Session,
  reply: ChatMessage,
  prompt: Prompt,
): Promise<{ ended: boolean; next?: string }> {
  const conversationId = session.conversationId as string;
  await printReply(ctx, reply, conversationId, true);
  await note(ctx, (f) => f.dim(`${conversationId}${creditsText(reply)}`));
  if (!ctx.io.canPrompt) return { ended: false };
  const decided = await decideInline(ctx, reply, session, prompt);
  if (decided.ended) return { ended: true };
  if (decided.approved.length > 0) return { ended: !(await carryOn(ctx, session, prompt)) };
  const choice = choicesOf(reply).pop();
  if (!choice) return { ended: false };
  const ids = choice.options.map((o) => o.id);
  const byId = ids.every((id) => id !== '') && new Set(ids).size === ids.length;
  const picked = await prompt(() =>
    ctx.prompter.select(choice.question || 'Choose one', [
      ...choice.options.map((o, i) => ({
        value: byId ? o.id : String(i),
        name: o.label,
        ...(o.hint ? { description: o.hint } : {}),
      })),
      { value: OWN, name: 'Something else (type it)' },
    ]),
  );
  if (picked === undefined) return { ended: true };
  return {
    ended: false,
    next: picked === OWN ? undefined : choice.options.find((o, i) => (byId ? o.id : String(i)) === picked)?.label,
  };
}

/**
 * After an approval the agent carries on in the conversation (the action runs, the
 * agent says what it did): follows it and shows what it added. False when the person ended.
 */
async function carryOn(ctx: Context, session: Session, prompt: Prompt): Promise<boolean> {
  const conversationId = session.conversationId;
  if (!conversationId) return true;
  const stop = new AbortController();
  const release = onInterruptKey(ctx.io, () => stop.abort());
  let page: Messages;
  try {
    page = await followConversation({ ...ctx, signal: AbortSignal.any([ctx.signal, stop.signal]) }, conversationId, {
      limit: 5,
      label: 'Working…',
      resumeHint: `\`${suggest(ctx, 'conversation show', conversationId, '--follow')}\``,
    });
  } catch (error) {
    if (stop.signal.aborted && !ctx.signal.aborted) return true;
    throw error;
  } finally {
    release();
  }
  const messages = Array.isArray(page.messages) ? page.messages : [];
  const last = messages.at(-1);
  if (!last || last.role !== 'assistant' || session.shown === last.id) return true;
  session.shown = last.id;
  const shown = await showReply(ctx, session, last, prompt);
  return !shown.ended;
}
