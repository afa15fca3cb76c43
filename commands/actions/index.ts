// `kagent actions`: changes the agent wants to make that need your approval,
// and changes already made that can be undone.
//   list     the inbox's approval filter: the actions waiting for a decision
//   approve  decideAction {approve: true, remember?}; a high-risk action (or
//            one of a risk this version does not know) is confirmed first on a
//            terminal and needs --yes elsewhere
//   reject   decideAction {approve: false}
//   undo     undoAction, for each id in the order given (a change's actionIds)
// There is no "get action" operation: an action is found among the inbox's
// approvals (then the home overview) before deciding, and among the action
// parts of your recent conversations to explain ACTION_DECIDED and
// ACTION_NOT_UNDOABLE with its current status.
import { defineGroup } from '../../src/kit/define.js';
import list from './list.js';
import approve from './approve.js';
import reject from './reject.js';
import undo from './undo.js';

export default defineGroup({
  description:
    'The agent asks before it changes things (creating a document, deleting, setting up a watch). Decide here; an action that ran can be undone for a short while.',
  examples: ['kagent actions list', 'kagent actions approve ac_3k9x8q2m7d', 'kagent actions undo ac_3k9x8q2m7d'],
  commands: [list, approve, reject, undo],
});
