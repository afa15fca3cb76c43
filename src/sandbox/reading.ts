// The agent "reading" things for the library, deterministically: a web page
// made up from its URL (seeded), summaries and key points drawn from a text,
// which links are video or podcast, and which space an item belongs in.
// Content is written in one language (`en` or `zh`), never side by side.
import type { Locale, Space } from '../api/shapes.js';
import { mediaKind } from './media/text.js';

export interface Reading {
  summary: string;
  keyPoints: string[];
}

// ------------------------------------------------------------ media links

/**
 * Video and podcast links: these go to POST /media, not to the library. The
 * same test as quoteMedia/startMedia use, so a link saveLink sends to /media is
 * one that /media accepts.
 */
export function isMediaUrl(url: string): boolean {
  return mediaKind(url) !== undefined;
}

// ------------------------------------------------------------ web pages

export interface WebPage extends Reading {
  title: string;
  text: string;
}

/** A page "read" from a URL: its topic comes from the path, its sentences from the seeded generator. */
export function readWebPage(url: string, lang: Locale, random: () => number): WebPage {
  const parsed = new URL(url);
  const host = parsed.hostname.replace(/^www\./, '');
  const words = parsed.pathname
    .replace(/\.(html?|php|aspx?)$/i, '')
    .split(/[/\-_.+~%]+/)
    .map((w) => w.replace(/\d+/g, ''))
    .filter((w) => /^[a-z]{2,}$/i.test(w) && !STOPWORDS.has(w.toLowerCase()));
  const topicWords = words.slice(-5);
  const topic = topicWords.length > 0 ? topicWords.join(' ').toLowerCase() : (host.split('.')[0] ?? host);
  const title = topicWords.length > 0 ? `${topicWords.map(capitalise).join(' ')} — ${host}` : host;

  const templates = lang === 'zh' ? ZH_SENTENCES : EN_SENTENCES;
  const picked = shuffle(templates, random).slice(0, 4 + Math.floor(random() * 2));
  const sentences = picked.map((t) =>
    t.replaceAll('{topic}', topic).replaceAll('{Topic}', capitalise(topic)).replaceAll('{host}', host),
  );
  const text = sentences.join(lang === 'zh' ? '' : ' ');
  return {
    title,
    text,
    summary: sentences.slice(0, 2).join(lang === 'zh' ? '' : ' '),
    keyPoints: sentences.slice(1, 4),
  };
}

const EN_SENTENCES = [
  'This article from {host} explains the main ideas behind {topic} and where they matter in practice.',
  '{Topic} has drawn growing attention over the past year.',
  'The author compares several approaches to {topic} and weighs what each one costs.',
  'Early adopters report that {topic} saves time once the basics are in place.',
  'Critics argue that {topic} is still immature and hard to measure.',
  'The piece closes with practical advice for teams getting started with {topic}.',
  'Several case studies show how {topic} plays out at different scales.',
];

const ZH_SENTENCES = [
  '这篇来自 {host} 的文章介绍了{topic}的核心思路及其实际应用场景。',
  '过去一年里，{topic}受到越来越多的关注。',
  '作者比较了几种处理{topic}的方法，并权衡了各自的成本。',
  '早期使用者表示，掌握基础之后，{topic}能明显节省时间。',
  '也有批评者认为，{topic}仍不成熟，效果难以衡量。',
  '文章最后为刚开始接触{topic}的团队提供了实用建议。',
  '几个案例展示了{topic}在不同规模下的表现。',
];

// ------------------------------------------------------------ summaries of texts

/** A summary and key points of an extracted text, in `lang`. */
export function summarise(text: string, title: string, lang: Locale): Reading {
  const plain = stripMarkdown(text);
  const sentences = splitSentences(plain);
  const keywords = topKeywords(plain, 3);
  const sourceIsChinese = cjkShare(plain) > 0.3;

  if (sentences.length === 0) {
    return lang === 'zh'
      ? { summary: `《${title}》中没有可提取的文字。`, keyPoints: [] }
      : { summary: `“${title}” contains no text that could be extracted.`, keyPoints: [] };
  }
  // The text is in the requested language: quote it. Otherwise describe it in that language.
  if ((lang === 'zh') === sourceIsChinese) {
    const ranked = rankSentences(sentences, keywords).slice(0, 3);
    return {
      summary: clip(sentences.slice(0, 2).join(lang === 'zh' ? '' : ' '), 400),
      keyPoints: ranked.map((s) => clip(s, 200)),
    };
  }
  if (lang === 'zh') {
    const about = keywords.length > 0 ? keywords.map((k) => `“${k}”`).join('、') : '若干主题';
    return {
      summary: `《${title}》主要讨论${about}，共约 ${sentences.length} 句内容。`,
      keyPoints: keywords.map((k) => `文中多次提到“${k}”。`),
    };
  }
  const about = keywords.length > 0 ? keywords.map((k) => `“${k}”`).join(', ') : 'several subjects';
  return {
    summary: `“${title}” is mainly about ${about}, in about ${sentences.length} sentences.`,
    keyPoints: keywords.map((k) => `The text returns several times to “${k}”.`),
  };
}

