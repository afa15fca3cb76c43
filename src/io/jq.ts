// --jq EXPR: the real jq (jq-wasm: jq compiled to WebAssembly), loaded only when
// asked for, and run in a worker thread (its program: jq-worker.ts), so that a
// program that never ends (`def f: f; f`) is still ended by the command's
// deadline (--timeout: TIMEOUT, exit 7), Ctrl-C (130) or SIGTERM: the main
// thread stays free to hear them, and ends the worker. Strings come out raw
// (like `jq -r`); other values pretty on a terminal, compact when piped. The
// output is handed over as it comes (`repeat(.) | head` ends). A jq error is a
// usage error (exit 2) with jq's own words; `halt_error` ends the command with
// its status, as jq does (5 unless given); a program that needs more memory
// than the engine has (256 MiB) says so, naming the limit (exit 1).
import type { Worker } from 'node:worker_threads';
import { CliError, ExitCode } from '../errors.js';
import { JQ_WORKER_SOURCE } from './jq-worker.js';

export class JqError extends CliError {
  constructor(message: string) {
    super(message, {
      exitCode: ExitCode.USAGE,
      code: 'JQ_ERROR',
      hint: 'the expression is evaluated by jq itself; see https://jqlang.org/manual/',
    });
    this.name = 'JqError';
  }
}

export interface JqOptions {
  /** The command's signal: its deadline or Ctrl-C ends the program. */
  signal?: AbortSignal;
  /** What jq sees as its environment ($ENV, env): the run's (process.env when left out). */
  env?: Record<string, string | undefined>;
  /** Takes the output as it comes (runJq then returns ''); without it, the output is returned whole. */
  write?: (text: string) => Promise<void>;
}

/** The last message of a run, from the worker. */
interface Ended {
  status?: number;
  aborted?: string;
  stderr: string;
  heap?: number;
  heapMax?: number;
}

interface Engine {
  worker: Worker;
  /** Output pieces posted and not yet written: the worker waits while there are 4. */
  unwritten: Int32Array;
  /** The environment it was started with (a worker's jq reads it once). */
  env: string;
}

let engine: Engine | undefined;
let jobs = 0;
/** One program at a time: one engine. */
let queue: Promise<unknown> = Promise.resolve();

export function runJq(data: unknown, filter: string, pretty: boolean, options: JqOptions = {}): Promise<string> {
  const run = queue.then(() => runOne(data, filter, pretty, options));
  queue = run.catch(() => undefined);
  return run;
}

function engineFor(env: Record<string, string | undefined>): Engine {
  const key = JSON.stringify(env);
  if (engine && engine.env === key) return engine;
  if (engine) void engine.worker.terminate();
  const flow = new SharedArrayBuffer(4);
  // Built-ins taken when --jq runs, not when a command that may print JSON loads (start-up).
  const { createRequire } = process.getBuiltinModule('node:module');
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const file = createRequire(import.meta.url).resolve('jq-wasm/dist/build/jq.js');
  const worker = new Worker(JQ_WORKER_SOURCE, { eval: true, workerData: { file, env, flow } });
  worker.unref();
  engine = { worker, unwritten: new Int32Array(flow), env: key };
  return engine;
}

function retire(which: Engine): void {
  if (engine === which) engine = undefined;
  void which.worker.terminate();
}

function runOne(data: unknown, filter: string, pretty: boolean, options: JqOptions): Promise<string> {
  const { signal, write } = options;
  signal?.throwIfAborted();
  const current = engineFor(options.env ?? process.env);
  const { worker, unwritten } = current;
  const job = ++jobs;
  let collected = '';
  return new Promise<string>((resolve, reject) => {
    let writing = Promise.resolve();
    let over = false;
    const release = () => {
      Atomics.sub(unwritten, 0, 1);
      Atomics.notify(unwritten, 0);
    };
    const finish = (error: unknown, result = '') => {
      if (over) return;
      over = true;
      signal?.removeEventListener('abort', onAbort);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      worker.unref();
      if (error === undefined) return resolve(result);
      retire(current);
      reject(error);
    };
    const onAbort = () => finish(signal?.reason);
    const onError = (error: Error) =>
      finish(new CliError(`the jq engine failed: ${error.message}`, { code: 'JQ_UNAVAILABLE', cause: error }));
    const onExit = () => finish(new CliError('the jq engine stopped', { code: 'JQ_UNAVAILABLE' }));
    const onMessage = (message: { job: number; out?: string } & Ended) => {
      if (message.job !== job || over) return;
      if (message.out !== undefined) {
        const piece = message.out;
        if (!write) return ((collected += piece), release());
        writing = writing
          .then(() => (over ? undefined : write(piece)))
          .then(release, (error: unknown) => finish(error));
        return;
      }
      void writing.then(() => {
        const error = failure(message);
        if (error && message.aborted !== undefined) retire(current);
        finish(error, write ? '' : collected);
      });
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    worker.ref();
    worker.postMessage({ job, input: JSON.stringify(data ?? null), filter, flags: pretty ? ['-r'] : ['-r', '-c'] });
  });
}

/** What the end of a run means: nothing wrong, jq's complaint, a halt, or the engine giving out. */
function failure(ended: Ended): CliError | undefined {
  if (ended.aborted !== undefined) {
    const max = ended.heapMax ?? 0;
    if (/memory/i.test(ended.stderr + ended.aborted) || (max > 0 && (ended.heap ?? 0) >= max / 2))
      return new CliError(
        `the --jq program needs more memory than the jq engine has (${Math.round(max / 2 ** 20)} MiB)`,
        {
          code: 'JQ_OUT_OF_MEMORY',
          hint: 'narrow the answer first (--json FIELDS, --limit), or pipe --json to a jq installed on this machine',
        },
      );
    return new CliError(`the jq engine failed: ${ended.aborted}`, { code: 'JQ_UNAVAILABLE' });
  }
  const status = ended.status ?? 0;
  if (status === 0) return undefined;
  // jq's own complaints start with "jq:"; anything else on stderr is the program's halt_error.
  if (ended.stderr.startsWith('jq:')) return new JqError(jqMessage(ended.stderr));
  const said = ended.stderr.trim();
  return new CliError(said === '' ? `the --jq program stopped with status ${status} (halt_error)` : said, {
    exitCode: status,
    code: 'JQ_HALT',
  });
}

/** jq reports over several lines ("jq: error: ...", "jq: 1 compile error"): make it one. */
function jqMessage(text: string): string {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^jq: \d+ compile errors?$/.test(line));
  return lines.join(' ').replace(/\s+/g, ' ') || 'jq failed';
}
