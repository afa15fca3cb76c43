import { ApiError, CliError, ExitCode } from '../../src/errors.js';
import { defineCommand } from '../../src/kit/define.js';
import { resolveSpace } from '../../src/kit/space.js';
import { label } from './shared.js';
import { sanitizeLine } from '../../src/io/sanitize.js';
import { confirmOrYes } from '../../src/io/prompt.js';
import { printDone } from '../../src/io/outcome.js';

function notDeletable(name: string): CliError {
  return new CliError(`"${name}" is your default space, which cannot be deleted`, {
    exitCode: ExitCode.USAGE,
    code: 'SPACE_NOT_DELETABLE',
    hint: 'every account keeps exactly one default space: it is where the contents of deleted spaces (and anything saved without a space) go. Rename it with `kagent space edit` instead',
  });
}

export default defineCommand({
  name: 'delete',
  aliases: ['rm'],
  summary: 'Delete a space; what it holds moves to your default space',
  description: 'Asks for confirmation on a terminal; elsewhere pass --yes. The default space cannot be deleted.',
  arguments: [{ name: 'space', description: 'id or name of the space', complete: 'space' }],
  examples: ['kagent space delete Travel', 'kagent space delete sp_3k9x8q2m7d --yes'],
  async run(ctx, _opts, args) {
    const space = await resolveSpace(ctx, args.space);
    if (space.isDefault) throw notDeletable(sanitizeLine(space.name));
    await confirmOrYes(ctx, {
      message: `Delete space ${sanitizeLine(label(space))}? Its watches, library items, documents and conversations move to your default space.`,
      action: `delete space "${sanitizeLine(space.name)}"`,
    });
    const api = await ctx.api();
    try {
      await api.call('deleteSpace', { params: { id: space.id }, signal: ctx.signal });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'SPACE_NOT_DELETABLE')
        throw notDeletable(sanitizeLine(space.name));
      throw error;
    }
    // 204: --json shows the space that was deleted.
    await printDone(ctx, space, {
      piped: (deleted) => deleted.id,
      said: `Deleted space ${label(space)}; its contents moved to your default space`,
    });
  },
});
