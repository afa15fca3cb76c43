import type { Context } from '../../src/context.js';
import type { FollowState } from '../../src/api/shapes.js';
import { ApiError, CliError, ExitCode } from '../../src/errors.js';
import { checkInput, defineCommand } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';
import { withNotFound } from '../../src/io/not-found.js';
import { spaceOption, fieldsGiven } from '../../src/kit/options.js';
import { meOrNothing } from '../../src/watch/me.js';
import { resolveSpace } from '../../src/kit/space.js';
import { printDone } from '../../src/io/outcome.js';
import * as S from '../../src/api/shapes.js';

/** FOLLOW_LIMIT: say the plan's limit (from GET /me) and what to do. */
async function explainFollowError(ctx: Context, error: unknown): Promise<unknown> {
  if (!(error instanceof ApiError) || error.code !== 'FOLLOW_LIMIT') return error;
  const me = await meOrNothing(ctx);
  const limit = me?.limits.follows;
  const message =
    limit === undefined
      ? 'you follow as many watches as your plan allows'
      : `your plan (${me?.plan.name}) follows at most ${limit} watch${limit === 1 ? '' : 'es'}, and you follow ${me?.usage.follows ?? limit}`;
  return new CliError(message, {
    exitCode: ExitCode.QUOTA,
    code: 'FOLLOW_LIMIT',
    hint: `unfollow one first (\`${suggest(ctx, 'watch list')}\`, then \`${suggest(ctx, 'watch unfollow SLUG')}\`), or move to a plan with more follows`,
    cause: error,
  });
}

// ---------------------------------------------------------------- follow / unfollow

export default defineCommand({
  name: 'follow',
  summary: 'Follow a watch, or move one you follow to another space',
  description:
    'Your plan follows at most a number of watches (`kagent me` shows it). Following a watch you already follow moves it to --space.',
  arguments: [{ name: 'slug', description: 'the watch', complete: 'watch' }],
  options: [spaceOption('the space to file it in, by id or name (default: where it is, or your default space)')],
  examples: [
    'kagent watch follow ai-chips',
    'kagent watch follow ai-chips --space Research',
    'kagent watch follow ai-chips --json',
  ],
  async run(ctx, opts, args) {
    const body = fieldsGiven({ spaceId: opts.space });
    checkInput(S.FollowRequest, body, { spaceId: '--space' });
    let spaceName: string | undefined;
    if (opts.space !== undefined) {
      const space = await resolveSpace(ctx, opts.space);
      body.spaceId = space.id;
      spaceName = space.name;
    }
    const api = await ctx.api();
    let state: FollowState;
    try {
      state = await withNotFound(ctx, 'watch', args.slug, () =>
        api.call('followWatch', { params: { slug: args.slug }, body, signal: ctx.signal }),
      );
    } catch (error) {
      throw await explainFollowError(ctx, error);
    }
    await printDone(ctx, state, {
      said: `Following ${state.slug}${spaceName ? ` in ${spaceName}` : ''} (${state.followers} ${state.followers === 1 ? 'follower' : 'followers'})`,
      piped: (s) => [s.slug, s.following, s.spaceId ?? '', s.followers].join('\t'),
    });
  },
});
