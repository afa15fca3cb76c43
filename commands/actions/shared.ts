// What several `kagent actions` verbs share: the mechanism lives in src/actions/decide.ts,
// where the chat REPL decides and undoes actions the same way.
import type { Context } from '../../src/context.js';
import { decideAction } from '../../src/actions/decide.js';
import { checkIdempotencyKey } from '../../src/kit/idempotency-key.js';

export { pendingActions, locateAction } from '../../src/actions/decide.js';

export async function decide(
  ctx: Context,
  id: string,
  approve: boolean,
  remember: boolean,
  idempotencyKey: string | undefined,
): Promise<void> {
  await checkIdempotencyKey(idempotencyKey);
  await decideAction(ctx, id, approve, remember, { print: true, idempotencyKey });
}
