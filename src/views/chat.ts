// Chat messages for reading (following a turn to its reply: src/follow/chat.ts; a whole
// conversation, for `conversation show`: chat-transcript.ts).
// Shared by `kagent chat` (one-shot and REPL) and `kagent conversation show`.
//
// A message is rendered part by part, in the order the service sent them:
//   tool        one progress line per tool, with its localized `label` (never `name`)
//   text        Markdown (rendered on a colour terminal), [n] citation markers kept
//   citations   [n] title — source, linked (OSC 8) where the terminal can
//   files       name, type and the command that opens the library item
//   action      title, risk, preview and the approve / reject commands (or how it ended)
//   choice      the question and its options, with the command that answers
//   memory      what the agent remembered, and how to undo it
//   task/media  what was started, and the command that follows it
//   changes     what was created or updated, its state, and the undo command
//   connect     the service to connect, why, the access it needs and where
//   anything else: shown as text, never a crash.
// Everything given here is already sanitised (printItem passes a sanitised
// copy); single-line fields are flattened again. Piped, the same layout comes
// out without colour, Markdown rendering or hyperlinks, with ISO times.
import type { Context } from '../context.js';
import type { ChatMessage } from '../api/shapes.js';
import type { Formatter } from '../io/format.js';
import { hyperlink, linkableUrl, supportsHyperlinks } from '../io/hyperlink.js';
import { textIsUrl } from '../io/link-text.js';
import { renderMarkdown } from '../io/markdown.js';
import { sanitize, sanitizeLine, valueText } from '../io/sanitize.js';
import { truncate } from '../io/width.js';
import { kagentCommand } from '../io/command-line.js';
import { serviceNow } from '../http/service-clock.js';

type RenderContext = Pick<Context, 'io' | 'flags' | 'clock' | 'serviceClock'>;
type Loose = Record<string, unknown>;

// ---------------------------------------------------------------- rendering

export interface RenderOptions {
  /** The conversation the message belongs to: the commands shown name it. */
  conversationId: string;
  /** In the REPL, choices are offered as a prompt: no command line for them. */
  repl?: boolean;
}

/** Any field as one sanitised line. */
export function line(value: unknown): string {
  return sanitizeLine(valueText(value));
}

/** low green, medium yellow, high red; anything else as it is, in red (unknown risk reads as high). */
export function riskText(risk: unknown, f: Formatter): string {
  const text = line(risk) || 'unknown';
  if (risk === 'low') return f.green(text);
  if (risk === 'medium') return f.yellow(text);
  return f.red(text);
}

function toolIcon(status: unknown, f: Formatter): string {
  switch (status) {
    case 'done':
      return f.green('✓');
    case 'error':
      return f.red('✗');
    case 'running':
      return f.cyan('●');
    default:
      return f.yellow('?');
  }
}

/** A preview object as `key: value` lines (values flattened, long ones cut). */
function previewLines(preview: unknown, width: number): string[] {
  if (!preview || typeof preview !== 'object' || Array.isArray(preview))
    return preview === null || preview === undefined ? [] : [cut(line(preview), width)];
  return Object.entries(preview as Loose).map(([key, value]) => cut(`${line(key)}: ${line(value)}`, width));
}

function cut(text: string, width: number): string {
  return truncate(text, Math.max(20, width));
}

/** `doc show` and ID and the like: the command (words, then the value) that opens what a change or part names. */
function openCommand(kind: string, id: string): [string, string] | undefined {
  const verbs: Record<string, string> = {
    doc: 'doc show',
    watch: 'watch show',
    media: 'media show',
    task: 'task show',
    clip: 'lib show',
  };
  const verb = verbs[kind];
  return verb && id ? [verb, id] : undefined;
}

interface PartRenderer {
  (ctx: RenderContext, part: Loose, f: Formatter, options: RenderOptions): Promise<string> | string;
}

