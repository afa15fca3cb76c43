// Briefs for reading. On a terminal: the watch, then its brief entry by entry
// (position, importance, category, headline, summary rendered from Markdown,
// why it matters, the primary link and the evidence, hyperlinked where the
// terminal supports OSC 8), the archive and the method. Each entry's URL once,
// on its arrow line: where the terminal shows hyperlinks, shortened to fit and
// linked to the whole address; elsewhere whole, even past the edge, to be
// copied (src/io/link-text.ts). Piped: stable
// tab-separated text (label/value lines, `--`, one row per entry), URLs whole.
// Everything given here is already sanitised by printItem; Markdown and
// hyperlinks are the only escape sequences added, by us.
import type { Context } from '../context.js';
import type { Brief, BriefEntry, Evidence, Knowledge, WatchPage } from '../api/shapes.js';
import type { Formatter } from '../io/format.js';
import { displayWidth } from '../io/format.js';
import { renderView, type ItemView } from '../io/declared.js';
import { hyperlink, linkableUrl, supportsHyperlinks } from '../io/hyperlink.js';
import { textIsUrl, urlInLine } from '../io/link-text.js';
import { renderMarkdown } from '../io/markdown.js';
import { sanitizeLine } from '../io/sanitize.js';
import { wrapText } from '../io/width.js';
import { kagentCommand } from '../io/command-line.js';
import { fit } from './task.js';

type RenderContext = Pick<Context, 'io' | 'flags' | 'clock' | 'serviceClock'>;

/**
 * 0.82 → "●●●●○" (importance between 0 and 1, in fifths): one form, dots only — the
 * number is in the piped output and --json. Never red (red means an error); the
 * dots of an important entry (0.75 and up) are bold. Other numbers as they are.
 */
export function importanceMeter(importance: number, f: Formatter): string {
  if (typeof importance !== 'number' || !Number.isFinite(importance)) return '';
  if (importance < 0 || importance > 1)
    return Number.isInteger(importance) ? String(importance) : importance.toFixed(2);
  const filled = Math.round(importance * 5);
  const dots = '●'.repeat(filled);
  return `${importance >= 0.75 ? f.bold(dots) : dots}${f.dim('○'.repeat(5 - filled))}`;
}

function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return text
    .replace(/\n+$/, '')
    .split('\n')
    .map((line) => (line.trim() === '' ? '' : pad + line))
    .join('\n');
}

/** Wraps plain text to `width` columns (words kept whole), each line indented. */
export function wrap(text: string, width: number, spaces = 0): string {
  const room = Math.max(20, width - spaces);
  return indent(
    wrapText(
      text
        .split('\n')
        .map((line) => line.replace(/\s+/g, ' ').trim())
        .join('\n'),
      room,
      { hanging: 0 },
    ),
    spaces,
  );
}

interface EntryRenderOptions {
  links: boolean;
  width: number;
}

/** One entry on a terminal. */
export async function renderEntry(
  ctx: RenderContext,
  entry: BriefEntry,
  f: Formatter,
  options: EntryRenderOptions,
): Promise<string> {
  const { links, width } = options;
  const lines: string[] = [];
  const position = String(entry.position).padStart(2);
  const category = entry.category ? `  ${f.magenta(sanitizeLine(entry.category).toUpperCase())}` : '';
  lines.push(`${f.bold(position)}  ${importanceMeter(entry.importance, f)}${category}`);
  lines.push(wrap(f.bold(hyperlink(sanitizeLine(entry.headline), entry.primaryUrl, links)), width, 4));
  if (entry.summary.trim()) lines.push(indent(await renderMarkdown(ctx, entry.summary, { width: width - 4 }), 4));
  if (entry.why.trim()) lines.push(wrap(`${f.bold('Why it matters:')} ${sanitizeLine(entry.why)}`, width, 4));
  // The URL beside its arrow (shortened to fit where it is a link); a no-break space joins them.
  if (entry.primaryUrl) lines.push(`    ${f.cyan('→')}\u00a0${urlInLine(entry.primaryUrl, width - ARROW, links)}`);
  if (entry.evidence.length > 0) {
    lines.push(`    ${f.dim('Evidence:')}`);
    for (const evidence of entry.evidence)
      lines.push(renderEvidence(evidence, f, { links, width, shown: entry.primaryUrl }));
  }
  const marks = [f.dim(entry.id)];
  if (entry.feedback === 'up') marks.push(f.green('rated up'));
  if (entry.feedback === 'down') marks.push(f.yellow('rated down'));
  if (entry.saved) marks.push(f.green('saved'));
  if (entry.mediaId) marks.push(f.dim(`media ${entry.mediaId}`));
  lines.push(`    ${marks.join(f.dim(' · '))}`);
  return lines.join('\n');
}

