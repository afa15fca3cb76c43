// The content hash of a large file, on every core: the file is cut into fixed
// 32 MiB segments, worker threads hash the segments (SHA-256) in parallel, and
// the file's digest is the SHA-256 of "kagent-tree-v1", the size and the
// segment digests in order. The result depends only on the bytes (segment size
// is fixed, whatever the number of workers), so a rerun on another machine
// derives the same Idempotency-Key. Hashing 1 GiB on one core takes ~0.7 s,
// which the upload has to wait for; two cores halve it.
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

export const SEGMENT_BYTES = 32 * 1024 * 1024;
/** Below this, one thread hashes the whole file (plain SHA-256). */
export const TREE_MIN_BYTES = 2 * SEGMENT_BYTES;
const MAX_WORKERS = 4;

// Runs as a CommonJS script in each worker: takes segment numbers from a shared
// counter until none are left, reads each with two alternating 4 MiB buffers.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { openSync, readSync, closeSync } = require('node:fs');
const { createHash } = require('node:crypto');
const { path, size, segment, counter } = workerData;
const next = new Int32Array(counter);
const count = Math.ceil(size / segment);
const buffer = Buffer.allocUnsafe(Math.min(4 << 20, segment));
const fd = openSync(path, 'r');
try {
  for (let i = Atomics.add(next, 0, 1); i < count; i = Atomics.add(next, 0, 1)) {
    const hash = createHash('sha256');
    const end = Math.min(size, (i + 1) * segment);
    for (let at = i * segment; at < end; ) {
      const n = readSync(fd, buffer, 0, Math.min(buffer.length, end - at), at);
      if (n === 0) throw new Error('the file got shorter while being read');
      hash.update(buffer.subarray(0, n));
      at += n;
    }
    parentPort.postMessage([i, hash.digest('hex')]);
  }
} finally {
  closeSync(fd);
}
`;

/** The tree digest of the first `size` bytes of `path`. Rejects if the file got shorter; aborts with `signal`. */
export async function treeHash(path: string, size: number, signal?: AbortSignal): Promise<string> {
  const count = Math.ceil(size / SEGMENT_BYTES);
  const workers = Math.max(1, Math.min(MAX_WORKERS, availableParallelism(), count));
  const counter = new SharedArrayBuffer(4);
  const digests: string[] = new Array<string>(count);
  const running: Worker[] = [];
  const stop = () => {
    for (const worker of running) void worker.terminate();
  };
  signal?.addEventListener('abort', stop, { once: true });
  try {
    await Promise.all(
      Array.from({ length: workers }, () => {
        const worker = new Worker(WORKER, { eval: true, workerData: { path, size, segment: SEGMENT_BYTES, counter } });
        running.push(worker);
        return new Promise<void>((resolve, reject) => {
          worker.on('message', ([index, digest]: [number, string]) => {
            digests[index] = digest;
          });
          worker.once('error', (error) => {
            stop();
            reject(error);
          });
          worker.once('exit', (code) => (code === 0 ? resolve() : reject(signal?.reason ?? new Error(`hashing stopped (worker exit ${code})`))));
        });
      }),
    );
  } finally {
    signal?.removeEventListener('abort', stop);
    stop();
  }
  if (signal?.aborted) throw signal.reason ?? new Error('aborted');
  return createHash('sha256').update(`kagent-tree-v1\n${size}\n${digests.join('\n')}`).digest('hex');
}
