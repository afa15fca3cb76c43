// Deterministic generated text for the sandbox: brief entries with evidence,
// watch titles and sources, in English and Chinese (the text of media is in
// ../media/text.ts). Every function takes a seeded random source (world.rng(label)), so the
// same seed and label give the same words. Regenerating with the other language
// and the same label gives the same structure (numbers, sources, dates) in that
// language: that is how `?lang=` "translates".
import type { Locale } from '../../api/shapes.js';

export type Rng = () => number;

export function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length) % items.length] as T;
}

export function int(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

export function hasCjk(text: string): boolean {
  return /[\u3400-\u9fff]/.test(text);
}

/** Lower-case ASCII words joined by "-", at most `max` characters, cut at a word. */
export function slugify(text: string, max = 48): string {
  const words = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\x00-\x7f]/g, ' ')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let out = '';
  for (const word of words) {
    const next = out ? `${out}-${word}` : word;
    if (next.length > max) break;
    out = next;
  }
  return out;
}

// ---------------------------------------------------------------- key terms

const EN_STOP = new Set(
  'a an the of for in on at to and or with about from by into over news latest new updates update follow following track tracking watch watching monitor monitoring keep up what how when who which that this these those any all every around across its their our my your me us is are be been being will would should can could please tell show find give weekly daily changes'.split(
    ' ',
  ),
);
const ZH_VERBS = /^(请|帮我|帮忙)?(跟踪|追踪|关注|监控|了解|跟进|留意|观察)/;

/** Short phrases naming what an intent is about: "AI chip makers", "export controls". */
export function keyTerms(intent: string): string[] {
  const terms: string[] = [];
  if (hasCjk(intent)) {
    for (let chunk of intent.split(/[，,、。；;：:！!？?\s]|和|与|及|以及/)) {
      chunk = chunk
        .replace(ZH_VERBS, '')
        .replace(/^的|的$/g, '')
        .trim();
      if (chunk.length >= 2) terms.push(chunk.slice(0, 20));
    }
  } else {
    for (const chunk of intent.split(/[,.;:!?()]|\band\b|\bor\b/i)) {
      const words = chunk.split(/\s+/).filter((w) => w && !EN_STOP.has(w.toLowerCase()) && /[\p{L}\p{N}]/u.test(w));
      if (words.length > 0) terms.push(words.slice(0, 3).join(' '));
    }
  }
  const unique = [...new Set(terms)].slice(0, 6);
  return unique.length > 0 ? unique : [intent.trim().slice(0, 40)];
}

/** A watch title from its intent. */
export function watchTitle(intent: string): string {
  const text = intent.trim().replace(/[.。!！]+$/, '');
  if (hasCjk(text)) return text.slice(0, 40);
  const cut = text.length > 80 ? `${text.slice(0, 77).replace(/\s+\S*$/, '')}…` : text;
  return cut.charAt(0).toUpperCase() + cut.slice(1);
}

// ---------------------------------------------------------------- brief entries

const ORGS = {
  en: [
    'Northwind Labs',
    'Helios Systems',
    'Meridian Institute',
    'Atlas Dynamics',
    'Bluefin Research',
    'Quanta Works',
    'Lumen Group',
    'Orbital Partners',
    'Cedar Analytics',
    'Vireo Capital',
  ],
  zh: [
    '北风实验室',
    '赫利俄斯系统',
    '子午研究院',
    '阿特拉斯动力',
    '蓝鳍研究',
    '量子工坊',
    '流明集团',
    '轨道合伙人',
    '雪松分析',
    '绿鹃资本',
  ],
} as const;

/** Before the headline of a brief about a watched page that changed. */
const PAGE_NOTE: Record<Locale, string> = { zh: '页面有变化：', en: 'Page changed: ' };

const CATEGORIES = {
  en: ['Research', 'Product', 'Policy', 'Funding', 'Market', 'Opinion'],
  zh: ['研究', '产品', '政策', '融资', '市场', '观点'],
} as const;

const SOURCES = [
  { name: 'The Ledger', domain: 'ledger.example.com' },
  { name: 'Signal Daily', domain: 'signal-daily.example.org' },
  { name: 'Field Notes', domain: 'fieldnotes.example.net' },
  { name: 'Open Wire', domain: 'openwire.example.com' },
  { name: 'Policy Review', domain: 'policyreview.example.org' },
  { name: 'Market Pulse', domain: 'marketpulse.example.com' },
  { name: 'Lab Journal', domain: 'labjournal.example.edu' },
  { name: 'Tech Chronicle', domain: 'techchronicle.example.com' },
] as const;

