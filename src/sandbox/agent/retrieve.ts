// Retrieval for the agent: the words a message looks for, what it is about, and
// the account's library items and docs that match it best.
import type * as S from '../../api/shapes.js';
import { hasCjk, hostOf } from '../watches/content.js';
import type { Account } from '../types.js';

type Lang = S.Locale;

const STOP = new Set(
  'the and for with about from into that this these those what which who whom how why when where are was were been being have has had does did doing can could would should will shall may might must please tell show give find me my mine our your you yours its their them they him her his she he it we us a an of in on at to or as is be by do if so not no yes any all some more most less very just also than then there here again create write draft make start doc docs document documents note notes page delete remove erase remember watch track follow monitor choose pick research investigate hello hi thanks thank summary summarise summarize know knew anything something everything'.split(
    ' ',
  ),
);
const ZH_TRIGGER_WORDS =
  /创建|新建|起草|整理|文档|笔记|删除|删掉|移除|记住|关注|跟踪|追踪|监控|选择|哪个|哪一个|哪些|研究|调研|请|帮我|一下|一个|我的|关于|什么|怎么/g;

/** Words to look for: English words of 3+ letters (not stop words), Chinese bigrams. */
export function queryTokens(text: string): string[] {
  const withoutUrls = text.replace(/https?:\/\/\S+/g, ' ');
  const out: string[] = [];
  for (const word of withoutUrls.toLowerCase().match(/[a-z0-9][a-z0-9-]{2,}/g) ?? [])
    if (!STOP.has(word)) out.push(word.length > 4 && word.endsWith('s') ? word.slice(0, -1) : word);
  for (const run of withoutUrls.replace(ZH_TRIGGER_WORDS, ' ').match(/[\u3400-\u9fff]+/g) ?? []) {
    if (run.length === 1) continue;
    for (let i = 0; i + 2 <= run.length; i++) out.push(run.slice(i, i + 2));
  }
  return [...new Set(out)];
}

/** What the message is about, for the reply's words. */
export function topicOf(text: string, lang: Lang): string {
  const clean = text.replace(/https?:\/\/\S+/g, ' ');
  if (lang === 'zh' && hasCjk(clean)) {
    const stripped = clean.replace(ZH_TRIGGER_WORDS, '').replace(/[，。？！、：；,.?!:;“”"'\s]+/g, '');
    return stripped.slice(0, 16) || clean.trim().slice(0, 16);
  }
  const words = (clean.match(/[A-Za-z0-9\u3400-\u9fff][\w\u3400-\u9fff'-]*/g) ?? []).filter(
    (w) => !STOP.has(w.toLowerCase()) && w.length > 1,
  );
  return words.slice(0, 5).join(' ') || clean.trim().slice(0, 40);
}

export interface Hit {
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

export function score(tokens: string[], title: string, body: string): number {
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
    const body = [
      item.summary ?? '',
      item.note ?? '',
      item.keyPoints.join(' '),
      item.url ?? '',
      item.fileName ?? '',
    ].join('\n');
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
      ...(item.kind === 'file'
        ? { file: { name: item.fileName ?? item.title, mime: item.mime ?? 'application/octet-stream' } }
        : {}),
    });
  });
  account.docs.forEach((doc, order) => {
    if (doc._deleted) return;
    const s = score(tokens, doc.title, doc.body);
    if (s <= 0) return;
    hits.push({
      kind: 'doc',
      id: doc.id,
      title: doc.title || doc.id,
      url: `/docs/${doc.id}`,
      source: 'Docs',
      snippet: firstSentence(doc.body || doc.title),
      score: s,
      order: order + 0.5,
    });
  });
  return hits.sort((a, b) => b.score - a.score || b.order - a.order).slice(0, max);
}

/** What a delete is about: the best-matching doc, or library item when one matches better than every doc. */
export function deleteTarget(
  account: Account,
  tokens: string[],
): { kind: 'doc' | 'library'; id: string; title: string } | undefined {
  const docs = account.docs.filter((d) => !d._deleted);
  const scoredDocs = docs
    .map((d, i) => ({ d, s: score(tokens, d.title, d.body), i }))
    .sort((a, b) => b.s - a.s || b.i - a.i);
  const bestDoc = scoredDocs[0];
  const scoredItems = account.library
    .map((item, i) => ({ item, s: score(tokens, item.title, item.summary ?? ''), i }))
    .sort((a, b) => b.s - a.s || b.i - a.i);
  const bestItem = scoredItems[0];
  if (bestItem && bestItem.s > 0 && (!bestDoc || bestItem.s > bestDoc.s))
    return { kind: 'library', id: bestItem.item.id, title: bestItem.item.title || bestItem.item.id };
  if (bestDoc) return { kind: 'doc', id: bestDoc.d.id, title: bestDoc.d.title || bestDoc.d.id };
  if (bestItem) return { kind: 'library', id: bestItem.item.id, title: bestItem.item.title || bestItem.item.id };
  return undefined;
}
