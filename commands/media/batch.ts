// `media start URL URL…`: every link quoted first (free), one yes for the total, then
// started one after the other without following. The first 402 CREDITS_EXHAUSTED
// ends the run's new work at once, as it does for lib upload and lib sync: exit 6,
// with the links not attempted and GET /me's credits in the hint.
import type { Context } from '../../src/context.js';
import type { MediaQuote, MediaStarted } from '../../src/api/shapes.js';
import { ApiError, CliError, ExitCode, UsageError } from '../../src/errors.js';
import { checkBudget } from '../../src/kit/credit-budget.js';
import { creditsStopHint } from '../../src/api/credits-hint.js';
import { confirmOrYes } from '../../src/io/prompt.js';
import { note } from '../../src/io/output.js';
import { doneEach } from '../../src/io/outcome.js';
import { sanitizeLine } from '../../src/io/sanitize.js';
import { creditsLeft, explainMediaError, getQuote } from './shared.js';

export async function startSeveral(
  ctx: Context,
  urls: string[],
  body: Record<string, unknown>,
  opts: { maxCredits?: number; idempotencyKey?: string },
): Promise<void> {
  if (opts.idempotencyKey !== undefined)
    throw new UsageError('--idempotency-key names one request: give one link with it, not several');
  const quotes: MediaQuote[] = [];
  for (const url of urls) quotes.push(await getQuote(ctx, url));
  const cost = quotes.reduce((sum, q) => sum + q.credits, 0);
  await note(ctx, `Transcribing ${urls.length} links costs ${cost} credits.`);
  if (opts.maxCredits !== undefined) {
    await checkBudget(ctx, { cost, max: opts.maxCredits, what: `transcribing ${urls.length} links` });
  } else if (!ctx.flags.yes) {
    const left = await creditsLeft(ctx);
    await confirmOrYes(ctx, {
      message: `Spend ${cost} credits to transcribe ${urls.length} links?${left !== undefined ? ` You have ${left}.` : ''}`,
      action: `spend ${cost} credits transcribing ${urls.length} links`,
    });
  }
  const api = await ctx.api();
  // One line each (on a terminal too); --json the array of those started.
  const line = ({ started, url }: { started: MediaStarted; url: string }) =>
    `${started.mediaId}\t${started.taskId}\t${sanitizeLine(url)}`;
  const done = doneEach(ctx, { piped: line, shown: line, json: (s) => s.started });
  for (const [n, url] of urls.entries()) {
    let started: MediaStarted;
    try {
      started = await api.call('startMedia', { body: { ...body, url }, signal: ctx.signal });
    } catch (error) {
      await done.end();
      if (error instanceof ApiError && error.code === 'CREDITS_EXHAUSTED') {
        // The account cannot pay: every later link would meet the same 402.
        throw new CliError(
          `the account ran out of credits at ${sanitizeLine(url)}: ${done.items.length} of ${urls.length} links started`,
          {
            code: 'CREDITS_EXHAUSTED',
            exitCode: ExitCode.QUOTA,
            hint: await creditsStopHint(urls.length - n - 1, 'link', () => api.call('getMe', { signal: ctx.signal })),
            cause: error,
          },
        );
      }
      throw await explainMediaError(ctx, error, url, quotes[n]);
    }
    await done.add({ started, url });
  }
  await done.end();
}
