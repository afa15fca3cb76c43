// The agent's own record (name, memory, address) and the home overview: what the
// agent read, the latest briefs of the watches followed, running tasks, actions
// waiting, suggestions, unread inbox items and recent conversations.
import type * as S from '../../api/shapes.js';
import { limits } from '../../api/shapes.js';
import { conversationView } from '../conversations/model.js';
import { inboxItemView, inboxOrder, unreadCount } from '../inbox/model.js';
import { compare, newestBy, newestFirst } from '../order.js';
import { isActive, taskView } from '../tasks/model.js';
import type { Account } from '../types.js';
import { briefRef, latestBrief, watches } from '../watches/model.js';
import { publicView, type World } from '../world.js';

const HOME_LIST = 5;

export function agentView(account: Account): S.Agent {
  return {
    name: account.agent.name,
    memory: account.agent.memory,
    memoryMax: limits.memoryMax,
    address: account.agent.address,
  };
}

/** Renames the agent or replaces its memory; a field left out stays as it is. */
export function updateAgent(account: Account, input: S.UpdateAgentRequest): void {
  if (input.name !== undefined) account.agent.name = input.name;
  if (input.memory !== undefined) account.agent.memory = input.memory;
}

/** Suggestions from the account's state, then open suggestion items of the inbox. */
function suggestions(account: Account): S.Home['suggestions'] {
  const zh = account.lang === 'zh';
  const out: S.Home['suggestions'] = [];
  if (Object.keys(account.follows).length === 0) {
    out.push(
      zh
        ? { id: 'sg_follow', text: '关注一个公开的主题，每天收到简报', prompt: '有哪些公开的关注可以订阅？' }
        : {
            id: 'sg_follow',
            text: 'Follow a public watch to get a brief every day',
            prompt: 'Which public watches could I follow?',
          },
    );
  }
  const latest = newestFirst(account.library.filter((i) => i.status === 'ready'))[0];
  if (latest) {
    out.push(
      zh
        ? { id: 'sg_ask', text: `问问“${latest.title}”的要点`, prompt: `“${latest.title}”的要点是什么？` }
        : {
            id: 'sg_ask',
            text: `Ask about “${latest.title}”`,
            prompt: `What are the key points of “${latest.title}”?`,
          },
    );
  }
  if (account.docs.filter((d) => !d._deleted).length === 0) {
    out.push(
      zh
        ? { id: 'sg_doc', text: '把资料整理成一篇文档', prompt: '帮我创建一篇文档，整理我最近保存的内容' }
        : {
            id: 'sg_doc',
            text: 'Turn what you saved into a document',
            prompt: 'Create a doc about what I saved recently',
          },
    );
  }
  for (const item of newestFirst(account.inbox.filter((i) => i.kind === 'suggestion' && !i.done && !i.dismissed))) {
    out.push({ id: item.id, text: item.title, prompt: item.body || item.title });
  }
  return out;
}

/** The home overview, five of each list at most (tasks and actions waiting: all). */
export function home(world: World, account: Account): S.Home {
  const all = watches(world);
  const briefs = Object.keys(account.follows)
    .map((slug) => all[slug])
    .filter((w) => w !== undefined)
    .map((w) => ({ w, b: latestBrief(world, w) }))
    .filter((x): x is { w: NonNullable<typeof x.w>; b: NonNullable<typeof x.b> } => x.b !== undefined)
    // Newest brief first; briefs of the same millisecond in the order the watches were followed.
    .sort((a, b) => compare(b.b.createdAt, a.b.createdAt))
    .slice(0, HOME_LIST)
    .map(({ w, b }) => ({ slug: w.slug, watchTitle: w.title, brief: briefRef(b) }));
  return {
    agent: { name: account.agent.name },
    read: newestFirst(account.library.filter((i) => i.status === 'ready'))
      .slice(0, HOME_LIST)
      .map((i) => publicView(i)),
    briefs,
    tasks: newestFirst(account.tasks.filter(isActive)).map(taskView),
    actions: newestFirst(account.actions.filter((a) => a.status === 'pending')).map((a) => publicView(a)),
    suggestions: suggestions(account),
    inbox: {
      unread: unreadCount(account),
      items: inboxOrder(account, 'unread')
        .slice(0, HOME_LIST)
        .map((i) => inboxItemView(account, i)),
    },
    conversations: newestBy(account.conversations, (c) => c.updatedAt)
      .slice(0, HOME_LIST)
      .map(conversationView),
  };
}
