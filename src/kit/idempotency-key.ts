// --idempotency-key, as doc create, media start and api take it: checked against
// the contract's bound (at most 200 characters) before anything is sent, as an
// INVALID_INPUT usage error naming the flag (exit 2).
import { InputError } from './define.js';

export async function checkIdempotencyKey(key: string | undefined, flag = '--idempotency-key'): Promise<void> {
  if (key === undefined) return;
  const { limits } = await import('../api/shapes.js');
  if (key.length > 0 && key.length <= limits.idempotencyKeyMax) return;
  const message = `must be 1 to ${limits.idempotencyKeyMax} characters (got ${key.length})`;
  throw new InputError(`${flag} ${message}`, [{ path: flag, message }]);
}
