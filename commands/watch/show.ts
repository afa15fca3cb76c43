import type { WatchPage } from '../../src/api/shapes.js';
import { ApiError } from '../../src/errors.js';
import { checkInput, defineCommand } from '../../src/kit/define.js';
import { withNotFound } from '../../src/io/not-found.js';

import { kagentCommand } from '../../src/io/command-line.js';
import { pipedFieldsHelp } from '../../src/io/output.js';
import { printView } from '../../src/io/outcome.js';
import { plainWatchPage, renderWatchPage, watchHead } from '../../src/views/brief.js';
import * as S from '../../src/api/shapes.js';

export default defineCommand({
  name: 'show',
  pager: true,
  aliases: ['view'],
  summary: "Read a watch's brief (latest, or of a date), with its archive and method",
  description:
    'Entries come by position with their importance, category, headline, summary (Markdown, rendered on a terminal), why it matters, the primary link and the evidence. ' +
    `Links are clickable where the terminal supports it. --lang reads the brief in the other language. ${pipedFieldsHelp(watchHead)}`,
  arguments: [{ name: 'slug', description: 'the watch', complete: 'watch' }],
  options: [
    { flags: '--date <YYYY-MM-DD>', description: 'the brief of this date instead of the latest (see the archive)' },
  ],
  examples: [
    'kagent watch show ai-chips',
    'kagent watch show ai-chips --date 2026-01-14',
    'kagent watch show ai-chips --lang zh',
    '# entry ids and headlines of the latest brief',
    `kagent watch show ai-chips --jq '.brief.entries[] | [.id, .headline] | @tsv'`,
  ],
  async run(ctx, opts, args) {
    const query = { date: opts.date, lang: ctx.config.lang };
    checkInput(S.Queries.getWatch, query, { date: '--date', lang: '--lang' });
    const page = await withNotFound(ctx, 'watch', args.slug, async () =>
      (await ctx.api()).call('getWatch', { params: { slug: args.slug }, query, signal: ctx.signal }),
    ).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 404 && opts.date && error.code !== 'WATCH_NOT_FOUND') {
        error.hint = `no brief of ${opts.date}: \`${kagentCommand(ctx, 'watch issues', args.slug)}\` lists the dates there are`;
      }
      throw error;
    });
    await printView<WatchPage>(ctx, page, {
      table: watchHead,
      terminal: (p, f) => renderWatchPage(ctx, p, f),
      piped: plainWatchPage,
    });
  },
});
