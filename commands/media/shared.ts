// What several `kagent media` verbs share.
import type { Context } from '../../src/context.js';
import type { MediaPage, MediaQuote } from '../../src/api/shapes.js';
import { ApiError, CliError, ExitCode, UsageError } from '../../src/errors.js';
import { checkInput } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';
import { withSpinner } from '../../src/io/spinner.js';
import { printDone } from '../../src/io/outcome.js';
import { sanitizeLine } from '../../src/io/sanitize.js';
import * as S from '../../src/api/shapes.js';

// ---------------------------------------------------------------- helpers

export async function followHint(ctx: Context, id: string): Promise<string> {
  return `follow it again with \`${suggest(ctx, 'media show', id, '--follow')}\``;
}

/** Credits left, for the cost prompt and CREDITS_EXHAUSTED; undefined when /me cannot say. */
export async function creditsLeft(ctx: Context): Promise<number | undefined> {
  try {
    const me = await (await ctx.api()).call('getMe', { signal: ctx.signal });
    return typeof me.credits?.total === 'number' ? me.credits.total : undefined;
  } catch {
    return undefined;
  }
}

/** Quote and start errors in words: a link that cannot be transcribed (2), MEDIA_UNAVAILABLE (7), CREDITS_EXHAUSTED (6). */
export async function explainMediaError(
  ctx: Context,
  error: unknown,
  url: string,
  quote?: MediaQuote,
): Promise<unknown> {
  if (!(error instanceof ApiError)) return error;
  if (error.code === 'MEDIA_UNAVAILABLE' || (error.status === 503 && !error.hint)) {
    const wait =
      error.retryAfterMs !== undefined ? ` in ${Math.max(1, Math.ceil(error.retryAfterMs / 1000))} s` : ' later';
    return new CliError(`transcription is unavailable right now: ${error.message}`, {
      exitCode: ExitCode.UNAVAILABLE,
      code: error.code,
      hint: `nothing was started or charged; try again${wait}: \`${suggest(ctx, 'media start', url)}\``,
      cause: error,
    });
  }
  if (error.code === 'CREDITS_EXHAUSTED') {
    const left = await creditsLeft(ctx);
    const cost = quote
      ? `it costs ${quote.credits} credits (${quote.minutes} minutes at ${quote.pricePerMinute} per minute)`
      : 'it costs more than is left';
    return new CliError(
      `not enough credits to transcribe this: ${cost}${left !== undefined ? `, and ${left} ${left === 1 ? 'is' : 'are'} left` : ''}`,
      {
        exitCode: ExitCode.QUOTA,
        code: error.code,
        hint: `nothing was started; \`${suggest(ctx, 'me')}\` shows your credits by pool and when they reset`,
        cause: error,
      },
    );
  }
  if (error.status === 400 && error.code !== 'INVALID_INPUT' && !error.hint) {
    error.hint = `only video pages (YouTube, Vimeo, …), podcast episodes and audio/video file links can be transcribed; to save a web page, use \`${suggest(ctx, 'lib save', url)}\``;
  }
  return error;
}

export function checkUrl(url: string): void {
  if (!/^https?:\/\//i.test(url)) throw new UsageError(`URL must be an http:// or https:// link (got "${url}")`);
}

export async function getQuote(ctx: Context, url: string): Promise<MediaQuote> {
  const body = { url };
  checkInput(S.QuoteMediaRequest, body, { url: 'URL' });
  checkUrl(url);
  const api = await ctx.api();
  try {
    return await withSpinner(ctx, 'Checking the link…', () => api.call('quoteMedia', { body, signal: ctx.signal }));
  } catch (error) {
    throw await explainMediaError(ctx, error, url);
  }
}

/** After following: a failed transcription is exit 1; --json gets the whole page; a person gets a last line. */
export async function finishFollowing(ctx: Context, last: MediaPage): Promise<void> {
  if (last.status === 'failed') {
    throw new CliError(`transcribing ${last.id} failed: ${sanitizeLine(last.title)}`, {
      code: 'MEDIA_FAILED',
      hint: last.taskId
        ? `\`${suggest(ctx, 'task show', last.taskId)}\` shows how far it got`
        : `\`${suggest(ctx, 'media show', last.id)}\` shows what was transcribed`,
    });
  }
  // --json gets the whole page (with its transcript), fetched only then.
  const full = async () =>
    (await ctx.api()).call('getMedia', {
      params: { id: last.id },
      query: { lang: ctx.config.lang },
      signal: ctx.signal,
    });
  await printDone(ctx, last, {
    json: full,
    said:
      last.status === 'ready'
        ? `Transcribed ${sanitizeLine(last.title)} (${last.id}); the whole transcript as Markdown: \`${suggest(ctx, 'media transcript', last.id)}\``
        : undefined,
  });
}
