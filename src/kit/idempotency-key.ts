// --idempotency-key, as every command whose operation takes an Idempotency-Key has it
// (space create, watch create, lib save, doc create, media start, chat, actions
// approve/reject, api): the option itself (./options.ts), its check against the
// contract's bound (at most 200 characters) before anything is sent, as an
// INVALID_INPUT usage error naming the flag (exit 2), and what a replayed answer
// means: the work of an earlier run under the user's key, or this run's own work
// whose first answer was lost (a connection reset after sending) and that the
// repeated request found done. A key reused with another body is the service's
// 422, exit 2, like every 422.
import type { Context } from '../context.js';
import { replayNote, type KeyedAnswer } from '../api/replay.js';
import { InputError } from './define.js';
import { note } from '../io/output.js';
import { limits } from '../api/shapes.js';

export { replayNote, replayOrigin, type KeyedAnswer } from '../api/replay.js';

export async function checkIdempotencyKey(key: string | undefined, flag = '--idempotency-key'): Promise<void> {
  if (key === undefined) return;
  const message = keyProblem(key);
  if (message) throw new InputError(`${flag} ${message}`, [{ path: flag, message }]);
}

/** What is wrong with a key, or undefined when the service and the header can take it. */
function keyProblem(key: string): string | undefined {
  if (key.length === 0 || key.length > limits.idempotencyKeyMax)
    return `must be 1 to ${limits.idempotencyKeyMax} characters (got ${key.length})`;
  // A header's value loses white space at its ends on the way: " k" would reach the service as "k".
  if (key.trim() !== key || /[\x00-\x1f\x7f]/.test(key))
    return 'must not start or end with white space, nor hold control characters (a header would not carry them)';
  if (/[^\x00-\xff]/.test(key)) return 'must be Latin-1 text: a header cannot carry a character past U+00FF';
  return undefined;
}

/** Says the replay note on stderr when there is one; true when it did (the usual success line is then left out). */
export async function noteReplay(
  ctx: Context,
  answer: KeyedAnswer,
  userKey: string | undefined,
  did: string,
  nothingNew: string,
): Promise<boolean> {
  const text = replayNote(answer, userKey, did, nothingNew);
  if (text === undefined) return false;
  await note(ctx, text);
  return true;
}
