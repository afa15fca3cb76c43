// The standard streams as file descriptors, for the paths that must not pay for
// process.stdout: making it loads node:net and the stream modules (~2 ms on
// Node 26), and isatty() loads node:tty, which loads them too.
import { fstatSync, writeSync } from 'node:fs';

/** isatty(fd), without loading node:tty for what is no character device: a pipe, a file, a socket. */
export function isTerminal(fd: number): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  return process.getBuiltinModule('node:tty').isatty(fd);
}

/**
 * Writes `text` straight to fd 1. A closed pipe ends quietly with success, as a
 * Unix tool should; a pipe that would block (non-blocking, and full) gets the
 * rest through process.stdout, which waits.
 */
export function writeOut(text: string): void {
  let bytes = Buffer.from(text);
  try {
    while (bytes.length > 0) bytes = bytes.subarray(writeSync(1, bytes));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') process.exit(0);
    if (code !== 'EAGAIN') {
      // A full disk, a device error: the output is lost, said in one line (as the program says it: streams.ts).
      const reason = (error as Error).message.replace(/^[A-Z]+: /, '').replace(/, write$/, '');
      try {
        writeSync(2, `error: cannot write the output: ${reason} (OUTPUT_FAILED)\n`);
      } finally {
        process.exit(1);
      }
    }
    process.stdout.on('error', (failure: NodeJS.ErrnoException) => {
      if (failure.code === 'EPIPE') process.exit(0);
    });
    process.stdout.write(bytes);
  }
}
