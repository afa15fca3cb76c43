// Watch routes: watches, briefs and entries. The model is in ../watches/
// (model.ts: records, visibility and views; setup.ts: creating a watch and its
// `watch_setup` task; brief.ts: writing briefs and the weekly report).
import type * as S from '../../api/shapes.js';
import { methodSummary } from '../content.js';
import { HttpFail, type Account, type Jobs, type LibraryRecord, type Routes } from '../types.js';
import { notFound, page, type World } from '../world.js';
import { briefView, knowledgeOf, nextBrief, scheduleNextBrief } from '../watches/brief.js';
import { briefRef, followerCount, latestBrief, savedIn, visibleEntry, visibleWatch, watches, watchView, type BriefRec, type WatchRec } from '../watches/model.js';
import { createWatchFor, setupStep } from '../watches/setup.js';

// ---------------------------------------------------------------- search

function searchScore(q: string, w: WatchRec): number {
  const hay = `${w.title} ${w.intent} ${w.slug.replace(/-/g, ' ')}`.toLowerCase();
  const query = q.toLowerCase().trim();
  if (!query) return 0;
  let score = hay.includes(query) ? 3 : 0;
  for (const raw of query.split(/\s+/)) {
    if (!raw) continue;
    const stem = raw.length > 3 && raw.endsWith('s') ? raw.slice(0, -1) : raw;
    if (hay.includes(stem)) score += 1;
    else if (/[\u3400-\u9fff]/.test(raw)) {
      for (let i = 0; i + 2 <= raw.length; i++) if (hay.includes(raw.slice(i, i + 2))) score += 0.5;
    }
  }
  return score;
}

// ---------------------------------------------------------------- routes

function followedView(world: World, account: Account, w: WatchRec): S.FollowedWatch {
  const follow = account.follows[w.slug];
  const latest = latestBrief(world, w);
  return {
    slug: w.slug,
    title: w.title,
    intent: w.intent,
    type: w.type,
    cadence: w.cadence,
    owner: w._ownerId === account.id,
    spaceId: follow?.spaceId ?? null,
    followedAt: follow?.followedAt ?? w.createdAt,
    latestBrief: latest ? briefRef(latest) : null,
  };
}

