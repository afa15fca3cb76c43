// What the words of a message ask for, one handler each (the trigger table is in
// compose.ts): an action to create a doc, delete something or set up a watch; a
// memory update; a research task; a transcription; a choice; a connect card.
// Each adds its parts and words to the turn, and carries out what the turn
// itself does (memory, media, research, auto-approved actions).
import type * as S from '../../api/shapes.js';
import { limits } from '../../api/shapes.js';
import { proposeAction, recordExecuted } from '../actions/state.js';
import { quote } from '../media/model.js';
import { HttpFail, type Account } from '../types.js';
import { publicView, type World } from '../world.js';
import type { TurnPlan } from './plan.js';
import { startResearch } from './research.js';
import { deleteTarget, type Hit } from './retrieve.js';

type Lang = S.Locale;

/** A turn being answered: what it was asked and found, and the reply built so far. */
export interface Turn {
  world: World;
  account: Account;
  conversation: S.Conversation;
  text: string;
  lang: Lang;
  zh: boolean;
  plan: TurnPlan;
  tokens: string[];
  hits: Hit[];
  topic: string;
  spaceId: string;
  /** A tool that failed this turn is shown with status `error`. */
  toolStatus: Map<string, 'done' | 'error'>;
  /** The name a tool is shown under when the turn picked another (delete_doc → delete_library_item). */
  toolNames: Map<string, string>;
  /** Parts that follow the text (ordered by kind when the reply is put together). */
  after: S.ChatPart[];
  /** What was created or changed during the turn. */
  changes: S.ArtifactChange[];
  /** Lines of the reply's text. */
  lines: string[];
  /** Adds a paragraph to the text. */
  say(line: string): void;
}

/** Adds a proposed action's part, and its words: what approval will do, or (auto-approved by a rule) what was done. */
function actionOutcome(turn: Turn, result: ReturnType<typeof proposeAction>, pending: string): void {
  turn.after.push({ type: 'action', action: publicView(result.action) });
  if (result.action.status === 'pending') turn.say(pending);
  else {
    if (result.text) turn.say(result.text);
    if (result.change) turn.changes.push(result.change);
  }
}

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
  const raw =
    lang === 'zh' || /记住/.test(text)
      ? /记住[：:，,\s]*(.+)/s.exec(text)?.[1]
      : /\bremember\b(?:\s+that)?[\s:,]*(.+)/is.exec(text)?.[1];
  const line = (raw ?? text)
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.。!！]+$/, '');
  return line.slice(0, 500) || text.trim().slice(0, 500);
}

/** Drafts a document from what the turn found (action create_doc). */
export function proposeDoc(turn: Turn): void {
  const { world, account, conversation, text, lang, zh, hits, spaceId } = turn;
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
  actionOutcome(
    turn,
    result,
    zh
      ? `我起草了文档“${title}”，批准后就会创建。`
      : `I drafted a document “${title}”. Approve the action to create it.`,
  );
}

/** Proposes deleting the doc or library item the message names best (action delete_doc or delete_library_item). */
export function proposeDelete(turn: Turn): void {
  const { world, account, conversation, lang, zh, tokens, toolNames, say } = turn;
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
    actionOutcome(
      turn,
      result,
      zh ? `批准后我会删除“${target.title}”。` : `I can delete “${target.title}” once you approve.`,
    );
  }
}

