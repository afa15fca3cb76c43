// Server text is untrusted: a title or message could carry escape sequences
// that move the cursor, rewrite the screen, set the window title (OSC), make
// hyperlinks or worse. Everything that reaches a terminal goes through here;
// JSON output needs none of it because JSON.stringify escapes control characters.

// String sequences (OSC, DCS, SOS, PM, APC), 7- and 8-bit, up to their terminator (BEL or ST).
const STRING_SEQUENCE = /(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?/g;
// Control sequences: ESC [ or 8-bit CSI, parameters, intermediates, final byte.
const CSI_SEQUENCE = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?/g;
// Any other escape: ESC, intermediates, one final byte.
const OTHER_ESCAPE = /\x1b[ -/]*[0-~]?/g;
// What is left of C0 (but \t and \n), DEL and C1.
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** Removes escape sequences and control characters; keeps newlines and tabs. */
export function sanitize(text: string): string {
  // A field of another type than the view expected (tolerant reading) is shown as text, never a crash.
  if (typeof text !== 'string') text = asText(text);
  return text
    .replace(/\r\n?/g, '\n')
    .replace(STRING_SEQUENCE, '')
    .replace(CSI_SEQUENCE, '')
    .replace(OTHER_ESCAPE, '')
    .replace(CONTROL, '');
}

/** One line: as sanitize(), with newlines and tabs turned into spaces (table cells, TSV fields, error lines). */
function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value) ?? '';
  return String(value);
}

export function sanitizeLine(text: string): string {
  return sanitize(text).replace(/[\n\t]+/g, ' ');
}

/** A copy of a response with every string (and key) sanitised: renderers can print any field safely. */
export function sanitizeDeep<T>(value: T): T {
  if (typeof value === 'string') return sanitize(value) as T;
  if (Array.isArray(value)) return value.map((item) => sanitizeDeep(item)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[sanitize(key)] = sanitizeDeep(item);
    return out as T;
  }
  return value;
}