const renderers: Record<string, PartRenderer> = {
  async text(ctx, part, f) {
    const text = valueText(part.text);
    if (text.trim() === '') return '';
    const rendered = (await renderMarkdown(ctx, text)).replace(/\n+$/, '');
    // [n] citation markers stay as they are; on a colour terminal they stand out.
    if (!f.tty || !f.color || rendered.includes('\x1b]8;')) return rendered;
    return rendered.replace(/\[(\d{1,3})\]/g, (marker) => f.cyan(marker));
  },

  tool(_ctx, part, f) {
    const status = line(part.status);
    const known = status === 'done' || status === 'error' || status === 'running';
    // `name` is an identifier, never shown: the label is the text meant for people.
    const label = line(part.label) || 'working';
    return `${toolIcon(part.status, f)} ${f.dim(label)}${known ? '' : f.dim(` (${status || 'unknown'})`)}${status === 'error' ? f.red(' (failed)') : ''}`;
  },

  citations(ctx, part, f) {
    const items = Array.isArray(part.items) ? (part.items as Loose[]) : [];
    if (items.length === 0) return '';
    const links = supportsHyperlinks(ctx.io);
    const lines = [f.bold('Sources')];
    for (const item of items) {
      const url = line(item?.url);
      const linked = links && linkableUrl(url);
      // A title that is only the URL or its host: the URL alone where it cannot be a link, said once.
      const urlOnly = url !== '' && textIsUrl(line(item?.title), url);
      const title = urlOnly && !linked ? url : line(item?.title) || url;
      const source = line(item?.source);
      // The source is left out when the title already names it ("… — example.com").
      const showSource = source !== '' && !title.toLowerCase().endsWith(source.toLowerCase());
      const head = `  ${f.cyan(`[${line(item?.n)}]`)} ${hyperlink(title, url, links)}${showSource ? f.dim(` — ${source}`) : ''}`;
      lines.push(head);
      // Shown as text where it is not a link (piped, a terminal without OSC 8, a site path).
      if (url && !linked && !urlOnly) lines.push(`      ${f.dim(url)}`);
    }
    return lines.join('\n');
  },

  files(ctx, part, f) {
    const items = Array.isArray(part.items) ? (part.items as Loose[]) : [];
    if (items.length === 0) return '';
    const lines = [f.bold('Files')];
    for (const item of items) {
      const id = line(item?.id);
      const mime = line(item?.mime);
      lines.push(`  ▪ ${line(item?.name) || id}${mime ? f.dim(` (${mime})`) : ''}${id ? f.dim(`  ${id}`) : ''}`);
      if (id) lines.push(`      ${f.dim('open:')} ${f.cyan(kagentCommand(ctx, 'lib show', id))}`);
    }
    return lines.join('\n');
  },

  action(ctx, part, f, options) {
    // In the REPL a waiting action is decided right after the reply: no command lines for it.
    return renderAction(ctx, (part.action ?? {}) as Loose, f, { commands: !options.repl });
  },

  choice(ctx, part, f, options) {
    const choices = Array.isArray(part.options) ? (part.options as Loose[]) : [];
    const lines = [`${f.yellow('?')} ${f.bold(line(part.question) || 'Choose one')}`];
    // In the REPL the question and its options come as a select prompt right after the reply (asked once).
    if (options.repl) return '';
    choices.forEach((option, i) => {
      const hint = line(option?.hint);
      lines.push(`    ${i + 1}. ${line(option?.label)}${hint ? f.dim(` — ${hint}`) : ''}`);
    });
    const first = choices[0];
    if (!options.repl && first && line(first.label)) {
      lines.push(
        `    ${f.dim('answer:')} ${f.cyan(kagentCommand(ctx, 'chat --conversation', options.conversationId, line(first.label)))}`,
      );
    }
    return lines.join('\n');
  },

  memory(ctx, part, f) {
    const actionId = line(part.actionId);
    const lines = [`${f.magenta('✎')} ${f.bold('Remembered:')} ${line(part.text)}`];
    if (actionId) lines.push(`    ${f.dim('undo:')} ${f.cyan(kagentCommand(ctx, 'actions undo', actionId))}`);
    return lines.join('\n');
  },

  task(ctx, part, f) {
    const id = line(part.taskId);
    const kind = line(part.kind);
    const lines = [
      `${f.cyan('▸')} ${f.bold('Task:')} ${line(part.title) || id}${f.dim(` (${[kind, id].filter(Boolean).join(', ')})`)}`,
    ];
    if (id) lines.push(`    ${f.dim('follow:')} ${f.cyan(kagentCommand(ctx, 'task show', id, '--follow'))}`);
    return lines.join('\n');
  },

  media(ctx, part, f) {
    const id = line(part.mediaId);
    const lines = [`${f.cyan('▸')} ${f.bold('Media:')} ${line(part.title) || id}${id ? f.dim(` (${id})`) : ''}`];
    if (id) lines.push(`    ${f.dim('open:')} ${f.cyan(kagentCommand(ctx, 'media show', id))}`);
    return lines.join('\n');
  },

  changes(ctx, part, f) {
    const items = Array.isArray(part.items) ? (part.items as Loose[]) : [];
    if (items.length === 0) return '';
    const now = serviceNow(ctx);
    const lines = [f.bold('Changes')];
    for (const item of items) lines.push(...changeLines(ctx, item, f, now));
    return lines.join('\n');
  },

  connect(_ctx, part, f) {
    const card = (part.card ?? {}) as Loose;
    const name = line(card.name) || line(card.connector) || 'a service';
    const state = line(card.state);
    if (state === 'connected') return `${f.green('✓')} ${name} is connected`;
    const lines = [
      `${f.yellow('⚡')} ${f.bold(`Connect ${name}`)}${card.connector ? f.dim(` (${line(card.connector)})`) : ''}${line(card.reason) ? `: ${line(card.reason)}` : ''}`,
    ];
    const facts = [
      line(card.access) && `access: ${line(card.access)}`,
      state && `state: ${state === 'expired' ? f.yellow(state) : state}`,
    ].filter(Boolean);
    if (facts.length) lines.push(`    ${facts.join(f.dim(' · '))}`);
    const recipe = card.recipe as Loose | null | undefined;
    if (recipe && typeof recipe === 'object')
      lines.push(
        `    ${f.dim('recipe:')} ${line(recipe.title)}${line(recipe.body) ? f.dim(` — ${line(recipe.body)}`) : ''}`,
      );
    if (card.href) lines.push(`    ${f.dim('connect it in the web app:')} ${line(card.href)}`);
    return lines.join('\n');
  },
};

