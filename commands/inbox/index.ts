// `kagent inbox`: finished tasks, briefs, alerts, suggestions and actions
// waiting for a decision (those come first). Pull-based.
//   inbox / inbox list   listInbox (--filter, --limit, --all over cursors)
//   inbox read|done|dismiss ID...   markInboxItem ({read|done|dismissed: true})
// The marks answer 204: --json prints what was done, [{id, read|done|dismissed, error?}].
import { defineGroup } from '../../src/kit/define.js';
import { LIST_DESCRIPTION, listOptions } from './shared.js';
import { listInbox } from '../../src/inbox/list.js';
import list from './list.js';
import read from './read.js';
import done from './done.js';
import dismiss from './dismiss.js';

export default defineGroup({
  description: `With no subcommand, lists the inbox (as \`inbox list\`). ${LIST_DESCRIPTION}`,
  options: listOptions,
  examples: [
    'kagent inbox',
    'kagent inbox --filter approval',
    'kagent inbox done ib_3k9x8q2m7d ib_7h4v2c9dkm',
    'kagent inbox --json | jq "map(select(.read | not)) | length"',
  ],
  run: listInbox,
  commands: [list, read, done, dismiss],
});
