import type { Context } from '../../src/context.js';
import type { TaskDetail } from '../../src/api/shapes.js';
import type { Formatter } from '../../src/io/format.js';
import { defineCommand } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';
import { notFoundHint } from '../../src/io/not-found.js';
import { FOLLOW_DESCRIPTION, followToEnd, resultCommand, percent } from './shared.js';
import { pipedFieldsHelp, renderView, type ItemView } from '../../src/io/output.js';
import { printView } from '../../src/io/outcome.js';
import { milestoneLines, taskStatus, approvalCommands } from '../../src/views/task.js';

/** The piped head, declared once (the terminal shows the task its own way): its lines and the help come from it. */
const head: ItemView<TaskDetail> = {
  fields: [
    { key: 'id', json: 'id' },
    { key: 'kind', json: 'kind' },
    { key: 'status', json: 'status' },
    { key: 'title', json: 'title' },
    { key: 'progress', value: (t) => t.progress ?? '', json: 'progress' },
    { key: 'space', value: (t) => t.spaceId ?? '', json: 'spaceId' },
    { key: 'created', kind: 'time', json: 'createdAt' },
    { key: 'updated', kind: 'time', json: 'updatedAt' },
    { key: 'finished', value: (t) => t.finishedAt ?? '', kind: 'time', json: 'finishedAt' },
    {
      key: 'waiting-on',
      value: (t) => (t.waitingOn ?? []).map((a) => a.id).join(' '),
      about: 'action ids',
      json: 'waitingOn',
    },
    {
      key: 'result',
      value: (t) => (t.result ? `${t.result.kind} ${t.result.id}` : ''),
      about: 'kind and id',
      json: 'result',
    },
  ],
  then: 'Then a `--` line and one row per milestone: kind, status, title, detail, time.',
};

/** Piped: the head's lines, a `--` line, then one row per milestone. */
function pipedTask(task: TaskDetail, f: Formatter): string {
  const rows = (task.milestones ?? []).map((m) =>
    [m.kind, m.status, m.title, m.detail ?? '', m.at ?? ''].map((v) => v.replace(/[\t\n]+/g, ' ')).join('\t'),
  );
  return [renderView(task, head, f), '--', ...rows].join('\n');
}

function renderTask(ctx: Context, task: TaskDetail, f: Formatter): string {
  const waiting = task.waitingOn ?? [];
  const next = resultCommand(task.result);
  const facts = [task.id, task.kind, taskStatus(task.status, f)];
  if (task.progress !== null && task.progress !== undefined) facts.push(percent(task.progress));
  facts.push(`started ${f.time(task.createdAt)}`);
  if (task.finishedAt) facts.push(`finished ${f.time(task.finishedAt)}`);
  else facts.push(`updated ${f.time(task.updatedAt)}`);
  const lines = [f.bold(task.title), facts.join(f.dim(' · '))];
  const milestones = milestoneLines(task, f, Math.min(f.width, 120));
  if (milestones.length > 0) lines.push('', f.bold('Milestones'), ...milestones);
  if (waiting.length > 0) {
    lines.push('', f.bold(f.yellow('Waiting for your decision')));
    for (const action of waiting) {
      const { approve, reject } = approvalCommands(ctx, action);
      lines.push(`  ${action.title} ${f.dim(`(${action.tool}, risk ${action.risk}, ${action.id})`)}`);
      lines.push(`    approve: ${f.cyan(approve)}`);
      lines.push(`    reject:  ${f.cyan(reject)}`);
    }
  }
  if (task.result) {
    lines.push(
      '',
      `${f.bold('Result')}  ${task.result.kind} ${task.result.id}${next ? f.dim(`  → ${suggest(ctx, ...next)}`) : ''}`,
    );
  }
  return lines.join('\n');
}

export default defineCommand({
  name: 'show',
  aliases: ['view'],
  summary: 'Show a task: its milestones, the actions it waits on and what it produced',
  description: `${FOLLOW_DESCRIPTION} ${pipedFieldsHelp(head)}`,
  arguments: [{ name: 'id', description: 'the task', complete: 'task' }],
  options: [{ flags: '-f, --follow', description: 'follow the task until it ends, its milestones as they happen' }],
  examples: [
    'kagent task show tk_3k9x8q2m7d',
    'kagent task show tk_3k9x8q2m7d --follow',
    'kagent task show tk_3k9x8q2m7d --follow --timeout 120',
    'kagent task show tk_3k9x8q2m7d --follow --json | jq -r .status',
    `kagent task show tk_3k9x8q2m7d --jq '.waitingOn[].id'`,
    'kagent task show tk_3k9x8q2m7d --json',
  ],
  async run(ctx, opts, args) {
    if (opts.follow) return followToEnd(ctx, args.id);
    let task: TaskDetail;
    try {
      task = await (await ctx.api()).call('getTask', { params: { id: args.id }, signal: ctx.signal });
    } catch (error) {
      throw notFoundHint(ctx, error, 'task', args.id);
    }
    await printView(ctx, task, { table: head, terminal: (t, f) => renderTask(ctx, t, f), piped: pipedTask });
  },
});
