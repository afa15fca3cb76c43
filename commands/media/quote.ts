import type { MediaQuote } from '../../src/api/shapes.js';
import { defineCommand } from '../../src/kit/define.js';
import { getQuote, creditsLeft } from './shared.js';
import { printItem, wantsJson } from '../../src/io/output.js';
import { timecode } from '../../src/views/media.js';

/** "0:47:10 (48 minutes)" */
async function durationText(quote: Pick<MediaQuote, 'durationSec' | 'minutes'>): Promise<string> {
  return `${timecode(quote.durationSec)} (${quote.minutes} minute${quote.minutes === 1 ? '' : 's'})`;
}

export default defineCommand({
  name: 'quote',
  summary: 'How long a video or podcast is and what transcribing it costs (nothing is spent)',
  description:
    'One price per minute; the summary and translation are included. Piped: "key<TAB>value" lines (url, title, kind, duration-sec, minutes, price-per-minute, credits).',
  arguments: [{ name: 'url', description: 'a video page, podcast episode or audio/video file link' }],
  examples: [
    'kagent media quote https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    'kagent media quote https://example.com/episode.mp3 --jq .credits',
    'kagent media quote URL | grep ^credits | cut -f2',
  ],
  async run(ctx, _opts, args) {
    const q = await getQuote(ctx, args.url);
    const left = ctx.io.stdoutIsTTY && !wantsJson(ctx) ? await creditsLeft(ctx) : undefined;
    const duration = await durationText(q);
    await printItem(ctx, q, (item, f) =>
      f.tty
        ? [
            f.bold(item.title),
            f.fields([
              ['Link', item.url],
              ['Kind', item.kind],
              ['Duration', duration],
              [
                'Cost',
                `${f.number(item.credits)} credits (${f.number(item.pricePerMinute)} per minute; summary and translation included)`,
              ],
              [
                'Credits',
                left === undefined
                  ? undefined
                  : `${f.number(left)} left${left < item.credits ? f.yellow(' — not enough') : ''}`,
              ],
            ]),
          ].join('\n')
        : f.fields([
            ['url', item.url],
            ['title', item.title],
            ['kind', item.kind],
            ['duration-sec', String(item.durationSec)],
            ['minutes', String(item.minutes)],
            ['price-per-minute', String(item.pricePerMinute)],
            ['credits', String(item.credits)],
          ]),
    );
  },
});
