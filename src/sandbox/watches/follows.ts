// Following watches and finding them: the followed list, following (with the
// plan's follow limit) and the search over public watches.
import type * as S from '../../api/shapes.js';
import { compare, newestBy } from '../order.js';
import { HttpFail, type Account } from '../types.js';
import type { World } from '../world.js';
import { briefRef, followerCount, latestBrief, watches, type WatchRec } from './model.js';

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

/** The watches this account follows, most recently followed first. */
export function followedWatches(world: World, account: Account): S.FollowedWatch[] {
  const all = watches(world);
  const followed = Object.entries(account.follows)
    .map(([slug, f]) => ({ w: all[slug], f }))
    .filter((x): x is { w: WatchRec; f: { spaceId: string | null; followedAt: string } } => x.w !== undefined);
  return newestBy(followed, (x) => x.f.followedAt).map((x) => followedView(world, account, x.w));
}

/**
 * Follows a watch into a space (`null`: the default space; left out: the current
 * one, or the default for a new follow), or moves an existing follow. 403
 * FOLLOW_LIMIT past the plan's follows.
 */
export function followWatch(world: World, account: Account, w: WatchRec, input: S.FollowRequest): S.FollowState {
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
      throw new HttpFail(
        403,
        'FOLLOW_LIMIT',
        `Your plan follows at most ${account.limits.follows} watches (limits.follows); unfollow one first`,
      );
    }
    account.follows[w.slug] = { spaceId, followedAt: world.iso() };
  }
  return { slug: w.slug, following: true, spaceId, followers: followerCount(world, w) };
}

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

/** Stops following a watch (nothing happens if the account did not follow it). */
export function unfollowWatch(account: Account, w: WatchRec): void {
  delete account.follows[w.slug];
}

/** Public watches (set-up not failed) matching `q`, best first, then most followed; at most 20. */
export function searchWatches(world: World, q: string): S.WatchCard[] {
  const hits = Object.values(watches(world))
    .filter((w) => w.visibility === 'public' && w.status !== 'failed')
    .map((w) => ({ w, score: searchScore(q, w), followers: followerCount(world, w) }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || b.followers - a.followers || compare(a.w.slug, b.w.slug))
    .slice(0, 20);
  return hits.map(({ w, followers }) => ({
    slug: w.slug,
    title: w.title,
    intent: w.intent,
    type: w.type,
    cadence: w.cadence,
    followers,
    lastBriefAt: latestBrief(world, w)?.createdAt ?? null,
  }));
}
