// The content hash of a large file, on every core: the file is cut into fixed
// 32 MiB segments, this thread and worker threads (one per further core) hash
// the segments in parallel, and the file's digest is the SHA-256 of
// "kagent-tree-v2", the size and the segment digests in order. The result
// depends only on the bytes (segment size is fixed, whatever the number of
// threads), so a rerun on another machine derives the same Idempotency-Key.
//
// Segments are hashed with xxHash64 (hash-wasm's WebAssembly build), not
// SHA-256: the upload cannot start before its key is known, and on two cores
// SHA-256 kept a 1 GiB upload waiting ~0.4 s where xxHash64 takes ~0.2 s
// (measured here, in the upload; reading the file from the page cache is more
// than half of that). The digest only has to tell versions of one file apart —
// any changed byte changes it, except with odds of 2^-64 per segment — and it
// is no defence against someone crafting colliding files, which the key never
// was meant to be.
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { setImmediate } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import type { IHasher } from 'hash-wasm';
import { optimisedWasmDuring } from '../wasm-tiers.js';

export const SEGMENT_BYTES = 32 * 1024 * 1024;
/** Below this, one thread hashes the whole file (plain SHA-256). */
export const TREE_MIN_BYTES = 2 * SEGMENT_BYTES;
/** Threads hashing one file, the calling one included. */
const MAX_THREADS = 4;
/** Reads of 512 KiB stay in the CPU cache between the copy and the hash (4 MiB reads are ~40% slower). */
const READ_BYTES = 512 * 1024;

// hash-wasm stays a package file, required by path (a worker runs outside the bundle).
const requirePackage = createRequire(import.meta.url);
const XXHASH64 = requirePackage.resolve('hash-wasm/dist/xxhash64.umd.min.js');

interface Job {
  path: string;
  size: number;
  segment: number;
  readBytes: number;
  /** Int32 on shared memory: the next segment to take. */
  counter: SharedArrayBuffer;
}

/**
 * The xxHash64 of segment `index`. Also the workers' code, as source text, so
 * it uses nothing but its parameters and JavaScript's globals.
 */
function hashSegment(fd: number, index: number, job: Job, buffer: Buffer, hasher: IHasher, read: typeof readSync): string {
  hasher.init();
  const end = Math.min(job.size, (index + 1) * job.segment);
  for (let at = index * job.segment; at < end; ) {
    const n = read(fd, buffer, 0, Math.min(buffer.length, end - at), at);
    if (n === 0) throw new Error('the file got shorter while being read');
    hasher.update(buffer.subarray(0, n));
    at += n;
  }
  return hasher.digest('hex');
}

// Runs as a CommonJS script in each worker: loads xxHash64, waits for its job,
// compiles xxHash64 then (not while the first API request compiles with Liftoff
// only, see wasm-tiers.ts), says so, then takes segment numbers from the shared
// counter until none are left.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { openSync, readSync, closeSync } = require('node:fs');
const hashSegment = ${hashSegment.toString()};
const { createXXHash64 } = require(workerData.xxhash64);
parentPort.once('message', (job) => createXXHash64().then((hasher) => {
  parentPort.postMessage('compiled');
  const next = new Int32Array(job.counter);
  const count = Math.ceil(job.size / job.segment);
  const buffer = Buffer.allocUnsafe(Math.min(job.readBytes, job.segment));
  const fd = openSync(job.path, 'r');
  try {
    for (let i = Atomics.add(next, 0, 1); i < count; i = Atomics.add(next, 0, 1)) {
      parentPort.postMessage([i, hashSegment(fd, i, job, buffer, hasher, readSync)]);
    }
  } finally {
    closeSync(fd);
  }
}).catch((error) => setImmediate(() => { throw error; })));
`;

const startWorker = () => new Worker(WORKER, { eval: true, workerData: { xxhash64: XXHASH64 } });

/** A worker started ahead of its job, waiting to be taken by the next treeHash. */
let waiting: Worker | undefined;

/**
 * Starts one hash worker now when one of `paths` is a file large enough to be
 * hashed with workers: a worker takes ~40 ms to start, and while an upload
 * starts up a core is idle (the hash then ends ~15 ms sooner: measured). The
 * worker does not keep the process alive while it waits; with one core there
 * is none to start.
 */
export function startHashWorkerAhead(paths: readonly string[]): void {
  if (waiting || availableParallelism() < 2) return;
  const large = paths.some((path) => {
    try {
      const stat = statSync(path, { throwIfNoEntry: false });
      return stat !== undefined && stat.isFile() && stat.size >= TREE_MIN_BYTES;
    } catch {
      return false; // discover says what is wrong with it
    }
  });
  if (!large) return;
  waiting = startWorker();
  // One that fails while waiting is dropped; treeHash starts its own.
  const worker = waiting;
  worker.once('error', () => {
    if (waiting === worker) waiting = undefined;
  });
  worker.unref();
}

/** Whether a worker started ahead is waiting for its job. */
export function hashWorkerWaiting(): boolean {
  return waiting !== undefined;
}

function takeWorker(): Worker {
  const worker = waiting ?? startWorker();
  waiting = undefined;
  worker.ref();
  return worker;
}

/** The tree digest of the first `size` bytes of `path`. Rejects if the file got shorter; aborts with `signal`. */
export async function treeHash(path: string, size: number, signal?: AbortSignal): Promise<string> {
  const count = Math.ceil(size / SEGMENT_BYTES);
  const job: Job = { path, size, segment: SEGMENT_BYTES, readBytes: READ_BYTES, counter: new SharedArrayBuffer(4) };
  const digests: string[] = new Array<string>(count);
  const halt = new AbortController();
  const running: Worker[] = [];
  const stop = () => {
    halt.abort();
    for (const worker of running) void worker.terminate();
  };
  signal?.addEventListener('abort', stop, { once: true });
  try {
    // This thread hashes too: it would only wait otherwise, and each worker costs ~40 ms of CPU to start.
    const hashing = Array.from({ length: Math.min(MAX_THREADS, availableParallelism(), count) - 1 }, () => {
      const worker = takeWorker();
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
      for (const { worker } of hashing) worker.postMessage(job);
      return Promise.all(hashing.map(({ ready }) => ready));
    });
    const here = hashHere(job, digests, halt.signal).catch((error: unknown) => {
      stop();
      throw error;
    });
    await Promise.all([here, ...hashing.map(({ done }) => done)]);
  } finally {
    signal?.removeEventListener('abort', stop);
    stop();
  }
  if (signal?.aborted) throw signal.reason ?? new Error('aborted');
  return createHash('sha256').update(`kagent-tree-v2\n${size}\n${digests.join('\n')}`).digest('hex');
}

/** This thread's share: segments from the shared counter, letting other work run between two (~10 ms each). */
async function hashHere(job: Job, digests: string[], halt: AbortSignal): Promise<void> {
  const { createXXHash64 } = requirePackage(XXHASH64) as Pick<typeof import('hash-wasm'), 'createXXHash64'>;
  const hasher = await optimisedWasmDuring(() => createXXHash64());
  const next = new Int32Array(job.counter);
  const buffer = Buffer.allocUnsafe(Math.min(job.readBytes, job.segment));
  const fd = openSync(job.path, 'r');
  try {
    for (let i = Atomics.add(next, 0, 1); i < digests.length && !halt.aborted; i = Atomics.add(next, 0, 1)) {
      digests[i] = hashSegment(fd, i, job, buffer, hasher, readSync);
      await setImmediate();
    }
  } finally {
    closeSync(fd);
  }
}