/** One change: what was done to what and where it stands, then the command that opens it (or where) and the one that undoes it. */
function changeLines(ctx: RenderContext, item: Loose | undefined, f: Formatter, now: number): string[] {
  const kind = line(item?.kind);
  const id = line(item?.id);
  const verb = line(item?.action) || 'changed';
  const note = line(item?.note);
  const state = changeState(item, f);
  const lines = [
    `  ${changeSign(item, verb, f)} ${verb} ${kind} “${line(item?.title) || id}”${id ? f.dim(` (${id})`) : ''}${note ? ` — ${note}` : ''}${state ? ` ${state}` : ''}`,
  ];
  const open = openCommand(kind, id);
  if (open && !item?.undone) lines.push(`      ${f.dim('open:')} ${f.cyan(kagentCommand(ctx, ...open))}`);
  else if (!open && item?.href) lines.push(`      ${f.dim('in the web app:')} ${line(item.href)}`);
  const undo = undoLine(ctx, item, f, now);
  if (undo) lines.push(undo);
  return lines;
}

/** ↺ undone, + created, ~ anything else. */
function changeSign(item: Loose | undefined, verb: string, f: Formatter): string {
  if (item?.undone) return f.dim('↺');
  return verb === 'created' ? f.green('+') : f.yellow('~');
}

