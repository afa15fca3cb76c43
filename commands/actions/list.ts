import type { Action } from '../../src/api/shapes.js';
import { defineCommand } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';
import { pageOptions, paging } from '../../src/kit/options.js';
import { pendingActions } from './shared.js';
import { isoTime } from '../../src/io/format.js';
import { pipedRowsHelp, printList, note, type Column } from '../../src/io/output.js';
import { atTerminal } from '../../src/io/outcome.js';
import { riskText } from '../../src/views/chat.js';

const columns: Column<Action>[] = [
  { header: 'Id', value: (a) => a.id },
  { header: 'Risk', value: (a) => a.risk, display: (a, f) => riskText(a.risk, f) },
  { header: 'Tool', value: (a) => a.tool },
  { header: 'Title', value: (a) => a.title, flex: true },
  { header: 'For', value: (a) => (a.taskId ? `task ${a.taskId}` : (a.conversationId ?? '')), only: 'tty' },
  { header: 'Conversation', value: (a) => a.conversationId, only: 'plain', about: 'id' },
  { header: 'Task', value: (a) => a.taskId, only: 'plain', about: 'id' },
  { header: 'Created', value: (a) => isoTime(a.createdAt), kind: 'time' },
  { header: 'Rule scope', value: (a) => a.ruleScope, only: 'plain' },
];

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the actions waiting for your decision',
  description: `${pipedRowsHelp(columns)} --json prints the Actions.`,
  options: [...pageOptions('every action waiting')],
  examples: [
    'kagent actions list',
    'kagent actions list --json | jq -r ".[] | select(.risk == \\"low\\") | .id"',
    'kagent actions list | cut -f1',
  ],
  async run(ctx, opts) {
    const count = await printList<Action>(ctx, pendingActions(ctx, paging(opts)), {
      empty: 'No actions are waiting for your decision.',
      columns,
    });
    if (count > 0 && atTerminal(ctx)) {
      const approveCmd = suggest(ctx, 'actions approve ID');
      const rejectCmd = suggest(ctx, 'actions reject ID');
      await note(ctx, (f) => f.dim(`decide: ${approveCmd} or ${rejectCmd} (--remember allows that kind from now on)`));
    }
  },
});
