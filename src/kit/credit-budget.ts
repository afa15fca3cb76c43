// `--max-credits N`: a cost checked on this machine before anything is spent —
// against the cap the caller set and against the credits left (GET /me). Both
// refusals are exit 6 (quota), like the service's CREDITS_EXHAUSTED, and send
// nothing that costs.
import type { Context } from '../context.js';
import { CliError, ExitCode } from '../errors.js';

export interface Budget {
  /** What the action costs (a quote). */
  cost: number;
  /** The caller's cap (--max-credits). */
  max: number;
  /** "transcribing URL" */
  what: string;
}

/** Credits left according to GET /me (`credits.total`); an error when the account cannot say. */
export async function creditsLeftStrict(ctx: Context): Promise<number> {
  const me = await (await ctx.api()).call('getMe', { signal: ctx.signal });
  const total = (me as { credits?: { total?: unknown } }).credits?.total;
  if (typeof total !== 'number') {
    throw new CliError('the account does not say how many credits are left; nothing was spent', {
      code: 'CREDITS_UNKNOWN',
      hint: 'drop --max-credits and confirm the cost with --yes (or on a terminal)',
    });
  }
  return total;
}

/** Refuses (exit 6) when the cost is over the cap or over what is left. */
export async function checkBudget(ctx: Context, budget: Budget): Promise<number> {
  if (budget.cost > budget.max) {
    throw new CliError(
      `${budget.what} costs ${budget.cost} credits, more than --max-credits ${budget.max}; nothing was spent`,
      {
        exitCode: ExitCode.QUOTA,
        code: 'OVER_MAX_CREDITS',
        hint: `raise --max-credits to at least ${budget.cost}, or leave it out to be asked`,
      },
    );
  }
  const left = await creditsLeftStrict(ctx);
  if (budget.cost > left) {
    throw new CliError(
      `${budget.what} costs ${budget.cost} credits, and ${left} ${left === 1 ? 'is' : 'are'} left; nothing was spent`,
      {
        exitCode: ExitCode.QUOTA,
        code: 'CREDITS_EXHAUSTED',
        hint: '`kagent me` shows your credits by pool and when they reset',
      },
    );
  }
  return left;
}