/** Where a change stands, where the service says: undone, in progress, failed or done. */
function changeState(item: Loose | undefined, f: Formatter): string {
  if (item?.undone) return f.dim('undone');
  if (item?.pending) return f.cyan('in progress');
  if (item?.outcome === 'failed') return f.red('failed');
  if (item?.outcome === 'done') return f.green('done');
  return '';
}

/** The command that undoes a change (and until when), or that its window has closed; nothing once undone or when it cannot be. */
function undoLine(ctx: RenderContext, item: Loose | undefined, f: Formatter, now: number): string | undefined {
  const actionIds = Array.isArray(item?.actionIds) ? (item.actionIds as unknown[]).map(line).filter(Boolean) : [];
  if (item?.undone || actionIds.length === 0) return undefined;
  const until = typeof item?.undoUntil === 'number' ? item.undoUntil : null;
  if (until !== null && until < now) return `      ${f.dim(`undo window closed ${f.time(until)}`)}`;
  const when = until === null ? '' : ` (until ${f.time(until)})`;
  return `      ${f.dim(`undo${when}:`)} ${f.cyan(kagentCommand(ctx, 'actions undo', ...actionIds))}`;
}

/** An action as a chat part, in `actions list`-like words: waiting (with the commands that decide it) or how it ended. */
export function renderAction(
  ctx: RenderContext,
  action: Loose,
  f: Formatter,
  options: { commands?: boolean } = {},
): string {
  const commands = options.commands !== false;
  const id = line(action.id);
  const title = line(action.title) || id || 'an action';
  const status = line(action.status);
  const facts = `${f.dim('(risk ')}${riskText(action.risk, f)}${f.dim(`${action.tool ? `, ${line(action.tool)}` : ''}${id ? `, ${id}` : ''})`)}`;
  const now = serviceNow(ctx);
  const lines: string[] = [];
  switch (status) {
    case 'pending': {
      lines.push(`${f.yellow('⏸')} ${f.bold('Waiting for your approval:')} ${title} ${facts}`);
      for (const entry of previewLines(action.preview, Math.min(f.width, 120) - 4)) lines.push(`    ${f.dim(entry)}`);
      if (id && commands) {
        lines.push(`    ${f.dim('approve:')} ${f.cyan(kagentCommand(ctx, 'actions approve', id))}`);
        lines.push(`    ${f.dim('reject: ')} ${f.cyan(kagentCommand(ctx, 'actions reject', id))}`);
      }
      break;
    }
    case 'approved':
      lines.push(`${f.cyan('●')} ${f.bold('Approved, running:')} ${title} ${facts}`);
      break;
    case 'executed': {
      lines.push(`${f.green('✓')} ${f.bold('Done:')} ${title} ${facts}`);
      const until = typeof action.undoUntil === 'number' ? action.undoUntil : null;
      if (id && until !== null && until >= now)
        lines.push(`    ${f.dim(`undo (until ${f.time(until)}):`)} ${f.cyan(kagentCommand(ctx, 'actions undo', id))}`);
      break;
    }
    case 'rejected':
      lines.push(`${f.dim('✗')} ${f.bold('Rejected:')} ${title} ${facts}`);
      break;
    case 'expired':
      lines.push(`${f.dim('–')} ${f.bold('Expired undecided:')} ${title} ${facts}`);
      break;
    case 'failed':
      lines.push(`${f.red('✗')} ${f.bold('Failed:')} ${title} ${facts}`);
      break;
    case 'undone':
      lines.push(`${f.dim('↺')} ${f.bold('Undone:')} ${title} ${facts}`);
      break;
    default:
      lines.push(`${f.yellow('?')} ${f.bold(`Action ${status || 'of unknown status'}:`)} ${title} ${facts}`);
  }
  return lines.join('\n');
}

