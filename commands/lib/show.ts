import { defineCommand } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';
import { withNotFound } from '../../src/io/not-found.js';
import { pipedItem, renderItem } from './shared.js';
import { spaceNames } from '../../src/kit/space.js';
import { pipedFieldsHelp, note, renderView } from '../../src/io/output.js';
import { atTerminal, printView } from '../../src/io/outcome.js';

export default defineCommand({
  name: 'show',
  pager: true,
  aliases: ['view'],
  summary: 'Show a library item: where it came from, its summary and key points',
  description: pipedFieldsHelp(pipedItem),
  arguments: [{ name: 'id', description: 'the item (ids are shown by `lib list` and `lib search`)', complete: 'lib' }],
  examples: [
    'kagent lib show li_8f2k3xq9mz',
    'kagent lib show li_8f2k3xq9mz --json | jq .keyPoints',
    "kagent lib show li_8f2k3xq9mz | grep '^summary' | cut -f2",
  ],
  async run(ctx, _opts, args) {
    const api = await ctx.api();
    const item = await withNotFound(ctx, 'item', args.id, () =>
      api.call('getLibraryItem', { params: { id: args.id }, signal: ctx.signal }),
    );
    const names = await spaceNames(ctx, [item]);
    await printView(ctx, item, {
      table: pipedItem,
      terminal: (i, f) => renderItem(ctx, i, f, i.spaceId ? names.get(i.spaceId) : undefined),
      piped: (i, f) => renderView(i, pipedItem, f),
    });
    if (atTerminal(ctx) && item.kind === 'file')
      await note(ctx, `Its full text: \`${suggest(ctx, 'lib text', item.id)}\``);
  },
});
