// `kagent entry`: rate and save the entries of a brief (entry ids come from
// `kagent watch show`). The service answers 204 with no body; with --json these
// print what was done: {"id": ..., "feedback": "up" | "down" | null} or
// {"id": ..., "saved": true | false}. Piped: the same as one tab-separated row.
import { defineGroup } from '../../src/kit/define.js';
import feedback from './feedback.js';
import save from './save.js';
import unsave from './unsave.js';

export default defineGroup({
  description: 'Entry ids are shown under each entry by `kagent watch show SLUG`.',
  examples: [
    'kagent entry feedback en_3k9x8q2m7d up',
    'kagent entry save en_3k9x8q2m7d',
    'kagent entry unsave en_3k9x8q2m7d',
  ],
  commands: [feedback, save, unsave],
});
