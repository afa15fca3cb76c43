import type { Action } from '../../src/api/shapes.js';
import { UsageError } from '../../src/errors.js';
import { defineCommand } from '../../src/kit/define.js';
import { pendingActions, command } from './shared.js';

function iso(ms: unknown): string {
  return typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString() : ms === undefined || ms === null ? '' : String(ms);
}

// ---------------------------------------------------------------- list

export default defineCommand<{ limit?: number; all?: boolean }>({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the actions waiting for your decision',
  description: 'Piped, each row is: id, risk, tool, title, conversation id, task id, created (ISO 8601), rule scope. --json prints the Actions.',
  options: [
    { flags: '-L, --limit <n>', description: 'at most this many (default: the first page)', type: 'integer', min: 1 },
    { flags: '--all', description: 'every action waiting, following every page' },
  ],
  examples: ['kagent actions list', 'kagent actions list --json | jq -r ".[] | select(.risk == \\"low\\") | .id"', 'kagent actions list | cut -f1'],
  async run(ctx, opts) {
    if (opts.all && opts.limit !== undefined) throw new UsageError('use --limit or --all, not both');
    const { printList, note } = await import('../../src/io/output.js');
    const { riskText } = await import('../../src/views/chat.js');
    const count = await printList<Action>(ctx, pendingActions(ctx, opts), {
      empty: 'No actions are waiting for your decision.',
      columns: [
        { header: 'Id', value: (a) => a.id },
        { header: 'Risk', value: (a) => a.risk, display: (a, f) => riskText(a.risk, f) },
        { header: 'Tool', value: (a) => a.tool },
        { header: 'Title', value: (a) => a.title, flex: true },
        { header: 'For', value: (a) => (a.taskId ? `task ${a.taskId}` : (a.conversationId ?? '')), only: 'tty' },
        { header: 'Conversation', value: (a) => a.conversationId, only: 'plain' },
        { header: 'Task', value: (a) => a.taskId, only: 'plain' },
        { header: 'Created', value: (a) => iso(a.createdAt), kind: 'time' },
        { header: 'Rule scope', value: (a) => a.ruleScope, only: 'plain' },
      ],
    });
    if (count > 0 && ctx.io.stdoutIsTTY && !ctx.flags.json && ctx.flags.jq === undefined) {
      const approveCmd = await command(ctx, 'actions approve ID');
      const rejectCmd = await command(ctx, 'actions reject ID');
      await note(ctx, (f) => f.dim(`decide: ${approveCmd} or ${rejectCmd} (--remember allows that kind from now on)`));
    }
  },
});