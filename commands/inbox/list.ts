import { defineCommand } from '../../src/kit/define.js';
import { LIST_DESCRIPTION, listOptions } from './shared.js';
import { listInbox } from '../../src/inbox/list.js';

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List your inbox: actions waiting first, then the rest, newest first',
  description: LIST_DESCRIPTION,
  options: listOptions,
  examples: [
    'kagent inbox list --filter unread',
    'kagent inbox list --filter approval --json',
    'kagent inbox list --all | cut -f1,4',
  ],
  run: listInbox,
});