/** Adds a line to the agent's memory at once, as an executed action that can be undone. */
export function remember(turn: Turn): void {
  const { world, account, conversation, text, lang, zh, toolStatus, after, say } = turn;
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

/** Proposes a private daily watch on the message (action create_watch). */
export function proposeWatch(turn: Turn): void {
  const { world, account, conversation, text, lang, zh, topic, spaceId } = turn;
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
  actionOutcome(
    turn,
    result,
    zh ? `我可以为“${topic}”设置关注，批准后开始。` : `I can set up a watch on “${topic}”. Approve to start it.`,
  );
}

/** Starts a research task that will ask before saving its report. */
export function research(turn: Turn): void {
  const { world, account, conversation, lang, zh, topic, spaceId, after, changes, say } = turn;
  const task = startResearch(world, account, conversation, topic, lang, spaceId);
  after.push({ type: 'task', taskId: task.id, kind: 'research', title: task.title });
  changes.push({
    kind: 'task',
    id: task.id,
    title: task.title,
    action: 'created',
    href: `/tasks/${task.id}`,
    pending: true,
    actionIds: [],
    undoUntil: null,
  });
  say(
    zh
      ? `我开始研究“${topic}”，保存报告前会先问你。`
      : `I started researching “${topic}”. I will ask before saving the report.`,
  );
}

/**
 * A video or podcast link: "a quote, charged per minute, comes first" (the contract), so
 * the agent quotes it and proposes the transcription as an action awaiting approval
 * that carries the quote (tool start_media, never approved by a rule: each one spends
 * credits). Nothing is charged until it is approved; then it starts like POST /media.
 */
export function transcribe(turn: Turn): void {
  const { world, account, conversation, lang, zh, spaceId, toolStatus, say } = turn;
  const url = turn.plan.mediaUrl;
  if (url === null) return;
  let q: ReturnType<typeof quote>;
  try {
    q = quote(world, url, lang);
  } catch (error) {
    if (!(error instanceof HttpFail)) throw error;
    toolStatus.set('start_media', 'error');
    say(
      zh
        ? `没能为转写报价：${error.message}（${error.code}）`
        : `I could not get a quote for transcribing it: ${error.message} (${error.code})`,
    );
    return;
  }
  const result = proposeAction(world, account, {
    tool: 'start_media',
    risk: 'medium',
    title: zh
      ? `转写“${q.title}”（${q.minutes} 分钟，${q.credits} 积分）`
      : `Transcribe “${q.title}” (${q.minutes} min, ${q.credits} credits)`,
    preview: {
      url,
      title: q.title,
      kind: q.kind,
      durationSec: q.durationSec,
      minutes: q.minutes,
      pricePerMinute: q.pricePerMinute,
      credits: q.credits,
    },
    ruleScope: null,
    conversationId: conversation.id,
    taskId: null,
    execute: { url, lang, spaceId },
  });
  actionOutcome(
    turn,
    result,
    zh
      ? `转写“${q.title}”（${q.minutes} 分钟）需要 ${q.credits} 积分（每分钟 ${q.pricePerMinute}）。批准后开始。`
      : `Transcribing “${q.title}” (${q.minutes} min) costs ${q.credits} credits (${q.pricePerMinute} per minute). Approve the action to start it.`,
  );
}

/** The kinds of answer to choose from when the message found fewer than two hits. */
function answerKinds(zh: boolean): Array<{ id: string; label: string; hint?: string }> {
  if (zh) {
    return [
      { id: 'summary', label: '简短摘要', hint: '几句话' },
      { id: 'details', label: '详细内容' },
      { id: 'sources', label: '只要来源' },
    ];
  }
  return [
    { id: 'summary', label: 'A short summary', hint: 'a few sentences' },
    { id: 'details', label: 'The details' },
    { id: 'sources', label: 'Just the sources' },
  ];
}

/** Asks which of the hits (or which kind of answer) to focus on. */
export function offerChoice(turn: Turn): void {
  const { world, zh, hits, after, say } = turn;
  const question = zh ? '你希望我重点看哪一个？' : 'Which should I focus on?';
  const options =
    hits.length >= 2 ? hits.map((h, i) => ({ id: `opt${i + 1}`, label: h.title, hint: h.source })) : answerKinds(zh);
  after.push({ type: 'choice', id: world.id('ch'), question, options });
  say(question);
}

/** Asks to connect the service the message names. */
export function askToConnect(turn: Turn): void {
  const { text, lang, zh, after, say } = turn;
  const card = connectCard(text, lang);
  if (card) {
    after.push({ type: 'connect', card });
    say(zh ? `先连接 ${card.name}，我才能用上它。` : `Connect ${card.name} so I can use it.`);
  }
}

const CONNECTORS: Array<{
  id: string;
  name: string;
  match: RegExp;
  access: Record<Lang, string>;
  recipe: { id: string; title: string; body: string } | null;
}> = [
  {
    id: 'gmail',
    name: 'Gmail',
    match: /gmail|e-?mail|邮件|邮箱/i,
    access: { en: 'Read your email (read-only)', zh: '读取你的邮件（只读）' },
    recipe: {
      id: 'daily-email-digest',
      title: 'Daily email digest',
      body: 'Every morning, summarise new email into your inbox.',
    },
  },
  {
    id: 'google-calendar',
    name: 'Google Calendar',
    match: /calendar|日历/i,
    access: { en: 'See your calendar events (read-only)', zh: '查看你的日历（只读）' },
    recipe: null,
  },
  {
    id: 'slack',
    name: 'Slack',
    match: /slack/i,
    access: { en: 'Read channels you choose', zh: '读取你选择的频道' },
    recipe: null,
  },
  {
    id: 'notion',
    name: 'Notion',
    match: /notion/i,
    access: { en: 'Read pages you share', zh: '读取你共享的页面' },
    recipe: null,
  },
  {
    id: 'github',
    name: 'GitHub',
    match: /github/i,
    access: { en: 'Read repositories you choose', zh: '读取你选择的仓库' },
    recipe: null,
  },
];

/** A card asking to connect the service the message names (Gmail when it names none). */
function connectCard(text: string, lang: Lang): Extract<S.ChatPart, { type: 'connect' }>['card'] | undefined {
  const c = CONNECTORS.find((x) => x.match.test(text)) ?? CONNECTORS[0];
  if (!c) return undefined;
  return {
    connector: c.id,
    name: c.name,
    logo: null,
    reason:
      lang === 'zh'
        ? `要用 ${c.name} 里的内容回答，需要先连接它。`
        : `To answer from ${c.name}, I need you to connect it first.`,
    recipe: c.recipe,
    access: c.access[lang],
    href: `/connect/${c.id}`,
    waitId: null,
    state: 'available',
  };
}
