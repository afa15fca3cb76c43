// Inbox routes: the list in inbox order and marking items. What the inbox holds
// and its order are in ../inbox/model.ts.
import type * as S from '../../api/shapes.js';
import { inboxItemView, inboxOrder, INBOX_PAGE, unreadCount } from '../inbox/model.js';
import type { Jobs, Routes } from '../types.js';
import { notFound, page } from '../world.js';

export const routes: Routes = {
  listInbox: ({ account, query }) => {
    const filter = (query.filter ?? 'all') as (typeof S.INBOX_FILTERS)[number];
    const result = page(
      inboxOrder(account, filter),
      { cursor: query.cursor, limit: INBOX_PAGE },
      `inbox:${account.id}:${filter}`,
      INBOX_PAGE,
    );
    const body: S.Inbox = {
      items: result.items.map((i) => inboxItemView(account, i)),
      nextCursor: result.nextCursor,
      unread: unreadCount(account),
    };
    return { body };
  },

  markInboxItem: ({ account, params, body }) => {
    const item = account.inbox.find((i) => i.id === params.id);
    if (!item) throw notFound('INBOX_ITEM_NOT_FOUND', `Inbox item ${params.id}`);
    const input = body as S.MarkInboxRequest;
    if (input.read !== undefined) item.read = input.read;
    if (input.done !== undefined) item.done = input.done;
    if (input.dismissed !== undefined) item.dismissed = input.dismissed;
    return { status: 204 };
  },
};

export const jobs: Jobs = {};
