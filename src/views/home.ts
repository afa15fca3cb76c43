// `kagent home`: the overview (getHome) — what the agent read, the latest
// briefs, running tasks, actions waiting (with the commands that decide them),
// suggestions, unread inbox items and recent conversations.
// Terminal: one section each (empty ones left out). Piped: one tab-separated
// line per row, the first column naming the section (the command's description lists them).
import type { Home } from '../api/shapes.js';
import type { Context } from '../context.js';
import { kagentCommand } from '../io/command-line.js';
import { isoTime, type Formatter } from '../io/format.js';
import { sanitizeLine } from '../io/sanitize.js';
import { riskText } from './chat.js';
import { taskStatus } from './task.js';

function list<T>(value: T[] | undefined | null): T[] {
  return Array.isArray(value) ? value : [];
}

function row(...cells: unknown[]): string {
  return cells
    .map((cell) => (cell === undefined || cell === null ? '' : String(cell).replace(/[\t\n\r]+/g, ' ')))
    .join('\t');
}

/** Piped: `section<TAB>...` lines, in the order of the terminal's sections. */
export function plainHome(home: Home): string {
  const lines: string[] = [row('agent', home.agent?.name)];
  for (const item of list(home.read)) lines.push(row('read', item.id, item.kind, item.title, item.url, item.createdAt));
  for (const b of list(home.briefs))
    lines.push(row('brief', b.slug, b.brief?.id, b.brief?.date, b.brief?.entryCount, b.watchTitle, b.brief?.title));
  for (const t of list(home.tasks)) lines.push(row('task', t.id, t.kind, t.status, t.progress, t.title));
  for (const a of list(home.actions))
    lines.push(row('action', a.id, a.risk, a.tool, a.title, a.conversationId, a.taskId));
  for (const s of list(home.suggestions)) lines.push(row('suggestion', s.id, s.text, s.prompt));
  lines.push(row('unread', home.inbox?.unread ?? 0));
  for (const i of list(home.inbox?.items)) lines.push(row('inbox', i.id, i.kind, i.read, i.title, i.createdAt));
  for (const c of list(home.conversations))
    lines.push(row('conversation', c.id, c.title, c.messageCount, c.running, isoTime(c.updatedAt)));
  return lines.join('\n');
}

export async function renderHome(ctx: Context, home: Home, f: Formatter): Promise<string> {
  // One line each: server text with a newline must not break the layout.
  const l = (value: unknown) => sanitizeLine(value === undefined || value === null ? '' : String(value));
  // In backticks, as in every hint: kept whole on a narrow terminal, to be copied (src/io/width.ts).
  // Commands in colour, not in backticks: a line pasted into a shell runs as it reads (a backtick would substitute).
  const cmd = (words: string, ...args: string[]) => f.cyan(kagentCommand(ctx, words, ...args));
  const name = l(home.agent?.name) || 'Your agent';
  const actions = list(home.actions);
  const unread = home.inbox?.unread ?? 0;
  const summary = [
    `${f.number(unread)} unread in your inbox`,
    `${actions.length} ${actions.length === 1 ? 'action' : 'actions'} waiting for you`,
  ];
  const out: string[] = [`${f.bold(name)} ${f.dim(`· ${summary.join(' · ')}`)}`];
  const section = (title: string, lines: string[]) => {
    if (lines.length > 0) out.push('', f.bold(title), ...lines);
  };

  section(
    `What ${name} read lately`,
    list(home.read).map(
      (i) => `  • ${l(i.title || i.url || i.id)} ${f.dim(`· ${l(i.kind)} · ${f.time(i.createdAt)} · ${l(i.id)}`)}`,
    ),
  );
  section(
    'Latest briefs',
    list(home.briefs).flatMap((b) => [briefLine(b, l, f), `      ${cmd('watch show', l(b.slug))}`]),
  );
  section(
    'Running tasks',
    list(home.tasks).flatMap((t) => [
      `  ${f.cyan('●')} ${l(t.title)} ${f.dim('·')} ${taskStatus(t.status, f)}${typeof t.progress === 'number' ? f.dim(` ${Math.round(t.progress * 100)}%`) : ''} ${f.dim(`· ${l(t.id)}`)}`,
      `      ${cmd('task show', l(t.id), '--follow')}`,
    ]),
  );
  section(
    'Waiting for your decision',
    actions.flatMap((a) => [
      `  ${f.yellow('⏸')} ${l(a.title)} ${f.dim('(risk ')}${riskText(a.risk, f)}${f.dim(`, ${l(a.tool)}, ${l(a.id)})`)}`,
      `      ${f.dim('approve:')} ${cmd('actions approve', l(a.id))}`,
      `      ${f.dim('reject: ')} ${cmd('actions reject', l(a.id))}`,
    ]),
  );
  section(
    'Suggestions',
    list(home.suggestions).flatMap((s) => [`  • ${l(s.text)}`, `      ${cmd('chat', l(s.prompt || s.text))}`]),
  );
  section(
    `Unread in your inbox (${f.number(unread)})`,
    list(home.inbox?.items).map(
      (i) =>
        `  ${i.read ? ' ' : f.cyan('●')} ${f.dim(`[${l(i.kind)}]`)} ${l(i.title)} ${f.dim(`· ${f.time(i.createdAt)} · ${l(i.id)}`)}`,
    ),
  );
  if (unread > list(home.inbox?.items).length) out.push(`      ${f.dim('all of it:')} ${cmd('inbox --filter unread')}`);
  section(
    'Recent conversations',
    list(home.conversations).map(
      (c) =>
        `  • ${l(c.title || c.id)} ${f.dim(`· ${l(c.messageCount)} messages · ${f.time(c.updatedAt)} · ${l(c.id)}`)}${c.running ? ` ${f.cyan('● answering')}` : ''}`,
    ),
  );
  if (out.length === 1)
    out.push(
      '',
      f.dim(`Nothing here yet: save a link with ${cmd('lib save URL')}, or talk to ${name} with ${cmd('chat')}.`),
    );
  return out.join('\n');
}

/** A brief in the list: the watch's title, the brief's (each said once), its date unless the title says it, its size. */
function briefLine(b: Home['briefs'][number], l: (value: unknown) => string, f: Formatter): string {
  const title = briefTitleAfter(l(b.watchTitle), l(b.brief?.title));
  const date = l(b.brief?.date);
  const facts = [...(date && !title.includes(date) ? [date] : []), `${l(b.brief?.entryCount ?? 0)} entries`];
  return `  • ${f.bold(l(b.watchTitle || b.slug))}${title} ${f.dim(`· ${facts.join(' · ')}`)}`;
}

/**
 * " — <brief title>" after the watch's title, without the watch's title again when
 * the brief's title starts with it ("Heat pumps — brief of 2026-01-12" → " — brief of
 * 2026-01-12"); nothing when nothing is left.
 */
function briefTitleAfter(watchTitle: string, briefTitle: string): string {
  let rest = briefTitle.trim();
  const watch = watchTitle.trim();
  if (watch && rest.toLowerCase().startsWith(watch.toLowerCase()))
    rest = rest.slice(watch.length).replace(/^[\s—–\-:·]+/u, '');
  return rest ? ` — ${rest}` : '';
}
