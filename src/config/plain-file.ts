// Reading a small file kagent keeps (the config, the shared rate window) without ever
// waiting on what is no plain file: opening a FIFO waits for a writer, and that wait
// blocks the whole process (Ctrl-C and SIGTERM included); /dev/zero never ends.
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';

/** The text of `path`; undefined when there is no such file. A FIFO, a device or a directory throws ENOTPLAIN. */
export function readPlainFileSync(path: string): string | undefined {
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO opens at once instead of waiting for a writer (and is refused below).
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    if (!fstatSync(fd).isFile())
      throw Object.assign(new Error('it is not a plain file (a pipe, a device or a directory)'), { code: 'ENOTPLAIN' });
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
