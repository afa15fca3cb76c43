import { checkInput, defineCommand } from '../../src/kit/define.js';
import { write } from './shared.js';
import { printDone } from '../../src/io/outcome.js';
import * as S from '../../src/api/shapes.js';

const FEEDBACK = ['up', 'down', 'none'] as const;

export default defineCommand({
  name: 'feedback',
  aliases: ['rate'],
  summary: 'Rate an entry: up, down, or none to clear the rating',
  arguments: [
    { name: 'id', description: 'the entry' },
    { name: 'rating', description: 'up, down or none', choices: FEEDBACK },
  ],
  examples: [
    'kagent entry feedback en_3k9x8q2m7d up',
    'kagent entry feedback en_3k9x8q2m7d none',
    'kagent entry feedback en_3k9x8q2m7d down --json',
  ],
  async run(ctx, _opts, args) {
    const body = { feedback: args.rating === 'none' ? null : args.rating };
    checkInput(S.EntryFeedbackRequest, body, { feedback: 'RATING' });
    await write(ctx, args.id, 'setEntryFeedback', body);
    await printDone(
      ctx,
      { id: args.id, feedback: body.feedback },
      {
        said: body.feedback === null ? `Cleared the rating of ${args.id}` : `Rated ${args.id} ${body.feedback}`,
        piped: (r) => `${r.id}\t${r.feedback ?? 'none'}`,
      },
    );
  },
});
