// `kagent entry`: rate and save the entries of a brief (entry ids come from
// `kagent watch show`). The service answers 204 with no body; with --json these
// print what was done: {"id": ..., "feedback": "up" | "down" | null} or
// {"id": ..., "saved": true | false}. Piped: the same as one tab-separated row.
import type { Context } from '../context.js';
import { ApiError } from '../errors.js';
import { checkInput, defineCommand, defineGroup } from './define.js';

function entryHint(error: unknown, id: string): unknown {
  if (error instanceof ApiError && error.status === 404 && !error.hint) {
    error.hint = `no entry "${id}" you can see: entry ids are shown by \`kagent watch show SLUG\` (or --jq '.brief.entries[].id')`;
  }
  return error;
}

const FEEDBACK = ['up', 'down', 'none'] as const;

const feedback = defineCommand<Record<string, never>, { id: string; rating: (typeof FEEDBACK)[number] }>({
  name: 'feedback',
  aliases: ['rate'],
  summary: 'Rate an entry: up, down, or none to clear the rating',
  arguments: [
    { name: 'id', description: 'the entry' },
    { name: 'rating', description: 'up, down or none', choices: FEEDBACK },
  ],
  examples: ['kagent entry feedback en_3k9x0q2m7d up', 'kagent entry feedback en_3k9x0q2m7d none', 'kagent entry feedback en_3k9x0q2m7d down --json'],
  async run(ctx, _opts, args) {
    const S = await import('../api/shapes.js');
    const body = { feedback: args.rating === 'none' ? null : args.rating };
    checkInput(S.EntryFeedbackRequest, body, { feedback: 'RATING' });
    await write(ctx, args.id, 'setEntryFeedback', body);
    const { printItem, success } = await import('../io/output.js');
    await success(ctx, body.feedback === null ? `Cleared the rating of ${args.id}` : `Rated ${args.id} ${body.feedback}`);
    await printItem(ctx, { id: args.id, feedback: body.feedback }, (r, f) => (f.tty ? '' : `${r.id}\t${r.feedback ?? 'none'}`));
  },
});

async function write(ctx: Context, id: string, op: 'setEntryFeedback' | 'setEntrySaved', body: unknown): Promise<void> {
  try {
    await (await ctx.api()).call(op, { params: { id }, body, signal: ctx.signal });
  } catch (error) {
    throw entryHint(error, id);
  }
}

function savedCommand(name: 'save' | 'unsave', saved: boolean) {
  return defineCommand<Record<string, never>, { id: string }>({
    name,
    summary: saved ? 'Save an entry to your library' : 'Remove a saved entry from your library',
    arguments: [{ name: 'id', description: 'the entry' }],
    examples: saved
      ? ['kagent entry save en_3k9x0q2m7d', '# save the top entry of the latest brief', `kagent watch show ai-chips --jq '.brief.entries[0].id' | xargs kagent entry save`]
      : ['kagent entry unsave en_3k9x0q2m7d', 'kagent entry unsave en_3k9x0q2m7d --json'],
    async run(ctx, _opts, args) {
      const S = await import('../api/shapes.js');
      const body = { saved };
      checkInput(S.EntrySavedRequest, body, {});
      await write(ctx, args.id, 'setEntrySaved', body);
      const { printItem, success } = await import('../io/output.js');
      await success(ctx, saved ? `Saved ${args.id} to your library (\`kagent lib list --kind entry\`)` : `Removed ${args.id} from your library`);
      await printItem(ctx, { id: args.id, saved }, (r, f) => (f.tty ? '' : `${r.id}\t${r.saved}`));
    },
  });
}

export default defineGroup({
  name: 'entry',
  summary: 'Rate and save entries of a brief',
  description: 'Entry ids are shown under each entry by `kagent watch show SLUG`.',
  examples: ['kagent entry feedback en_3k9x0q2m7d up', 'kagent entry save en_3k9x0q2m7d', 'kagent entry unsave en_3k9x0q2m7d'],
  commands: [feedback, savedCommand('save', true), savedCommand('unsave', false)],
});
