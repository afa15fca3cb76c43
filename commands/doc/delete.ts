import { defineCommand } from '../../src/kit/define.js';
import { withNotFound } from '../../src/io/not-found.js';
import { readDoc } from '../../src/docsync/revision.js';
import { confirmOrYes } from '../../src/io/prompt.js';
import { sanitizeLine } from '../../src/io/sanitize.js';
import { printDone } from '../../src/io/outcome.js';

export default defineCommand({
  name: 'delete',
  aliases: ['rm'],
  summary: 'Delete a document',
  description:
    'Asks first on a terminal (naming the document); elsewhere needs --yes (without it: exit 2, nothing deleted). Piped, prints the id; --json prints {"id": ..., "deleted": true}.',
  arguments: [{ name: 'id', description: 'the document', complete: 'doc' }],
  examples: [
    'kagent doc delete doc_8f2k3xq9mz',
    'kagent doc delete doc_8f2k3xq9mz --yes',
    'kagent doc search "old draft" --jq ".[].id" | xargs -n1 kagent doc delete --yes',
  ],
  async run(ctx, _opts, args) {
    let label = args.id;
    if (!ctx.flags.yes && ctx.io.canPrompt) {
      const doc = await readDoc(ctx, args.id);
      label = `"${sanitizeLine(doc.title || '(untitled)')}" (${args.id}, revision ${doc.revision})`;
    }
    await confirmOrYes(ctx, {
      message: `Delete doc ${label}? This cannot be undone.`,
      action: `delete doc ${args.id}`,
    });
    const api = await ctx.api();
    await withNotFound(ctx, 'doc', args.id, () =>
      api.call('deleteDoc', { params: { id: args.id }, signal: ctx.signal }),
    );
    await printDone(ctx, { id: args.id, deleted: true }, { said: `Deleted doc ${args.id}`, piped: (r) => r.id });
  },
});
