import type { LinkSaved } from '../../src/api/shapes.js';
import { UsageError } from '../../src/errors.js';
import { sanitizeLine } from '../../src/io/sanitize.js';
import { checkInput, defineCommand } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';
import { spaceOption } from '../../src/kit/options.js';
import { spaceIdFor } from '../../src/kit/space.js';
import { shapes, renderItem } from './shared.js';
import { spaceNames } from '../../src/kit/space.js';

export default defineCommand({
  name: 'save',
  summary: 'Save a web page to the library: it is read, summarised and given key points',
  description:
    'Spends credits for the summary. Video and podcast links are not saved here: the service says so, and ' +
    "`kagent media quote URL` tells what transcribing one costs. Piped: prints the new item's id.",
  arguments: [{ name: 'url', description: 'an http(s) link' }],
  options: [
    { flags: '--note <text>', description: 'your note on it (at most 2000 characters)' },
    spaceOption("the space to save it in (id or name; default: the profile's space, else the agent picks one)"),
  ],
  examples: [
    'kagent lib save https://example.com/article',
    'kagent lib save https://example.com/report --note "for the Q3 review" --space Research',
    'id=$(kagent lib save https://example.com/article)',
  ],
  async run(ctx, opts, args) {
    const S = await shapes();
    const body: Record<string, unknown> = { url: args.url };
    if (opts.note !== undefined) body.note = opts.note;
    if (ctx.config.lang) body.lang = ctx.config.lang;
    // --space, else the profile's default space (`kagent config set space ...`), else the agent picks.
    const spaceRef = opts.space ?? ctx.config.space;
    checkInput(S.SaveLinkRequest, { ...body, ...(spaceRef !== undefined ? { spaceId: spaceRef } : {}) }, { url: 'URL', note: '--note', spaceId: opts.space !== undefined ? '--space' : "the profile's space", lang: '--lang' });
    if (!/^https?:\/\//i.test(args.url)) throw new UsageError(`URL must be an http:// or https:// link (got "${args.url}")`);
    if (spaceRef !== undefined) body.spaceId = await spaceIdFor(ctx, spaceRef);
    const api = await ctx.api();
    const { withSpinner } = await import('../../src/io/spinner.js');
    const saved: LinkSaved = await withSpinner(ctx, 'Reading and summarising the page…', () => api.call('saveLink', { body, signal: ctx.signal }));
    const { printItem, printJson, wantsJson, note, success } = await import('../../src/io/output.js');
    if (saved.media || !saved.item) {
      if (wantsJson(ctx)) await printJson(ctx, saved);
      const quote = suggest(ctx, 'media quote', args.url);
      await note(ctx, (f) => `${f.yellow('!')} This is a video or podcast link: nothing was saved. Media is transcribed instead (charged per minute); see the price first with:\n  ${sanitizeLine(quote)}`);
      return;
    }
    if (wantsJson(ctx)) return printJson(ctx, saved);
    await success(ctx, `Saved ${saved.item.title} (${saved.item.id})`);
    const item = saved.item;
    const names = await spaceNames(ctx, [item]);
    await printItem(ctx, item, (i, f) => (f.tty ? renderItem(ctx, i, f, i.spaceId ? names.get(i.spaceId) : undefined) : i.id));
  },
});
