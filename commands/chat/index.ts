// `kagent chat [MESSAGE...]`: talk to the agent. sendMessage starts a turn and
// returns at once (202 TurnStarted); the reply is read by polling
// getConversationMessages until `conversation.running` is false (the shared
// poll helper, see src/views/chat.ts), then rendered part by part.
//   one-shot   MESSAGE from the arguments, or from stdin when stdin is not a
//              terminal (or MESSAGE is `-`); never a prompt
//   REPL       on a terminal with no MESSAGE (repl.ts)
import type { SendMessageRequest } from '../../src/api/shapes.js';
import type { Context } from '../../src/context.js';
import { UsageError } from '../../src/errors.js';
import { checkInput, defineGroup, type OptionsOf } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';
import { idempotencyKeyOption, spaceOption } from '../../src/kit/options.js';
import { repl } from './repl.js';
import {
  creditsText,
  FLAG_FOR,
  latestConversation,
  parseAbout,
  printReply,
  readMessageFromStdin,
  runTurn,
  send,
} from './turn.js';
import { wantsJson, printJson, printItem, success, footer } from '../../src/io/output.js';
import { resolveSpace } from '../../src/kit/space.js';
import { sanitizeLine } from '../../src/io/sanitize.js';
import { promptBlocker } from '../../src/io/terminal.js';
import { checkIdempotencyKey } from '../../src/kit/idempotency-key.js';
import * as S from '../../src/api/shapes.js';

const options = [
  {
    flags: '-c, --continue',
    description: 'continue your most recent conversation (the most recent in --space, when given)',
  },
  { flags: '--conversation <id>', description: 'continue this conversation', complete: 'conversation' },
  spaceOption(
    "start the conversation in this space (id or name); default: the profile's space, else your default space",
  ),
  {
    flags: '--about <kind:id>',
    description: 'what the message is about: doc:ID, watch:SLUG or media:ID (repeatable, at most 10)',
    repeatable: true,
  },
  { flags: '--no-wait', description: 'send and return at once with the conversation and reply ids' },
  idempotencyKeyOption('within 24 h the same key starts no second turn', 'chat'),
] as const;
type ChatOptions = OptionsOf<typeof options>;

