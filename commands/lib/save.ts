import type { LinkSaved } from '../../src/api/shapes.js';
import { CliError, ExitCode, UsageError } from '../../src/errors.js';
import { checkInput, defineCommand } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';
import { idempotencyKeyOption, spaceOption } from '../../src/kit/options.js';
import { spaceIdFor, spaceNames } from '../../src/kit/space.js';
import { renderItem } from './shared.js';
import { withSpinner } from '../../src/io/spinner.js';
import { printDone } from '../../src/io/outcome.js';
import { checkCreated } from '../../src/kit/created.js';
import { checkIdempotencyKey, noteReplay } from '../../src/kit/idempotency-key.js';
import * as S from '../../src/api/shapes.js';

export default defineCommand({
  name: 'save',
  summary: 'Save a web page to the library: it is read, summarised and given key points',
  description:
    'Spends credits for the summary. Video and podcast links are not saved here: nothing is printed on stdout, exit 2 ' +
    "(MEDIA_LINK), and `kagent media quote URL` tells what transcribing one costs. Piped: prints the new item's id.",
  arguments: [{ name: 'url', description: 'an http(s) link' }],
  options: [
    { flags: '--note <text>', description: 'your note on it (at most 2000 characters)' },
    spaceOption("the space to save it in (id or name; default: the profile's space, else the agent picks one)"),
    idempotencyKeyOption(
      'a rerun within 24 h returns the first save instead of saving (and paying for the summary) again',
      'lib-save',
    ),
  ],
  examples: [
    'kagent lib save https://example.com/article',
    'kagent lib save https://example.com/report --note "for the Q3 review" --space Research',
    'id=$(kagent lib save https://example.com/article)',
    '# in CI: a rerun of the job saves (and pays) once',
    'kagent lib save "$REPORT_URL" --idempotency-key "$GITHUB_RUN_ID-lib-save"',
  ],
  async run(ctx, opts, args) {
    const body: Record<string, unknown> = { url: args.url };
    if (opts.note !== undefined) body.note = opts.note;
    if (ctx.config.lang) body.lang = ctx.config.lang;
    // --space, else the profile's default space (`kagent config set space ...`), else the agent picks.
    const spaceRef = opts.space ?? ctx.config.space;
    checkInput(
      S.SaveLinkRequest,
      { ...body, ...(spaceRef !== undefined ? { spaceId: spaceRef } : {}) },
      {
        url: 'URL',
        note: '--note',
        spaceId: opts.space !== undefined ? '--space' : "the profile's space",
        lang: '--lang',
      },
    );
    if (!/^https?:\/\//i.test(args.url))
      throw new UsageError(`URL must be an http:// or https:// link (got "${args.url}")`);
    await checkIdempotencyKey(opts.idempotencyKey);
    if (spaceRef !== undefined) body.spaceId = await spaceIdFor(ctx, spaceRef);
    const api = await ctx.api();
    const result = await withSpinner(ctx, 'Reading and summarising the page…', () =>
      api.callFull('saveLink', { body, idempotencyKey: opts.idempotencyKey, signal: ctx.signal }),
    );
    const saved: LinkSaved = result.body;
    // Nothing saved: nothing on stdout and a non-zero exit, so `id=$(kagent lib save URL)` cannot take it for a save.
    if (saved.media || !saved.item) throw mediaLinkError(suggest(ctx, 'media quote', args.url));
    checkCreated(ctx, 'library item', { id: saved.item.id }, 'lib list');
    const replayed = await noteReplay(
      ctx,
      result,
      opts.idempotencyKey,
      `saved ${saved.item.id}`,
      'nothing new was saved or charged',
    );
    const item = saved.item;
    const names = await spaceNames(ctx, [item]);
    await printDone(ctx, item, {
      json: () => saved,
      said: replayed ? undefined : `Saved ${item.title} (${item.id})`,
      piped: (i) => i.id,
      shown: (i, f) => renderItem(ctx, i, f, i.spaceId ? names.get(i.spaceId) : undefined),
    });
  },
});

/** A video or podcast link: not saved here (exit 2), with the command that prices its transcription. */
function mediaLinkError(quote: string): CliError {
  return new CliError('this is a video or podcast link: nothing was saved', {
    exitCode: ExitCode.USAGE,
    code: 'MEDIA_LINK',
    hint: `media is transcribed instead (charged per minute); see the price first with \`${quote}\``,
  });
}
