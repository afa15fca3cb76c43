// `kagent chat [MESSAGE...]`: talk to the agent. sendMessage starts a turn and
// returns at once (202 TurnStarted); the reply is read by polling
// getConversationMessages until `conversation.running` is false (the shared
// poll helper, see src/io/chat.ts), then rendered part by part.
//   one-shot   MESSAGE from the arguments, or from stdin when stdin is not a
//              terminal (or MESSAGE is `-`); never a prompt
//   REPL       on a terminal with no MESSAGE: prompt (on stderr) → spinner →
//              reply, until /exit or Ctrl-D; /new starts a new conversation;
//              a reply with a choice offers it as a select prompt and sends the
//              chosen label as the next message
import type { Context } from '../context.js';
import type { ChatMessage, SendMessageRequest, TurnStarted } from '../api/shapes.js';
import { ApiError, CliError, ExitCode, InterruptedError, UsageError } from '../errors.js';
import { checkInput, defineGroup } from './define.js';

interface ChatOptions {
  continue?: boolean;
  conversation?: string;
  space?: string;
  about?: string[];
  wait: boolean;
  idempotencyKey?: string;
}

/** The most a message read from stdin may hold before we stop reading (the service takes 20,000 characters). */
const STDIN_MAX_BYTES = 1024 * 1024;
/** Messages read per look while a turn runs: the reply is the newest. */
const FOLLOW_LIMIT = 20;

async function command(ctx: Pick<Context, 'flags'>, words: string): Promise<string> {
  const { kagentCommand } = await import('../io/task-follow.js');
  return kagentCommand(ctx, words);
}

async function readMessageFromStdin(ctx: Context): Promise<string> {
  let bytes = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.io.stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    bytes += buffer.length;
    if (bytes > STDIN_MAX_BYTES) throw new UsageError('the message on stdin is over 1 MiB; a message holds at most 20000 characters');
    chunks.push(buffer);
  }
  // One final newline (as `echo` adds) is not part of the message.
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

/** --about doc:ID → {kind: 'doc', id: 'ID'}. */
function parseAbout(values: string[] | undefined): SendMessageRequest['context'] | undefined {
  if (!values || values.length === 0) return undefined;
  const refs = values.map((value) => {
    const match = /^(watch|doc|media):(.+)$/.exec(value);
    if (!match) throw new UsageError(`--about must look like doc:ID, watch:SLUG or media:ID (got "${value}")`);
    return { kind: match[1] as 'watch' | 'doc' | 'media', id: match[2] as string };
  });
  return { refs };
}

const FLAG_FOR = { text: 'MESSAGE', conversationId: '--conversation', spaceId: '--space', lang: '--lang', context: '--about' };

