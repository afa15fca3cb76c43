import type { DocSummary } from '../../src/api/shapes.js';
import { defineCommand } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';
import { pageOptions, spaceOption } from '../../src/kit/options.js';

import { printList } from '../../src/io/output.js';
import { listItems } from '../../src/kit/listing.js';

const listColumns = [
  { header: 'Id', value: (d: DocSummary) => d.id },
  { header: 'Title', value: (d: DocSummary) => d.title, flex: true },
  { header: 'Rev', value: (d: DocSummary) => d.revision, kind: 'number' as const },
  { header: 'Updated', value: (d: DocSummary) => d.updatedAt, kind: 'time' as const },
  { header: 'Space', value: (d: DocSummary) => d.spaceId, only: 'plain' as const },
  { header: 'Folder', value: (d: DocSummary) => d.folderId, only: 'plain' as const },
];

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List documents, most recently updated first',
  description: 'Columns when piped: id, title, revision, updated (ISO time), space id, folder id.',
  options: [spaceOption('only documents of this space (id or name)'), ...pageOptions('every document', 100)],
  examples: [
    'kagent doc list',
    'kagent doc list --space Research --limit 10',
    'kagent doc list --all --json | jq -r ".[].title"',
    'kagent doc list | cut -f1,2',
  ],
  async run(ctx, opts) {
    const items = await listItems(ctx, 'listDocs', { space: opts.space }, opts);
    await printList<DocSummary>(ctx, items, {
      columns: listColumns,
      empty: `No documents${opts.space ? ` in ${opts.space}` : ''}: write one with \`${suggest(ctx, 'doc create --title TITLE --file notes.md')}\`.`,
    });
  },
});
