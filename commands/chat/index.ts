// `kagent chat [MESSAGE...]`: talk to the agent. sendMessage starts a turn and
// returns at once (202 TurnStarted); the reply is read by polling
// getConversationMessages until `conversation.running` is false
// (src/follow/chat.ts), then rendered part by part (src/views/chat.ts).
//   one-shot   MESSAGE from the arguments, or from stdin when stdin is not a
//              terminal (or MESSAGE is `-`); never a prompt
//   REPL       on a terminal with no MESSAGE (src/chat/repl.ts)
// The engine is src/chat/: this file declares the command and delegates.
import { defineGroup } from '../../src/kit/define.js';
import { idempotencyKeyOption, spaceOption } from '../../src/kit/options.js';
import { runChat } from '../../src/chat/run.js';

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

export default defineGroup({
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
  run: (ctx, opts, args) => runChat(ctx, opts, args.message ?? []),
});
