// The sandbox's agent: composes the reply to a chat turn from the message and
// the account's own content, and carries out the actions it proposes.
//
// A reply is built from parts, in this order: `tool` parts (localized labels;
// `name` is an identifier, never meant for display), a `text` part citing the
// account's library items and docs as [n], a `citations` part, then whatever
// words in the message ask for (English or Chinese):
//   "create/write/draft/add/save … doc|document|note|page" → action create_doc (low risk, ruleScope docs.create)
//   "delete"/"remove"                → action delete_doc or delete_library_item (high risk, no rule scope)
//   "remember"                       → a `memory` part; memory updated at once, undoable
//   "watch"/"track"/"follow"/"monitor" → action create_watch (medium risk, ruleScope watches.create)
//   "choose"/"which"/"pick"          → a `choice` part
//   "research"/"investigate"         → a `task` part: a research task that waits on action save_report
//   a video/podcast URL              → `media` + `task` parts: a transcription is started (credits per minute)
//   "connect"/"gmail"/"slack"/"notion"/"github"/"calendar" → a `connect` card (state available)
// and a `files` part when an uploaded file of the library is cited,
// and a `changes` part for what was created or changed during the turn, with the
// action ids that undo it and the end of the undo window.
import type * as S from '../api/shapes.js';
import { limits } from '../api/shapes.js';
import { foundSources, hasCjk, hostOf, mediaKind } from './content.js';
import { expireAction, findAction, proposeAction, recordExecuted, UNDO_WINDOW_MS } from './routes/actions.js';
import { startMediaFor } from './routes/media.js';
import { cancelHooks, completeMilestone, createTask, findTask, finishTask, isActive, setWaiting, startMilestone } from './routes/tasks.js';
import { createWatchFor, deleteWatch, watches } from './routes/watches.js';
import { HttpFail, type Account, type ActionRecord, type DocRecord, type LibraryRecord, type ScheduledEvent } from './types.js';
import { monthKey, publicView, type World } from './world.js';

type Lang = S.Locale;
type ChangeCore = Omit<S.ArtifactChange, 'actionIds' | 'undoUntil'>;

// ---------------------------------------------------------------- planning a turn

const TRIGGERS = {
  createDoc: [/\b(create|write|draft|make|start|add|save|new|put|turn)\b[^.?!\n]{0,30}?\b(doc|docs|document|documents|note|notes|page)\b/i, /(创建|新建|写|起草|整理|保存)[^。？！\n]{0,10}(文档|笔记)/],
  delete: [/\b(delete|remove|erase)\b/i, /删除|删掉|移除/],
  remember: [/\bremember\b/i, /记住/],
  watch: [/\b(watch|track|follow|monitor)\b/i, /关注|跟踪|追踪|监控/],
  choice: [/\b(choose|which|pick)\b/i, /选择|哪个|哪一个|哪些/],
  research: [/\b(research|investigate)\b/i, /研究|调研/],
  connect: [/\bconnect\b|\b(gmail|slack|notion|github|calendar)\b/i, /连接|接入/],
} as const;

type Trigger = keyof typeof TRIGGERS;

export interface TurnPlan {
  triggers: Trigger[];
  mediaUrl: string | null;
  /** Tool names, in order. */
  tools: string[];
  credits: number;
  durationMs: number;
}

/** Credits per turn, and per extra tool. */
export const TURN_CREDITS = 1;
export const TOOL_CREDITS = 0.5;
/** Sandbox time of a turn: 3 s, plus 1 s per extra tool. */
export const TURN_MS = 3000;
export const TOOL_MS = 1000;

const TRIGGER_TOOL: Record<Trigger, string | null> = {
  createDoc: 'create_doc',
  delete: 'delete_doc',
  remember: 'update_memory',
  watch: 'create_watch',
  choice: null,
  research: 'start_research',
  connect: null,
};

