// A whole conversation for reading (`kagent conversation show`): its title and
// facts, then every message with its header and its parts as chat.ts renders them.
import type { Context } from '../context.js';
import type { Messages } from '../api/shapes.js';
import type { Formatter } from '../io/format.js';
import { renderView, type ItemView } from '../io/declared.js';
import { line, messageHeader, renderParts, type RenderOptions } from './chat.js';
import { valueText } from '../io/sanitize.js';

type RenderContext = Pick<Context, 'io' | 'flags' | 'clock' | 'serviceClock'>;

const conversationOf = (page: Messages) => (page.conversation ?? {}) as Messages['conversation'];
const messagesOf = (page: Messages) => (Array.isArray(page.messages) ? page.messages : []);

/**
 * The conversation's head, declared once: its piped `key<TAB>value` lines (a terminal shows it its own way),
 * the keys --json takes and the help's "Piped, …" sentence.
 */
export const transcriptHead: ItemView<Messages> = {
  fields: [
    { key: 'id', value: (p) => conversationOf(p).id, json: 'conversation.id' },
    { key: 'title', value: (p) => conversationOf(p).title, json: 'conversation.title' },
    { key: 'space', value: (p) => conversationOf(p).spaceId ?? '', json: 'conversation.spaceId' },
    { key: 'channel', value: (p) => conversationOf(p).channel, json: 'conversation.channel' },
    // No link: `--json messages` is the API's list of them.
    {
      key: 'messages',
      value: (p) => conversationOf(p).messageCount ?? messagesOf(p).length,
      about: 'how many in all',
    },
    {
      key: 'updated',
      value: (p) => {
        const { updatedAt } = conversationOf(p);
        return typeof updatedAt === 'number' ? new Date(updatedAt).toISOString() : valueText(updatedAt);
      },
      kind: 'time',
      json: 'conversation.updatedAt',
    },
    { key: 'running', value: (p) => conversationOf(p).running === true, kind: 'bool', json: 'conversation.running' },
  ],
  then:
    'Then a `--` line, and for each message a line `message<TAB>id<TAB>role<TAB>time<TAB>credits` followed by the message, ' +
    'each of its lines indented by two spaces.',
};

/**
 * `conversation show` piped: the head's `key<TAB>value` lines, `--`, then per message a line
 * `message<TAB>id<TAB>role<TAB>ISO time<TAB>credits` followed by its rendering, every line of it
 * indented by two spaces, and a blank line.
 */
export async function pipedTranscript(ctx: RenderContext, page: Messages, f: Formatter): Promise<string> {
  const options: RenderOptions = { conversationId: conversationOf(page).id };
  const bodies: string[] = [];
  for (const message of messagesOf(page)) {
    const when =
      typeof message.createdAt === 'number' ? new Date(message.createdAt).toISOString() : valueText(message.createdAt);
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
  return [renderView(page, transcriptHead, f), '--', ...bodies].join('\n').replace(/\n+$/, '');
}

/** `conversation show` on a terminal: the title and its facts, then each message with a header. */
export async function renderTranscript(ctx: RenderContext, page: Messages, f: Formatter): Promise<string> {
  const c = conversationOf(page);
  const messages = messagesOf(page);
  const options: RenderOptions = { conversationId: c.id };
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
