// `kagent task`: background work (watch set-up, research, transcription,
// scheduled tasks).
//   list    listTasks (--space, --active, --kind, --limit, --all), newest first
//   show    getTask: milestones, the actions it waits on and how to decide them;
//           --follow follows the task to its end (the same follower as `watch create`)
//   watch   (hidden, alias follow) the older name of `show --follow`
//   cancel  cancelTask: work already done is kept
import { defineGroup } from '../../src/kit/define.js';
import list from './list.js';
import show from './show.js';
import watch from './watch.js';
import cancel from './cancel.js';

export default defineGroup({
  description:
    "Tasks are the service's background work: setting up a watch, research, transcription, scheduled tasks. Each moves through milestones (plan, steps, output).",
  examples: [
    'kagent task list --active',
    'kagent task show tk_3k9x8q2m7d',
    'kagent task show tk_3k9x8q2m7d --follow',
    'kagent task cancel tk_3k9x8q2m7d',
  ],
  commands: [list, show, watch, cancel],
});
