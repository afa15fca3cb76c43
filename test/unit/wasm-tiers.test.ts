// The Liftoff-only window of the first request hands back what the request
// gave, or its failure.
import { describe, expect, it } from 'vitest';
import { baselineWasmDuring } from '../../src/wasm-tiers.js';

describe('wasm tiers', () => {
  it('passes the answer or the failure through', async () => {
    expect(await baselineWasmDuring(async () => 'answer')).toBe('answer');
    await expect(baselineWasmDuring(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
  });
});
