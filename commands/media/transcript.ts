import { ApiError, CliError } from '../../src/errors.js';
import { checkInput, defineCommand, InputError } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';
import { withNotFound } from '../../src/io/not-found.js';

import { sanitizeLine, sanitize } from '../../src/io/sanitize.js';
import { printBody } from '../../src/io/outcome.js';
import { parseTimecode, timecode } from '../../src/views/media.js';
import { renderMarkdown } from '../../src/io/markdown.js';
import * as S from '../../src/api/shapes.js';

export default defineCommand({
  name: 'transcript',
  pager: true,
  summary: 'The summary and transcript as Markdown with timestamp links',
  description:
    'Rendered on a terminal; the Markdown source when piped; --json prints the Transcript. ' +
    '--from and --to limit it to a time range, given as seconds (90), m:ss (1:30) or h:mm:ss (1:01:30). ' +
    'Only a media item that is ready has a transcript: before that the service answers MEDIA_NOT_READY (exit 2).',
  arguments: [{ name: 'id', description: 'the media item', complete: 'media' }],
  options: [
    { flags: '--from <time>', description: 'start at this time (seconds, m:ss or h:mm:ss)' },
    { flags: '--to <time>', description: 'end at this time (seconds, m:ss or h:mm:ss)' },
  ],
  examples: [
    'kagent media transcript md_3k9x8q2m7d',
    'kagent media transcript md_3k9x8q2m7d --from 10:00 --to 15:30',
    'kagent media transcript md_3k9x8q2m7d > talk.md',
    'kagent media transcript md_3k9x8q2m7d --lang zh --jq .markdown',
  ],
  async run(ctx, opts, args) {
    const time = (value: string | undefined, flag: string): number | undefined => {
      if (value === undefined) return undefined;
      const seconds = parseTimecode(value);
      if (seconds === undefined)
        throw new InputError(
          `${flag} must be a time as seconds (90), m:ss (1:30) or h:mm:ss (1:01:30) (got "${value}")`,
          [{ path: flag, message: 'must be seconds, m:ss or h:mm:ss' }],
        );
      return seconds;
    };
    const from = time(opts.from, '--from');
    const to = time(opts.to, '--to');
    const query = { lang: ctx.config.lang, from, to };
    checkInput(S.Queries.getTranscript, query, { lang: '--lang', from: '--from', to: '--to' });
    if (from !== undefined && to !== undefined && from > to) {
      throw new InputError(`--from (${timecode(from)}) must not be after --to (${timecode(to)})`, [
        { path: '--from', message: 'must not be after --to' },
      ]);
    }
    const api = await ctx.api();
    let result;
    try {
      result = await withNotFound(ctx, 'media', args.id, () =>
        api.call('getTranscript', { params: { id: args.id }, query, signal: ctx.signal }),
      );
    } catch (error) {
      if (error instanceof ApiError && error.code === 'MEDIA_NOT_READY') {
        let status: string | undefined;
        try {
          status = (
            await api.call('getMedia', {
              params: { id: args.id },
              query: { after: Number.MAX_SAFE_INTEGER },
              signal: ctx.signal,
            })
          ).status;
        } catch {
          status = undefined;
        }
        throw new CliError(
          `the transcript of ${args.id} is not ready yet${status ? ` (it is ${sanitizeLine(status)})` : ''}`,
          {
            exitCode: error.exitCode,
            code: error.code,
            hint:
              status === 'failed'
                ? 'its transcription failed, so there will be none'
                : `follow it until it is ready: \`${suggest(ctx, 'media show', args.id, '--follow')}\`, then ask again`,
            cause: error,
          },
        );
      }
      throw error;
    }
    await printBody(ctx, result, {
      terminal: (r) => renderMarkdown(ctx, r.markdown),
      piped: (r) => lastLineEnded(sanitize(r.markdown)),
    });
  },
});

/** The text with its last line ended (nothing added to an empty text). */
function lastLineEnded(text: string): string {
  return text.endsWith('\n') || text === '' ? text : `${text}\n`;
}