type Orientation = 'landscape' | 'portrait' | 'square';
const ORIENTATION_ZH: Record<Orientation, string> = { landscape: '横向', portrait: '纵向', square: '方形' };

/** Wider than tall is landscape, taller than wide portrait, else square. */
function orientationOf(size: { width: number; height: number }): Orientation {
  if (size.width > size.height) return 'landscape';
  return size.width < size.height ? 'portrait' : 'square';
}

/** A generated description of an image: what the service's vision model would say, made up from the header. */
export function describeImage(
  fileName: string,
  format: string,
  size: { width: number; height: number } | undefined,
  lang: Locale,
): string {
  if (lang === 'zh') {
    const dims = size ? `，${size.width}×${size.height} 像素，${ORIENTATION_ZH[orientationOf(size)]}构图` : '';
    return `一张名为“${fileName}”的 ${format.toUpperCase()} 图片${dims}。图片描述由沙盒生成，用于检索和摘要。`;
  }
  const dims = size ? `, ${size.width}×${size.height} pixels in ${orientationOf(size)} orientation` : '';
  return `An image named “${fileName}”: a ${format.toUpperCase()} picture${dims}. This description was generated by the sandbox for search and summaries.`;
}

// ------------------------------------------------------------ choosing a space

/**
 * The space the agent files an item under when the caller names none: the
 * space whose name or description shares the most words with the item, else the default space.
 */
export function pickSpace(spaces: Space[], itemText: string): Space | undefined {
  const words = new Set(tokens(itemText));
  let best: { space: Space; score: number } | undefined;
  for (const space of spaces) {
    if (space.isDefault) continue;
    const score = tokens(`${space.name} ${space.description}`).filter((t) => words.has(t)).length;
    if (score > 0 && (!best || score > best.score)) best = { space, score };
  }
  return best?.space ?? spaces.find((s) => s.isDefault);
}

// ------------------------------------------------------------ text helpers (shared with search)

const STOPWORDS = new Set(
  'a an and are as at be but by for from has have how in into is it its of on or that the their this to was were what when where which who why will with www com org net html index page post posts article articles blog news'.split(
    ' ',
  ),
);

/** Lower-cased words for matching: words of `minLength`+ letters (crudely stemmed), and CJK characters in pairs. */
export function tokens(text: string, minLength = 3): string[] {
  const out: string[] = [];
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = match[0];
    if (/\p{Script=Han}/u.test(word)) {
      const chars = [...word].filter((c) => /\p{Script=Han}/u.test(c));
      if (chars.length === 1) out.push(chars[0] ?? '');
      for (let i = 0; i + 1 < chars.length; i++) out.push(`${chars[i]}${chars[i + 1]}`);
      continue;
    }
    if (word.length < minLength || STOPWORDS.has(word)) continue;
    out.push(stem(word));
  }
  return out;
}

/** A very small stemmer so that "reports", "reporting" and "reported" meet. */
export function stem(word: string): string {
  if (word.length > 5 && /(ss|x|ch|sh|z)es$/.test(word)) return word.slice(0, -2);
  for (const suffix of ['ing', 'ed', 's']) {
    if (word.length > suffix.length + 3 && word.endsWith(suffix) && !word.endsWith('ss'))
      return word.slice(0, -suffix.length);
  }
  return word;
}

export function stripMarkdown(text: string): string {
  return text
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, '')
    .replace(/[*_`~]+/g, '');
}

function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|(?<=[。！？])|\n+/u)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => (cjkShare(s) > 0.3 ? [...s].length >= 6 : s.split(' ').length >= 3));
}

function topKeywords(text: string, n: number): string[] {
  const counts = new Map<string, number>();
  for (const match of text.toLowerCase().matchAll(/\p{L}{4,}/gu)) {
    const word = match[0];
    if (STOPWORDS.has(word) || /\p{Script=Han}/u.test(word)) continue;
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, n)
    .map(([word]) => word);
}

function rankSentences(sentences: string[], keywords: string[]): string[] {
  const scored = sentences.map((s, i) => ({ s, i, score: keywords.filter((k) => s.toLowerCase().includes(k)).length }));
  const best = [...scored].sort((a, b) => b.score - a.score || a.i - b.i).slice(0, 3);
  return best.sort((a, b) => a.i - b.i).map((x) => x.s);
}

function cjkShare(text: string): number {
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  if (letters === 0) return 0;
  return (text.match(/\p{Script=Han}/gu)?.length ?? 0) / letters;
}

function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max
    ? text
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
