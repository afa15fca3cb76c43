// `kagent conversation`: conversations with the agent.
//   list    listConversations (--space, --limit, --all), most recently active first
//   show    getConversationMessages, rendered as `kagent chat` renders replies;
//           --follow waits for a running turn (the chat follower, src/views/chat.ts)
//   delete  deleteConversation (confirmed on a terminal, --yes elsewhere)
import { defineGroup } from '../../src/kit/define.js';
import list from './list.js';
import show from './show.js';
import remove from './delete.js';

export default defineGroup({
  description: 'Conversations with your agent. Start or continue one with `kagent chat`.',
  examples: [
    'kagent conversation list',
    'kagent conversation show cv_3k9x8q2m7d --follow',
    'kagent conversation delete cv_3k9x8q2m7d --yes',
  ],
  commands: [list, show, remove],
});
