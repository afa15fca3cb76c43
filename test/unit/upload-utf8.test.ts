// The text check of an upload streams: a character may straddle two chunks (or more),
// and the file is text exactly when Node's whole-buffer check says it is valid UTF-8
// without a NUL, however it is cut. Seeded: the seed is printed, and
// KAGENT_PROPERTY_SEED=<seed> replays a run.
import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { completeUtf8Length, Utf8Checker } from '../../src/upload/sniff.js';

const SEED = Number(process.env.KAGENT_PROPERTY_SEED ?? Date.now() % 2 ** 31);

/** The checker's verdict on `bytes` pushed in pieces cut at `cuts`. */
function checked(bytes: Buffer, cuts: number[]): boolean {
  const checker = new Utf8Checker();
  let from = 0;
  for (const cut of [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)) {
    checker.push(bytes.subarray(from, cut));
    from = cut;
  }
  checker.push(bytes.subarray(from));
  return checker.finish();
}

describe('Utf8Checker', () => {
  it('a character of 1, 2, 3 or 4 bytes cut at every byte is still text', () => {
    for (const text of ['a', 'é', '中', '😀', 'aé中😀']) {
      const bytes = Buffer.from(text);
      for (let cut = 0; cut <= bytes.length; cut++) expect(checked(bytes, [cut]), `${text} cut at ${cut}`).toBe(true);
      const everyByte = Array.from({ length: bytes.length }, (_, i) => i);
      expect(checked(bytes, everyByte), `${text} byte by byte`).toBe(true);
    }
  });

  it('a character cut short at the end of the file is not text', () => {
    for (const text of ['é', '中', '😀']) expect(checked(Buffer.from(text).subarray(0, -1), [1])).toBe(false);
  });

  it('completeUtf8Length ends before a character cut off', () => {
    expect(completeUtf8Length(Buffer.from('a😀').subarray(0, 3))).toBe(1);
    expect(completeUtf8Length(Buffer.from('a中'))).toBe(4);
    expect(completeUtf8Length(Buffer.from('aé').subarray(0, 2))).toBe(1);
  });

  it(`agrees with the whole-buffer check, however the bytes are cut, seed ${SEED}`, () => {
    console.log(`utf8 property: seed ${SEED} (replay with KAGENT_PROPERTY_SEED=${SEED})`);
    const bytes = fc.oneof(
      fc.string({ unit: 'binary' }).map((s) => Buffer.from(s)),
      fc.uint8Array({ maxLength: 24 }).map((a) => Buffer.from(a)),
      fc
        .tuple(fc.string({ unit: 'binary' }), fc.uint8Array({ maxLength: 3 }))
        .map(([s, tail]) => Buffer.concat([Buffer.from(s), Buffer.from(tail)])),
    );
    fc.assert(
      fc.property(bytes, fc.array(fc.nat(), { maxLength: 8 }), (data, cuts) => {
        expect(checked(data, cuts)).toBe(isUtf8(data) && !data.includes(0));
      }),
      { seed: SEED, numRuns: 500 },
    );
  });
});
