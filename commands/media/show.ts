import { defineCommand } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';
import { withNotFound } from '../../src/io/not-found.js';
import { followHint, finishFollowing } from './shared.js';
import { note, warn } from '../../src/io/output.js';
import { printOwnWay } from '../../src/io/outcome.js';
import { followMedia } from '../../src/follow/media.js';
import { isMediaActive, printMedia } from '../../src/views/media.js';

export default defineCommand({
  name: 'show',
  aliases: ['view'],
  summary: 'Show a media item: its transcript segments, summary and chapters',
  description:
    'Prints the title, one line per transcript segment ("[h:mm:ss] text"), then the summary and chapters once it is ready. ' +
    'While it is still being transcribed, --follow keeps printing segments as they arrive until it is ready (as `media start` does); ' +
    '--timeout stops waiting (exit 8) and Ctrl-C stops following (exit 130). A transcription that failed exits 1 with --follow. --json prints the MediaPage.',
  arguments: [{ name: 'id', description: 'the media item (ids are shown by `media list`)', complete: 'media' }],
  options: [{ flags: '-f, --follow', description: 'keep following until it is ready' }],
  examples: [
    'kagent media show md_3k9x8q2m7d',
    'kagent media show md_3k9x8q2m7d --follow',
    "kagent media show md_3k9x8q2m7d --jq '.chapters[] | .title'",
    "kagent media show md_3k9x8q2m7d | grep '^\\['",
  ],
  async run(ctx, opts, args) {
    if (opts.follow) {
      const last = await withNotFound(ctx, 'media', args.id, async () =>
        followMedia(ctx, args.id, { resumeHint: await followHint(ctx, args.id) }),
      );
      await finishFollowing(ctx, last);
      return;
    }
    // Paged unless following (segments must show as they arrive).
    await ctx.io.page();
    const api = await ctx.api();
    const page = await withNotFound(ctx, 'media', args.id, () =>
      api.call('getMedia', { params: { id: args.id }, query: { lang: ctx.config.lang }, signal: ctx.signal }),
    );
    if (!(await printOwnWay(ctx, page, (p) => printMedia(ctx, p)))) return;
    if (isMediaActive(page.status))
      await note(ctx, `Still ${page.status}: follow it with \`${suggest(ctx, 'media show', page.id, '--follow')}\``);
    else if (page.status === 'failed')
      await warn(
        ctx,
        `transcribing ${page.id} failed${page.taskId ? `: \`${suggest(ctx, 'task show', page.taskId)}\` shows how far it got` : ''}`,
      );
  },
});
