// `kagent watch`: follow subjects, sources and pages, and read their briefs.
//   list       listFollowedWatches (each with its latest brief)
//   create     createWatch, then follows the set-up task and shows the first brief
//   search     searchWatches
//   show       getWatch (--date), with the archive and the method
//   knowledge  getWatchKnowledge (weekly report and timeline)
//   issues     listWatchIssues (newest first; --limit, --all)
//   follow     followWatch (also moves a followed watch to another space)
//   unfollow   unfollowWatch
//   settings   updateWatchSettings (owner only)
// Writes answered with 204 print, with --json, a small object saying what was
// done: {slug, following: false} for unfollow, {slug, ...changes} for settings.
import { defineGroup } from '../../src/kit/define.js';
import list from './list.js';
import create from './create.js';
import search from './search.js';
import show from './show.js';
import knowledge from './knowledge.js';
import issues from './issues.js';
import follow from './follow.js';
import unfollow from './unfollow.js';
import settings from './settings.js';

export default defineGroup({
  description:
    'A watch follows a subject, a set of sources or a few pages and writes a brief on a schedule. Each brief is made of entries, each linked to its evidence.',
  examples: [
    'kagent watch create "EU rules on AI chips export"',
    'kagent watch list',
    'kagent watch show ai-chips',
    'kagent watch search battery && kagent watch follow battery-recycling',
  ],
  commands: [list, create, search, show, knowledge, issues, follow, unfollow, settings],
});