type Vars = { org: string; org2: string; term: string; n: number; p: number; source: string };
type Template = {
  headline: (v: Vars) => string;
  summary: (v: Vars) => string;
  why: (v: Vars) => string;
  excerpt: (v: Vars) => string;
};

const TEMPLATES: Record<Locale, Template[]> = {
  en: [
    {
      headline: (v) => `${v.org} publishes new findings on ${v.term}`,
      summary: (v) =>
        `**${v.org}** released a study on ${v.term} covering ${v.n} cases.\n\n- The main result holds across ${v.p}% of the samples\n- ${v.org2} called the method "a useful baseline"`,
      why: (v) => `It is the largest public dataset on ${v.term} so far, and others will build on it.`,
      excerpt: (v) => `The study by ${v.org} looks at ${v.n} cases of ${v.term} and finds a consistent pattern.`,
    },
    {
      headline: (v) => `${v.org} launches a new ${v.term} offering`,
      summary: (v) =>
        `**${v.org}** announced a product aimed at ${v.term}, available in ${v.n} markets.\n\n- Pricing starts below competitors by about ${v.p}%\n- Early customers include ${v.org2}`,
      why: (v) => `A cheaper option could change how quickly ${v.term} is adopted.`,
      excerpt: (v) => `${v.org} said the launch is its biggest bet on ${v.term} this year.`,
    },
    {
      headline: (v) => `Regulators propose new rules for ${v.term}`,
      summary: (v) =>
        `A **draft** published this week would set reporting duties for ${v.term}.\n\n- Comments are open for ${v.n} days\n- ${v.org} and ${v.org2} have already responded`,
      why: (v) => `If adopted, the rules change what companies working on ${v.term} must disclose.`,
      excerpt: (v) => `The proposal sets out ${v.n} requirements for organisations active in ${v.term}.`,
    },
    {
      headline: (v) => `${v.org} raises $${v.n}M to expand ${v.term} work`,
      summary: (v) =>
        `**${v.org}** closed a round of **$${v.n}M** led by ${v.org2}.\n\n- The money goes to hiring and capacity\n- Valuation reportedly rose ${v.p}%`,
      why: (v) => `Funding at this size shows investors still expect growth in ${v.term}.`,
      excerpt: (v) => `${v.org2} led the $${v.n}M round, citing demand for ${v.term}.`,
    },
    {
      headline: (v) => `${v.term} demand up ${v.p}% this quarter, ${v.org} reports`,
      summary: (v) =>
        `New figures from **${v.org}** show demand for ${v.term} rising ${v.p}% quarter on quarter.\n\n- Supply remains tight\n- ${v.org2} expects the trend to continue for ${v.n} months`,
      why: (v) => `Rising demand for ${v.term} tends to move prices and plans downstream.`,
      excerpt: (v) => `Demand for ${v.term} grew ${v.p}% in the quarter, according to ${v.org}.`,
    },
    {
      headline: (v) => `Why ${v.term} matters now: an analysis from ${v.org}`,
      summary: (v) =>
        `An essay by analysts at **${v.org}** argues that ${v.term} has reached a turning point.\n\n- They point to ${v.n} recent signals\n- ${v.org2} disagrees on the timing`,
      why: (v) => `A clear argument for and against helps judge how seriously to take ${v.term}.`,
      excerpt: (v) => `"${v.term} is at a turning point," the analysts at ${v.org} write.`,
    },
  ],
  zh: [
    {
      headline: (v) => `${v.org}发布关于${v.term}的新研究`,
      summary: (v) =>
        `**${v.org}** 发布了一项关于${v.term}的研究，涵盖 ${v.n} 个案例。\n\n- 主要结论在 ${v.p}% 的样本中成立\n- ${v.org2} 认为该方法是“有用的基准”`,
      why: (v) => `这是迄今关于${v.term}最大的公开数据集，后续工作会以此为基础。`,
      excerpt: (v) => `${v.org}的研究考察了 ${v.n} 个${v.term}案例，发现了一致的规律。`,
    },
    {
      headline: (v) => `${v.org}推出${v.term}新产品`,
      summary: (v) =>
        `**${v.org}** 宣布推出面向${v.term}的产品，覆盖 ${v.n} 个市场。\n\n- 定价比竞争对手低约 ${v.p}%\n- 首批客户包括${v.org2}`,
      why: (v) => `更便宜的选择可能改变${v.term}的普及速度。`,
      excerpt: (v) => `${v.org}表示，这是其今年在${v.term}上最大的投入。`,
    },
    {
      headline: (v) => `监管机构就${v.term}提出新规`,
      summary: (v) =>
        `本周公布的**草案**将为${v.term}设定报告义务。\n\n- 公开征求意见 ${v.n} 天\n- ${v.org}和${v.org2}已作出回应`,
      why: (v) => `一旦通过，从事${v.term}的企业需要披露的内容将发生变化。`,
      excerpt: (v) => `草案为从事${v.term}的机构列出了 ${v.n} 项要求。`,
    },
    {
      headline: (v) => `${v.org}融资 ${v.n} 百万美元，加码${v.term}`,
      summary: (v) =>
        `**${v.org}** 完成 **${v.n} 百万美元** 融资，由${v.org2}领投。\n\n- 资金将用于招聘和扩充产能\n- 据报道估值上升 ${v.p}%`,
      why: (v) => `这样规模的融资说明投资者仍看好${v.term}的增长。`,
      excerpt: (v) => `${v.org2}领投了这轮 ${v.n} 百万美元的融资，理由是${v.term}需求旺盛。`,
    },
    {
      headline: (v) => `${v.org}报告：本季度${v.term}需求增长 ${v.p}%`,
      summary: (v) =>
        `**${v.org}** 的最新数据显示，${v.term}需求环比增长 ${v.p}%。\n\n- 供应依然紧张\n- ${v.org2} 预计这一趋势将持续 ${v.n} 个月`,
      why: (v) => `${v.term}需求上升往往会传导到下游的价格和计划。`,
      excerpt: (v) => `据${v.org}统计，本季度${v.term}需求增长了 ${v.p}%。`,
    },
    {
      headline: (v) => `${v.org}分析：为什么${v.term}此刻很重要`,
      summary: (v) =>
        `**${v.org}** 的分析师撰文认为，${v.term}已到达转折点。\n\n- 他们列举了 ${v.n} 个近期信号\n- ${v.org2} 对时间点持不同看法`,
      why: (v) => `正反两方面的清晰论证有助于判断应当多重视${v.term}。`,
      excerpt: (v) => `“${v.term}正处于转折点，”${v.org}的分析师写道。`,
    },
  ],
};

