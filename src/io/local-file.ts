// Paths the user names for kagent to read (`--file`, `--input`, `-F x=@file`,
// `--spec`, a pulled document and its sidecar), opened so that nothing can hold
// the process. Opening a FIFO waits for a writer, and that wait would hold one
// of Node's threads (and the process at its exit, past --timeout, Ctrl-C and
// SIGTERM); /dev/zero or /dev/urandom never end. So every path opens with
// O_NONBLOCK (a FIFO opens at once), then: a plain file is read as a file, its
// size known before a byte is read (too large is refused at once); a FIFO (as
// `<(command)` gives) is read as a pipe in the event loop, where the deadline
// and signals are still heard, when the caller takes one; anything else (a
// device, a socket, a directory) is refused: it is not a file.
import { close, constants, createReadStream, fstat, open, type Stats } from 'node:fs';
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';

export interface LocalOptions {
  /** A FIFO is taken (and read as a pipe); else it is refused as any other non-file. */
  fifo?: boolean;
  /** A symbolic link at the path is refused (ELOOP), not followed. */
  noFollow?: boolean;
}

export interface Opened {
  stream: Readable;
  /** The file's size; undefined for a FIFO. */
  size: number | undefined;
}

/** An error with a `code` (ENOTPLAIN) and a message saying what the path is instead of a file. */
export class NotPlainError extends Error {
  readonly code = 'ENOTPLAIN';
  constructor(stat: Stats) {
    super(`it is ${describe(stat)}, not a file`);
    this.name = 'NotPlainError';
  }
}

function describe(stat: Stats): string {
  if (stat.isDirectory()) return 'a directory';
  return specialKind(stat) ?? 'not a plain file';
}

/** What a FIFO, a device or a socket is, in words; undefined for anything else (a file, a directory, a link). */
export function specialKind(stat: Stats): string | undefined {
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  return undefined;
}

/** Opens `path` to read without waiting on it (see above); the errors are the system's (ENOENT…) or NotPlainError. */
export async function openLocal(path: string, options: LocalOptions = {}): Promise<Opened> {
  const flags = constants.O_RDONLY | constants.O_NONBLOCK | (options.noFollow ? (constants.O_NOFOLLOW ?? 0) : 0);
  const fd = await new Promise<number>((resolve, reject) =>
    open(path, flags, (error, opened) => (error ? reject(error) : resolve(opened))),
  );
  let stat: Stats;
  try {
    stat = await new Promise<Stats>((resolve, reject) =>
      fstat(fd, (error, stats) => (error ? reject(error) : resolve(stats))),
    );
  } catch (error) {
    close(fd, () => {});
    throw error;
  }
  if (stat.isFile()) return { stream: createReadStream('', { fd }), size: stat.size };
  if (stat.isFIFO() && options.fifo)
    return { stream: new Socket({ fd, readable: true, writable: false }), size: undefined };
  close(fd, () => {});
  throw new NotPlainError(stat);
}

/**
 * The text of the plain file at `path` (no FIFO, no device), or undefined when there is none; refused with
 * `TooLargeError` when it holds more than `maxBytes`, before anything is read.
 */
export async function readPlainText(
  path: string,
  maxBytes: number,
  options: Omit<LocalOptions, 'fifo'> = {},
): Promise<string | undefined> {
  let opened: Opened;
  try {
    opened = await openLocal(path, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if ((opened.size ?? 0) > maxBytes) {
    opened.stream.destroy();
    throw new TooLargeError(opened.size ?? 0, maxBytes);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of opened.stream) {
    total += (chunk as Buffer).length;
    // The file may have grown since its size was read.
    if (total > maxBytes) {
      opened.stream.destroy();
      throw new TooLargeError(total, maxBytes);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

export class TooLargeError extends Error {
  readonly code = 'ETOOLARGE';
  constructor(
    readonly size: number,
    readonly maxBytes: number,
  ) {
    super(`it holds ${megabytes(size)}, more than the ${megabytes(maxBytes)} kagent reads`);
    this.name = 'TooLargeError';
  }
}

function megabytes(bytes: number): string {
  if (bytes >= 1_000_000_000) return `${Number((bytes / 1e9).toPrecision(3))} GB`;
  if (bytes >= 1_000_000) return `${Number((bytes / 1e6).toPrecision(3))} MB`;
  return `${bytes.toLocaleString('en-US')} bytes`;
}
