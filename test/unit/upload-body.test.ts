// The request body of an upload: exactly the file's bytes, in chunks of at most
// BODY_CHUNK, through a pool of reused buffers; a file that shrinks or vanishes
// while it is sent fails the body instead of sending something else.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BODY_CHUNK, FileBody } from '../../src/upload/body.js';

const dir = mkdtempSync(join(tmpdir(), 'kagent-body-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Consumes the body as the HTTP client does: each chunk is written out (here:
 * copied) and the stream is paused until that write has "drained" (here: the
 * next turn of the event loop), so buffers are reused only after their bytes left.
 */
function send(body: FileBody): Promise<{ bytes: Buffer; chunks: number[] }> {
  return new Promise((resolve, reject) => {
    const copies: Buffer[] = [];
    body.on('data', (chunk: Buffer) => {
      copies.push(Buffer.from(chunk));
      body.pause();
      setImmediate(() => body.resume());
    });
    body.once('end', () => resolve({ bytes: Buffer.concat(copies), chunks: copies.map((c) => c.length) }));
    body.once('error', reject);
  });
}

describe('FileBody', () => {
  it('sends exactly the bytes of the file, in chunks of at most BODY_CHUNK, and reports each', async () => {
    const content = randomBytes(5 * BODY_CHUNK + 12_345);
    const path = join(dir, 'several-chunks.bin');
    writeFileSync(path, content);
    let reported = 0;
    const { bytes, chunks } = await send(new FileBody(path, content.length, (n) => (reported += n)));
    expect(bytes.equals(content)).toBe(true);
    expect(chunks).toEqual([BODY_CHUNK, BODY_CHUNK, BODY_CHUNK, BODY_CHUNK, BODY_CHUNK, 12_345]);
    expect(reported).toBe(content.length);
  });

  it('sends only the first `size` bytes of a file that grew since it was measured', async () => {
    const content = randomBytes(BODY_CHUNK + 10);
    const path = join(dir, 'grew.bin');
    writeFileSync(path, content);
    const { bytes } = await send(new FileBody(path, BODY_CHUNK + 5));
    expect(bytes.equals(content.subarray(0, BODY_CHUNK + 5))).toBe(true);
  });

  it('fails with FILE_CHANGED when the file got shorter than its size', async () => {
    const path = join(dir, 'shrunk.bin');
    writeFileSync(path, randomBytes(3 * BODY_CHUNK));
    truncateSync(path, BODY_CHUNK + 100);
    await expect(send(new FileBody(path, 3 * BODY_CHUNK))).rejects.toMatchObject({
      code: 'FILE_CHANGED',
      message: /got shorter/,
    });
  });

  it('fails with the system error when the file cannot be opened', async () => {
    await expect(send(new FileBody(join(dir, 'missing.bin'), 10))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
