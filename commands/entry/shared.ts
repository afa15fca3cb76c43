// What several `kagent entry` verbs share.
import type { Context } from '../../src/context.js';
import { checkInput, defineCommand } from '../../src/kit/define.js';
import { notFoundHint } from '../../src/io/not-found.js';
import { printDone } from '../../src/io/outcome.js';
import * as S from '../../src/api/shapes.js';

export async function write(
  ctx: Context,
  id: string,
  op: 'setEntryFeedback' | 'setEntrySaved',
  body: unknown,
): Promise<void> {
  try {
    await (await ctx.api()).call(op, { params: { id }, body, signal: ctx.signal });
  } catch (error) {
    throw notFoundHint(ctx, error, 'entry', id);
  }
}

export function savedCommand(name: 'save' | 'unsave', saved: boolean) {
  return defineCommand({
    name,
    summary: saved ? 'Save an entry to your library' : 'Remove a saved entry from your library',
    arguments: [{ name: 'id', description: 'the entry' }],
    examples: saved
      ? [
          'kagent entry save en_3k9x8q2m7d',
          '# save the top entry of the latest brief',
          `kagent watch show ai-chips --jq '.brief.entries[0].id' | xargs kagent entry save`,
        ]
      : ['kagent entry unsave en_3k9x8q2m7d', 'kagent entry unsave en_3k9x8q2m7d --json'],
    async run(ctx, _opts, args) {
      const body = { saved };
      checkInput(S.EntrySavedRequest, body, {});
      await write(ctx, args.id, 'setEntrySaved', body);
      await printDone(
        ctx,
        { id: args.id, saved },
        {
          said: saved
            ? `Saved ${args.id} to your library (\`kagent lib list --kind entry\`)`
            : `Removed ${args.id} from your library`,
          piped: (r) => `${r.id}\t${r.saved}`,
        },
      );
    },
  });
}
