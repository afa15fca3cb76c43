// `kagent home`: the overview (getHome) — what the agent read, the latest
// briefs, running tasks, actions waiting (with the commands that decide them),
// suggestions, unread inbox items and recent conversations.
// Rendered by src/views/home.ts: on a terminal one section each, piped one
// tab-separated line per row (see the description); --json the Home object.
import { defineGroup } from '../../src/kit/define.js';
import { withSpinner } from '../../src/io/spinner.js';
import { printView } from '../../src/io/outcome.js';
import { plainHome, renderHome } from '../../src/views/home.js';

export default defineGroup({
  pager: true,
  description: [
    'What the agent read lately, the latest briefs of the watches you follow, running tasks, actions waiting for your decision (with the commands that approve or reject them), suggestions, unread inbox items and recent conversations. `kagent status` is the same command.',
    '',
    'Piped, one line per row, tab-separated, the first column naming the section:',
    '  agent         name',
    '  read          id, kind, title, url, created',
    '  brief         watch slug, brief id, date, entries, watch title, brief title',
    '  task          id, kind, status, progress (0 to 1), title',
    '  action        id, risk, tool, title, conversation id, task id',
    '  suggestion    id, text, prompt',
    '  unread        number of unread inbox items',
    '  inbox         id, kind, read (true/false), title, created',
    '  conversation  id, title, messages, running (true/false), updated (ISO 8601)',
    '',
    '--json prints the Home object.',
  ].join('\n'),
  examples: [
    'kagent home',
    "kagent home | awk -F'\\t' '$1 == \"action\" { print $2 }'",
    "kagent home --jq '.actions[].id'",
  ],
  async run(ctx) {
    const api = await ctx.api();
    const home = await withSpinner(ctx, 'Loading your home…', () => api.call('getHome', { signal: ctx.signal }));
    await printView(ctx, home, { terminal: (h, f) => renderHome(ctx, h, f), piped: plainHome });
  },
});
