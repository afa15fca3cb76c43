// The watch model: stored watches and briefs (with what the sandbox needs to keep
// writing them), who may see a watch, its public view, and adding and removing
// watches. Briefs are written by brief.ts; a new watch is set up by setup.ts;
// the routes are in routes/watches.ts.
import type * as S from '../../api/shapes.js';
import { keyTerms, methodSummary, slugify, watchTitle } from './content.js';
import { findTask, isActive } from '../tasks/model.js';
import type { Account, LibraryRecord, WatchRecord } from '../types.js';
import { notFound, type World } from '../world.js';

export const DAY_MS = 86_400_000;
export const CADENCE_MS: Record<S.Watch['cadence'], number | null> = { daily: DAY_MS, weekly: 7 * DAY_MS, off: null };
/** Sandbox time from createWatch to the first brief. */
export const SETUP_MS = 60_000;
/** Entries at least this important appear on the knowledge timeline. */
export const IMPORTANT = 0.75;

/** A stored watch with what the sandbox needs to keep writing its briefs. */
export type WatchRec = WatchRecord & {
  _sources: Array<{ url: string; title: string }>;
  _terms: string[];
  /** Followers outside this sandbox (seeded public watches look followed). */
  _baseFollowers: number;
};

/** A stored brief: `_label` seeds its text, `_gen[i]` is the generation index of entry i, `_featured[k]` its alert phrase. */
export type BriefRec = S.Brief & {
  _slug: string;
  _label: string;
  _gen: number[];
  _featured: Array<string | null>;
  _terms: string[];
  _type: S.Watch['type'];
  _urls: string[];
  _first: boolean;
  _watchTitle: string;
};

export function watches(world: World): Record<string, WatchRec> {
  return world.state.watches as Record<string, WatchRec>;
}

export function briefs(world: World): Record<string, BriefRec> {
  return world.state.briefs as Record<string, BriefRec>;
}

export function followerCount(world: World, w: WatchRec): number {
  let n = w._baseFollowers ?? 0;
  for (const account of Object.values(world.state.accounts)) if (account.follows[w.slug]) n++;
  return n;
}

export function canSee(account: Account, w: WatchRec): boolean {
  return w.visibility !== 'private' || w._ownerId === account.id || account.follows[w.slug] !== undefined;
}

/** The watch if this account may see it; 404 WATCH_NOT_FOUND otherwise (private watches are not revealed). */
export function visibleWatch(world: World, account: Account, slug: string): WatchRec {
  const w = watches(world)[slug];
  if (!w || !canSee(account, w)) throw notFound('WATCH_NOT_FOUND', `Watch ${slug}`);
  return w;
}

export function watchView(world: World, account: Account, w: WatchRec): S.Watch {
  return {
    slug: w.slug,
    title: w.title,
    intent: w.intent,
    type: w.type,
    cadence: w.cadence,
    visibility: w.visibility,
    lang: w.lang,
    urls: [...w.urls],
    alerts: [...w.alerts],
    owner: w._ownerId === account.id,
    following: account.follows[w.slug] !== undefined,
    spaceId: account.follows[w.slug]?.spaceId ?? null,
    followers: followerCount(world, w),
    status: w.status,
    createdAt: w.createdAt,
  };
}

export function briefRef(b: S.Brief): S.BriefRef {
  return { id: b.id, date: b.date, title: b.title, entryCount: b.entries.length, createdAt: b.createdAt };
}

export function latestBrief(world: World, w: WatchRec): BriefRec | undefined {
  const id = w._briefIds[w._briefIds.length - 1];
  return id ? briefs(world)[id] : undefined;
}

export function savedIn(account: Account, entryId: string): boolean {
  return account.library.some((i) => i.kind === 'entry' && i.entryId === entryId);
}

export interface NewWatch {
  intent: string;
  lang: S.Locale;
  visibility: S.Watch['visibility'];
  type: S.Watch['type'];
  cadence: S.Watch['cadence'];
  urls: string[];
  alerts: string[];
  ownerId: string;
  createdAt: number;
  slug?: string;
  baseFollowers?: number;
}