/** What went wrong with sendMessage, in words that say what to do. */
export async function explainSendError(ctx: Context, error: unknown, conversationId: string | undefined): Promise<unknown> {
  if (!(error instanceof ApiError)) return error;
  const show = conversationId ? await command(ctx, `conversation show ${conversationId} --follow`) : undefined;
  if (error.code === 'CREDITS_EXHAUSTED') {
    return new CliError('no credits left for messages to the agent', {
      exitCode: error.exitCode,
      code: error.code,
      hint: `each message is charged by what it takes to answer; see what is left with \`${await command(ctx, 'me')}\`. Reading (conversations, library, briefs) stays free`,
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
    error.hint = `no conversation "${conversationId ?? ''}": \`${await command(ctx, 'conversation list')}\` shows yours`;
  }
  return error;
}

/** The conversation `--continue` means: the most recently active one (in the space, when given). */
async function latestConversation(ctx: Context, spaceId: string | undefined): Promise<string> {
  const api = await ctx.api();
  const page = await api.call('listConversations', { query: { limit: 1, ...(spaceId ? { space: spaceId } : {}) }, signal: ctx.signal });
  const latest = page.items[0];
  if (!latest) {
    throw new CliError(`no conversation to continue${spaceId ? ' in that space' : ''}`, {
      exitCode: ExitCode.NOT_FOUND,
      code: 'NO_CONVERSATION',
      hint: `start one with \`${await command(ctx, 'chat MESSAGE')}\``,
    });
  }
  return latest.id;
}

interface Turn {
  started: TurnStarted;
  reply: ChatMessage;
}

async function send(ctx: Context, body: SendMessageRequest, idempotencyKey: string | undefined): Promise<TurnStarted> {
  const api = await ctx.api();
  try {
    return await api.call('sendMessage', { body, idempotencyKey, signal: ctx.signal });
  } catch (error) {
    throw await explainSendError(ctx, error, body.conversationId);
  }
}

/** Sends one message and follows the turn to its reply. */
async function runTurn(ctx: Context, body: SendMessageRequest, idempotencyKey?: string): Promise<Turn> {
  const started = await send(ctx, body, idempotencyKey);
  const { followConversation, replyOf, noReplyError } = await import('../io/chat.js');
  const show = await command(ctx, `conversation show ${started.conversationId} --follow`);
  const page = await followConversation(ctx, started.conversationId, {
    replyId: started.messageId,
    limit: FOLLOW_LIMIT,
    resumeHint: `the reply will be in the conversation: \`${show}\``,
  });
  const reply = replyOf(page, started);
  if (!reply) throw noReplyError(ctx, started.conversationId);
  return { started, reply };
}

async function printReply(ctx: Context, reply: ChatMessage, conversationId: string, repl: boolean): Promise<void> {
  const { printItem } = await import('../io/output.js');
  const { renderParts } = await import('../io/chat.js');
  await printItem(ctx, reply, (m, f) => renderParts(ctx, m.parts, f, { conversationId, repl }));
}

function creditsText(reply: ChatMessage): string {
  return typeof reply.credits === 'number' ? ` · ${reply.credits} ${reply.credits === 1 ? 'credit' : 'credits'}` : '';
}

// ---------------------------------------------------------------- REPL

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

async function repl(ctx: Context, opts: ChatOptions, first: { conversationId?: string; spaceId?: string; context?: SendMessageRequest['context'] }): Promise<void> {
  const { note, warn } = await import('../io/output.js');
  const { reportError } = await import('../io/report.js');
  const { choicesOf } = await import('../io/chat.js');
  const { sanitizeLine } = await import('../io/sanitize.js');
  const S = await import('../api/shapes.js');
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
  if (conversationId) await note(ctx, `conversation ${conversationId}: ${await command(ctx, `conversation show ${conversationId}`)}`);
}

// ---------------------------------------------------------------- the command

export default defineGroup<ChatOptions, { message?: string[] }>({
  name: 'chat',
  summary: 'Talk to your agent',
  description: [
    'With MESSAGE: sends it, waits for the reply (a spinner on a terminal) and prints it: the tools the agent used, the text (Markdown, [n] citation markers kept), the sources, actions waiting for your approval with the commands that decide them, choices, what it remembered, tasks and media started, changes made (with the undo command) and services to connect. MESSAGE may be several words; `-` (or no MESSAGE with stdin piped) reads it from stdin.',
    '',
    'On a terminal with no MESSAGE: a conversation (REPL). Type a message; /new starts a new conversation; /exit or Ctrl-D ends. When the agent offers a choice you pick it from a list and it is sent as your next message. Without a terminal there is never a prompt.',
    '',
    'Each message costs credits (402 CREDITS_EXHAUSTED: exit 6). One turn at a time per conversation (409 CONVERSATION_BUSY: exit 5). --timeout bounds the wait (exit 8) and Ctrl-C stops it (exit 130): the turn goes on, and `kagent conversation show ID --follow` reads the reply.',
    '',
    '--json prints the reply (the assistant ChatMessage), or with --no-wait the TurnStarted {conversationId, messageId, userMessageId}; piped, --no-wait prints those three tab-separated.',
  ].join('\n'),
  arguments: [{ name: 'message', description: 'what to say (several words are joined with spaces; - reads stdin)', optional: true, variadic: true }],
  options: [
    { flags: '-c, --continue', description: 'continue your most recent conversation (the most recent in --space, when given)' },
    { flags: '--conversation <id>', description: 'continue this conversation' },
    { flags: '--space <space>', description: "start the conversation in this space (id or name); default: the profile's space, else your default space" },
    { flags: '--about <kind:id>', description: 'what the message is about: doc:ID, watch:SLUG or media:ID (repeatable, at most 10)', repeatable: true },
    { flags: '--no-wait', description: 'send and return at once with the conversation and reply ids' },
    { flags: '--idempotency-key <key>', description: 'reuse this key when rerunning a script: within 24 h the same key starts no second turn' },
  ],
  examples: [
    'kagent chat "what did I save about vector search?"',
    'kagent chat',
    'kagent chat -c "and which of those is the most recent?"',
    'kagent chat --about doc:doc_8k2m "tighten the intro of this doc"',
    'git diff | kagent chat --json | jq -r ".parts[] | select(.type == \\"text\\") | .text"',
    'kagent chat --no-wait "research sodium-ion batteries" | cut -f1',
  ],
  async run(ctx, opts, args) {
    const words = args.message ?? [];
    let text: string | undefined = words.length > 0 ? words.join(' ') : undefined;
    if (opts.continue && opts.conversation !== undefined) throw new UsageError('use --continue or --conversation, not both');
    if (opts.space !== undefined && opts.conversation !== undefined) {
      throw new UsageError('--space applies to a new conversation; --conversation continues one that already has its space');
    }
    const context = parseAbout(opts.about);
    const S = await import('../api/shapes.js');
    const { checkIdempotencyKey } = await import('./idempotency-key.js');
    await checkIdempotencyKey(opts.idempotencyKey);
    const { wantsJson } = await import('../io/output.js');
    // Bounds of what can be checked before any request (and before reading stdin).
    const probe: Record<string, unknown> = { text: 'x' };
    if (opts.conversation !== undefined) probe.conversationId = opts.conversation;
    if (opts.space !== undefined) probe.spaceId = opts.space;
    if (context) probe.context = context;
    checkInput(S.SendMessageRequest, probe, FLAG_FOR);

    const nothingPiped = () => new UsageError('no message: pass MESSAGE, or pipe it on stdin (stdin was empty)', 'for example: kagent chat "what did I save about vector search?"');
    if (text === '-') {
      text = await readMessageFromStdin(ctx);
      if (text === '') throw nothingPiped();
    } else if (text === undefined) {
      if (!ctx.io.stdinIsTTY) {
        text = await readMessageFromStdin(ctx);
        if (text === '') throw nothingPiped();
      } else if (!ctx.io.canPrompt || wantsJson(ctx) || !opts.wait || opts.idempotencyKey !== undefined) {
        const { promptBlocker } = await import('../io/terminal.js');
        const why = wantsJson(ctx)
          ? '--json prints one reply'
          : !opts.wait
            ? '--no-wait sends one message'
            : opts.idempotencyKey !== undefined
              ? '--idempotency-key is for one message'
              : (promptBlocker(ctx.io.stdinIsTTY, ctx.io.stdoutIsTTY, ctx.io.env, ctx.flags) ?? 'no terminal');
        throw new UsageError(`no message: pass MESSAGE, or pipe it on stdin (no conversation prompt: ${why})`, 'for example: kagent chat "what did I save about vector search?"');
      }
    }
    if (text !== undefined && text.trim() === '') {
      throw new UsageError('the message is empty', 'pass MESSAGE, or pipe it on stdin');
    }

    // Where the conversation goes: --conversation, --continue, or a new one in --space / the profile's space.
    let spaceId: string | undefined;
    const spaceRef = opts.conversation === undefined ? (opts.space ?? (opts.continue ? undefined : ctx.config.space)) : undefined;
    if (spaceRef !== undefined) {
      const { resolveSpace } = await import('./space.js');
      spaceId = (await resolveSpace(ctx, spaceRef)).id;
    }
    let conversationId = opts.conversation;
    if (opts.continue) conversationId = await latestConversation(ctx, spaceId);

    if (text === undefined) return repl(ctx, opts, { conversationId, spaceId: conversationId ? undefined : spaceId, context });

    const body: SendMessageRequest = { text };
    if (conversationId) body.conversationId = conversationId;
    else if (spaceId) body.spaceId = spaceId;
    if (ctx.config.lang) body.lang = ctx.config.lang;
    if (context) body.context = context;
    checkInput(S.SendMessageRequest, body, FLAG_FOR);

    const { printJson, printItem, success, note } = await import('../io/output.js');
    if (!opts.wait) {
      const started = await send(ctx, body, opts.idempotencyKey);
      if (wantsJson(ctx)) return printJson(ctx, started);
      const show = await command(ctx, `conversation show ${started.conversationId} --follow`);
      await printItem(ctx, started, (s, f) => (f.tty ? '' : [s.conversationId, s.messageId, s.userMessageId].join('\t')));
      await success(ctx, `Sent; the agent is answering in conversation ${started.conversationId}`);
      await note(ctx, `read the reply: ${show}`);
      return;
    }

    const turn = await runTurn(ctx, body, opts.idempotencyKey);
    if (wantsJson(ctx)) return printJson(ctx, turn.reply);
    const id = turn.started.conversationId;
    await printReply(ctx, turn.reply, id, false);
    const next = await command(ctx, `chat --conversation ${id} MESSAGE`);
    const { sanitizeLine } = await import('../io/sanitize.js');
    await note(ctx, (f) => f.dim(sanitizeLine(`conversation ${id}${creditsText(turn.reply)} · continue: ${next}`)));
  },
});
