// --jq EXPR: the real jq (compiled to WebAssembly), loaded only when asked for.
// Strings come out raw (like `jq -r`); other values pretty on a terminal,
// compact when piped. A jq error is a usage error (exit 2) with jq's own words.
import { CliError, ExitCode } from '../errors.js';

type JqRaw = (data: string, filter: string, flags?: string[]) => Promise<string>;

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

export async function runJq(data: unknown, filter: string, pretty: boolean): Promise<string> {
  const mod = (await import('jq-wasm')) as unknown as { raw?: JqRaw; default?: { raw: JqRaw } };
  const raw = mod.raw ?? mod.default?.raw;
  if (!raw) throw new CliError('the jq engine could not be loaded');
  // JSON text in: any value (null, a number, a string) is valid input for jq.
  const input = JSON.stringify(data ?? null);
  const restore = linearStdin();
  try {
    const out = await raw(input, filter, pretty ? ['-r'] : ['-r', '-c']);
    return out.length > 0 ? `${out}\n` : '';
  } catch (error) {
    const message = jqMessage(error);
    // jq's own complaints start with "jq:"; anything else is the engine failing, not the expression.
    if (!message.startsWith('jq'))
      throw new CliError(`the jq engine failed: ${message}`, { code: 'JQ_UNAVAILABLE', cause: error });
    throw new JqError(message);
  } finally {
    restore();
  }
}

/**
 * jq-wasm 1.0 hands jq its stdin one byte at a time, dropping the byte with
 * `bytes.slice(1)`, a copy: quadratic (a 540 KB list took 14 s). Its bytes come
 * from `new TextEncoder().encode(input)`; for the length of this one call the
 * encoder returns bytes whose slice() is a view instead, which makes reading
 * linear (5.5 MB in about 1 s) without changing what jq sees. The original
 * TextEncoder is put back when the call ends. (Output is still gathered byte
 * by byte by jq-wasm, so huge outputs stay slow; --json does not use jq.)
 */
function linearStdin(): () => void {
  const Original = globalThis.TextEncoder;
  class ViewSlicedBytes extends Uint8Array<ArrayBuffer> {
    override slice(start?: number, end?: number): Uint8Array<ArrayBuffer> {
      return this.subarray(start, end);
    }
  }
  class LinearEncoder extends Original {
    override encode(input?: string): Uint8Array<ArrayBuffer> {
      const bytes = super.encode(input);
      return new ViewSlicedBytes(bytes.buffer, bytes.byteOffset, bytes.length);
    }
  }
  globalThis.TextEncoder = LinearEncoder;
  return () => {
    globalThis.TextEncoder = Original;
  };
}

/** jq reports over several lines ("jq: error: ...", "jq: 1 compile error"): make it one. */
function jqMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const lines = text
    .replace(/^Failed to execute raw query:\s*/, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^jq: \d+ compile errors?$/.test(line));
  return lines.join(' ').replace(/\s+/g, ' ') || 'jq failed';
}
