// The digest of a large file (the content part of its upload key): independent
// of how many threads hash it, equal to its definition, changed by any byte.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createXXHash64 } from 'hash-wasm';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { hashWorkerWaiting, SEGMENT_BYTES, startHashWorkerAhead, treeHash, TREE_MIN_BYTES } from '../../src/upload/tree-hash.js';

// The number of cores decides how many threads hash (this one included); the digest must not depend on it.
const cores = vi.hoisted(() => ({ count: undefined as number | undefined }));
vi.mock('node:os', async (original) => {
  const os = await original<typeof import('node:os')>();
  return { ...os, availableParallelism: () => cores.count ?? os.availableParallelism() };
});
afterEach(() => {
  cores.count = undefined;
});

const dir = mkdtempSync(join(tmpdir(), 'kagent-tree-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The definition, computed here on one thread: SHA-256 of the label, the size and each 32 MiB segment's xxHash64. */
async function reference(bytes: Buffer): Promise<string> {
  const xxh = await createXXHash64();
  const digests: string[] = [];
  for (let at = 0; at < bytes.length; at += SEGMENT_BYTES) {
    xxh.init();
    xxh.update(bytes.subarray(at, at + SEGMENT_BYTES));
    digests.push(xxh.digest('hex'));
  }
  return createHash('sha256').update(`kagent-tree-v2\n${bytes.length}\n${digests.join('\n')}`).digest('hex');
}

describe('treeHash', () => {
  // Three segments, the last a short one.
  const bytes = randomBytes(2 * SEGMENT_BYTES + 12_345);
  const path = join(dir, 'large.bin');
  writeFileSync(path, bytes);

  it('is the SHA-256 over the xxHash64 of each segment, whatever the threads', async () => {
    const expected = await reference(bytes);
    expect(await treeHash(path, bytes.length)).toBe(expected);
    // This thread alone; and more cores than segments (this thread and two workers).
    for (const count of [1, 8]) {
      cores.count = count;
      expect(await treeHash(path, bytes.length)).toBe(expected);
    }
  });

  it('changes when one byte in the middle changes, and when the size does', async () => {
    const before = await treeHash(path, bytes.length);
    const changed = Buffer.from(bytes);
    changed[SEGMENT_BYTES + 777] = (changed[SEGMENT_BYTES + 777] ?? 0) ^ 1;
    const changedPath = join(dir, 'changed.bin');
    writeFileSync(changedPath, changed);
    expect(await treeHash(changedPath, changed.length)).not.toBe(before);
    expect(await treeHash(path, bytes.length - 1)).toBe(await reference(bytes.subarray(0, bytes.length - 1)));
  });

  it('rejects a file that is shorter than it was said to be', async () => {
    await expect(treeHash(path, bytes.length + 1)).rejects.toThrow(/shorter/);
  });

  it('stops when aborted', async () => {
    const stop = new AbortController();
    const hashing = treeHash(path, bytes.length, stop.signal);
    stop.abort(new Error('stopped by the test'));
    await expect(hashing).rejects.toThrow(/stopped by the test/);
  });

  it('a worker started ahead for a large file is taken by the next hash, to the same digest', async () => {
    const expected = await reference(bytes);
    startHashWorkerAhead(['no-such-file.pdf', path]);
    expect(hashWorkerWaiting()).toBe(true);
    startHashWorkerAhead([path]); // one is enough
    expect(await treeHash(path, bytes.length)).toBe(expected);
    expect(hashWorkerWaiting()).toBe(false);
  });
});

describe('startHashWorkerAhead', () => {
  it('starts one only for a file of the tree size or more, and only with a second core', async () => {
    const below = join(dir, 'below.pdf');
    const large = join(dir, 'sparse-large.pdf');
    writeFileSync(below, '');
    truncateSync(below, TREE_MIN_BYTES - 1);
    writeFileSync(large, '');
    truncateSync(large, TREE_MIN_BYTES); // sparse: no disk used
    mkdirSync(join(dir, 'folder'), { recursive: true });
    startHashWorkerAhead([below, join(dir, 'folder'), join(dir, '*.pdf'), join(dir, 'missing.pdf')]);
    expect(hashWorkerWaiting()).toBe(false);
    cores.count = 1;
    startHashWorkerAhead([large]);
    expect(hashWorkerWaiting()).toBe(false);
    cores.count = 2;
    startHashWorkerAhead([large]);
    expect(hashWorkerWaiting()).toBe(true);
    expect(await treeHash(large, TREE_MIN_BYTES)).toBe(await reference(Buffer.alloc(TREE_MIN_BYTES)));
    expect(hashWorkerWaiting()).toBe(false);
  });
});
