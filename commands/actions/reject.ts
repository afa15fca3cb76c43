import { defineCommand } from '../../src/kit/define.js';
import { idempotencyKeyOption } from '../../src/kit/options.js';
import { decide } from './shared.js';

export default defineCommand({
  name: 'reject',
  summary: 'Reject an action: nothing is done',
  description:
    'Piped, prints the id and the new status; --json prints the Action. Deciding an action twice is exit 5 (ACTION_DECIDED), with its current status.',
  arguments: [{ name: 'id', description: 'the action', complete: 'action' }],
  options: [
    idempotencyKeyOption(
      'a rerun within 24 h returns the first decision instead of deciding again (no ACTION_DECIDED)',
      'reject',
    ),
  ],
  examples: [
    'kagent actions reject ac_3k9x8q2m7d',
    'kagent actions list | cut -f1 | xargs -n1 kagent actions reject',
    'kagent actions reject ac_3k9x8q2m7d --idempotency-key "$GITHUB_RUN_ID-reject-ac_3k9x8q2m7d"',
  ],
  async run(ctx, opts, args) {
    await decide(ctx, args.id, false, false, opts.idempotencyKey);
  },
});
