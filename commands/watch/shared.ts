// What several `kagent watch` verbs share.
import type { Context } from '../../src/context.js';

// ---------------------------------------------------------------- helpers

/** Reads /me for an error message; undefined when that fails too. */
export async function meOrNothing(ctx: Context) {
  try {
    return await (await ctx.api()).call('getMe');
  } catch {
    return undefined;
  }
}
