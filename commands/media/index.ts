// `kagent media`: video and podcast links become timestamped transcripts and summaries.
//   quote       quoteMedia: duration and credit cost, nothing spent
//   start       quote, show the cost, confirm (credit-spending), startMedia, then
//               follow until ready: segments as they arrive, then summary and chapters
//   list        listMedia (most recently saved first; --space, --limit, --all)
//   show        getMedia (--follow follows like start)
//   transcript  getTranscript (Markdown with timestamp links; --from/--to)
// Following is src/follow/media.ts on the shared poller: --timeout exits 8 and
// Ctrl-C 130, both with `kagent media show ID --follow` to pick it up again.
import { defineGroup } from '../../src/kit/define.js';
import quote from './quote.js';
import start from './start.js';
import list from './list.js';
import show from './show.js';
import transcript from './transcript.js';

export default defineGroup({
  description:
    'A quote comes first (one price per minute, nothing spent); `start` shows it, asks, and follows the transcription; `show` and `transcript` read it.',
  examples: [
    'kagent media quote https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    'kagent media start https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    'kagent media list',
    'kagent media transcript md_3k9x8q2m7d --from 10:00',
  ],
  commands: [quote, start, list, show, transcript],
});
