// Watch routes: watches, briefs and entries. The model is in ../watches/
// (model.ts: records, visibility, views and saved entries; setup.ts: creating a
// watch and its `watch_setup` task; brief.ts: writing briefs and the weekly
// report; follows.ts: following and search; pages.ts: a watch's page and issues).
import type * as S from '../../api/shapes.js';
import { HttpFail, type Jobs, type Routes } from '../types.js';
import { knowledgeOf, nextBrief, scheduleNextBrief } from '../watches/brief.js';
import { followedWatches, followWatch, searchWatches } from '../watches/follows.js';
import { savedIn, setEntrySaved, visibleEntry, visibleWatch } from '../watches/model.js';
import { watchIssues, watchPage } from '../watches/pages.js';
import { createWatchFor, setupStep } from '../watches/setup.js';

export const routes: Routes = {
  listFollowedWatches: ({ world, account }) => ({ body: { items: followedWatches(world, account) } }),

  createWatch: ({ world, account, body }) => ({
    status: 202,
    body: createWatchFor(world, account, body as S.CreateWatchRequest),
  }),

  searchWatches: ({ world, query }) => ({ body: { items: searchWatches(world, String(query.q ?? '')) } }),

  getWatch: ({ world, account, params, query }) => {
    const w = visibleWatch(world, account, params.slug ?? '');
    return { body: watchPage(world, account, w, query.lang ?? w.lang, query.date) };
  },

  getWatchKnowledge: ({ world, account, params }) => ({
    body: knowledgeOf(world, visibleWatch(world, account, params.slug ?? '')),
  }),

  listWatchIssues: ({ world, account, params, query }) => ({
    body: watchIssues(world, visibleWatch(world, account, params.slug ?? ''), query),
  }),

  followWatch: ({ world, account, params, body }) => ({
    body: followWatch(world, account, visibleWatch(world, account, params.slug ?? ''), body as S.FollowRequest),
  }),

  unfollowWatch: ({ world, account, params }) => {
    const w = visibleWatch(world, account, params.slug ?? '');
    delete account.follows[w.slug];
    return { status: 204 };
  },

  updateWatchSettings: ({ world, account, params, body }) => {
    const w = visibleWatch(world, account, params.slug ?? '');
    // The contract lists only 404 for updateWatchSettings ("owner only"): to anyone but the
    // owner, a watch they may read or follow is still not one whose settings exist for them.
    if (w._ownerId !== account.id)
      throw new HttpFail(
        404,
        'WATCH_NOT_FOUND',
        `No watch of yours has the slug ${w.slug}: only its owner can change its settings`,
      );
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
    setEntrySaved(world, account, visibleEntry(world, account, params.id ?? ''), (body as S.EntrySavedRequest).saved);
    return { status: 204 };
  },
};

export const jobs: Jobs = {
  'watch.setup': setupStep,
  'watch.brief': nextBrief,
};
