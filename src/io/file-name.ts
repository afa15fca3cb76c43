// File names that kagent makes from the service's data (a document's title or
// id): whatever the service sends, the name is one harmless path segment, and
// the file it names stays in the directory asked for. The service is not
// trusted here: an id like `../../x` or a title of 80 CJK characters must not
// write outside the directory or past the file system's limit on a name.
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { CliError, ExitCode } from '../errors.js';

/** The longest file name (in bytes) on the usual file systems (ext4, APFS, NTFS in UTF-16 units, mostly more). */
export const NAME_MAX_BYTES = 255;

/**
 * Bytes kept free for what kagent adds to a name it derives: the temporary
 * name of an atomic write (`.<name>.<pid>.<random>.tmp`) and the sidecar
 * (`<name>.json`, written through `<name>.json.<pid>.<random>.tmp`). 40 bytes
 * leaves room for both with a 7-digit pid and 8 random hex digits.
 */
export const RESERVED_BYTES = 40;

// Names Windows gives to devices, whatever the extension.
const WINDOWS_DEVICES = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/**
 * A name from service data → a safe file name: a single path segment with no
 * `/` or `\`, no control character, not `.` or `..`, not starting with a dot
 * (hidden, or dot-dot) or a dash (read as an option by the next command),
 * not a Windows device name, and at most `NAME_MAX_BYTES - RESERVED_BYTES`
 * bytes of UTF-8 including `suffix` (cut at a character boundary, never in
 * the middle of one). `fallback` (made safe the same way) when nothing is left;
 * "document" when that is empty too.
 */
export function safeFileName(
  raw: string,
  options: { suffix?: string; fallback?: string; reserve?: number } = {},
): string {
  const suffix = options.suffix ?? '';
  const budget = NAME_MAX_BYTES - (options.reserve ?? RESERVED_BYTES) - Buffer.byteLength(suffix);
  const stem = cleanStem(raw, budget) || cleanStem(options.fallback ?? '', budget) || 'document';
  return `${stem}${suffix}`;
}

function cleanStem(raw: string, budget: number): string {
  let stem = raw
    .normalize('NFC')
    // Separators, control characters (C0, DEL, C1), and characters Windows refuses in a name.
    .replace(/[/\\\x00-\x1f\x7f-\x9f<>:"|?*]+/g, '-')
    // Line and paragraph separators, bidirectional overrides and other invisible formatting.
    .replace(/[\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]+/g, '')
    .replace(/^[\s.-]+/, '')
    .replace(/[\s.]+$/, '');
  stem = cutToBytes(stem, budget).replace(/[\s.-]+$/, '');
  if (WINDOWS_DEVICES.test(stem)) stem = `${stem}-`;
  return stem;
}

/** The longest prefix of `text` that is at most `bytes` bytes of UTF-8, cut between characters (code points). */
export function cutToBytes(text: string, bytes: number): string {
  if (Buffer.byteLength(text) <= bytes) return text;
  let used = 0;
  let out = '';
  for (const ch of text) {
    const size = Buffer.byteLength(ch);
    if (used + size > bytes) break;
    used += size;
    out += ch;
  }
  return out;
}

/**
 * `dir/name`, once it is certain that the name stays in `dir`: a single
 * segment whose resolved path's parent is `dir` itself. Anything else is a
 * refusal (exit 1), never a write elsewhere.
 */
export function fileInside(dir: string, name: string): string {
  const target = resolve(dir, name);
  const rel = relative(resolve(dir), target);
  if (rel === '' || rel !== basename(target) || isAbsolute(rel) || rel === '..' || dirname(target) !== resolve(dir)) {
    throw new CliError(`refusing to write "${name}": a name from the service must name a file inside ${dir}`, {
      exitCode: ExitCode.ERROR,
      code: 'UNSAFE_PATH',
    });
  }
  return join(dir, name);
}

/** The system's reason for a failed file operation, without Node's "syscall 'path'" tail: "EACCES: permission denied". */
export function systemReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/, \w+ '.*'( -> '.*')?$/s, '');
}

/** A local file that could not be written (or read) as an error of its own: the path, the system's reason, exit 1. */
export function fileError(path: string, error: unknown, doing: 'write' | 'read' = 'write'): CliError {
  if (error instanceof CliError) return error;
  return new CliError(`cannot ${doing} ${path}: ${systemReason(error)}`, {
    exitCode: ExitCode.ERROR,
    code: doing === 'write' ? 'WRITE_FAILED' : 'READ_FAILED',
    cause: error,
  });
}
