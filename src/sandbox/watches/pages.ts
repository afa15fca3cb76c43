// A watch as read back: its page (the watch, the brief of a date or the latest, the
// archive of the last 90 briefs, its method in the language asked for) and the list
// of its issues, newest first.
import type * as S from '../../api/shapes.js';
import type { Account } from '../types.js';
import { notFound, page, type World } from '../world.js';
import { briefView } from './brief.js';
import { methodSummary } from './content.js';
import { briefRef, watchView, type BriefRec, type WatchRec } from './model.js';

function briefsOf(world: World, w: WatchRec): BriefRec[] {
  return w._briefIds.map((id) => world.state.briefs[id] as BriefRec).filter(Boolean);
}

/** The watch page in `lang`; with `date`, that day's brief (404 BRIEF_NOT_FOUND if it has none). */
export function watchPage(
  world: World,
  account: Account,
  w: WatchRec,
  lang: S.Locale,
  date: string | undefined,
): S.WatchPage {
  const all = briefsOf(world, w);
  let brief: BriefRec | undefined;
  if (date) {
    brief = [...all].reverse().find((b) => b.date === date);
    if (!brief) throw notFound('BRIEF_NOT_FOUND', `Brief of ${date} for watch ${w.slug}`);
  } else {
    brief = all[all.length - 1];
  }
  const archive = [...all].reverse().slice(0, 90).map(briefRef);
  return {
    watch: watchView(world, account, w),
    brief: brief ? briefView(world, account, brief, lang) : null,
    archive,
    method: {
      summary: lang === w.lang ? w._methodSummary : methodSummary(lang, w.type, w._terms, w.urls),
      sources: w._sources.map((s) => ({ ...s })),
    },
  };
}

/** A page of the watch's issues, newest first, 30 a page. */
export function watchIssues(
  world: World,
  w: WatchRec,
  query: Record<string, any>,
): { items: S.IssueSummary[]; nextCursor: string | null } {
  const result = page(briefsOf(world, w).reverse(), query, `issues:${w.slug}`, 30);
  const items: S.IssueSummary[] = result.items.map((b) => ({
    id: b.id,
    date: b.date,
    title: b.title,
    entryCount: b.entries.length,
    headlines: b.entries.slice(0, 3).map((e) => e.headline),
    createdAt: b.createdAt,
  }));
  return { items, nextCursor: result.nextCursor };
}
