// The final newline of a document's text edited as a file.
// Editors end a file with one (vi adds it on save) and the service's text may
// have none: a change that is only the final newline is no change. Pulled files
// and the editor's file end with one; what is sent, and every comparison with
// the service's text, takes the final newline as that text has it.

/** A body as a file holds it: ending with a newline, as editors expect (an empty body stays empty). */
export function asFileText(body: string): string {
  return body === '' || body.endsWith('\n') ? body : `${body}\n`;
}

/**
 * `text` with the final newline `base` has, or without one when `base` has
 * none: an editor's or a pull's final newline never reaches the service. An
 * emptied text stays empty.
 */
export function withEndingOf(text: string, base: string): string {
  if (text === '') return text;
  const core = text.replace(/\r?\n$/, '');
  return base.endsWith('\n') ? `${core}\n` : core;
}

/** The two texts differ by at most their final newline. */
export function sameText(text: string, base: string): boolean {
  return withEndingOf(text, base) === base;
}
