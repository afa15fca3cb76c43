// The content hash of a large file, on every core: the file is cut into fixed
// 32 MiB segments, worker threads hash the segments in parallel, and the
// file's digest is the SHA-256 of "kagent-tree-v2", the size and the segment
// digests in order. The result depends only on the bytes (segment size is
// fixed, whatever the number of workers), so a rerun on another machine
// derives the same Idempotency-Key.
//
// Segments are hashed with xxHash64 (hash-wasm's WebAssembly build), not
// SHA-256: the upload cannot start before its key is known, and on two cores
// SHA-256 kept a 1 GiB upload waiting ~0.4 s where xxHash64 takes ~0.15 s
// (measured here; reading the file from the page cache is half of that). The
// digest only has to tell versions of one file apart — any changed byte
// changes it, except with odds of 2^-64 per segment — and it is no defence
// against someone crafting colliding files, which the key never was meant to be.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { optimisedWasmDuring } from '../wasm-tiers.js';

export const SEGMENT_BYTES = 32 * 1024 * 1024;
/** Below this, one thread hashes the whole file (plain SHA-256). */
export const TREE_MIN_BYTES = 2 * SEGMENT_BYTES;
const MAX_WORKERS = 4;
/** Reads of 512 KiB stay in the CPU cache between the copy and the hash (4 MiB reads are ~40% slower). */
const READ_BYTES = 512 * 1024;

// hash-wasm stays a package file, required by path inside each worker (a worker
// runs outside the bundle).
const XXHASH64 = createRequire(import.meta.url).resolve('hash-wasm/dist/xxhash64.umd.min.js');

// Runs as a CommonJS script in each worker: compiles xxHash64 when told to (not
// while the first API request compiles with Liftoff only, see wasm-tiers.ts),
// says so, then takes segment numbers from a shared counter until none are left.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { openSync, readSync, closeSync } = require('node:fs');
const { path, size, segment, readBytes, counter, xxhash64 } = workerData;
const next = new Int32Array(counter);
const count = Math.ceil(size / segment);
const buffer = Buffer.allocUnsafe(Math.min(readBytes, segment));
const { createXXHash64 } = require(xxhash64);
parentPort.once('message', () => createXXHash64().then((hash) => {
  parentPort.postMessage('compiled');
  const fd = openSync(path, 'r');
  try {
    for (let i = Atomics.add(next, 0, 1); i < count; i = Atomics.add(next, 0, 1)) {
      hash.init();
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
}).catch((error) => setImmediate(() => { throw error; })));
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
    const hashing = Array.from({ length: workers }, () => {
      const worker = new Worker(WORKER, { eval: true, workerData: { path, size, segment: SEGMENT_BYTES, readBytes: READ_BYTES, counter, xxhash64: XXHASH64 } });
      running.push(worker);
      let compiled!: () => void;
      const ready = new Promise<void>((resolve) => (compiled = resolve));
      const done = new Promise<void>((resolve, reject) => {
        worker.on('message', (message: 'compiled' | [number, string]) => {
          if (message === 'compiled') return compiled();
          const [index, digest] = message;
          digests[index] = digest;
        });
        worker.once('error', (error) => {
          stop();
          reject(error);
        });
        worker.once('exit', (code) => (code === 0 ? resolve() : reject(signal?.reason ?? new Error(`hashing stopped (worker exit ${code})`))));
      });
      // A worker that fails before compiling must not hold the API's first request back.
      done.then(compiled, compiled);
      return { worker, ready, done };
    });
    void optimisedWasmDuring(() => {
      for (const { worker } of hashing) worker.postMessage('go');
      return Promise.all(hashing.map(({ ready }) => ready));
    });
    await Promise.all(hashing.map(({ done }) => done));
  } finally {
    signal?.removeEventListener('abort', stop);
    stop();
  }
  if (signal?.aborted) throw signal.reason ?? new Error('aborted');
  return createHash('sha256').update(`kagent-tree-v2\n${size}\n${digests.join('\n')}`).digest('hex');
}
