// A whole conversation for reading (`kagent conversation show`): its title and
// facts, then every message with its header and its parts as chat.ts renders them.
import type { Context } from '../context.js';
import type { Messages } from '../api/shapes.js';
import type { Formatter } from '../io/format.js';
import { line, messageHeader, renderParts, str, type RenderOptions } from './chat.js';

type RenderContext = Pick<Context, 'io' | 'flags' | 'clock' | 'serviceClock'>;

/**
 * `conversation show`. Terminal: the title, then each message with a header.
 * Piped: label/value lines for the conversation, `--`, then per message a line
 * `message<TAB>id<TAB>role<TAB>ISO time<TAB>credits` followed by its rendering,
 * every line of it indented by two spaces, and a blank line.
 */
export async function renderTranscript(ctx: RenderContext, page: Messages, f: Formatter): Promise<string> {
  const c = (page.conversation ?? {}) as Messages['conversation'];
  const messages = Array.isArray(page.messages) ? page.messages : [];
  const options: RenderOptions = { conversationId: c.id };
  if (!f.tty) {
    const head = f.fields([
      ['id', c.id],
      ['title', c.title],
      ['space', c.spaceId ?? ''],
      ['channel', c.channel],
      ['messages', String(c.messageCount ?? messages.length)],
      ['updated', typeof c.updatedAt === 'number' ? new Date(c.updatedAt).toISOString() : str(c.updatedAt)],
      ['running', String(c.running === true)],
    ]);
    const bodies: string[] = [];
    for (const message of messages) {
      const when =
        typeof message.createdAt === 'number' ? new Date(message.createdAt).toISOString() : str(message.createdAt);
      const header = [
        'message',
        message.id,
        message.role,
        when,
        typeof message.credits === 'number' ? String(message.credits) : '',
      ]
        .map(line)
        .join('\t');
      const body = await renderParts(ctx, message.parts, f, options);
      bodies.push(
        `${header}\n${body
          .split('\n')
          .map((l) => (l === '' ? '' : `  ${l}`))
          .join('\n')}\n`,
      );
    }
    return [head, '--', ...bodies].join('\n').replace(/\n+$/, '');
  }
  const facts = [
    c.id,
    c.channel,
    `${f.number(c.messageCount ?? messages.length)} messages`,
    `updated ${f.time(c.updatedAt)}`,
  ];
  if (c.running) facts.push(f.cyan('the agent is answering'));
  const out = [f.bold(line(c.title) || c.id), f.dim(facts.join(' · '))];
  const total = typeof c.messageCount === 'number' ? c.messageCount : messages.length;
  if (total > messages.length)
    out.push(f.dim(`(the last ${messages.length} of ${total} messages; --limit shows more)`));
  for (const message of messages) {
    out.push('', messageHeader(message, f));
    const body = await renderParts(ctx, message.parts, f, options);
    if (body) out.push(body);
  }
  return out.join('\n');
}
