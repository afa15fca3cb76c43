// Command lines kagent shows a user to type next (in hints, notes and follow-up
// lines): as this user would retype them, with the -p/--base-url they gave.
import type { Context } from '../context.js';

/** `kagent <command>` as this user would retype it: with -p/--base-url when those came from flags. */
export function kagentCommand(ctx: Pick<Context, 'flags'>, command: string): string {
  const parts = ['kagent'];
  if (ctx.flags.profile) parts.push('-p', shellQuote(ctx.flags.profile));
  if (ctx.flags.baseUrl) parts.push('--base-url', shellQuote(ctx.flags.baseUrl));
  return `${parts.join(' ')} ${command}`;
}

/** A word as the user would type it in a shell: quoted unless plainly safe. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
