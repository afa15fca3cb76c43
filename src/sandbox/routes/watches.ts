// Watch routes: watches, briefs and entries. The model is in ../watches/
// (model.ts: records, visibility, views and saved entries; setup.ts: creating a
// watch and its `watch_setup` task; brief.ts: writing briefs and the weekly
// report; follows.ts: following and search; pages.ts: a watch's page and issues).
import type * as S from '../../api/shapes.js';
import type { Jobs, Routes } from '../types.js';
import { knowledgeOf, nextBrief } from '../watches/brief.js';
import { followedWatches, followWatch, searchWatches, unfollowWatch } from '../watches/follows.js';
import { setEntryFeedback, setEntrySaved, visibleEntry, visibleWatch } from '../watches/model.js';
import { watchIssues, watchPage } from '../watches/pages.js';
import { createWatchFor, setupStep, updateWatchSettings } from '../watches/setup.js';

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
    unfollowWatch(account, visibleWatch(world, account, params.slug ?? ''));
    return { status: 204 };
  },

  updateWatchSettings: ({ world, account, params, body }) => {
    updateWatchSettings(
      world,
      account,
      visibleWatch(world, account, params.slug ?? ''),
      body as S.WatchSettingsRequest,
    );
    return { status: 204 };
  },

  setEntryFeedback: ({ world, account, params, body }) => {
    setEntryFeedback(account, visibleEntry(world, account, params.id ?? ''), (body as S.EntryFeedbackRequest).feedback);
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
