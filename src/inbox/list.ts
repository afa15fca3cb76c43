// `kagent inbox [list]`: the items, actions waiting first, with a footer on a
// terminal (the unread count and the commands that mark and decide them).
import type { InboxItem } from '../api/shapes.js';
import * as S from '../api/shapes.js';
import type { Context } from '../context.js';
import { paginate } from '../http/paginate.js';
import type { Formatter } from '../io/format.js';
import { note, printList, type Column } from '../io/output.js';
import { checkInput } from '../kit/define.js';
import { suggest } from '../kit/hints.js';
import { paging } from '../kit/options.js';
import { atTerminal } from '../io/outcome.js';

/** The listing's columns; the help's "Piped, each row is" comes from them (commands/inbox/shared.ts). */
export const columns: Column<InboxItem>[] = [
  { header: 'Id', value: (i) => i.id },
  { header: 'Kind', value: (i) => i.kind, display: (i, f) => kindText(i.kind, f) },
  { header: 'Read', value: (i) => i.read === true, only: 'plain', about: 'true/false' },
  { header: '', value: (i) => (i.read ? '' : '●'), display: (i, f) => (i.read ? '' : f.cyan('●')), only: 'tty' },
  { header: 'Title', value: (i) => i.title, flex: true },
  { header: 'Created', value: (i) => i.createdAt, kind: 'time' },
  { header: 'Action', value: (i) => i.action?.id, only: 'plain', about: 'id' },
  { header: 'Task', value: (i) => i.taskId, only: 'plain', about: 'id' },
  { header: 'Watch', value: (i) => i.watchSlug, only: 'plain', about: 'slug' },
  { header: 'Brief', value: (i) => i.briefId, only: 'plain', about: 'id' },
];

export interface InboxListOptions {
  filter?: string;
  limit?: number;
  all?: boolean;
}

/** What an empty list says, by --filter. */
const EMPTY: Record<string, string> = {
  all: 'Your inbox is empty.',
  approval: 'No actions are waiting for your decision.',
};

export async function listInbox(ctx: Context, opts: InboxListOptions): Promise<void> {
  const filter = opts.filter ?? 'all';
  checkInput(S.Queries.listInbox, { filter }, { filter: '--filter' });
  const api = await ctx.api();
  let unread: number | undefined;
  // The footer's approve/reject line only where the pages read hold an action waiting.
  let waiting = false;
  const items = paginate<InboxItem>(async (cursor) => {
    const page = await api.call('listInbox', {
      query: { filter, ...(cursor !== undefined ? { cursor } : {}) },
      signal: ctx.signal,
    });
    if (typeof page.unread === 'number') unread = page.unread;
    if (Array.isArray(page.items))
      waiting ||= page.items.some((item) => item?.kind === 'approval' || Boolean(item?.action));
    return page;
  }, paging(opts));
  const count = await printList<InboxItem>(ctx, items, {
    empty: EMPTY[filter] ?? `Nothing in your inbox for --filter ${filter}.`,
    columns,
  });
  if (!atTerminal(ctx)) return;
  const lines: string[] = [];
  if (unread !== undefined) lines.push(`${unread} unread`);
  if (count > 0) {
    lines.push(`mark: ${suggest(ctx, 'inbox read|done|dismiss ID...')}`);
    if (waiting)
      lines.push(`actions waiting: ${suggest(ctx, 'actions approve ID')} or ${suggest(ctx, 'actions reject ID')}`);
  }
  if (lines.length > 0) await note(ctx, (f) => f.dim(lines.join('\n')));
}

function kindText(kind: string, f: Formatter): string {
  switch (kind) {
    case 'approval':
      return f.yellow(kind);
    case 'task':
      return f.cyan(kind);
    case 'brief':
      return f.magenta(kind);
    case 'alert':
      return f.red(kind);
    case 'suggestion':
      return f.dim(kind);
    default:
      return kind;
  }
}
