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
// Bidi controls (ALM, LRM, RLM, embeddings and overrides, isolates) and invisible
// format characters (zero-width space, word joiner and invisible operators,
// deprecated format controls, a BOM inside text, interlinear annotation): they
// reorder or hide what a reader sees ("Trojan Source"). Zero-width joiners
// (emoji, Indic and Persian text) and soft hyphens are kept.
const FORMAT = /[\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;

/** `<U+202E>`: a bidi or invisible format control made visible, so a reader sees that it was there. */
function visibleCodePoint(char: string): string {
  return `<U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** Removes escape sequences and control characters, shows bidi/format controls as `<U+XXXX>`; keeps newlines and tabs. */
export function sanitize(text: string): string {
  // A field of another type than the view expected (tolerant reading) is shown as text, never a crash.
  if (typeof text !== 'string') text = valueText(text);
  return (
    text
      // U+2028 and U+2029 break lines for many readers (Python's splitlines, JavaScript): they are line breaks.
      .replace(/\r\n?|[\u2028\u2029]/g, '\n')
      .replace(STRING_SEQUENCE, '')
      .replace(CSI_SEQUENCE, '')
      .replace(OTHER_ESCAPE, '')
      .replace(CONTROL, '')
      .replace(FORMAT, visibleCodePoint)
  );
}

// C0 but tab, newline and carriage return; DEL and C1.
const CONTROL_BUT_LINES = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g;

/**
 * Text kept as it is but for what drives a terminal (escape sequences and control characters, CR, tab and newline
 * aside): bidi and format controls, a BOM, CRLF stay, so a document's body saved to a file is the body the service
 * holds.
 */
export function withoutControls(text: string): string {
  if (typeof text !== 'string') text = valueText(text);
  return text
    .replace(STRING_SEQUENCE, '')
    .replace(CSI_SEQUENCE, '')
    .replace(OTHER_ESCAPE, '')
    .replace(CONTROL_BUT_LINES, '');
}

// What kagent itself writes to a terminal: colour and style (SGR), hyperlinks
// (OSC 8 with a printable target, ended by ST), and the few cursor moves of its
// progress lines (erase line after a carriage return, erase below, cursor up), and
// showing the cursor again (after Ctrl-C, src/io/report.ts).
const OWN_STYLING = /\x1b\[[0-9;:]*m|\x1b\]8;[^;\x00-\x1f\x7f-\x9f]*;[^\x00-\x1f\x7f-\x9f]*\x1b\\/g;
const OWN_CURSOR =
  /\x1b\[[0-9;:]*m|\x1b\]8;[^;\x00-\x1f\x7f-\x9f]*;[^\x00-\x1f\x7f-\x9f]*\x1b\\|\r?\x1b\[2K|\x1b\[[0-9]{0,4}A\r?|\x1b\[J|\x1b\[\?25h/g;

function keepOnly(text: string, allowed: RegExp): string {
  if (
    !/[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/.test(
      text,
    )
  )
    return text;
  let out = '';
  let last = 0;
  for (const match of text.matchAll(allowed)) {
    out += sanitize(text.slice(last, match.index)) + match[0];
    last = match.index + match[0].length;
  }
  return out + sanitize(text.slice(last));
}

/**
 * Text that mixes server strings with kagent's own styling (a table cell's
 * display callback, a rendered record): colour and hyperlinks survive, every
 * other escape sequence and control is removed, bidi controls are shown.
 */
export function sanitizeStyled(text: string): string {
  return keepOnly(text, OWN_STYLING);
}

/**
 * The last gate before a stream (see emit() in streams.ts): whatever a command
 * writes, only kagent's own styling and progress-line cursor moves get through;
 * other escape sequences, C0/C1 controls and bidi/format controls do not.
 */
export function guardOutput(text: string): string {
  return keepOnly(text, OWN_CURSOR);
}

/**
 * JSON text with DEL, C1 and bidi/format controls written as \u escapes
 * (JSON.stringify already escapes C0): the same JSON values, nothing a
 * terminal acts on. --json output stays faithful to the API's answer.
 */
export function escapeJsonControls(json: string): string {
  return json.replace(
    /[\x7f-\x9f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Any value as text: strings as they are, objects and lists as JSON, nothing (undefined, null) as ''. */
export function valueText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value) ?? '';
  return String(value);
}

/** One line: as sanitize(), with newlines and tabs turned into spaces (table cells, TSV fields, error lines). */
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
