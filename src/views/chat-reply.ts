// A chat reply as `kagent chat` prints it: on a terminal (and in the REPL)
// every part of it; piped, the answer's text on stdout and the rest, for a
// person, on stderr at a terminal. And the credits a reply cost, for footers.
import type { ChatMessage } from '../api/shapes.js';
import type { Context } from '../context.js';
import { getFormatter, note, printItem } from '../io/output.js';
import { sanitizeDeep } from '../io/sanitize.js';
import { renderParts } from './chat.js';

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
