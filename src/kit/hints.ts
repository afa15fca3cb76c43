// What a command tells the user to do next: a command to retype, quoted.
// (How to find the right id after a 404: src/io/not-found.ts.)
import type { Context } from '../context.js';
import { kagentCommand } from '../io/command-line.js';

/** `kagent WORDS ARGS…` as this user would retype it; ARGS are shell-quoted (kagentCommand). */
export function suggest(ctx: Pick<Context, 'flags'>, words: string, ...args: string[]): string {
  return kagentCommand(ctx, words, ...args);
}
