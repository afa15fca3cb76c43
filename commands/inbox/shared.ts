// What several `kagent inbox` verbs share: the list's options (the group alone
// lists) and the declaration of the three marking verbs. The work is in src/inbox/.
import { defineCommand, type CommandSpec, type OptionsOf } from '../../src/kit/define.js';
import { pageOptions } from '../../src/kit/options.js';
import { markItems, type Mark } from '../../src/inbox/mark.js';
import { columns } from '../../src/inbox/list.js';
import { pipedRowsHelp } from '../../src/io/output.js';

const FILTERS = ['all', 'unread', 'approval', 'task', 'brief'] as const;

export const listOptions = [
  {
    flags: '--filter <filter>',
    description: 'all, unread, approval (actions waiting), task (finished tasks), brief (briefs and alerts)',
    choices: FILTERS,
    default: 'all',
  },
  ...pageOptions('every item'),
] as const;

export type ListOptions = OptionsOf<typeof listOptions>;

export const LIST_DESCRIPTION = `Actions waiting for a decision come first, then the rest, newest first. ${pipedRowsHelp(columns)} --json prints the InboxItems.`;

export function markCommand(
  name: 'read' | 'done' | 'dismiss',
  mark: Mark,
  summary: string,
): CommandSpec<Record<string, never>, { ids: string[] }> {
  return defineCommand({
    name,
    summary,
    description: `Every id is tried; the exit status is that of the most severe failure (4 when an id was not found). Piped, prints each id marked; --json prints [{id, ${mark}, error?}].`,
    arguments: [{ name: 'ids', description: 'one or more inbox items', variadic: true, complete: 'inbox' }],
    examples: [
      `kagent inbox ${name} ib_3k9x8q2m7d`,
      `kagent inbox list --filter ${name === 'read' ? 'unread' : 'brief'} | cut -f1 | xargs kagent inbox ${name}`,
    ],
    run: (ctx, _opts, args) => markItems(ctx, args.ids, mark),
  });
}
