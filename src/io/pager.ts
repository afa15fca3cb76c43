// Long output on a terminal goes through a pager, as gh and git do. Which one
// (src/config/resolve.ts): KAGENT_PAGER, else `kagent config set pager`, else
// PAGER, else `less -FRX` (only when less is installed). An empty value or `cat` means none. Never
// when stdout is not a terminal, with --json/--jq or --no-pager.
//
// How: once a command asks for paging (`ctx.io.page()`, which lists and the
// show commands do), stdout becomes a PagingStream. It holds the first
// screenful; output that fits is written straight to the terminal when the
// command ends (no pager flashes up), and output taller than the screen starts
// the pager and flows into it. The pager writes to the real terminal itself.
// Quitting it early makes the next write fail with EPIPE, which the output
// layer turns into a quiet exit 0. While it runs kagent leaves Ctrl-C to it
// (hold.running), so kagent never exits under a pager that still owns the
// terminal.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { Writable } from 'node:stream';

/** Shared with the process boundary: while a pager runs, Ctrl-C is the pager's. */
export interface PagerHold {
  running: boolean;
}

/** A pager that does nothing: none at all. */
export function isNoPager(command: string): boolean {
  return command === '' || command === 'cat' || /(^|\/)cat$/.test(command.split(/\s+/)[0] ?? '');
}

/** The program a command line starts, found on PATH (or as given when it names a path). */
export function findProgram(command: string, env: NodeJS.ProcessEnv): string | undefined {
  const program = command.trim().split(/\s+/)[0] ?? '';
  if (program === '') return undefined;
  const runnable = (path: string) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (program.includes('/'))
    return runnable(program) || (!isAbsolute(program) && runnable(join(process.cwd(), program))) ? program : undefined;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir !== '' && runnable(join(dir, program))) return join(dir, program);
  }
  return undefined;
}

export interface PagerOptions {
  command: string;
  env: NodeJS.ProcessEnv;
  /** The terminal: stdout and stderr the pager writes to. */
  stdout: NodeJS.WritableStream & { fd?: number };
  stderr: NodeJS.WritableStream & { fd?: number };
  /** Lines on the screen: output with more than this starts the pager. */
  rows: number;
  hold?: PagerHold;
  /** Said once when the pager cannot be started (the output is printed as is). */
  onStartFailure?: (message: string) => void;
}

/**
 * stdout while paging is allowed: holds output until it is taller than the
 * screen, then starts the pager and writes into it. `close()` ends it: held
 * output is written to the terminal, or the pager is given the end and waited for.
 */
export class PagingStream extends Writable {
  private held: Array<Buffer> = [];
  private lines = 0;
  private child: ChildProcess | undefined;
  private exited: Promise<void> | undefined;
  /** How the pager failed, if it did ("ended with status 127"): the output may not have been shown. */
  failed: string | undefined;
  /** No pager after all (it could not start, or held output was let out): writes go straight to the terminal. */
  private direct_ = false;

  constructor(private readonly options: PagerOptions) {
    super({ decodeStrings: true });
    // The output layer watches for errors (a pager quit early) when it writes; none may go unhandled in between.
    this.on('error', () => {});
  }

  /** The pager has been started (output was taller than the screen). */
  get paging(): boolean {
    return this.child !== undefined;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.child) return this.intoPager(chunk, callback);
    if (this.direct_) return this.direct(chunk, callback);
    this.held.push(chunk);
    for (const byte of chunk) if (byte === 0x0a) this.lines++;
    if (this.lines < this.options.rows) return callback();
    const held = Buffer.concat(this.held);
    this.held = [];
    if (!this.start()) return this.direct(held, callback);
    this.intoPager(held, callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    if (!this.child) {
      const held = Buffer.concat(this.held);
      this.held = [];
      if (held.length === 0) return callback();
      return this.direct(held, callback);
    }
    const stdin = this.child.stdin;
    if (stdin && !stdin.destroyed && !stdin.writableEnded) stdin.end();
    void this.exited?.then(() => callback());
  }

  /**
   * Something is about to be said on stderr (a note after the result): output
   * held so far is written first, so the two read in order, and the rest of
   * this run is printed without a pager. Nothing changes once the pager runs.
   */
  async settle(): Promise<void> {
    if (this.child || this.direct_ || this.held.length === 0 || this.writableLength > 0) return;
    this.direct_ = true;
    const held = Buffer.concat(this.held);
    this.held = [];
    await new Promise<void>((resolve) => this.options.stdout.write(held, () => resolve()));
  }

  /** Ends paging: writes what is held, or waits for the pager to be quit. Never throws (a pager quit early is fine). */
  async close(): Promise<void> {
    if (this.writableFinished || this.destroyed) {
      await this.exited;
      return;
    }
    await new Promise<void>((resolve) => {
      this.once('error', () => resolve());
      this.end(() => resolve());
    });
    await this.exited;
  }

  private direct(chunk: Buffer, callback: (error?: Error | null) => void): void {
    this.options.stdout.write(chunk, (error) => callback(error ?? null));
  }

  private intoPager(chunk: Buffer, callback: (error?: Error | null) => void): void {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed) return callback(pipeClosed());
    // Once: the write's own callback reports an error after the 'error' event; only the first counts.
    let done = false;
    const finish = (error?: Error | null) => {
      if (done) return;
      done = true;
      if (!error) callback(null);
      else callback(isPipeError(error) ? pipeClosed() : error);
    };
    stdin.write(chunk, (error) => finish(error));
  }

  private start(): boolean {
    const { command, env, stdout, stderr, hold } = this.options;
    const pipeIfNotFd = (stream: { fd?: number }) =>
      typeof stream.fd === 'number' ? (stream as unknown as NodeJS.WriteStream) : 'pipe';
    let child: ChildProcess;
    try {
      child = spawn(command, {
        shell: true,
        stdio: ['pipe', pipeIfNotFd(stdout), pipeIfNotFd(stderr)],
        // As gh: less quits when the text fits, keeps colour and does not clear the screen, unless the user's LESS says otherwise.
        env: { ...env, LESS: env.LESS ?? 'FRX', LV: env.LV ?? '-c' },
      });
    } catch (error) {
      this.direct_ = true;
      this.options.onStartFailure?.(`cannot start the pager "${command}": ${(error as Error).message}`);
      return false;
    }
    this.child = child;
    child.stdout?.pipe(stdout as NodeJS.WritableStream, { end: false });
    child.stderr?.pipe(stderr as NodeJS.WritableStream, { end: false });
    child.stdin?.on('error', () => {
      // EPIPE once the pager is quit: the write callback reports it.
    });
    if (hold) hold.running = true;
    this.exited = new Promise<void>((resolve) => {
      child.on('error', () => {
        if (hold) hold.running = false;
        resolve();
      });
      child.on('close', (code) => {
        if (hold) hold.running = false;
        // Quitting a pager (q, or Ctrl-C in it) ends it with 0. It runs through a shell, which ends with
        // 127 when it cannot run it and with 128 + N when a signal kills it.
        if (code !== null && code !== 0) this.failed = `ended with status ${code}`;
        resolve();
      });
    });
    return true;
  }
}

function isPipeError(error: Error & { code?: string }): boolean {
  return error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED' || error.code === 'ECONNRESET';
}

function pipeClosed(): Error {
  return Object.assign(new Error('the pager was closed'), { code: 'EPIPE' });
}