export function planTurn(text: string): TurnPlan {
  // Words in links ("youtube.com/watch") ask for nothing.
  const words = text.replace(/https?:\/\/\S+/g, ' ');
  const triggers = (Object.keys(TRIGGERS) as Trigger[]).filter((t) => TRIGGERS[t].some((re) => re.test(words)));
  const mediaUrl = (text.match(/https?:\/\/[^\s<>"')\]]+/g) ?? []).find((u) => mediaKind(u) !== undefined) ?? null;
  const extra = triggers.map((t) => TRIGGER_TOOL[t]).filter((t): t is string => t !== null);
  if (mediaUrl) extra.push('start_media');
  return {
    triggers,
    mediaUrl,
    tools: ['search_library', 'search_docs', ...extra],
    credits: TURN_CREDITS + TOOL_CREDITS * extra.length,
    durationMs: TURN_MS + TOOL_MS * extra.length,
  };
}

/** The reply's language: the request's `lang`, else Chinese for a message written in Chinese, else the account's setting. */
export function turnLang(account: Account, text: string, lang?: Lang): Lang {
  return lang ?? (hasCjk(text) ? 'zh' : account.lang);
}

const LABELS: Record<string, Record<Lang, string>> = {
  search_library: { en: 'Searching your library', zh: '正在搜索你的资料库' },
  search_docs: { en: 'Searching your docs', zh: '正在搜索你的文档' },
  create_doc: { en: 'Drafting a document', zh: '正在起草文档' },
  delete_doc: { en: 'Preparing the deletion', zh: '正在准备删除' },
  delete_library_item: { en: 'Preparing the deletion', zh: '正在准备删除' },
  update_memory: { en: 'Updating memory', zh: '正在更新记忆' },
  create_watch: { en: 'Preparing a watch', zh: '正在准备关注' },
  start_research: { en: 'Starting research', zh: '正在开始研究' },
  start_media: { en: 'Starting the transcription', zh: '正在开始转写' },
  save_report: { en: 'Saving the report', zh: '正在保存报告' },
};

export function toolLabel(name: string, lang: Lang): string {
  return LABELS[name]?.[lang] ?? name.replace(/_/g, ' ');
}

// ---------------------------------------------------------------- retrieval

const STOP = new Set(
  'the and for with about from into that this these those what which who whom how why when where are was were been being have has had does did doing can could would should will shall may might must please tell show give find me my mine our your you yours its their them they him her his she he it we us a an of in on at to or as is be by do if so not no yes any all some more most less very just also than then there here again create write draft make start doc docs document documents note notes page delete remove erase remember watch track follow monitor choose pick research investigate hello hi thanks thank summary summarise summarize know knew anything something everything'.split(
    ' ',
  ),
);
const ZH_TRIGGER_WORDS = /创建|新建|起草|整理|文档|笔记|删除|删掉|移除|记住|关注|跟踪|追踪|监控|选择|哪个|哪一个|哪些|研究|调研|请|帮我|一下|一个|我的|关于|什么|怎么/g;

/** Words to look for: English words of 3+ letters (not stop words), Chinese bigrams. */
export function queryTokens(text: string): string[] {
  const withoutUrls = text.replace(/https?:\/\/\S+/g, ' ');
  const out: string[] = [];
  for (const word of withoutUrls.toLowerCase().match(/[a-z0-9][a-z0-9-]{2,}/g) ?? []) if (!STOP.has(word)) out.push(word.length > 4 && word.endsWith('s') ? word.slice(0, -1) : word);
  for (const run of withoutUrls.replace(ZH_TRIGGER_WORDS, ' ').match(/[\u3400-\u9fff]+/g) ?? []) {
    if (run.length === 1) continue;
    for (let i = 0; i + 2 <= run.length; i++) out.push(run.slice(i, i + 2));
  }
  return [...new Set(out)];
}

/** What the message is about, for the reply's words. */
function topicOf(text: string, lang: Lang): string {
  const clean = text.replace(/https?:\/\/\S+/g, ' ');
  if (lang === 'zh' && hasCjk(clean)) {
    const stripped = clean.replace(ZH_TRIGGER_WORDS, '').replace(/[，。？！、：；,.?!:;“”"'\s]+/g, '');
    return stripped.slice(0, 16) || clean.trim().slice(0, 16);
  }
  const words = (clean.match(/[A-Za-z0-9\u3400-\u9fff][\w\u3400-\u9fff'-]*/g) ?? []).filter((w) => !STOP.has(w.toLowerCase()) && w.length > 1);
  return words.slice(0, 5).join(' ') || clean.trim().slice(0, 40);
}

interface Hit {
  kind: 'library' | 'doc';
  /** For uploaded files: what a `files` part shows. */
  file?: { name: string; mime: string };
  id: string;
  title: string;
  url: string;
  source: string;
  snippet: string;
  score: number;
  order: number;
}

function firstSentence(text: string, max = 160): string {
  const plain = text
    .replace(/^#+\s.*$/gm, '')
    .replace(/[*_`>#-]+/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  const sentence = /^(.+?[.!?。！？])(\s|$)/.exec(plain)?.[1] ?? plain;
  return sentence.length > max ? `${sentence.slice(0, max - 1)}…` : sentence;
}

function score(tokens: string[], title: string, body: string): number {
  const t = title.toLowerCase();
  const b = body.toLowerCase();
  let s = 0;
  for (const token of tokens) s += (t.includes(token) ? 2 : 0) + (b.includes(token) ? 1 : 0);
  return s;
}

/** The account's library items and docs that match the message best (at most `max`). */
export function retrieve(account: Account, tokens: string[], max = 3): Hit[] {
  if (tokens.length === 0) return [];
  const hits: Hit[] = [];
  account.library.forEach((item, order) => {
    const body = [item.summary ?? '', item.note ?? '', item.keyPoints.join(' '), item.url ?? '', item.fileName ?? ''].join('\n');
    const s = score(tokens, item.title, body);
    if (s <= 0) return;
    hits.push({
      kind: 'library',
      id: item.id,
      title: item.title || item.fileName || item.url || item.id,
      url: item.url ?? `/library/${item.id}`,
      source: item.url ? hostOf(item.url) : 'Library',
      snippet: firstSentence(item.summary || item.note || item.keyPoints[0] || item.title),
      score: s,
      order,
      ...(item.kind === 'file' ? { file: { name: item.fileName ?? item.title, mime: item.mime ?? 'application/octet-stream' } } : {}),
    });
  });
  account.docs.forEach((doc, order) => {
    if (doc._deleted) return;
    const s = score(tokens, doc.title, doc.body);
    if (s <= 0) return;
    hits.push({ kind: 'doc', id: doc.id, title: doc.title || doc.id, url: `/docs/${doc.id}`, source: 'Docs', snippet: firstSentence(doc.body || doc.title), score: s, order: order + 0.5 });
  });
  return hits.sort((a, b) => b.score - a.score || b.order - a.order).slice(0, max);
}

// ---------------------------------------------------------------- composing a reply

function docTitleFrom(text: string, lang: Lang, world: World): string {
  if (lang === 'zh') {
    const about = /关于([^，。？！,.?!\n]{1,20})/.exec(text)?.[1];
    return about ? `关于${about.replace(/的?(文档|笔记)$/, '')}的笔记` : `笔记 ${world.iso().slice(0, 10)}`;
  }
  const named = /\b(?:called|titled|named)\s+["“]?([^"”\n]{2,60}?)["”]?(?:[.?!]|$)/i.exec(text)?.[1];
  if (named) return named.trim();
  const about = /\b(?:about|on|for)\s+["“]?([^"”.?!\n]{2,60})/i.exec(text)?.[1];
  return about ? `Notes on ${about.trim()}` : `Notes ${world.iso().slice(0, 10)}`;
}

function docMarkdown(title: string, hits: Hit[], lang: Lang): string {
  const lines = hits.map((h) => `- ${h.snippet} ([${h.title}](${h.url}))`);
  const empty = lang === 'zh' ? '_暂无内容，稍后补充。_' : '_Nothing yet: add your notes here._';
  return `# ${title}\n\n${lines.length > 0 ? lines.join('\n') : empty}\n`;
}

function memoryFrom(text: string, lang: Lang): string {
  const raw = lang === 'zh' || /记住/.test(text) ? /记住[：:，,\s]*(.+)/s.exec(text)?.[1] : /\bremember\b(?:\s+that)?[\s:,]*(.+)/is.exec(text)?.[1];
  const line = (raw ?? text).replace(/\s+/g, ' ').trim().replace(/[.。!！]+$/, '');
  return line.slice(0, 500) || text.trim().slice(0, 500);
}

/** The parts of the agent's reply to `text`; carries out what the turn itself does (memory, media, research, auto-approved actions). */
export function composeReply(world: World, account: Account, conversation: S.Conversation, text: string, lang: Lang): S.ChatPart[] {
  const zh = lang === 'zh';
  const plan = planTurn(text);
  const tokens = queryTokens(text);
  const hits = retrieve(account, tokens);
  const topic = topicOf(text, lang);
  const toolStatus = new Map<string, 'done' | 'error'>(plan.tools.map((t) => [t, 'done']));
  const toolNames = new Map<string, string>();
  const lines: string[] = [];
  const after: S.ChatPart[] = [];
  const changes: S.ArtifactChange[] = [];
  const spaceId = conversation.spaceId ?? world.defaultSpace(account).id;

  if (hits.length > 0) {
    lines.push(zh ? `关于“${topic}”，我在你的资料库和文档里找到这些：` : `Here is what I found in your library and docs about “${topic}”:`);
    lines.push('');
    hits.forEach((h, i) => lines.push(`- **${h.title}**${zh ? '：' : ': '}${h.snippet} [${i + 1}]`));
  } else if (tokens.length > 0) {
    lines.push(zh ? `我在你的资料库和文档里还没有找到关于“${topic}”的内容。` : `I found nothing about “${topic}” in your library or docs yet.`);
  } else {
    lines.push(zh ? '你好！可以问我资料库和文档里的任何内容。' : 'Hello! Ask me about anything in your library or docs.');
  }
  const say = (line: string) => {
    lines.push('');
    lines.push(line);
  };
  const actionOutcome = (result: ReturnType<typeof proposeAction>, pending: string) => {
    after.push({ type: 'action', action: publicView(result.action) });
    if (result.action.status === 'pending') say(pending);
    else {
      if (result.text) say(result.text);
      if (result.change) changes.push(result.change);
    }
  };

  if (plan.triggers.includes('createDoc')) {
    const title = docTitleFrom(text, lang, world);
    const markdown = docMarkdown(title, hits, lang);
    const result = proposeAction(world, account, {
      tool: 'create_doc',
      risk: 'low',
      title: zh ? `创建文档“${title}”` : `Create the document “${title}”`,
      preview: { title, spaceId, excerpt: markdown.slice(0, 200) },
      ruleScope: 'docs.create',
      conversationId: conversation.id,
      taskId: null,
      execute: { title, markdown, spaceId, lang },
    });
    actionOutcome(result, zh ? `我起草了文档“${title}”，批准后就会创建。` : `I drafted a document “${title}”. Approve the action to create it.`);
  }

  if (plan.triggers.includes('delete')) {
    const target = deleteTarget(account, tokens);
    if (!target) {
      say(zh ? '没有找到可以删除的内容。' : 'I found nothing I could delete.');
    } else {
      toolNames.set('delete_doc', target.kind === 'doc' ? 'delete_doc' : 'delete_library_item');
      const result = proposeAction(world, account, {
        tool: target.kind === 'doc' ? 'delete_doc' : 'delete_library_item',
        risk: 'high',
        title: zh ? `删除“${target.title}”` : `Delete “${target.title}”`,
        preview: { id: target.id, title: target.title, kind: target.kind },
        ruleScope: null,
        conversationId: conversation.id,
        taskId: null,
        execute: { id: target.id, lang },
      });
      actionOutcome(result, zh ? `批准后我会删除“${target.title}”。` : `I can delete “${target.title}” once you approve.`);
    }
  }

  if (plan.triggers.includes('remember')) {
    const memory = memoryFrom(text, lang);
    const previous = account.agent.memory;
    const next = previous ? `${previous.replace(/\n+$/, '')}\n- ${memory}` : `- ${memory}`;
    if (next.length > limits.memoryMax) {
      toolStatus.set('update_memory', 'error');
      say(zh ? '我的记忆已满，这条没能记住。' : 'My memory is full, so I could not remember that.');
    } else {
      account.agent.memory = next;
      const action = recordExecuted(world, account, {
        tool: 'update_memory',
        risk: 'low',
        title: zh ? `记住：${memory}` : `Remember: ${memory}`,
        preview: { add: memory },
        ruleScope: null,
        conversationId: conversation.id,
        taskId: null,
        undo: { previous },
      });
      after.push({ type: 'memory', text: memory, actionId: action.id });
      say(zh ? `我记住了：${memory}` : `I'll remember that: ${memory}`);
    }
  }

  if (plan.triggers.includes('watch')) {
    const intent = text.replace(/\s+/g, ' ').trim().slice(0, 200);
    const result = proposeAction(world, account, {
      tool: 'create_watch',
      risk: 'medium',
      title: zh ? `设置关注“${topic}”` : `Set up a watch on “${topic}”`,
      preview: { intent, type: 'topic', cadence: 'daily', visibility: 'private' },
      ruleScope: 'watches.create',
      conversationId: conversation.id,
      taskId: null,
      execute: { intent: intent.length >= 2 ? intent : `${intent} ${topic}`.trim(), lang, spaceId },
    });
    actionOutcome(result, zh ? `我可以为“${topic}”设置关注，批准后开始。` : `I can set up a watch on “${topic}”. Approve to start it.`);
  }

  if (plan.triggers.includes('research')) {
    const task = startResearch(world, account, conversation, topic, lang, spaceId);
    after.push({ type: 'task', taskId: task.id, kind: 'research', title: task.title });
    changes.push({ kind: 'task', id: task.id, title: task.title, action: 'created', href: `/tasks/${task.id}`, pending: true, actionIds: [], undoUntil: null });
    say(zh ? `我开始研究“${topic}”，保存报告前会先问你。` : `I started researching “${topic}”. I will ask before saving the report.`);
  }

  if (plan.mediaUrl) {
    try {
      const { started, media } = startMediaFor(world, account, { url: plan.mediaUrl, lang, spaceId });
      after.push({ type: 'media', mediaId: media.id, title: media.title });
      after.push({ type: 'task', taskId: started.taskId, kind: 'transcription', title: findTask(account, started.taskId)?.title ?? media.title });
      changes.push({ kind: 'media', id: media.id, title: media.title, action: 'created', href: `/media/${media.id}`, pending: true, actionIds: [], undoUntil: null });
      const minutes = Math.ceil(media.durationSec / 60);
      say(zh ? `正在转写“${media.title}”（${minutes} 分钟，${started.credits} 积分）。` : `I'm transcribing “${media.title}” (${minutes} min, ${started.credits} credits).`);
    } catch (error) {
      if (!(error instanceof HttpFail)) throw error;
      toolStatus.set('start_media', 'error');
      say(zh ? `没能开始转写：${error.message}（${error.code}）` : `I could not start the transcription: ${error.message} (${error.code})`);
    }
  }

  if (plan.triggers.includes('choice')) {
    const question = zh ? '你希望我重点看哪一个？' : 'Which should I focus on?';
    const options =
      hits.length >= 2
        ? hits.map((h, i) => ({ id: `opt${i + 1}`, label: h.title, hint: h.source }))
        : zh
          ? [
              { id: 'summary', label: '简短摘要', hint: '几句话' },
              { id: 'details', label: '详细内容' },
              { id: 'sources', label: '只要来源' },
            ]
          : [
              { id: 'summary', label: 'A short summary', hint: 'a few sentences' },
              { id: 'details', label: 'The details' },
              { id: 'sources', label: 'Just the sources' },
            ];
    after.push({ type: 'choice', id: world.id('ch'), question, options });
    say(question);
  }

  if (plan.triggers.includes('connect')) {
    const card = connectCard(text, lang);
    if (card) {
      after.push({ type: 'connect', card });
      say(zh ? `先连接 ${card.name}，我才能用上它。` : `Connect ${card.name} so I can use it.`);
    }
  }

  const parts: S.ChatPart[] = plan.tools.map((name) => {
    const shown = toolNames.get(name) ?? name;
    return { type: 'tool', id: world.id('tl'), name: shown, label: toolLabel(shown, lang), status: toolStatus.get(name) ?? 'done' };
  });
  parts.push({ type: 'text', text: lines.join('\n') });
  if (hits.length > 0) parts.push({ type: 'citations', items: hits.map((h, i) => ({ n: i + 1, title: h.title, url: h.url, source: h.source })) });
  const files = hits.filter((h) => h.file).map((h) => ({ id: h.id, name: h.file?.name ?? h.title, mime: h.file?.mime ?? '', url: `/library/${h.id}` }));
  if (files.length > 0) parts.push({ type: 'files', items: files });
  parts.push(...orderAfter(after));
  if (changes.length > 0) parts.push({ type: 'changes', items: changes });
  return parts;
}

const PART_ORDER = ['action', 'choice', 'memory', 'task', 'media', 'connect'];

const CONNECTORS: Array<{ id: string; name: string; match: RegExp; access: Record<Lang, string>; recipe: { id: string; title: string; body: string } | null }> = [
  {
    id: 'gmail',
    name: 'Gmail',
    match: /gmail|e-?mail|邮件|邮箱/i,
    access: { en: 'Read your email (read-only)', zh: '读取你的邮件（只读）' },
    recipe: { id: 'daily-email-digest', title: 'Daily email digest', body: 'Every morning, summarise new email into your inbox.' },
  },
  { id: 'google-calendar', name: 'Google Calendar', match: /calendar|日历/i, access: { en: 'See your calendar events (read-only)', zh: '查看你的日历（只读）' }, recipe: null },
  { id: 'slack', name: 'Slack', match: /slack/i, access: { en: 'Read channels you choose', zh: '读取你选择的频道' }, recipe: null },
  { id: 'notion', name: 'Notion', match: /notion/i, access: { en: 'Read pages you share', zh: '读取你共享的页面' }, recipe: null },
  { id: 'github', name: 'GitHub', match: /github/i, access: { en: 'Read repositories you choose', zh: '读取你选择的仓库' }, recipe: null },
];

/** A card asking to connect the service the message names (Gmail when it names none). */
function connectCard(text: string, lang: Lang): Extract<S.ChatPart, { type: 'connect' }>['card'] | undefined {
  const c = CONNECTORS.find((x) => x.match.test(text)) ?? CONNECTORS[0];
  if (!c) return undefined;
  return {
    connector: c.id,
    name: c.name,
    logo: null,
    reason: lang === 'zh' ? `要用 ${c.name} 里的内容回答，需要先连接它。` : `To answer from ${c.name}, I need you to connect it first.`,
    recipe: c.recipe,
    access: c.access[lang],
    href: `/connect/${c.id}`,
    waitId: null,
    state: 'available',
  };
}
function orderAfter(parts: S.ChatPart[]): S.ChatPart[] {
  return parts.map((p, i) => ({ p, i })).sort((a, b) => PART_ORDER.indexOf(a.p.type) - PART_ORDER.indexOf(b.p.type) || a.i - b.i).map((x) => x.p);
}

function deleteTarget(account: Account, tokens: string[]): { kind: 'doc' | 'library'; id: string; title: string } | undefined {
  const docs = account.docs.filter((d) => !d._deleted);
  const scoredDocs = docs.map((d, i) => ({ d, s: score(tokens, d.title, d.body), i })).sort((a, b) => b.s - a.s || b.i - a.i);
  const bestDoc = scoredDocs[0];
  const scoredItems = account.library.map((item, i) => ({ item, s: score(tokens, item.title, item.summary ?? ''), i })).sort((a, b) => b.s - a.s || b.i - a.i);
  const bestItem = scoredItems[0];
  if (bestItem && bestItem.s > 0 && (!bestDoc || bestItem.s > bestDoc.s)) return { kind: 'library', id: bestItem.item.id, title: bestItem.item.title || bestItem.item.id };
  if (bestDoc) return { kind: 'doc', id: bestDoc.d.id, title: bestDoc.d.title || bestDoc.d.id };
  if (bestItem) return { kind: 'library', id: bestItem.item.id, title: bestItem.item.title || bestItem.item.id };
  return undefined;
}

/** Message parts as stored, with the current state of the actions, tasks, media and watches they mention. */
export function refreshParts(world: World, account: Account, parts: S.ChatPart[]): S.ChatPart[] {
  return parts.map((part) => {
    if (part.type === 'action') {
      const current = findAction(account, part.action.id);
      return current ? { ...part, action: publicView(current) } : part;
    }
    if (part.type === 'changes') {
      return { ...part, items: part.items.map((item) => refreshChange(world, account, item)) };
    }
    return part;
  });
}

function refreshChange(world: World, account: Account, item: S.ArtifactChange): S.ArtifactChange {
  const out: S.ArtifactChange = { ...item, actionIds: [...item.actionIds] };
  if (item.actionIds.some((id) => findAction(account, id)?.status === 'undone')) out.undone = true;
  let status: 'pending' | 'done' | 'failed' | undefined;
  if (item.kind === 'media') {
    const media = account.media.find((m) => m.id === item.id);
    status = !media ? undefined : media.status === 'ready' ? 'done' : media.status === 'failed' ? 'failed' : 'pending';
  } else if (item.kind === 'task') {
    const task = findTask(account, item.id);
    status = !task ? undefined : isActive(task) ? 'pending' : task.status === 'done' ? 'done' : 'failed';
  } else if (item.kind === 'watch') {
    const w = watches(world)[item.id];
    status = !w ? undefined : w.status === 'setting_up' ? 'pending' : w.status === 'active' ? 'done' : 'failed';
  }
  if (status === 'pending') out.pending = true;
  else if (status) {
    out.pending = false;
    out.outcome = status;
  }
  return out;
}

// ---------------------------------------------------------------- research tasks

/** Research: plan → searching → reading → writing → output, which waits on action save_report. */
const RESEARCH_BOUNDS = [1000, 5000, 15_000, 25_000, 35_000];

function startResearch(world: World, account: Account, conversation: S.Conversation, topic: string, lang: Lang, spaceId: string) {
  const zh = lang === 'zh';
  const task = createTask(world, account, {
    kind: 'research',
    title: zh ? `研究：${topic}` : `Research: ${topic}`,
    spaceId,
    milestones: [
      { kind: 'plan', title: zh ? '制定研究计划' : 'Plan the research' },
      { kind: 'step', title: zh ? '搜索来源' : 'Searching sources' },
      { kind: 'step', title: zh ? '阅读' : 'Reading' },
      { kind: 'step', title: zh ? '撰写报告' : 'Writing the report' },
      { kind: 'output', title: zh ? '把报告保存为文档' : 'Save the report as a doc' },
    ],
  });
  const start = world.now();
  world.schedule(start + (RESEARCH_BOUNDS[0] ?? 1000), 'research.step', account.id, { taskId: task.id, step: 0, start, conversationId: conversation.id, topic, lang, spaceId });
  return task;
}

export function researchStep(world: World, event: ScheduledEvent): void {
  const account = world.state.accounts[event.accountId ?? ''];
  const data = event.data as { taskId: string; step: number; start: number; conversationId: string; topic: string; lang: Lang; spaceId: string };
  const task = account ? findTask(account, data.taskId) : undefined;
  if (!account || !task || !isActive(task)) return;
  const zh = data.lang === 'zh';
  const tokens = queryTokens(data.topic);
  if (data.step > 0) {
    let detail: string | null = null;
    if (data.step === 2) {
      const n = retrieve(account, tokens, 10).length + 4;
      detail = zh ? `找到 ${n} 个来源` : `Found ${n} sources`;
    }
    completeMilestone(world, task, data.step - 1, { detail });
  }
  startMilestone(world, task, data.step);
  if (data.step < 4) {
    world.schedule(data.start + (RESEARCH_BOUNDS[data.step + 1] ?? 35_000), 'research.step', account.id, { ...data, step: data.step + 1 });
    return;
  }
  // Output: the report is ready; saving it as a doc waits for approval.
  const hits = retrieve(account, tokens, 5);
  const sources = foundSources(world.rng(`research:${task.id}`), 3);
  const title = zh ? `研究报告：${data.topic}` : `Research: ${data.topic}`;
  const findings = hits.map((h, i) => `- ${h.snippet} [${i + 1}]`);
  const refs = [...hits.map((h) => ({ title: h.title, url: h.url })), ...sources].map((s, i) => `${i + 1}. [${s.title}](${s.url})`);
  const markdown = `# ${title}\n\n## ${zh ? '发现' : 'Findings'}\n\n${findings.length > 0 ? findings.join('\n') : zh ? '- 你的资料里暂无直接相关的内容；以下来源值得一读。' : '- Nothing in your own content bears on this yet; the sources below are worth reading.'}\n\n## ${zh ? '来源' : 'Sources'}\n\n${refs.join('\n')}\n`;
  setWaiting(world, task);
  proposeAction(world, account, {
    tool: 'save_report',
    risk: 'low',
    title: zh ? `保存报告“${title}”为文档` : `Save the report “${title}” as a doc`,
    preview: { title, excerpt: markdown.slice(0, 200) },
    ruleScope: 'docs.create',
    conversationId: data.conversationId,
    taskId: task.id,
    execute: { title, markdown, spaceId: data.spaceId, lang: data.lang },
  });
}

cancelHooks.research = (world, account, task) => {
  for (const action of account.actions) if (action.taskId === task.id && action.status === 'pending') expireAction(world, account, action, false);
};

// ---------------------------------------------------------------- executing actions

export interface ExecutionOutcome {
  ok: boolean;
  change: ChangeCore | null;
  text: string | null;
}

export interface Executor {
  label(lang: Lang): string;
  execute(world: World, account: Account, action: ActionRecord): ExecutionOutcome;
  undo(world: World, account: Account, action: ActionRecord): void;
  /** The action was rejected or expired. */
  declined?(world: World, account: Account, action: ActionRecord): void;
}

function langOf(account: Account, action: ActionRecord): Lang {
  const lang = action._execute?.lang;
  return lang === 'zh' || lang === 'en' ? lang : account.lang;
}

function addDoc(world: World, account: Account, title: string, markdown: string, spaceId: unknown): DocRecord {
  const space = account.spaces.find((s) => s.id === spaceId) ?? world.defaultSpace(account);
  const doc: DocRecord = { id: world.id('doc'), title, body: markdown, revision: 1, origin: 'agent', folderId: null, updatedAt: world.iso(), spaceId: space.id, publication: null };
  account.docs.push(doc);
  return doc;
}

function removeDoc(account: Account, id: unknown): void {
  account.docs = account.docs.filter((d) => d.id !== id);
}

const createDoc: Executor = {
  label: (lang) => toolLabel('create_doc', lang),
  execute(world, account, action) {
    const zh = langOf(account, action) === 'zh';
    const { title, markdown, spaceId } = action._execute as { title: string; markdown: string; spaceId: string };
    const doc = addDoc(world, account, title, markdown, spaceId);
    action._undo = { docId: doc.id };
    return {
      ok: true,
      change: { kind: 'doc', id: doc.id, title, action: 'created', href: `/docs/${doc.id}` },
      text: zh ? `已创建文档“${title}”。` : `I created the document “${title}”.`,
    };
  },
  undo(_world, account, action) {
    removeDoc(account, action._undo?.docId);
  },
};

const deleteDoc: Executor = {
  label: (lang) => toolLabel('delete_doc', lang),
  execute(_world, account, action) {
    const zh = langOf(account, action) === 'zh';
    const id = action._execute?.id;
    const index = account.docs.findIndex((d) => d.id === id && !d._deleted);
    const doc = account.docs[index];
    if (!doc) return { ok: false, change: null, text: zh ? '这个文档已经不在了。' : 'That document is already gone.' };
    account.docs.splice(index, 1);
    action._undo = { doc: { ...doc }, index };
    return {
      ok: true,
      change: { kind: 'doc', id: doc.id, title: doc.title, action: 'updated', href: `/docs/${doc.id}`, note: zh ? '已删除' : 'deleted' },
      text: zh ? `已删除“${doc.title}”。${UNDO_WINDOW_MS / 60_000} 分钟内可以撤销。` : `I deleted “${doc.title}”. You can undo this for ${UNDO_WINDOW_MS / 60_000} minutes.`,
    };
  },
  undo(_world, account, action) {
    const doc = action._undo?.doc as DocRecord | undefined;
    if (!doc || account.docs.some((d) => d.id === doc.id)) return;
    const index = Math.min(Number(action._undo?.index ?? account.docs.length), account.docs.length);
    account.docs.splice(index, 0, doc);
  },
};

const deleteLibraryItem: Executor = {
  label: (lang) => toolLabel('delete_library_item', lang),
  execute(_world, account, action) {
    const zh = langOf(account, action) === 'zh';
    const id = action._execute?.id;
    const index = account.library.findIndex((i) => i.id === id);
    const item = account.library[index];
    if (!item) return { ok: false, change: null, text: zh ? '这一条已经不在资料库里了。' : 'That item is no longer in the library.' };
    account.library.splice(index, 1);
    action._undo = { item: { ...item }, index };
    return {
      ok: true,
      change: { kind: 'clip', id: item.id, title: item.title, action: 'updated', href: `/library/${item.id}`, note: zh ? '已删除' : 'deleted' },
      text: zh ? `已从资料库删除“${item.title}”。` : `I removed “${item.title}” from the library.`,
    };
  },
  undo(_world, account, action) {
    const item = action._undo?.item as LibraryRecord | undefined;
    if (!item || account.library.some((i) => i.id === item.id)) return;
    const index = Math.min(Number(action._undo?.index ?? account.library.length), account.library.length);
    account.library.splice(index, 0, item);
  },
};

const createWatch: Executor = {
  label: (lang) => toolLabel('create_watch', lang),
  execute(world, account, action) {
    const zh = langOf(account, action) === 'zh';
    const { intent, lang, spaceId } = action._execute as { intent: string; lang: Lang; spaceId: string };
    try {
      const created = createWatchFor(world, account, { intent, lang, spaceId, visibility: 'private', cadence: 'daily', type: 'topic' });
      action._undo = { slug: created.slug, month: monthKey(world.now()) };
      return {
        ok: true,
        change: { kind: 'watch', id: created.slug, title: created.watch.title, action: 'created', href: `/watches/${created.slug}`, pending: true },
        text: zh ? `已设置关注“${created.watch.title}”，大约一分钟后会有第一期简报。` : `I set up the watch “${created.watch.title}”; the first brief arrives in about a minute.`,
      };
    } catch (error) {
      if (!(error instanceof HttpFail)) throw error;
      return { ok: false, change: null, text: zh ? `没能设置关注：${error.message}（${error.code}）` : `I could not set up the watch: ${error.message} (${error.code})` };
    }
  },
  undo(world, account, action) {
    const slug = String(action._undo?.slug ?? '');
    const month = String(action._undo?.month ?? '');
    deleteWatch(world, slug);
    const used = account.watchesByMonth[month];
    if (used) account.watchesByMonth[month] = used - 1;
  },
};

const updateMemory: Executor = {
  label: (lang) => toolLabel('update_memory', lang),
  execute: () => ({ ok: true, change: null, text: null }),
  undo(_world, account, action) {
    const previous = action._undo?.previous;
    if (typeof previous === 'string') account.agent.memory = previous;
  },
};

const saveReport: Executor = {
  label: (lang) => toolLabel('save_report', lang),
  execute(world, account, action) {
    const zh = langOf(account, action) === 'zh';
    const { title, markdown, spaceId } = action._execute as { title: string; markdown: string; spaceId: string };
    const doc = addDoc(world, account, title, markdown, spaceId);
    action._undo = { docId: doc.id };
    const task = action.taskId ? findTask(account, action.taskId) : undefined;
    if (task && isActive(task)) {
      task.status = 'running';
      const last = task.milestones.length - 1;
      completeMilestone(world, task, last, { detail: zh ? `已保存为文档 ${doc.id}` : `Saved as doc ${doc.id}` });
      finishTask(world, account, task, 'done', { result: { kind: 'doc', id: doc.id, href: `/docs/${doc.id}` }, body: title });
    }
    return {
      ok: true,
      change: { kind: 'doc', id: doc.id, title, action: 'created', href: `/docs/${doc.id}` },
      text: zh ? `报告已保存为文档“${title}”。` : `I saved the report as the document “${title}”.`,
    };
  },
  undo(_world, account, action) {
    removeDoc(account, action._undo?.docId);
  },
  declined(world, account, action) {
    const task = action.taskId ? findTask(account, action.taskId) : undefined;
    if (!task || !isActive(task)) return;
    const zh = langOf(account, action) === 'zh';
    task.status = 'running';
    const last = task.milestones.length - 1;
    completeMilestone(world, task, last, { status: 'skipped', detail: action.status === 'expired' ? (zh ? '未获批准（已过期），报告未保存' : 'Not approved in time; the report was not saved') : zh ? '已拒绝，报告未保存' : 'Rejected; the report was not saved' });
    finishTask(world, account, task, 'done', { body: zh ? '报告未保存。' : 'The report was not saved.' });
  },
};

export const executors: Record<string, Executor> = {
  create_doc: createDoc,
  delete_doc: deleteDoc,
  delete_library_item: deleteLibraryItem,
  create_watch: createWatch,
  update_memory: updateMemory,
  save_report: saveReport,
};