/** A part of a type this version does not know: its text, or its fields as JSON. */
function renderUnknown(part: unknown, f: Formatter): string {
  if (typeof part === 'string') return sanitize(part);
  if (!part || typeof part !== 'object') return part === undefined || part === null ? '' : sanitize(String(part));
  const { type, ...rest } = part as Loose;
  const label = f.dim(`[${line(type) || 'part'}]`);
  if (typeof rest.text === 'string') return `${label} ${sanitize(rest.text)}`;
  return `${label} ${sanitizeLine(JSON.stringify(rest))}`;
}

/** The parts of one message, block by block (consecutive tool lines form one block). */
export async function renderParts(
  ctx: RenderContext,
  parts: unknown,
  f: Formatter,
  options: RenderOptions,
): Promise<string> {
  const list = Array.isArray(parts) ? parts : [];
  const blocks: string[] = [];
  let tools: string[] = [];
  const flushTools = () => {
    if (tools.length > 0) blocks.push(tools.join('\n'));
    tools = [];
  };
  for (const part of list) {
    const p = (part && typeof part === 'object' ? part : {}) as Loose;
    const type = typeof p.type === 'string' ? p.type : '';
    const renderer = Object.hasOwn(renderers, type) ? renderers[type] : undefined;
    let text: string;
    try {
      text = renderer && part && typeof part === 'object' ? await renderer(ctx, p, f, options) : renderUnknown(part, f);
    } catch {
      // A known type in a shape this version does not expect: shown as it came.
      text = renderUnknown(part, f);
    }
    if (type === 'tool') {
      if (text) tools.push(text);
      continue;
    }
    flushTools();
    if (text.trim() !== '') blocks.push(text);
  }
  flushTools();
  return blocks.join('\n\n');
}

/** The choice parts of a message (for the REPL's select prompt). */
export function choicesOf(
  message: ChatMessage | undefined,
): Array<{ id: string; question: string; options: Array<{ id: string; label: string; hint?: string }> }> {
  const parts = Array.isArray(message?.parts) ? (message.parts as unknown[]) : [];
  const out: Array<{ id: string; question: string; options: Array<{ id: string; label: string; hint?: string }> }> = [];
  for (const part of parts) {
    const p = part as Loose;
    if (p?.type !== 'choice' || !Array.isArray(p.options)) continue;
    const options = (p.options as Loose[])
      .map((o) => ({
        id: line(o?.id),
        label: line(o?.label),
        ...(typeof o?.hint === 'string' ? { hint: line(o.hint) } : {}),
      }))
      .filter((o) => o.label !== '');
    if (options.length > 0) out.push({ id: line(p.id), question: line(p.question), options });
  }
  return out;
}

/** Who wrote a message, when, and what it cost: "You · 3 minutes ago" / "Agent · just now · 1.5 credits". */
export function messageHeader(message: ChatMessage, f: Formatter, agentName = 'Agent'): string {
  const who = authorName(message.role, agentName);
  const facts = [f.time(message.createdAt)];
  if (typeof message.credits === 'number')
    facts.push(`${f.number(message.credits)} ${message.credits === 1 ? 'credit' : 'credits'}`);
  const refs = Array.isArray(message.context?.refs)
    ? message.context.refs.map((r) => `${line(r?.kind)} ${line(r?.id)}`)
    : [];
  if (refs.length > 0) facts.push(`about ${refs.join(', ')}`);
  const colour = message.role === 'user' ? f.green : f.magenta;
  return `${colour(f.bold(who))} ${f.dim(`· ${facts.join(' · ')}`)}`;
}

/** You, the agent by its name, or the role as the service gave it. */
function authorName(role: unknown, agentName: string): string {
  if (role === 'user') return 'You';
  if (role === 'assistant') return agentName;
  return line(role) || 'unknown';
}