export const routes: Routes = {
  listFollowedWatches: ({ world, account }) => {
    const all = watches(world);
    const followed = Object.entries(account.follows)
      .map(([slug, f], i) => ({ w: all[slug], f, i }))
      .filter((x): x is { w: WatchRec; f: { spaceId: string | null; followedAt: string }; i: number } => x.w !== undefined)
      .sort((a, b) => (a.f.followedAt === b.f.followedAt ? b.i - a.i : a.f.followedAt < b.f.followedAt ? 1 : -1));
    return { body: { items: followed.map((x) => followedView(world, account, x.w)) } };
  },

  createWatch: ({ world, account, body }) => ({ status: 202, body: createWatchFor(world, account, body as S.CreateWatchRequest) }),

  searchWatches: ({ world, query }) => {
    const q = String(query.q ?? '');
    const hits = Object.values(watches(world))
      .filter((w) => w.visibility === 'public' && w.status !== 'failed')
      .map((w) => ({ w, score: searchScore(q, w), followers: followerCount(world, w) }))
      .filter((x) => x.score > 0)
      .sort((a, b) => b.score - a.score || b.followers - a.followers || (a.w.slug < b.w.slug ? -1 : 1))
      .slice(0, 20);
    const items: S.WatchCard[] = hits.map(({ w, followers }) => ({
      slug: w.slug,
      title: w.title,
      intent: w.intent,
      type: w.type,
      cadence: w.cadence,
      followers,
      lastBriefAt: latestBrief(world, w)?.createdAt ?? null,
    }));
    return { body: { items } };
  },

  getWatch: ({ world, account, params, query }) => {
    const w = visibleWatch(world, account, params.slug ?? '');
    const lang: S.Locale = query.lang ?? w.lang;
    const all = w._briefIds.map((id) => world.state.briefs[id] as BriefRec).filter(Boolean);
    let brief: BriefRec | undefined;
    if (query.date) {
      brief = [...all].reverse().find((b) => b.date === query.date);
      if (!brief) throw notFound('BRIEF_NOT_FOUND', `Brief of ${query.date} for watch ${w.slug}`);
    } else {
      brief = all[all.length - 1];
    }
    const archive = [...all].reverse().slice(0, 90).map(briefRef);
    const body: S.WatchPage = {
      watch: watchView(world, account, w),
      brief: brief ? briefView(world, account, brief, lang) : null,
      archive,
      method: {
        summary: lang === w.lang ? w._methodSummary : methodSummary(lang, w.type, w._terms, w.urls),
        sources: w._sources.map((s) => ({ ...s })),
      },
    };
    return { body };
  },

  getWatchKnowledge: ({ world, account, params }) => ({ body: knowledgeOf(world, visibleWatch(world, account, params.slug ?? '')) }),

  listWatchIssues: ({ world, account, params, query }) => {
    const w = visibleWatch(world, account, params.slug ?? '');
    const all = w._briefIds.map((id) => world.state.briefs[id] as BriefRec).filter(Boolean).reverse();
    const result = page(all, query, `issues:${w.slug}`, 30);
    const items: S.IssueSummary[] = result.items.map((b) => ({
      id: b.id,
      date: b.date,
      title: b.title,
      entryCount: b.entries.length,
      headlines: b.entries.slice(0, 3).map((e) => e.headline),
      createdAt: b.createdAt,
    }));
    return { body: { items, nextCursor: result.nextCursor } };
  },

  followWatch: ({ world, account, params, body }) => {
    const w = visibleWatch(world, account, params.slug ?? '');
    const input = body as S.FollowRequest;
    const existing = account.follows[w.slug];
    let spaceId: string;
    if (input.spaceId === undefined) spaceId = existing?.spaceId ?? world.defaultSpace(account).id;
    else if (input.spaceId === null) spaceId = world.defaultSpace(account).id;
    else spaceId = world.space(account, input.spaceId).id;
    if (existing) {
      existing.spaceId = spaceId;
    } else {
      const count = Object.keys(account.follows).length;
      if (count >= account.limits.follows) {
        throw new HttpFail(403, 'FOLLOW_LIMIT', `Your plan follows at most ${account.limits.follows} watches (limits.follows); unfollow one first`);
      }
      account.follows[w.slug] = { spaceId, followedAt: world.iso() };
    }
    const state: S.FollowState = { slug: w.slug, following: true, spaceId, followers: followerCount(world, w) };
    return { body: state };
  },

  unfollowWatch: ({ world, account, params }) => {
    const w = visibleWatch(world, account, params.slug ?? '');
    delete account.follows[w.slug];
    return { status: 204 };
  },

  updateWatchSettings: ({ world, account, params, body }) => {
    const w = visibleWatch(world, account, params.slug ?? '');
    if (w._ownerId !== account.id) throw new HttpFail(403, 'NOT_OWNER', 'Only the owner of a watch can change its settings');
    const input = body as S.WatchSettingsRequest;
    if (input.alerts !== undefined) w.alerts = [...input.alerts];
    if (input.cadence !== undefined && input.cadence !== w.cadence) {
      w.cadence = input.cadence;
      scheduleNextBrief(world, w);
    }
    return { status: 204 };
  },

  setEntryFeedback: ({ world, account, params, body }) => {
    const { entry } = visibleEntry(world, account, params.id ?? '');
    const input = body as S.EntryFeedbackRequest;
    account.entryState[entry.id] = { feedback: input.feedback, saved: savedIn(account, entry.id) };
    return { status: 204 };
  },

  setEntrySaved: ({ world, account, params, body }) => {
    const { entry, watch } = visibleEntry(world, account, params.id ?? '');
    const input = body as S.EntrySavedRequest;
    if (input.saved && !savedIn(account, entry.id)) {
      const now = world.iso();
      const item: LibraryRecord = {
        id: world.id('li'),
        kind: 'entry',
        title: entry.headline,
        url: entry.primaryUrl,
        note: null,
        spaceId: account.follows[watch.slug]?.spaceId ?? world.defaultSpace(account).id,
        status: 'ready',
        summary: entry.summary,
        keyPoints: [entry.why, ...entry.evidence.map((e) => `${e.source}: ${e.title}`)],
        fileName: null,
        mime: null,
        size: null,
        sha256: null,
        entryId: entry.id,
        mediaId: null,
        createdAt: now,
        updatedAt: now,
      };
      account.library.push(item);
    } else if (!input.saved) {
      account.library = account.library.filter((i) => !(i.kind === 'entry' && i.entryId === entry.id));
    }
    account.entryState[entry.id] = { feedback: account.entryState[entry.id]?.feedback ?? null, saved: input.saved };
    return { status: 204 };
  },
};

export const jobs: Jobs = {
  'watch.setup': setupStep,
  'watch.brief': nextBrief,
};
