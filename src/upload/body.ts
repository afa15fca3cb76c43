// The request body of an upload: exactly `size` bytes of a file, read in 1 MiB
// chunks (64 KiB, Node's default, halves the throughput of a large upload), with
// a callback per chunk for the progress display. Opened afresh for every attempt
// of the request, so a retry sends the file from its first byte again.
import { close, open, read } from 'node:fs';
import { Readable } from 'node:stream';

export const BODY_CHUNK = 1024 * 1024;

export class FileBody extends Readable {
  private fd: number | undefined;
  private position = 0;

  constructor(
    private readonly path: string,
    private readonly size: number,
    private readonly onBytes?: (bytes: number) => void,
  ) {
    super({ highWaterMark: BODY_CHUNK });
  }

  override _construct(callback: (error?: Error | null) => void): void {
    open(this.path, 'r', (error, fd) => {
      this.fd = fd;
      callback(error);
    });
  }

  override _read(): void {
    const remaining = this.size - this.position;
    if (remaining <= 0) {
      this.push(null);
      return;
    }
    // A fresh buffer per chunk: the one pushed may still wait in the socket's queue.
    const buffer = Buffer.allocUnsafeSlow(Math.min(BODY_CHUNK, remaining));
    read(this.fd as number, buffer, 0, buffer.length, this.position, (error, bytesRead) => {
      if (error) return this.destroy(error);
      if (bytesRead === 0) return this.destroy(Object.assign(new Error('the file got shorter while it was being sent'), { code: 'FILE_CHANGED' }));
      this.position += bytesRead;
      this.onBytes?.(bytesRead);
      this.push(bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead));
    });
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (this.fd === undefined) return callback(error);
    const fd = this.fd;
    this.fd = undefined;
    close(fd, () => callback(error));
  }
}
