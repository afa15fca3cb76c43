// What several `kagent watch` verbs share.
import type { Context } from '../../src/context.js';
import { ApiError } from '../../src/errors.js';

// ---------------------------------------------------------------- helpers

export async function shapes() {
  return import('../../src/api/shapes.js');
}

/** 404s on a watch say how to find one. */
export async function watchNotFound(ctx: Context, error: unknown, slug: string): Promise<unknown> {
  if (error instanceof ApiError && error.status === 404 && !error.hint && error.code !== 'BRIEF_NOT_FOUND') {
    const { kagentCommand } = await import('../../src/views/task-follow.js');
    error.hint = `no watch "${slug}" that you can see: \`${kagentCommand(ctx, 'watch list')}\` shows the ones you follow, \`${kagentCommand(ctx, 'watch search TOPIC')}\` finds public ones`;
  }
  return error;
}

export async function withWatch<T>(ctx: Context, slug: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw await watchNotFound(ctx, error, slug);
  }
}

/** Reads /me for an error message; undefined when that fails too. */
export async function meOrNothing(ctx: Context) {
  try {
    return await (await ctx.api()).call('getMe');
  } catch {
    return undefined;
  }
}
