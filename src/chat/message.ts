// The message of `kagent chat`: from the arguments, from stdin (`-`, or stdin
// piped), or none for a conversation on the terminal (the REPL), refused where
// one cannot be held; and what --about names.
import type { SendMessageRequest } from '../api/shapes.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { wantsJson } from '../io/output.js';
import { whyNoPrompt as whyNoPromptAt } from '../io/prompt.js';

/** The most a message read from stdin may hold before we stop reading (the service takes 20,000 characters). */
const STDIN_MAX_BYTES = 1024 * 1024;

/** The message piped on stdin, up to 1 MiB (one final newline, as `echo` adds, left out). */
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

/** The flag or argument behind each field of SendMessageRequest, for messages about bad input. */
export const FLAG_FOR = {
  text: 'MESSAGE',
  conversationId: '--conversation',
  spaceId: '--space',
  lang: '--lang',
  context: '--about',
};

/**
 * The message to send: from the arguments, from stdin (`-`, or stdin piped), or
 * undefined for a conversation on the terminal, which is refused where it
 * cannot be held (no terminal, --json, --no-wait, --idempotency-key).
 */
export async function messageOrRepl(
  ctx: Context,
  opts: { wait?: boolean; idempotencyKey?: string },
  given: string | undefined,
): Promise<string | undefined> {
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
      throw new UsageError(
        `no message: pass MESSAGE, or pipe it on stdin (no conversation prompt: ${whyNoPrompt(ctx, opts)})`,
        'for example: `kagent chat "what did I save about vector search?"`',
      );
    }
  }
  return text;
}

/** Why no conversation can be held on this terminal: the flag that asks for one message, or what blocks a prompt. */
function whyNoPrompt(ctx: Context, opts: { wait?: boolean; idempotencyKey?: string }): string {
  if (wantsJson(ctx)) return '--json prints one reply';
  if (!opts.wait) return '--no-wait sends one message';
  if (opts.idempotencyKey !== undefined) return '--idempotency-key is for one message';
  return whyNoPromptAt(ctx);
}
