import type { MediaItem } from '../../src/api/shapes.js';
import { UsageError } from '../../src/errors.js';
import { checkInput, defineCommand } from '../../src/kit/define.js';
import { shapes, command } from './shared.js';

// ---------------------------------------------------------------- list

interface ListOptions {
  space?: string;
  limit?: number;
  all?: boolean;
}

export default defineCommand<ListOptions>({
  name: 'list',
  aliases: ['ls'],
  summary: 'List transcribed videos and podcasts, most recently saved first',
  description: 'Columns when piped: id, status, kind, duration (seconds), title, saved (ISO time), url, space id.',
  options: [
    { flags: '--space <space>', description: 'only media of this space (id or name)' },
    { flags: '-L, --limit <n>', description: 'at most this many (default: the first page, 50)', type: 'integer', min: 1 },
    { flags: '--all', description: 'every item, following every page' },
  ],
  examples: ['kagent media list', 'kagent media list --all --json | jq -r ".[] | select(.status == \\"ready\\") | .id"', 'kagent media list | cut -f1,5'],
  async run(ctx, opts) {
    if (opts.all && opts.limit !== undefined) throw new UsageError('use --limit or --all, not both');
    const S = await shapes();
    const query: Record<string, string | undefined> = { space: opts.space };
    checkInput(S.Queries.listMedia, query, { space: '--space' });
    if (opts.space !== undefined) {
      const { resolveSpace } = await import('../../src/kit/space.js');
      query.space = (await resolveSpace(ctx, opts.space)).id;
    }
    const api = await ctx.api();
    const { printList } = await import('../../src/io/output.js');
    const { timecode } = await import('../../src/views/media.js');
    const items = api.paginate('listMedia', { query, signal: ctx.signal }, { limit: opts.limit, all: opts.all });
    await printList<MediaItem>(ctx, items, {
      empty: `No media yet: transcribe a video or podcast with \`${await command(ctx, 'media start URL')}\`.`,
      columns: [
        { header: 'Id', value: (m) => m.id },
        { header: 'Status', value: (m) => m.status, display: (m, f) => (m.status === 'ready' ? m.status : m.status === 'failed' ? f.red(m.status) : f.cyan(m.status)) },
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