export default defineGroup({
  name: 'chat',
  summary: 'Talk to your agent',
  description: [
    'With MESSAGE: sends it, waits for the reply (a spinner on a terminal) and prints it: the tools the agent used, the text (Markdown, [n] citation markers kept), the sources, actions waiting for your approval with the commands that decide them, choices, what it remembered, tasks and media started, changes made (with the undo command) and services to connect. MESSAGE may be several words; `-` (or no MESSAGE with stdin piped) reads it from stdin.',
    '',
    'On a terminal with no MESSAGE: a conversation (REPL). Type a message; /new starts a new conversation; /exit or Ctrl-D ends (or Ctrl-C twice). When the agent offers a choice you pick it from a list and it is sent as your next message. An action waiting for your approval is decided right there (approve, approve and allow that kind from now on, reject, or later; a high-risk one is confirmed); /approve [ID], /reject [ID], /undo [ID], /actions, /inbox and /help work at the prompt. Ctrl-C clears the line, or stops waiting for a running turn (it goes on). Without a terminal there is never a prompt.',
    '',
    'Each message costs credits (402 CREDITS_EXHAUSTED: exit 6). One turn at a time per conversation (409 CONVERSATION_BUSY: exit 5). --timeout bounds the wait (exit 8) and Ctrl-C stops it (exit 130): the turn goes on, and `kagent conversation show ID --follow` reads the reply.',
    '',
    '--json prints the reply (the assistant ChatMessage), or with --no-wait the TurnStarted {conversationId, messageId, userMessageId}; piped, --no-wait prints those three tab-separated. On a terminal a footer on stderr names the conversation and the command that continues it; piped there is none (its conversationId is in --json, and -c continues it).',
  ].join('\n'),
  arguments: [
    {
      name: 'message',
      description: 'what to say (several words are joined with spaces; - reads stdin)',
      optional: true,
      variadic: true,
    },
  ],
  options,
  examples: [
    'kagent chat "what did I save about vector search?"',
    'kagent chat',
    'kagent chat -c "and which of those is the most recent?"',
    'kagent chat --about doc:doc_8k2m4xq9zc "tighten the intro of this doc"',
    'git diff | kagent chat --json | jq -r ".parts[] | select(.type == \\"text\\") | .text"',
    'kagent chat --no-wait "research sodium-ion batteries" | cut -f1',
  ],
  async run(ctx, opts, args) {
    const words = args.message ?? [];
    let text: string | undefined = words.length > 0 ? words.join(' ') : undefined;
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

    text = await messageOrRepl(ctx, opts, text);
    if (text !== undefined && text.trim() === '') {
      throw new UsageError('the message is empty', 'pass MESSAGE, or pipe it on stdin');
    }

    // Where the conversation goes: --conversation, --continue, or a new one in --space / the profile's space.
    let spaceId: string | undefined;
    const spaceRef =
      opts.conversation === undefined ? (opts.space ?? (opts.continue ? undefined : ctx.config.space)) : undefined;
    if (spaceRef !== undefined) {
      spaceId = (await resolveSpace(ctx, spaceRef)).id;
    }
    let conversationId = opts.conversation;
    if (opts.continue) conversationId = await latestConversation(ctx, spaceId);

    if (text === undefined)
      return repl(ctx, { conversationId, spaceId: conversationId ? undefined : spaceId, context });

    const body: SendMessageRequest = { text };
    if (conversationId) body.conversationId = conversationId;
    else if (spaceId) body.spaceId = spaceId;
    if (ctx.config.lang) body.lang = ctx.config.lang;
    if (context) body.context = context;
    checkInput(S.SendMessageRequest, body, FLAG_FOR);

    if (!opts.wait) {
      const started = await send(ctx, body, opts.idempotencyKey);
      if (wantsJson(ctx)) return printJson(ctx, started);
      const show = suggest(ctx, 'conversation show', started.conversationId, '--follow');
      await printItem(ctx, started, (s, f) =>
        f.tty ? '' : [s.conversationId, s.messageId, s.userMessageId].join('\t'),
      );
      await success(ctx, `Sent; the agent is answering in conversation ${started.conversationId}`);
      await footer(ctx, `read the reply: ${show}`);
      return;
    }

    const turn = await runTurn(ctx, body, opts.idempotencyKey);
    if (wantsJson(ctx)) return printJson(ctx, turn.reply);
    const id = turn.started.conversationId;
    await printReply(ctx, turn.reply, id, false);
    const next = `${suggest(ctx, 'chat --conversation', id)} MESSAGE`;
    await footer(ctx, (f) => f.dim(sanitizeLine(`conversation ${id}${creditsText(turn.reply)} · continue: ${next}`)));
  },
});

/**
 * The message to send: from the arguments, from stdin (`-`, or stdin piped), or
 * undefined for a conversation on the terminal, which is refused where it
 * cannot be held (no terminal, --json, --no-wait, --idempotency-key).
 */
async function messageOrRepl(ctx: Context, opts: ChatOptions, given: string | undefined): Promise<string | undefined> {
  let text = given;
  const nothingPiped = () =>
    new UsageError(
      'no message: pass MESSAGE, or pipe it on stdin (stdin was empty)',
      'for example: `kagent chat "what did I save about vector search?"`',
    );
  if (text === '-') {
    text = await readMessageFromStdin(ctx);
    if (text === '') throw nothingPiped();
  } else if (text === undefined) {
    if (!ctx.io.stdinIsTTY) {
      text = await readMessageFromStdin(ctx);
      if (text === '') throw nothingPiped();
    } else if (!ctx.io.canPrompt || wantsJson(ctx) || !opts.wait || opts.idempotencyKey !== undefined) {
      const why = wantsJson(ctx)
        ? '--json prints one reply'
        : !opts.wait
          ? '--no-wait sends one message'
          : opts.idempotencyKey !== undefined
            ? '--idempotency-key is for one message'
            : (promptBlocker(ctx.io.stdinIsTTY, ctx.io.stdoutIsTTY, ctx.io.env, ctx.flags) ?? 'no terminal');
      throw new UsageError(
        `no message: pass MESSAGE, or pipe it on stdin (no conversation prompt: ${why})`,
        'for example: `kagent chat "what did I save about vector search?"`',
      );
    }
  }
  return text;
}
