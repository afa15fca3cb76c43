// Text a command takes from a file or stdin (`--file -`, `--ops -`, `--input -`,
// `-F key=@file`) is read only up to its bound plus one byte: 600 MB piped in
// is refused after the bound with flat memory (exit 2, the message names the
// flag and the bound), never read whole first.
import type { Readable } from 'node:stream';
import type { Context } from '../context.js';
import { abortError, throwIfAborted, UsageError } from '../errors.js';
import { fstatSync } from 'node:fs';
import * as S from '../api/shapes.js';
import { openLocal } from './local-file.js';

export interface Bound {
  /** Characters (code points) the text may hold: the service's own limit for it. Reading stops past 4 bytes a character. */
  maxChars?: number;
  /** Bytes the input may hold (when there is no character limit, or a tighter one). */
  maxBytes?: number;
  /** What the bound is, for the message: "the service's limit for a document body". */
  what: string;
}

/** UTF-8 takes at most 4 bytes a code point: more bytes than this cannot fit `maxChars`. */
function byteCeiling(bound: Bound): number {
  const fromChars = bound.maxChars === undefined ? Infinity : bound.maxChars * 4;
  return Math.min(fromChars, bound.maxBytes ?? Infinity);
}

function tooLong(flag: string, source: string, bound: Bound): UsageError {
  const limit =
    bound.maxChars !== undefined && (bound.maxBytes === undefined || bound.maxChars * 4 <= bound.maxBytes)
      ? `${bound.maxChars.toLocaleString('en-US')} characters`
      : `${(bound.maxBytes ?? 0).toLocaleString('en-US')} bytes`;
  return new UsageError(`${flag} ${source}: more than ${limit} (${bound.what}); nothing was sent`);
}

/**
 * Reads a stream until it ends or holds more than `ceiling` bytes (then stops reading it); null when over.
 * Ctrl-C (or the deadline) ends the wait at once: a pipe or `<(command)` may take its time, or never write.
 */
async function readUpTo(
  stream: Readable | AsyncIterable<unknown>,
  ceiling: number,
  signal: AbortSignal | undefined,
): Promise<Buffer | null> {
  if (!signal) return readAll(stream, ceiling);
  throwIfAborted(signal);
  let stop: () => void = () => {};
  const stopped = new Promise<never>((_, reject) => {
    stop = () => {
      (stream as Readable).destroy?.();
      reject(abortError(signal));
    };
    signal.addEventListener('abort', stop, { once: true });
  });
  try {
    return await Promise.race([readAll(stream, ceiling), stopped]);
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

async function readAll(stream: Readable | AsyncIterable<unknown>, ceiling: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    total += buffer.length;
    if (total > ceiling) {
      (stream as Readable).destroy?.();
      return null;
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, total);
}

async function isDirectoryFd(fd: number): Promise<boolean> {
  try {
    return fstatSync(fd).isDirectory();
  } catch {
    return false;
  }
}

/** Why a file a flag names could not be read, as the refusal says it. */
function whyUnreadable(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a directory';
  if (code === 'EACCES') return 'permission denied';
  return (error as Error).message;
}

/**
 * The text of `path`, or of stdin for `-`, refused (UsageError, exit 2) past `bound`
 * without reading further. A missing or unreadable file is a usage error naming the flag.
 */
export async function readBounded(
  ctx: Pick<Context, 'io'> & Partial<Pick<Context, 'signal'>>,
  path: string,
  flag: string,
  bound: Bound,
): Promise<string> {
  const ceiling = byteCeiling(bound);
  let bytes: Buffer | null;
  let source: string;
  if (path === '-') {
    if (ctx.io.stdinIsTTY)
      throw new UsageError(
        `${flag} - reads stdin, but stdin is a terminal`,
        `pipe the text in, e.g. \`cat notes.md | kagent … ${flag} -\``,
      );
    source = '(stdin)';
    // Node ends a stdin that is a directory at once, as if empty: say so instead.
    if (ctx.io.stdin === process.stdin && (await isDirectoryFd(0)))
      throw new UsageError(`${flag} - reads stdin, but stdin is a directory`, 'pipe the text in, or give a file');
    bytes = await readUpTo(ctx.io.stdin, ceiling, ctx.signal);
  } else {
    source = path;
    try {
      // A plain file, or a FIFO (`--file <(command)`) waited for in the event loop; a device is refused (local-file.ts).
      const opened = await openLocal(path, { fifo: true });
      if (opened.size !== undefined && opened.size > ceiling) {
        opened.stream.destroy();
        bytes = null;
      } else bytes = await readUpTo(opened.stream, ceiling, ctx.signal);
    } catch (error) {
      if (ctx.signal?.aborted) throw error;
      throw new UsageError(`${flag}: cannot read it (${whyUnreadable(error)}): ${path}`);
    }
  }
  if (bytes === null) throw tooLong(flag, source, bound);
  // Within the byte ceiling the text may still be over a character bound: the request's
  // shape check says so before anything is sent ("--file must be at most … (got …)").
  return bytes.toString('utf8');
}

/**
 * The bounds of each input. Characters come from the request shapes (the
 * service's limits); byte caps where the contract states none.
 */
export async function inputBounds() {
  const docBody = (S.CreateDocRequest.properties.markdown as { maxLength: number }).maxLength;
  return {
    /** `doc create/update --file`: a document body. */
    docBody: { maxChars: docBody, what: "the service's limit for a document body" },
    /** `doc edit --ops`: a JSON array of edits; the contract states no byte limit, so the JSON body limit the sandbox applies (8 MiB). */
    docOps: { maxBytes: 8 * 1024 * 1024, what: 'the limit for an --ops file of edits' },
    /** `agent memory --file`: the memory (memoryMax). */
    memory: { maxChars: S.limits.memoryMax, what: "the service's limit for the agent's memory" },
    /** `api --input` and `-F key=@file`: a generous cap for a raw request body (twice the sandbox's JSON body limit). */
    apiInput: { maxBytes: 16 * 1024 * 1024, what: 'the limit for a request body kagent sends' },
  } satisfies Record<string, Bound>;
}