export interface EntryText {
  importance: number;
  category: string;
  headline: string;
  summary: string;
  why: string;
  primaryUrl: string;
  evidence: Array<{ url: string; title: string; source: string; publishedAt: string; excerpt: string }>;
}

export interface EntryContext {
  lang: Locale;
  terms: string[];
  /** When set, the entry is about this phrase (an alert phrase of the watch). */
  featured?: string | null;
  /** Coverage window of the brief (ms). */
  from: number;
  to: number;
  /** For `sources` and `pages` watches: the registered URLs. */
  urls?: string[];
  type?: 'topic' | 'sources' | 'pages';
}

/** One brief entry. The same rng state with another `lang` gives the same entry in that language. */
export function briefEntry(rng: Rng, ctx: EntryContext): EntryText {
  const t = int(rng, 0, TEMPLATES.en.length - 1);
  const orgIndex = int(rng, 0, ORGS.en.length - 1);
  const org2Index = (orgIndex + 1 + int(rng, 0, ORGS.en.length - 2)) % ORGS.en.length;
  const term = ctx.featured ?? pick(rng, ctx.terms);
  const n = int(rng, 3, 480);
  const p = int(rng, 4, 68);
  const importance = Math.round((0.35 + rng() * 0.65) * 100) / 100;
  const evidenceCount = int(rng, 1, 3);
  const span = Math.max(1, ctx.to - ctx.from);
  const lang = ctx.lang;
  const vars: Vars = { org: ORGS[lang][orgIndex] ?? '', org2: ORGS[lang][org2Index] ?? '', term, n, p, source: '' };
  const template = TEMPLATES[lang][t] as Template;
  const headline = template.headline(vars);
  const pathSlug =
    slugify(
      TEMPLATES.en[t]!.headline({
        ...vars,
        org: ORGS.en[orgIndex] ?? '',
        org2: ORGS.en[org2Index] ?? '',
        term: hasCjk(term) ? 'topic' : term,
      }),
      60,
    ) || 'story';
  const evidence: EntryText['evidence'] = [];
  const given = ctx.urls && ctx.urls.length > 0 && ctx.type !== 'topic' ? ctx.urls : undefined;
  for (let k = 0; k < evidenceCount; k++) {
    const source = pick(rng, SOURCES);
    const publishedAt = new Date(ctx.from + Math.floor(rng() * span)).toISOString();
    const base = given ? pick(rng, given).replace(/\/+$/, '') : `https://${source.domain}`;
    const url =
      ctx.type === 'pages' && given
        ? base
        : `${base}/${publishedAt.slice(0, 10).replace(/-/g, '/')}/${pathSlug}${k > 0 ? `-${k + 1}` : ''}`;
    const sourceName = given ? hostOf(base) : source.name;
    evidence.push({
      url,
      title: k === 0 ? headline : `${headline} (${sourceName})`,
      source: sourceName,
      publishedAt,
      excerpt: template.excerpt({ ...vars, source: sourceName }),
    });
  }
  evidence.sort((a, b) => (a.publishedAt < b.publishedAt ? 1 : -1));
  const pageNote = ctx.type === 'pages' ? PAGE_NOTE[lang] : '';
  return {
    importance,
    category: CATEGORIES[lang][t] ?? '',
    headline: `${pageNote}${headline}`,
    summary: template.summary(vars),
    why: template.why(vars),
    primaryUrl: evidence[0]?.url ?? `https://${SOURCES[0].domain}/`,
    evidence,
  };
}

