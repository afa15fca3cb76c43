// The idempotency key of an upload and the sampled digest of a large file:
// the same bytes and options give the same key; the size, the name, the
// options and any sampled byte change it; bytes between the samples do not
// (the uploader checks replays of such keys, see lib-upload.test.ts).
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { uploadKey } from '../../src/upload/key.js';
import { SAMPLE_BLOCK_BYTES, SAMPLE_BLOCKS, sampleDigest, sampleOffsets } from '../../src/upload/prepare.js';
import { tempDir } from '../helpers/run.js';

const dir = tempDir('kagent-key-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function digestOf(bytes: Buffer, size = bytes.length): Promise<string | undefined> {
  const path = join(dir, `f-${Math.random().toString(36).slice(2)}`);
  await writeFile(path, bytes);
  const handle = await open(path, 'r');
  try {
    return await sampleDigest(handle, size);
  } finally {
    await handle.close();
  }
}

/** 3 MiB of counting bytes (no two blocks alike). */
const base = Buffer.from(Array.from({ length: 3 * 1024 * 1024 }, (_, i) => (i * 31 + (i >> 16)) & 0xff));
const flipped = (at: number) => {
  const copy = Buffer.from(base);
  copy[at] = copy[at]! ^ 0xff;
  return copy;
};

describe('sampleDigest', () => {
  it('is the SHA-256 of a label, the size and the blocks at the spread offsets, first and last included', async () => {
    const offsets = sampleOffsets(base.length);
    expect(offsets).toHaveLength(SAMPLE_BLOCKS);
    expect(offsets[0]).toBe(0);
    expect(offsets.at(-1)).toBe(base.length - SAMPLE_BLOCK_BYTES);
    const expected = createHash('sha256').update(`kagent-sample-v1\n${base.length}\n`);
    for (const at of offsets) expected.update(base.subarray(at, at + SAMPLE_BLOCK_BYTES));
    expect(await digestOf(base)).toBe(expected.digest('hex'));
  });

  it('changes with any sampled byte and with the size; not with a byte between the samples', async () => {
    const before = await digestOf(base);
    const [first, second] = sampleOffsets(base.length);
    expect(await digestOf(flipped(0))).not.toBe(before);
    expect(await digestOf(flipped(base.length - 1))).not.toBe(before);
    expect(await digestOf(flipped(second! + 100))).not.toBe(before);
    expect(await digestOf(base.subarray(0, base.length - 1))).not.toBe(before);
    const between = first! + SAMPLE_BLOCK_BYTES + 10;
    expect(between).toBeLessThan(second!);
    expect(await digestOf(flipped(between))).toBe(before);
  });

  it('is undefined when the file is shorter than the size given', async () => {
    expect(await digestOf(base, base.length + 1)).toBeUndefined();
  });
});

describe('uploadKey', () => {
  const digest = 'ab'.repeat(32);
  it('names what the digest is, and fits the contract (at most 200 characters)', () => {
    const plain = uploadKey({ digest, sampled: false, name: 'a.pdf' });
    const sampled = uploadKey({ digest, sampled: true, name: 'a.pdf' });
    expect(plain).toMatch(new RegExp(`^kagent-upload-v1:${digest}:[0-9a-f]{32}$`));
    expect(sampled).toMatch(new RegExp(`^kagent-sampled-v1:${digest}:[0-9a-f]{32}$`));
    expect(sampled.length).toBeLessThanOrEqual(200);
  });

  it('differs with the name and each option, and is the same for the same ones', () => {
    const key = (parts: Partial<Parameters<typeof uploadKey>[0]>) =>
      uploadKey({ digest, sampled: true, name: 'a.pdf', ...parts });
    const keys = [key({}), key({ name: 'b.pdf' }), key({ space: 'sp_1' }), key({ note: 'n' }), key({ lang: 'en' })];
    expect(new Set(keys).size).toBe(keys.length);
    expect(key({ note: 'n' })).toBe(key({ note: 'n' }));
  });
});
