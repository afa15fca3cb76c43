// Reading an answer's body into memory: in one buffer of the announced size when
// there is one (no second copy of the chunks), and never past a cap, so that a
// service sending far more than any answer holds cannot drive kagent's memory up
// (the HTTP core's cap on one answer, MAX_ANSWER_BYTES in core.ts).
// And what one attempt of a request sends (bodyOf).
import type { Readable } from 'node:stream';
import type { CoreRequest } from './core.js';

/** An answer bigger than `maxBytes`: reading stops there (an error that classifyNetworkError names). */
export function tooLarge(maxBytes: number): Error {
  return Object.assign(new Error(`the answer is larger than ${formatBytes(maxBytes)}`), {
    code: 'ANSWER_TOO_LARGE',
    maxBytes,
  });
}

/** `64 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes % 1_048_576 === 0) return `${bytes / 1_048_576} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
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

/**
 * The most values one answer may hold. JSON.parse takes about 16 bytes for each (a
 * 60 MB array of numbers took 880 MB), far more for the keys of an object with
 * thousands of them (3 million keys: 1 GB, and a minute), so 64 MiB of text could
 * cost gigabytes. No answer of the API comes near: a page holds at most 500 items.
 * 8 million values keep the worst answer within a few hundred MB.
 */
export const MAX_ANSWER_VALUES = 8_000_000;
/** An object with more keys than this is a dictionary to V8: each key past them counts as this many values. */
const FAST_KEYS = 1_000;
const DICTIONARY_KEY_WEIGHT = 10;
/** Text shorter than this cannot hold MAX_ANSWER_VALUES: not scanned. */
const SCAN_FROM_CHARS = 1_048_576;
/** Past this depth the scan stops counting keys (the depth check after parsing refuses such an answer). */
const SCAN_DEPTH = 512;

/**
 * How many values a JSON text holds, as JSON.parse would make them (containers,
 * strings, keys included, and literals), counted without parsing; undefined for text
 * too short to matter. Counting stops once past `max`: the answer is refused anyway.
 * A string or a literal is skipped whole, so the loop sees one token at a time.
 */
export function answerValues(text: string, max = MAX_ANSWER_VALUES): number | undefined {
  if (text.length < SCAN_FROM_CHARS) return undefined;
  let values = 0;
  let depth = 0;
  // The key count of each open object (-1 for an array) within SCAN_DEPTH, innermost last.
  const keys: number[] = [];
  for (let i = 0; i < text.length && values <= max; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      values++;
      i = closingQuote(text, i);
    } else if (isLiteralChar(c)) {
      values++;
      i = literalEnd(text, i) - 1;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      values++;
      if (++depth <= SCAN_DEPTH) keys.push(c === OPEN_OBJECT ? 0 : -1);
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth-- <= SCAN_DEPTH) keys.pop();
    } else if (c === COLON && depth > 0 && depth <= SCAN_DEPTH) {
      const top = keys.length - 1;
      if (++keys[top]! > FAST_KEYS) values += DICTIONARY_KEY_WEIGHT;
    }
  }
  return values;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** Where the string opened at `open` ends (its closing quote, or past the text); an escape skips the next character. */
function closingQuote(text: string, open: number): number {
  let i = open + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i;
    i += c === BACKSLASH ? 2 : 1;
  }
  return i;
}

/** A character of a number, `true`, `false` or `null` (any run of them is one value; the parse judges it). */
function isLiteralChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || c === 0x2d || c === 0x2b || c === 0x2e;
}

/** The index just past the literal starting at `start`. */
function literalEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && isLiteralChar(text.charCodeAt(i))) i++;
  return i;
}

/** What goes on the wire. */
export type WireBody = string | Buffer | Readable | undefined;

/** What goes on the wire: the JSON, a fresh stream for this attempt, or the bytes as given. */
export function bodyOf(req: CoreRequest): WireBody {
  if (req.json !== undefined) return JSON.stringify(req.json);
  return req.stream ? req.stream() : req.body;
}
