// Deterministic generated text of media, in English and Chinese: which links are
// media, titles, transcript segments, chapters, summaries and timestamp links.
// Seeded like the rest of ../watches/content.ts: the same seed gives the same words, and the
// same segment index gives the same sentence in either language.
import type { Locale } from '../../api/shapes.js';
import { int, type Rng } from '../watches/content.js';

export type MediaKind = 'video' | 'podcast';

// The same links the library calls media (saveLink answers `media: true` for
// them), so that whatever saveLink sends to POST /media can be transcribed.
const VIDEO_HOSTS = [
  'youtube.com',
  'youtu.be',
  'youtube-nocookie.com',
  'vimeo.com',
  'dailymotion.com',
  'twitch.tv',
  'tiktok.com',
  'bilibili.com',
  'b23.tv',
];
const AUDIO_HOSTS = [
  'podcasts.apple.com',
  'podcasts.google.com',
  'overcast.fm',
  'pca.st',
  'castbox.fm',
  'anchor.fm',
  'podbean.com',
  'soundcloud.com',
  'xiaoyuzhoufm.com',
  'ximalaya.com',
];

/** Which links can be transcribed: video pages and podcast/audio links (and files of those types). */
export function mediaKind(url: string): MediaKind | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  const host = parsed.hostname.toLowerCase().replace(/^www\./, '');
  const path = parsed.pathname.toLowerCase();
  const on = (hosts: string[]) => hosts.some((h) => host === h || host.endsWith(`.${h}`));
  if (on(VIDEO_HOSTS) || /\.(mp4|m4v|mov|webm|mkv)$/.test(path)) return 'video';
  if (on(AUDIO_HOSTS) || /\.(mp3|m4a|m4b|aac|wav|ogg|oga|opus|flac)$/.test(path)) return 'podcast';
  if (host === 'open.spotify.com' && /^\/(episode|show)\//.test(path)) return 'podcast';
  if (/(^|\.)podcasts?\./.test(host)) return 'podcast';
  return undefined;
}

const MEDIA_TITLES = {
  en: [
    'Building reliable AI systems',
    'The economics of open source',
    'A conversation on climate adaptation',
    'Inside the chip supply chain',
    'How cities are changing',
    'Notes on product design',
    'Lessons from a decade of startups',
    'The science of sleep',
  ],
  zh: [
    '构建可靠的 AI 系统',
    '开源的经济学',
    '关于气候适应的对话',
    '芯片供应链内幕',
    '城市正在如何改变',
    '产品设计笔记',
    '创业十年的经验',
    '睡眠的科学',
  ],
} as const;

export function mediaTitle(rng: Rng, url: string, lang: Locale): string {
  const index = int(rng, 0, MEDIA_TITLES.en.length - 1);
  let words: string[] = [];
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).pop() ?? '';
    words = last
      .replace(/\.[a-z0-9]+$/i, '')
      .split(/[-_+]+/)
      .filter((w) => /^[a-z]{2,}$/i.test(w));
  } catch {
    /* ignore */
  }
  if (words.length >= 2 && lang === 'en') {
    const text = words.slice(0, 8).join(' ');
    return text.charAt(0).toUpperCase() + text.slice(1);
  }
  return MEDIA_TITLES[lang][index] ?? '';
}

const SENTENCES = {
  en: [
    'Let me start with the background and why this question came up at all.',
    'The first thing we noticed was how much the numbers varied from one team to the next.',
    'There is a trade-off here between speed and how much you can trust the result.',
    'Most of the cost sits in the last ten percent of the work.',
    'We tried three approaches before one of them held up in practice.',
    'What surprised us was how little the tooling mattered compared to the process.',
    'If you only take one thing away, measure before you change anything.',
    'The data tells a different story from the one people usually repeat.',
    'Here is a concrete example from last year that shows the problem clearly.',
    'We should be careful not to generalise from a single case.',
    'The open question is whether this holds at a larger scale.',
    'That brings us to the part most people skip, which is maintenance.',
  ],
  zh: [
    '先说说背景，以及这个问题为什么会被提出来。',
    '我们首先注意到，不同团队之间的数据差异非常大。',
    '这里存在速度和结果可信度之间的权衡。',
    '大部分成本集中在最后百分之十的工作上。',
    '我们先后尝试了三种方法，只有一种在实践中站得住。',
    '让我们意外的是，和流程相比，工具的影响小得多。',
    '如果只记住一件事，那就是改动之前先测量。',
    '数据讲述的故事和人们常说的并不一样。',
    '这里有一个去年的具体例子，能清楚地说明问题。',
    '我们要小心，不要从单个案例得出普遍结论。',
    '悬而未决的问题是，这在更大规模下是否成立。',
    '这就引出了大多数人忽略的部分：维护。',
  ],
} as const;

/** Text of segment `i` of a media item: the same index gives the same sentence in either language. */
export function segmentText(seed: number, i: number, lang: Locale): string {
  const list = SENTENCES[lang];
  const a = list[(seed + i * 7) % list.length] ?? '';
  const b = list[(seed + i * 7 + 3) % list.length] ?? '';
  return i % 3 === 0 ? `${a}${lang === 'zh' ? '' : ' '}${b}` : a;
}

const CHAPTERS = {
  en: ['Introduction', 'Background', 'The main argument', 'A worked example', 'Questions and answers', 'Wrap-up'],
  zh: ['开场', '背景', '核心观点', '具体案例', '问答', '总结'],
} as const;

/** Under ten minutes three chapters, under half an hour four, else six. */
function chapterCount(durationSec: number): number {
  if (durationSec < 600) return 3;
  return durationSec < 1800 ? 4 : 6;
}

export function chapters(durationSec: number, lang: Locale): Array<{ start: number; title: string }> {
  const count = chapterCount(durationSec);
  const names =
    count === 3
      ? [CHAPTERS[lang][0], CHAPTERS[lang][2], CHAPTERS[lang][5]]
      : CHAPTERS[lang].slice(0, count - 1).concat(CHAPTERS[lang][5]);
  return names.map((title, i) => ({ start: Math.floor((durationSec * i) / count), title: title ?? '' }));
}

export function mediaSummary(title: string, durationSec: number, lang: Locale): string {
  const minutes = Math.round(durationSec / 60);
  if (lang === 'zh') {
    return `**${title}**（约 ${minutes} 分钟）\n\n- 讲者从背景出发，解释了问题的由来\n- 对比了几种方法，指出流程比工具更重要\n- 结论：改动之前先测量，并重视长期维护`;
  }
  return `**${title}** (about ${minutes} minutes)\n\n- The speaker sets out the background and why the question matters\n- Several approaches are compared; process matters more than tooling\n- Takeaway: measure before changing anything, and plan for maintenance`;
}

/** `mm:ss` or `h:mm:ss`. */
export function clock(seconds: number): string {
  const s = Math.floor(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${String(sec).padStart(2, '0')}` : `${mm}:${String(sec).padStart(2, '0')}`;
}

/** A link to a moment of the media: YouTube-style `t=` for videos, `#t=` for audio. */
export function timestampLink(url: string, seconds: number): string {
  const s = Math.floor(seconds);
  try {
    const u = new URL(url);
    const host = u.hostname.replace(/^www\./, '');
    if (host === 'youtube.com' || host === 'youtu.be') {
      u.searchParams.set('t', `${s}s`);
      return u.toString();
    }
    u.hash = `t=${s}`;
    return u.toString();
  } catch {
    return `${url}#t=${s}`;
  }
}
