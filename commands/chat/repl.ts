// The conversation on a terminal: prompt (on stderr) → spinner → reply, until
// /exit or Ctrl-D; /new starts a new conversation; a reply with a choice offers
// it as a select prompt and sends the chosen label as the next message.
import type { SendMessageRequest } from '../../src/api/shapes.js';
import type { Context } from '../../src/context.js';
import { CliError, ExitCode, InterruptedError } from '../../src/errors.js';
import { checkInput } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';
import { creditsText, FLAG_FOR, printReply, runTurn, type Turn } from './turn.js';

const EOT = '\x04';

/**
 * One line from the person, or undefined when they end the input (Ctrl-D on an
 * empty line). The prompter (on stderr) turns both Ctrl-C and Ctrl-D into an
 * interruption; Ctrl-D is told apart by watching for the EOT byte it sends.
 */
async function ask<T>(ctx: Context, prompt: () => Promise<T>): Promise<T | undefined> {
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
  try {
    return await Promise.race([prompt(), ended]);
  } catch (error) {
    if (error instanceof InterruptedError && lastWasEot && !ctx.signal.aborted) return undefined;
    throw error;
  } finally {
    stdin.off('data', onData);
    stdin.off('pause', onPause);
    if (!wasFlowing) stdin.pause();
  }
}

const OWN = '\u0000own';

export async function repl(ctx: Context, first: { conversationId?: string; spaceId?: string; context?: SendMessageRequest['context'] }): Promise<void> {
  const { note, warn } = await import('../../src/io/output.js');
  const { reportError } = await import('../../src/io/report.js');
  const { choicesOf } = await import('../../src/views/chat.js');
  const { sanitizeLine } = await import('../../src/io/sanitize.js');
  const S = await import('../../src/api/shapes.js');
  const api = await ctx.api();
  let name = 'your agent';
  try {
    name = sanitizeLine((await api.call('getAgent', { signal: ctx.signal })).name) || name;
  } catch (error) {
    if (ctx.signal.aborted) throw error;
  }
  let conversationId = first.conversationId;
  await note(ctx, (f) => `Chatting with ${f.bold(name)}${conversationId ? ` in conversation ${conversationId}` : ''}. ${f.dim('/new starts a new conversation, /help lists commands, /exit or Ctrl-D ends.')}`);

  const printError = (error: unknown) =>
    reportError(error, { stderr: ctx.io.stderr, json: false, color: ctx.io.colorStderr, debug: ctx.flags.debug, interrupted: ctx.signal.aborted });
  let next: string | undefined;
  for (;;) {
    const text = next ?? (await ask(ctx, () => ctx.prompter.text('You')));
    next = undefined;
    if (text === undefined) break;
    const trimmed = text.trim();
    if (trimmed === '') continue;
    if (trimmed === '/exit' || trimmed === '/quit') break;
    if (trimmed === '/new') {
      conversationId = undefined;
      await note(ctx, 'New conversation: your next message starts it.');
      continue;
    }
    if (trimmed === '/help') {
      await note(ctx, '/new  start a new conversation\n/exit end (Ctrl-D too)\n//…  send a message that starts with /');
      continue;
    }
    if (trimmed.startsWith('/') && !trimmed.startsWith('//')) {
      await warn(ctx, `unknown command ${trimmed.split(/\s/)[0]}: /help lists them (start with // to send a message beginning with /)`);
      continue;
    }
    const message = trimmed.startsWith('//') ? text.replace(/^\s*\//, '') : text;
    const body: SendMessageRequest = { text: message };
    if (conversationId) body.conversationId = conversationId;
    else if (first.spaceId) body.spaceId = first.spaceId;
    if (ctx.config.lang) body.lang = ctx.config.lang;
    if (first.context) body.context = first.context;
    let turn: Turn;
    try {
      checkInput(S.SendMessageRequest, body, { ...FLAG_FOR, text: 'the message' });
      turn = await runTurn(ctx, body);
    } catch (error) {
      // What the person can fix by typing again keeps the REPL going; the rest ends it.
      const code = error instanceof CliError ? error.exitCode : undefined;
      if (!ctx.signal.aborted && (code === ExitCode.USAGE || code === ExitCode.CONFLICT || code === ExitCode.QUOTA || code === ExitCode.NOT_FOUND)) {
        printError(error);
        if (code === ExitCode.NOT_FOUND && body.conversationId) conversationId = undefined;
        continue;
      }
      throw error;
    }
    conversationId = turn.started.conversationId;
    await printReply(ctx, turn.reply, conversationId, true);
    await note(ctx, (f) => f.dim(`${sanitizeLine(turn.started.conversationId)}${creditsText(turn.reply)}`));

    const choice = choicesOf(turn.reply).pop();
    if (choice && ctx.io.canPrompt) {
      const ids = choice.options.map((o) => o.id);
      const byId = ids.every((id) => id !== '') && new Set(ids).size === ids.length;
      const picked = await ask(ctx, () =>
        ctx.prompter.select(choice.question || 'Choose one', [
          ...choice.options.map((o, i) => ({ value: byId ? o.id : String(i), name: o.label, ...(o.hint ? { description: o.hint } : {}) })),
          { value: OWN, name: 'Something else (type it)' },
        ]),
      );
      if (picked === undefined) break;
      if (picked !== OWN) next = choice.options.find((o, i) => (byId ? o.id : String(i)) === picked)?.label;
    }
  }
  if (conversationId) await note(ctx, `conversation ${conversationId}: ${suggest(ctx, `conversation show ${conversationId}`)}`);
}