/** Columns before an entry's URL: `    → `. */
const ARROW = 6;
/** Columns before an evidence's URL, on the line under its title. */
const EVIDENCE_URL = 8;

/** One piece of evidence; its URL under it where it is no link, unless it is the entry's own (`shown` on the arrow line). */
function renderEvidence(
  evidence: Evidence,
  f: Formatter,
  { links, width, shown }: EntryRenderOptions & { shown: string },
): string {
  const when = evidence.publishedAt ? `, ${f.time(evidence.publishedAt)}` : '';
  const sourceText = evidence.source ? ` — ${sanitizeLine(evidence.source)}${when}` : when;
  // One line: the title gives way to the source and date.
  const title = fit(sanitizeLine(evidence.title || evidence.url), Math.max(20, width - 8 - displayWidth(sourceText)));
  const head = `      · ${hyperlink(title, evidence.url, links)}${sourceText ? f.dim(sourceText) : ''}`;
  const url =
    (links && linkableUrl(evidence.url)) || evidence.url === shown
      ? ''
      : `\n${' '.repeat(EVIDENCE_URL)}${f.dim(urlInLine(evidence.url, width - EVIDENCE_URL, false))}`;
  const excerpt = evidence.excerpt?.trim() ? `\n${f.dim(wrap(`“${sanitizeLine(evidence.excerpt)}”`, width, 8))}` : '';
  return `${head}${url}${excerpt}`;
}

/** A brief on a terminal: heading, covered period, summary, then every entry by position. */
export async function renderBrief(ctx: RenderContext, brief: Brief, f: Formatter): Promise<string> {
  const links = supportsHyperlinks(ctx.io);
  const width = Math.min(f.width, 100);
  const parts: string[] = [];
  parts.push(f.bold(`${sanitizeLine(brief.title)}`));
  const covers = `${brief.coversFrom.slice(0, 10)} – ${brief.coversTo.slice(0, 10)}`;
  parts.push(
    f.dim(
      `Brief of ${brief.date} · covers ${covers} · ${brief.entries.length} ${brief.entries.length === 1 ? 'entry' : 'entries'} · ${brief.id}`,
    ),
  );
  if (brief.summary.trim()) parts.push(`\n${(await renderMarkdown(ctx, brief.summary)).replace(/\n+$/, '')}`);
  const entries = [...brief.entries].sort((a, b) => a.position - b.position);
  for (const entry of entries) parts.push(`\n${await renderEntry(ctx, entry, f, { links, width })}`);
  return parts.join('\n');
}

/** The watch's header lines on a terminal. */
export function renderWatchHeader(page: WatchPage, f: Formatter): string {
  const w = page.watch;
  const facts = [
    w.slug,
    w.type,
    w.cadence,
    w.visibility,
    `${f.number(w.followers)} ${w.followers === 1 ? 'follower' : 'followers'}`,
  ];
  if (w.owner) facts.push('yours');
  if (w.following) facts.push('following');
  if (w.status !== 'active') facts.push(w.status === 'failed' ? f.red(w.status) : f.yellow(w.status));
  const lines = [f.bold(f.underline(w.title)), f.dim(facts.join(' · ')), `${f.dim('Intent:')} ${w.intent}`];
  if (w.alerts.length > 0) lines.push(`${f.dim('Alerts:')} ${w.alerts.join(', ')}`);
  if (w.urls.length > 0) lines.push(`${f.dim(w.type === 'pages' ? 'Pages:' : 'Sources:')} ${w.urls.join(' ')}`);
  return lines.join('\n');
}

