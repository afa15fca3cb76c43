// What several `kagent conversation` verbs share.
import type { Context } from '../../src/context.js';
import { ApiError } from '../../src/errors.js';

export async function command(ctx: Pick<Context, 'flags'>, words: string): Promise<string> {
  const { kagentCommand } = await import('../../src/views/task-follow.js');
  return kagentCommand(ctx, words);
}

/** 404s on a conversation say how to find one. */
export async function conversationHint(ctx: Context, error: unknown, id: string): Promise<unknown> {
  if (error instanceof ApiError && error.status === 404 && !error.hint) {
    error.hint = `no conversation "${id}": \`${await command(ctx, 'conversation list')}\` shows yours`;
  }
  return error;
}
