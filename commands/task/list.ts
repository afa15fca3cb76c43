import type { Task } from '../../src/api/shapes.js';
import { defineCommand } from '../../src/kit/define.js';
import { pageOptions, spaceOption } from '../../src/kit/options.js';
import { percent } from './shared.js';
import { printList } from '../../src/io/output.js';
import { taskStatus } from '../../src/views/task.js';
import { listItems } from '../../src/kit/listing.js';

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List background tasks, newest first',
  options: [
    spaceOption('only tasks of this space (id or name)'),
    { flags: '--active', description: 'only queued, running or waiting tasks' },
    { flags: '--no-active', description: 'only finished tasks (neither queued, running nor waiting)' },
    {
      flags: '--kind <kind>',
      description: 'only tasks of this kind (watch_setup, brief, research, transcription, scheduled, ...)',
    },
    ...pageOptions('every task'),
  ],
  examples: [
    'kagent task list --active',
    'kagent task list --no-active --limit 10',
    'kagent task list --kind watch_setup --limit 5',
    'kagent task list --all --json | jq "map(select(.status == \\"failed\\")) | length"',
    'kagent task list --active | cut -f1',
  ],
  async run(ctx, opts) {
    const query = {
      space: opts.space,
      active: opts.active === undefined ? undefined : String(opts.active),
      kind: opts.kind,
    };
    const items = await listItems(ctx, 'listTasks', query, opts, {
      active: opts.active === false ? '--no-active' : '--active',
      kind: '--kind',
    });
    await printList<Task>(ctx, items, {
      empty: emptyText(opts.active),
      columns: [
        { header: 'Id', value: (t) => t.id },
        // On a narrow terminal the kind goes before the status, which says what the task is doing.
        { header: 'Kind', value: (t) => t.kind, priority: 3 },
        { header: 'Status', value: (t) => t.status, display: (t, f) => taskStatus(t.status, f) },
        { header: 'Progress', value: (t) => t.progress, display: (t) => percent(t.progress) },
        { header: 'Title', value: (t) => t.title, flex: true },
        { header: 'Updated', value: (t) => t.updatedAt, kind: 'time' },
        { header: 'Created', value: (t) => t.createdAt, only: 'plain' },
        { header: 'Finished', value: (t) => t.finishedAt, only: 'plain' },
        { header: 'Space', value: (t) => t.spaceId, only: 'plain' },
      ],
    });
  },
});

/** What an empty list says, by --active / --no-active. */
function emptyText(active: boolean | undefined): string {
  if (active === undefined) return 'No tasks.';
  return active ? 'No task is running.' : 'No finished tasks.';
}