const ARCHIVE_SHOWN = 10;

/** `watch show` (and the end of `watch create`) on a terminal; piped, plainWatchPage. */
export async function renderWatchPage(ctx: RenderContext, page: WatchPage, f: Formatter): Promise<string> {
  const links = supportsHyperlinks(ctx.io);
  const width = Math.min(f.width, 100);
  const parts = [renderWatchHeader(page, f)];
  if (page.brief) {
    parts.push(`\n${await renderBrief(ctx, page.brief, f)}`);
  } else {
    parts.push(
      `\n${f.yellow('No brief yet.')} ${page.watch.status === 'setting_up' ? 'The watch is still being set up; its first brief covers the last 7 days.' : ''}`.trimEnd(),
    );
  }
  if (page.archive.length > 0) {
    const shown = page.archive
      .slice(0, ARCHIVE_SHOWN)
      .map((ref) => (page.brief && ref.id === page.brief.id ? f.bold(ref.date) : ref.date));
    const more = page.archive.length > ARCHIVE_SHOWN ? f.dim(` (+${page.archive.length - ARCHIVE_SHOWN} more)`) : '';
    parts.push(`\n${f.bold('Archive')}  ${shown.join(f.dim(' · '))}${more}`);
    parts.push(f.dim(`  one day: ${kagentCommand(ctx, 'watch show', page.watch.slug, '--date', 'YYYY-MM-DD')}`));
    parts.push(f.dim(`  all:     ${kagentCommand(ctx, 'watch issues', page.watch.slug)}`));
  }
  if (page.method.summary.trim() || page.method.sources.length > 0) {
    parts.push(`\n${f.bold('Method')}`);
    if (page.method.summary.trim()) parts.push(wrap(page.method.summary, width, 2));
    for (const source of page.method.sources) parts.push(methodSource(source, f, links, width));
  }
  return parts.join('\n');
}

/** One of the method's sources: its title linked, or `title  url`; the URL alone when the title is only the URL or its host. */
function methodSource(
  source: WatchPage['method']['sources'][number],
  f: Formatter,
  links: boolean,
  width: number,
): string {
  const label = sanitizeLine(source.title);
  if (textIsUrl(label, source.url)) return `  · ${urlInLine(source.url, width - 4, links)}`;
  if (links && linkableUrl(source.url)) return `  · ${hyperlink(label, source.url, true)}`;
  const room = width - 6 - displayWidth(label);
  return `  · ${label}  ${f.dim(urlInLine(source.url, Math.max(room, 20), false))}`;
}

/**
 * A watch page's head, declared once: its piped `key<TAB>value` lines (a terminal shows the page its own
 * way), the keys --json takes and the help's "Piped, …" sentence (`watch show`, `watch create`).
 */
export const watchHead: ItemView<WatchPage> = {
  fields: [
    // Read through `p.watch` on purpose: a page without its watch throws here, and is shown generically, whole.
    { key: 'slug', value: (p) => p.watch.slug, json: 'watch.slug' },
    { key: 'title', value: (p) => p.watch.title, json: 'watch.title' },
    { key: 'intent', value: (p) => p.watch.intent, json: 'watch.intent' },
    { key: 'type', value: (p) => p.watch.type, json: 'watch.type' },
    { key: 'cadence', value: (p) => p.watch.cadence, json: 'watch.cadence' },
    { key: 'visibility', value: (p) => p.watch.visibility, json: 'watch.visibility' },
    { key: 'status', value: (p) => p.watch.status, json: 'watch.status' },
    { key: 'owner', value: (p) => p.watch.owner, kind: 'bool', json: 'watch.owner' },
    { key: 'following', value: (p) => p.watch.following, kind: 'bool', json: 'watch.following' },
    { key: 'followers', value: (p) => p.watch.followers, json: 'watch.followers' },
    // No link: `--json brief` is the API's whole Brief.
    { key: 'brief', value: (p) => p.brief?.id ?? '', about: "the brief's id; empty before the first" },
    { key: 'date', value: (p) => p.brief?.date ?? '', json: 'brief.date' },
    { key: 'brief-title', value: (p) => p.brief?.title ?? '', json: 'brief.title' },
    { key: 'entries', value: (p) => (p.brief ? p.brief.entries.length : 0), about: 'how many' },
  ],
  then: 'Then a `--` line and one tab-separated row per entry: position, importance, category, headline, primary URL, entry id.',
};

