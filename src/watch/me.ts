// What the account is, read only to explain an error of a watch (its plan, limits, email).
import type { Context } from '../context.js';

/** Reads /me for an error message; undefined when that fails too. */
export async function meOrNothing(ctx: Context) {
  try {
    return await (await ctx.api()).call('getMe');
  } catch {
    return undefined;
  }
}
