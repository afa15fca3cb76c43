// Command lines kagent shows a user to type next (in hints, notes and follow-up
// lines): as this user would retype them, with the -p/--base-url they gave.
import type { Context } from '../context.js';

/**
 * `kagent WORDS VALUES…` as this user would retype it: with -p/--base-url when those came
 * from flags. WORDS are the command's own words (and placeholders such as ID); every
 * VALUE (an id, a name, a path, a slug from the service or the user) is shell-quoted, so
 * the line can be copied as it is. The one way hints embed a value.
 */
export function kagentCommand(ctx: Pick<Context, 'flags'>, command: string, ...values: string[]): string {
  const parts = ['kagent'];
  if (ctx.flags.profile) parts.push('-p', shellQuote(ctx.flags.profile));
  if (ctx.flags.baseUrl) parts.push('--base-url', shellQuote(ctx.flags.baseUrl));
  return [...parts, command, ...values.map(shellQuote)].join(' ');
}

/** `kagent WORDS VALUES…` where no -p/--base-url is known (no command context): VALUES shell-quoted, as kagentCommand does. */
export function commandLine(command: string, ...values: string[]): string {
  return ['kagent', command, ...values.map(shellQuote)].join(' ');
}

/** A word as the user would type it in a shell: quoted unless plainly safe. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
