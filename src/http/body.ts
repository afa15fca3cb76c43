// Reading an answer's body into memory: in one buffer of the announced size when
// there is one (no second copy of the chunks), and never past a cap, so that a
// service sending far more than any answer holds cannot drive kagent's memory up
// (the HTTP core's cap on one answer, MAX_ANSWER_BYTES in core.ts).
import type { Readable } from 'node:stream';

/** An answer bigger than `maxBytes`: reading stops there (an error that classifyNetworkError names). */
export function tooLarge(maxBytes: number): Error {
  return Object.assign(new Error(`the answer is larger than ${formatBytes(maxBytes)}`), {
    code: 'ANSWER_TOO_LARGE',
    maxBytes,
  });
}

/** `64 MiB`. */
export function formatBytes(bytes: number): string {
  return bytes % 1_048_576 === 0
    ? `${bytes / 1_048_576} MiB`
    : bytes % 1024 === 0
      ? `${bytes / 1024} KiB`
      : `${bytes} bytes`;
}

/**
 * The body as text, read into one buffer of the announced size when there is one (no
 * second copy of the chunks), and never past `maxBytes`.
 */
export async function readCapped(body: Readable, contentLength: unknown, maxBytes = Infinity): Promise<string> {
  const announced =
    typeof contentLength === 'string' && /^\d+$/.test(contentLength) ? Number(contentLength) : undefined;
  if (announced !== undefined && announced > maxBytes) {
    body.destroy();
    throw tooLarge(maxBytes);
  }
  const collect = collector(announced, maxBytes);
  try {
    for await (const chunk of body) collect.add(chunk as Buffer);
  } catch (error) {
    body.destroy();
    throw error;
  }
  return collect.text();
}

const PREALLOCATE_MAX = 256 * 1_048_576;

/** Gathers a body's chunks: into one buffer of the announced size when there is one, else a list; throws past `maxBytes`. */
export function collector(
  announced: number | undefined,
  maxBytes = Infinity,
): { add(chunk: Buffer): void; text(): string } {
  // (A size announced past what may be read, or absurd, gets no buffer made ahead for it.)
  let whole =
    announced !== undefined && announced <= Math.min(maxBytes, PREALLOCATE_MAX)
      ? Buffer.allocUnsafe(announced)
      : undefined;
  let chunks: Buffer[] = [];
  let length = 0;
  return {
    add(chunk) {
      if (length + chunk.length > maxBytes) throw tooLarge(maxBytes);
      if (whole && length + chunk.length <= whole.length) chunk.copy(whole, length);
      else {
        // More than announced (Node's parser refuses that; still, be right): go on with a list.
        if (whole) chunks = [whole.subarray(0, length)];
        whole = undefined;
        chunks.push(chunk);
      }
      length += chunk.length;
    },
    text() {
      const bytes = whole ? whole.subarray(0, length) : Buffer.concat(chunks, length);
      whole = undefined;
      chunks = [];
      return bytes.toString('utf8');
    },
  };
}
