// Planning a chat turn: which words of the message ask for what (English or
// Chinese), the tools the turn uses, what it costs and how long it takes, the
// reply's language, and the tools' localized labels.
import type * as S from '../../api/shapes.js';
import { hasCjk } from '../watches/content.js';
import { mediaKind } from '../media/text.js';
import type { Account } from '../types.js';

type Lang = S.Locale;

export const TRIGGERS = {
  createDoc: [
    /\b(create|write|draft|make|start|add|save|new|put|turn)\b[^.?!\n]{0,30}?\b(doc|docs|document|documents|note|notes|page)\b/i,
    /(创建|新建|写|起草|整理|保存)[^。？！\n]{0,10}(文档|笔记)/,
  ],
  delete: [/\b(delete|remove|erase)\b/i, /删除|删掉|移除/],
  remember: [/\bremember\b/i, /记住/],
  watch: [/\b(watch|track|follow|monitor)\b/i, /关注|跟踪|追踪|监控/],
  choice: [/\b(choose|which|pick)\b/i, /选择|哪个|哪一个|哪些/],
  research: [/\b(research|investigate)\b/i, /研究|调研/],
  connect: [/\bconnect\b|\b(gmail|slack|notion|github|calendar)\b/i, /连接|接入/],
} as const;

export type Trigger = keyof typeof TRIGGERS;

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
  start_media: { en: 'Pricing the transcription', zh: '正在为转写报价' },
  save_report: { en: 'Saving the report', zh: '正在保存报告' },
};

export function toolLabel(name: string, lang: Lang): string {
  return LABELS[name]?.[lang] ?? name.replace(/_/g, ' ');
}