/** Piped: the head's `key<TAB>value` lines, `--`, then one row per entry. */
export function plainWatchPage(page: WatchPage, f: Formatter): string {
  const b = page.brief;
  const rows = b ? [...b.entries].sort((x, y) => x.position - y.position).map(plainEntryRow) : [];
  return [renderView(page, watchHead, f), '--', ...rows].join('\n');
}

/** position, importance, category, headline, primary URL, entry id. */
export function plainEntryRow(entry: BriefEntry): string {
  return [entry.position, entry.importance, entry.category ?? '', entry.headline, entry.primaryUrl, entry.id]
    .map(cell)
    .join('\t');
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  return sanitizeLine(String(value));
}

/** Columns before a timeline item's URL and entry id, and before its headline (`  2026-01-12  ●●●●○  `). */
const TIMELINE_URL = 14;
const TIMELINE_HEADLINE = 21;

/** `watch knowledge`: the weekly report (Markdown) and the timeline of important items. */
export async function renderKnowledge(ctx: RenderContext, knowledge: Knowledge, f: Formatter): Promise<string> {
  const timeline = [...knowledge.timeline];
  if (!f.tty) {
    const report = knowledge.report ? knowledge.report.markdown.replace(/\n+$/, '') : '';
    const rows = timeline.map((item) =>
      [item.date, item.importance, item.entryId, item.headline, item.url].map(cell).join('\t'),
    );
    return [report, '--', ...rows].join('\n');
  }
  const links = supportsHyperlinks(ctx.io);
  const width = Math.min(f.width, 100);
  const parts: string[] = [];
  if (knowledge.report) {
    parts.push(f.dim(`Weekly report · week ${knowledge.report.week} · ${f.time(knowledge.report.createdAt)}`));
    parts.push((await renderMarkdown(ctx, knowledge.report.markdown)).replace(/\n+$/, ''));
  } else {
    parts.push(f.yellow('No weekly report yet.'));
  }
  parts.push(`\n${f.bold('Timeline')} ${f.dim('(important items, newest first)')}`);
  if (timeline.length === 0) parts.push(f.dim('  nothing important yet'));
  for (const item of timeline) {
    // A long headline goes on under itself, not under the date.
    const head = `  ${item.date}  ${importanceMeter(item.importance, f)}  ${hyperlink(sanitizeLine(item.headline), item.url, links)}`;
    parts.push(wrapText(head, width, { hanging: TIMELINE_HEADLINE }));
    // Under the headline: its URL where it is no link, fitted beside the entry id (above it when narrow).
    const pad = ' '.repeat(TIMELINE_URL);
    const beside = width - TIMELINE_URL - 2 - displayWidth(item.entryId);
    const room = beside >= 30 ? beside : width - TIMELINE_URL;
    const url = links && linkableUrl(item.url) ? '' : urlInLine(item.url, room, false);
    const besideId = url !== '' && displayWidth(url) <= beside;
    if (url && !besideId) parts.push(f.dim(`${pad}${url}`));
    parts.push(f.dim(`${pad}${besideId ? `${url}  ` : ''}${item.entryId}`));
  }
  return parts.join('\n');
}
