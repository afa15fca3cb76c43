// Local mistakes in what kagent is about to send — a header with a line break
// (`kagent api -H`), an API key pasted with its newline — are usage errors
// (exit 2) that name where the value came from, found before any request;
// Node's HTTP client would otherwise refuse them mid-request and they would look like a
// network failure (exit 7).
import { UsageError } from '../errors.js';

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// RFC 9110 field values: visible characters, spaces and tabs; no CR, LF, NUL or other controls. A header is
// bytes, one per character: a character past U+00FF (`日本`) has no byte to be sent as.
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]|[^\u0000-\u00ff]/u;

function describeControl(value: string): string {
  if (/[\r\n]/.test(value)) return 'a line break (CR or LF)';
  const wide = /[^\u0000-\u00ff]/u.exec(value);
  if (wide)
    return `"${wide[0]}" (U+${(wide[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}), which a header cannot carry (only Latin-1 characters can be sent)`;
  return 'a control character';
}

/** Throws a UsageError naming `where` (a flag, a variable, a setting) when this header could not be sent as it is. */
export function checkHeader(name: string, value: string, where: string): void {
  if (!TOKEN.test(name))
    throw new UsageError(`${where}: "${printable(name)}" is not a valid header name`, "e.g. -H 'Accept-Language: zh'");
  if (CONTROL.test(value))
    throw new UsageError(
      `${where}: the value of header ${name} contains ${describeControl(value)}`,
      'a header value is one line of text',
    );
}

/** Throws a UsageError naming `where` when the API key cannot go into an Authorization header. */
export function checkApiKey(key: string, where: string): void {
  if (CONTROL.test(key)) {
    throw new UsageError(
      `the API key from ${where} contains ${describeControl(key)}`,
      /[\r\n]/.test(key)
        ? 'was it copied with a line break? Set it again without one'
        : 'set it again as the service gave it (keys are plain ASCII)',
    );
  }
}

/** For messages: control characters shown as escapes. */
function printable(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}
