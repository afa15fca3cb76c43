// What a create answered, as a script reads it: `id=$(kagent space create Travel)`.
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { wantsJson } from '../io/output.js';

/**
 * The ids a create's answer must hold for its piped line and its next steps: each
 * one line of text. Without them the create took effect but nothing usable can be
 * printed, so the run fails rather than hand a script an empty or split id. --json
 * prints the answer as it came instead, whatever it holds.
 */
export function checkCreated(
  ctx: Pick<Context, 'flags'>,
  what: string,
  ids: Record<string, unknown>,
  list: string,
): void {
  if (wantsJson(ctx)) return;
  for (const [name, value] of Object.entries(ids)) {
    if (typeof value === 'string' && value.trim() !== '' && !/[\x00-\x1f\x7f\u2028\u2029]/.test(value)) continue;
    const shown = value === undefined ? 'none' : JSON.stringify(value).slice(0, 60);
    throw new CliError(`the service created the ${what}, but its answer has no ${name} kagent can print (${shown})`, {
      code: 'UNEXPECTED_ANSWER',
      hint: `\`kagent ${list}\` shows what was created; --json prints the answer as it came`,
    });
  }
}
