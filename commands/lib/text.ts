import type { Context } from '../../src/context.js';
import type { LibraryText } from '../../src/api/shapes.js';
import { ApiError, CliError } from '../../src/errors.js';
import { defineCommand } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';
import { notFoundHint } from '../../src/io/not-found.js';
import { aside, printBody, printPieces } from '../../src/io/outcome.js';
import { sanitize, withoutControls } from '../../src/io/sanitize.js';
import { wholeText } from '../../src/io/text-flow.js';

function noTextHint(ctx: Context, error: unknown, id: string): Promise<unknown> | unknown {
  if (error instanceof ApiError && error.code === 'NO_TEXT') {
    return (async () => {
      error.hint ??= `only uploaded files keep their text (and not every file has text to extract); for a link or entry, \`${suggest(ctx, 'lib show', id)}\` shows its summary and key points`;
      return error;
    })();
  }
  return notFoundHint(ctx, error, 'item', id);
}

export default defineCommand({
  name: 'text',
  pager: true,
  summary: 'Print the text extracted from an uploaded file, in chunks or all of it',
  description:
    'On a terminal the text is wrapped at word boundaries to the terminal width and long text goes through the pager; piped, it is printed as it is. Either way it ends with exactly one newline (so chunks printed one by one with --offset do not join back exactly: --all gives the whole text). ' +
    'Without --all: one chunk (8000 characters unless --limit), and a note on stderr saying where the next one starts. ' +
    'With --all: every chunk from --offset on, streamed to stdout in order (memory stays flat however long the text). ' +
    'Only uploaded files keep their text; for other items the service answers NO_TEXT (exit 2).',
  arguments: [{ name: 'id', description: 'an uploaded file (kind "file")', complete: 'lib' }],
  options: [
    { flags: '--offset <n>', description: 'start at this character (default 0)', type: 'integer', min: 0 },
    {
      flags: '-L, --limit <n>',
      description: 'characters per chunk, 100 to 50000 (default 8000; 50000 with --all)',
      type: 'integer',
      min: 100,
      max: 50000,
    },
    { flags: '--all', description: 'every chunk to the end, streamed in order' },
  ],
  examples: [
    'kagent lib text li_8f2k3xq9mz',
    'kagent lib text li_8f2k3xq9mz --offset 8000',
    'kagent lib text li_8f2k3xq9mz --all > report.txt',
    'kagent lib text li_8f2k3xq9mz --all | grep -i budget',
  ],
  async run(ctx, opts, args) {
    const api = await ctx.api();
    const read = (offset: number, limit: number | undefined) =>
      api.call('readLibraryText', {
        params: { id: args.id },
        query: { offset, ...(limit !== undefined ? { limit } : {}) },
        signal: ctx.signal,
      });

    try {
      if (!opts.all) {
        const chunk = await read(opts.offset ?? 0, opts.limit);
        // On a terminal the text is sanitised before it is wrapped (its width is what is shown); piped it is kept as it is.
        await printBody(ctx, chunk, {
          terminal: (c) => wholeText(sanitize(c.text), ctx.io.columns),
          piped: (c) => wholeText(withoutControls(c.text), undefined),
          asHeld: true,
        });
        if (chunk.nextOffset !== null) {
          const end = chunk.offset + [...chunk.text].length;
          await aside(
            ctx,
            `Characters ${chunk.offset}–${end} of ${chunk.total}. Next: \`${suggest(ctx, 'lib text', args.id, '--offset', String(chunk.nextOffset))}\`, or all of it with --all.`,
          );
        }
        return;
      }

      const limit = opts.limit ?? 50_000;
      async function* chunks(): AsyncGenerator<LibraryText> {
        let offset = opts.offset ?? 0;
        for (;;) {
          const chunk = await read(offset, limit);
          yield chunk;
          const next: unknown = chunk.nextOffset;
          if (next === null || next === undefined) return;
          // Only a whole number past this chunk's start can be asked for: anything else would go round or nowhere.
          if (!Number.isSafeInteger(next))
            throw new CliError(
              `the service's next offset is not a whole number (${String(JSON.stringify(next)).slice(0, 40)}); stopping: the text printed is incomplete`,
              { code: 'TEXT_LOOP' },
            );
          if ((next as number) <= offset)
            throw new CliError(
              `the service's next offset (${next as number}) is not past this chunk's start (${offset}): the text would go round; stopping, the text printed is incomplete`,
              { code: 'TEXT_LOOP' },
            );
          offset = next as number;
        }
      }
      // Each chunk is written as it arrives (on a terminal, its lines that are complete, wrapped).
      await printPieces(ctx, chunks(), { text: (chunk) => chunk.text, last: (chunk) => chunk.nextOffset === null });
    } catch (error) {
      throw await noTextHint(ctx, error, args.id);
    }
  },
});
