// --idempotency-key is checked before anything is sent: a usage error (INVALID_INPUT, exit 2) naming the flag.
import { describe, expect, it } from 'vitest';
import { checkIdempotencyKey } from '../../src/kit/idempotency-key.js';

describe('an idempotency key the service or a header cannot take', () => {
  it.each([
    ['', 'must be 1 to 200 characters (got 0)'],
    ['k'.repeat(201), 'must be 1 to 200 characters (got 201)'],
    [' k', 'must not start or end with white space, nor hold control characters (a header would not carry them)'],
    ['k\t1', 'must not start or end with white space, nor hold control characters (a header would not carry them)'],
    ['k\x7f', 'must not start or end with white space, nor hold control characters (a header would not carry them)'],
    ['run-\u2014', 'must be Latin-1 text: a header cannot carry a character past U+00FF'],
  ])('%j', async (key, message) => {
    await expect(checkIdempotencyKey(key, '--key')).rejects.toMatchObject({
      message: `--key ${message}`,
      code: 'INVALID_INPUT',
      exitCode: 2,
      issues: [{ path: '--key', message }],
    });
  });

  it.each([undefined, 'run-7', 'café-é', 'k'.repeat(200)])('%j is taken', async (key) => {
    await expect(checkIdempotencyKey(key)).resolves.toBeUndefined();
  });
});
