// What a replayed answer to a create-style call means (src/kit/idempotency-key.ts has
// the option and the note; src/actions/decide.ts decides actions with it too).

/** What a create-style call answered, as far as its key goes (CallResult has both). */
export interface KeyedAnswer {
  replayed: boolean;
  unanswered: number;
}

/**
 * Whose work an answer is:
 * - `new`: done by this request;
 * - `this-run`: replayed, but the key is kagent's own random one for this run, so the
 *   work is this run's (an earlier attempt reached the service and its answer was lost);
 * - `earlier-run`: replayed under the user's key with no attempt of this run lost: a
 *   previous run within 24 hours did it;
 * - `either`: replayed under the user's key after an attempt of this run was lost:
 *   this run or an earlier one did it — either way, once.
 */
export function replayOrigin(
  answer: KeyedAnswer,
  userKey: string | undefined,
): 'new' | 'this-run' | 'earlier-run' | 'either' {
  if (!answer.replayed) return 'new';
  if (userKey === undefined) return 'this-run';
  return answer.unanswered > 0 ? 'either' : 'earlier-run';
}

/**
 * The note for a replayed answer, or undefined when the work is this run's (then the
 * command says what it did as usual). `did`: "created doc doc_8f2k3xq9mz"; `nothingNew`:
 * "nothing new was created".
 */
export function replayNote(
  answer: KeyedAnswer,
  userKey: string | undefined,
  did: string,
  nothingNew: string,
): string | undefined {
  switch (replayOrigin(answer, userKey)) {
    case 'earlier-run':
      return `this key already ${did} within the last 24 hours: ${nothingNew}`;
    case 'either':
      return `${did} under this key, once: by this run (its first answer was lost on the way) or by an earlier run within the last 24 hours`;
    default:
      return undefined;
  }
}