export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url.slice(0, 60);
  }
}

export function briefTitle(lang: Locale, watchTitle: string, date: string): string {
  return lang === 'zh' ? `${watchTitle} · ${date} 简报` : `${watchTitle} — brief of ${date}`;
}

export function briefSummary(lang: Locale, headlines: string[], first: boolean): string {
  const [top, ...rest] = headlines;
  if (lang === 'zh') {
    const lead = first
      ? `过去 7 天共有 ${headlines.length} 条值得关注的动态。`
      : `本期共有 ${headlines.length} 条新动态。`;
    return `${lead}最重要的是：${top ?? ''}。${rest.length > 0 ? `此外还有：${rest.slice(0, 2).join('；')}。` : ''}`;
  }
  const lead = first
    ? `${headlines.length} developments worth knowing from the last 7 days.`
    : `${headlines.length} new developments since the last brief.`;
  return `${lead} Top story: ${top ?? ''}.${rest.length > 0 ? ` Also: ${rest.slice(0, 2).join('; ')}.` : ''}`;
}

export function methodSummary(
  lang: Locale,
  type: 'topic' | 'sources' | 'pages',
  terms: string[],
  urls: string[],
): string {
  if (lang === 'zh') {
    if (type === 'sources')
      return `定期阅读给定的 ${urls.length} 个来源，挑选与“${terms.join('、')}”相关的内容，按重要性排序并附上出处。`;
    if (type === 'pages') return `定期检查给定的 ${urls.length} 个页面，发现变化时写入简报并附上出处。`;
    return `为“${terms.join('、')}”寻找可靠来源，定期阅读，挑选重要动态，按重要性排序并附上出处。`;
  }
  if (type === 'sources')
    return `Reads the ${urls.length} given sources on schedule, keeps what concerns ${terms.join(', ')}, ranks it by importance and links the evidence.`;
  if (type === 'pages')
    return `Checks the ${urls.length} given pages on schedule and writes a brief entry, with evidence, when one changes.`;
  return `Finds reliable sources on ${terms.join(', ')}, reads them on schedule, keeps what matters, ranks it by importance and links the evidence.`;
}

/** The sources a topic watch "finds" (deterministic for the rng). */
export function foundSources(rng: Rng, count: number): Array<{ url: string; title: string }> {
  const out: Array<{ url: string; title: string }> = [];
  const start = int(rng, 0, SOURCES.length - 1);
  for (let i = 0; i < Math.min(count, SOURCES.length); i++) {
    const s = SOURCES[(start + i) % SOURCES.length]!;
    out.push({ url: `https://${s.domain}/`, title: s.name });
  }
  return out;
}

export function weekKey(ms: number): string {
  const date = new Date(ms);
  const day = (date.getUTCDay() + 6) % 7; // Monday = 0
  const thursday = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() - day + 3));
  const firstThursday = new Date(Date.UTC(thursday.getUTCFullYear(), 0, 4));
  const week =
    1 +
    Math.round(
      (thursday.getTime() - firstThursday.getTime()) / 86_400_000 / 7 - (((firstThursday.getUTCDay() + 6) % 7) - 3) / 7,
    );
  return `${thursday.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}