function uniqueSlug(world: World, base: string): string {
  const all = watches(world);
  if (!all[base]) return base;
  for (let i = 2; ; i++) if (!all[`${base}-${i}`]) return `${base}-${i}`;
}

/** Stores a new watch record (no task, no follow). */
export function addWatchRecord(world: World, init: NewWatch): WatchRec {
  const terms = keyTerms(init.intent);
  const base = init.slug ?? (slugify(init.intent) || `watch-${world.id('w').slice(2, 8)}`);
  const slug = uniqueSlug(world, base);
  const w: WatchRec = {
    slug,
    title: watchTitle(init.intent),
    intent: init.intent,
    type: init.type,
    cadence: init.cadence,
    visibility: init.visibility,
    lang: init.lang,
    urls: [...init.urls],
    alerts: [...init.alerts],
    status: 'setting_up',
    createdAt: world.iso(init.createdAt),
    _ownerId: init.ownerId,
    _briefIds: [],
    _taskId: null,
    _methodSummary: methodSummary(init.lang, init.type, terms, init.urls),
    _sources: [],
    _terms: terms,
    _baseFollowers: init.baseFollowers ?? 0,
  };
  watches(world)[slug] = w;
  return w;
}

/** Removes a watch entirely (undo of a watch the agent created). */
export function deleteWatch(world: World, slug: string): void {
  const w = watches(world)[slug];
  if (!w) return;
  world.cancelEvents(
    (e) => (e.kind === 'watch.brief' && e.data.slug === slug) || (w._taskId !== null && e.data.taskId === w._taskId),
  );
  for (const id of w._briefIds) delete world.state.briefs[id];
  for (const account of Object.values(world.state.accounts)) {
    delete account.follows[slug];
    const task = w._taskId ? findTask(account, w._taskId) : undefined;
    if (task && isActive(task)) {
      task.status = 'cancelled';
      task.finishedAt = world.iso();
      for (const m of task.milestones) if (m.status === 'pending' || m.status === 'running') m.status = 'skipped';
    }
  }
  delete watches(world)[slug];
}

// ---------------------------------------------------------------- entries

export function findEntry(world: World, id: string): { brief: BriefRec; entry: S.BriefEntry } | undefined {
  for (const brief of Object.values(briefs(world))) {
    const entry = brief.entries.find((e) => e.id === id);
    if (entry) return { brief, entry };
  }
  return undefined;
}

export function visibleEntry(
  world: World,
  account: Account,
  id: string,
): { brief: BriefRec; entry: S.BriefEntry; watch: WatchRec } {
  const found = findEntry(world, id);
  const watch = found ? watches(world)[found.brief._slug] : undefined;
  if (!found || !watch || !canSee(account, watch)) throw notFound('ENTRY_NOT_FOUND', `Entry ${id}`);
  return { ...found, watch };
}

/** Records the account's feedback on a brief entry, keeping whether it is saved. */
export function setEntryFeedback(
  account: Account,
  found: { entry: S.BriefEntry },
  feedback: S.EntryFeedbackRequest['feedback'],
): void {
  account.entryState[found.entry.id] = { feedback, saved: savedIn(account, found.entry.id) };
}

/** Saves a brief entry to the library (into the space the watch is followed in), or removes it; records the flag. */
export function setEntrySaved(
  world: World,
  account: Account,
  found: { entry: S.BriefEntry; watch: WatchRec },
  saved: boolean,
): void {
  const { entry, watch } = found;
  if (saved && !savedIn(account, entry.id)) {
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
  } else if (!saved) {
    account.library = account.library.filter((i) => !(i.kind === 'entry' && i.entryId === entry.id));
  }
  account.entryState[entry.id] = { feedback: account.entryState[entry.id]?.feedback ?? null, saved };
}
