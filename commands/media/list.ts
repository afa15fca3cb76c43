import type { MediaItem } from '../../src/api/shapes.js';
import { defineCommand } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';
import { pageOptions, spaceOption } from '../../src/kit/options.js';

import { printList } from '../../src/io/output.js';
import { timecode } from '../../src/views/media.js';
import { listItems } from '../../src/kit/listing.js';

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List transcribed videos and podcasts, most recently saved first',
  description: 'Columns when piped: id, status, kind, duration (seconds), title, saved (ISO time), url, space id.',
  options: [spaceOption('only media of this space (id or name)'), ...pageOptions('every item', 50)],
  examples: [
    'kagent media list',
    'kagent media list --all --json | jq -r ".[] | select(.status == \\"ready\\") | .id"',
    'kagent media list | cut -f1,5',
  ],
  async run(ctx, opts) {
    const items = await listItems(ctx, 'listMedia', { space: opts.space }, opts);
    await printList<MediaItem>(ctx, items, {
      empty: `No media yet: transcribe a video or podcast with \`${suggest(ctx, 'media start URL')}\`.`,
      columns: [
        { header: 'Id', value: (m) => m.id },
        {
          header: 'Status',
          value: (m) => m.status,
          display: (m, f) => {
            if (m.status === 'ready') return m.status;
            return m.status === 'failed' ? f.red(m.status) : f.cyan(m.status);
          },
        },
        { header: 'Kind', value: (m) => m.kind },
        { header: 'Duration', value: (m) => m.durationSec, display: (m) => timecode(m.durationSec) },
        { header: 'Title', value: (m) => m.title, flex: true },
        { header: 'Saved', value: (m) => m.createdAt, kind: 'time' },
        { header: 'Url', value: (m) => m.url, only: 'plain' },
        { header: 'Space', value: (m) => m.spaceId, only: 'plain' },
      ],
    });
  },
});
