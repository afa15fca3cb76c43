import type { MediaQuote } from '../../src/api/shapes.js';
import { defineCommand } from '../../src/kit/define.js';
import { getQuote, creditsLeft } from './shared.js';
import { pipedFieldsHelp, printItem, type ItemView } from '../../src/io/output.js';
import { timecode } from '../../src/views/media.js';
import { atTerminal } from '../../src/io/outcome.js';

/**
 * The quote, declared once: the terminal's lines, the piped ones, --json's keys and the help. `left`, the
 * credits the account has (fetched for a terminal only), is a terminal line of its own.
 */
export function quoteView(left?: number): ItemView<MediaQuote> {
  return {
    title: (q, f) => f.bold(q.title),
    fields: [
      { key: 'url', label: 'Link', json: 'url' },
      { key: 'title', json: 'title' },
      { key: 'kind', label: 'Kind', json: 'kind' },
      {
        key: 'duration-sec',
        label: 'Duration',
        value: (q) => q.durationSec,
        // "0:47:10 (48 minutes)"
        display: (q) => `${timecode(q.durationSec)} (${q.minutes} minute${q.minutes === 1 ? '' : 's'})`,
        json: 'durationSec',
      },
      { key: 'minutes', json: 'minutes' },
      { key: 'price-per-minute', json: 'pricePerMinute' },
      {
        key: 'credits',
        label: 'Cost',
        value: (q) => q.credits,
        display: (q, f) =>
          `${f.number(q.credits)} credits (${f.number(q.pricePerMinute)} per minute; summary and translation included)`,
        json: 'credits',
      },
      {
        key: 'credits-left',
        label: 'Credits',
        only: 'tty',
        display: (q, f) =>
          left === undefined ? undefined : `${f.number(left)} left${left < q.credits ? f.yellow(' — not enough') : ''}`,
      },
    ],
  };
}

export default defineCommand({
  name: 'quote',
  summary: 'How long a video or podcast is and what transcribing it costs (nothing is spent)',
  description: `One price per minute; the summary and translation are included. ${pipedFieldsHelp(quoteView())}`,
  arguments: [{ name: 'url', description: 'a video page, podcast episode or audio/video file link' }],
  examples: [
    'kagent media quote https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    'kagent media quote https://example.com/episode.mp3 --jq .credits',
    'kagent media quote URL | grep ^credits | cut -f2',
  ],
  async run(ctx, _opts, args) {
    const q = await getQuote(ctx, args.url);
    const left = atTerminal(ctx) ? await creditsLeft(ctx) : undefined;
    await printItem(ctx, q, quoteView(left));
  },
});
