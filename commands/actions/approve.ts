import { defineCommand } from '../../src/kit/define.js';
import { idempotencyKeyOption } from '../../src/kit/options.js';
import { decide } from './shared.js';

export default defineCommand({
  name: 'approve',
  summary: 'Approve an action: it runs in the background',
  description:
    'A high-risk action (a deletion, for instance) is shown and confirmed first on a terminal; elsewhere it needs --yes (exit 2 without). ' +
    'An action whose risk this version does not know is treated as high-risk. Low- and medium-risk actions are approved at once. ' +
    'Piped, prints the id and the new status; --json prints the Action. Deciding an action twice is exit 5 (ACTION_DECIDED), with its current status.',
  arguments: [{ name: 'id', description: 'the action', complete: 'action' }],
  options: [
    { flags: '--remember', description: 'allow this kind of action from now on (when the action has a rule scope)' },
    idempotencyKeyOption(
      'a rerun within 24 h returns the first decision instead of deciding again (no ACTION_DECIDED)',
      'approve',
    ),
  ],
  examples: [
    'kagent actions approve ac_3k9x8q2m7d',
    'kagent actions approve ac_3k9x8q2m7d --remember',
    'kagent actions approve ac_7h4v2c9dkm --yes --json',
    'kagent actions approve ac_7h4v2c9dkm --yes --idempotency-key "$GITHUB_RUN_ID-approve-ac_7h4v2c9dkm"',
  ],
  async run(ctx, opts, args) {
    await decide(ctx, args.id, true, opts.remember === true, opts.idempotencyKey);
  },
});
