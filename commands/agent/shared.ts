// What several `kagent agent` verbs share.
import type { Context } from '../../src/context.js';
import type { Agent } from '../../src/api/shapes.js';

export async function getAgent(ctx: Context): Promise<Agent> {
  return (await ctx.api()).call('getAgent', { signal: ctx.signal });
}
