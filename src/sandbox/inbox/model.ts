// Inbox: finished tasks, briefs, alerts, suggestions and actions waiting for a
// decision. Pull-based. Actions waiting come first, then everything else newest
// first, 30 per page. Items marked done or dismissed leave every list (the
// `unread` count too); a decided or expired approval is marked done by itself.
import type * as S from '../../api/shapes.js';
import { newestFirst } from '../order.js';
import type { Account, ActionRecord } from '../types.js';
import { publicView, type World } from '../world.js';

export const INBOX_PAGE = 30;

export function addInbox(
  world: World,
  account: Account,
  init: {
    kind: S.InboxItem['kind'];
    title: string;
    body?: string;
    action?: ActionRecord;
    taskId?: string | null;
    watchSlug?: string | null;
    briefId?: string | null;
  },
): S.InboxItem {
  const item: S.InboxItem = {
    id: world.id('ib'),
    kind: init.kind,
    title: init.title,
    body: init.body ?? '',
    read: false,
    done: false,
    dismissed: false,
    action: init.action ? publicView(init.action) : null,
    taskId: init.taskId ?? init.action?.taskId ?? null,
    watchSlug: init.watchSlug ?? null,
    briefId: init.briefId ?? null,
    createdAt: world.iso(),
  };
  account.inbox.push(item);
  return item;
}

/** The approval item of an action is done once the action is decided (or expired). */
export function closeApproval(account: Account, actionId: string): void {
  for (const item of account.inbox) if (item.kind === 'approval' && item.action?.id === actionId) item.done = true;
}

export function isOpen(item: S.InboxItem): boolean {
  return !item.done && !item.dismissed;
}

export function unreadCount(account: Account): number {
  return account.inbox.filter((i) => isOpen(i) && !i.read).length;
}

export function inboxItemView(account: Account, item: S.InboxItem): S.InboxItem {
  const action = item.action ? account.actions.find((a) => a.id === item.action?.id) : undefined;
  return { ...item, action: action ? publicView(action) : item.action };
}

function waiting(account: Account, item: S.InboxItem): boolean {
  if (item.kind !== 'approval' || !item.action) return false;
  return account.actions.find((a) => a.id === item.action?.id)?.status === 'pending';
}

/** Open items in inbox order: actions waiting for a decision first, then the rest, each newest first. */
export function inboxOrder(account: Account, filter: (typeof S.INBOX_FILTERS)[number] = 'all'): S.InboxItem[] {
  let items = account.inbox.filter(isOpen);
  switch (filter) {
    case 'unread':
      items = items.filter((i) => !i.read);
      break;
    case 'approval':
      items = items.filter((i) => waiting(account, i));
      break;
    case 'task':
      items = items.filter((i) => i.kind === 'task');
      break;
    case 'brief':
      items = items.filter((i) => i.kind === 'brief' || i.kind === 'alert');
      break;
  }
  const sorted = newestFirst(items);
  return [...sorted.filter((i) => waiting(account, i)), ...sorted.filter((i) => !waiting(account, i))];
}
