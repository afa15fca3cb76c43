// Plain text that is itself the result and may come in pieces (`lib text --all`
// streams it chunk by chunk): on a terminal wrapped at word boundaries to the
// terminal's width (src/io/width.ts), a line at a time as its end arrives;
// piped, the text as it is. Either way the output ends with exactly one newline
// (none when there is no text), so a shell prompt never lands on its last line
// and `>> file` appends cleanly. Pieces are sanitised by the caller.
import { wrapText } from './width.js';

export interface TextFlow {
  /** What to write now for the next piece of the text. */
  push(piece: string): string;
  /** What to write when the text is over. */
  end(): string;
}

/** `width`: wrap to it (a terminal); undefined: as is (piped). */
export function textFlow(width: number | undefined): TextFlow {
  // Held back: the trailing newlines seen so far, and on a terminal the line not ended yet.
  let held = '';
  let any = false;
  const wrap = (text: string) => (width === undefined ? text : wrapText(text, width));
  return {
    push(piece) {
      if (piece === '') return '';
      any = true;
      const all = held + piece;
      const trailing = /\n*$/.exec(all)?.[0] ?? '';
      const body = all.slice(0, all.length - trailing.length);
      // Complete lines go out now; a line is wrapped only once all of it is here.
      const cut = width === undefined ? body.length : body.lastIndexOf('\n');
      if (cut <= 0) {
        held = all;
        return '';
      }
      held = all.slice(cut);
      return wrap(body.slice(0, cut));
    },
    end() {
      if (!any) return '';
      // What is held starts with the newline that ends the line written last, if any: it stays.
      return `${wrap(held.replace(/\n+$/, ''))}\n`;
    },
  };
}

/** A whole text at once, as a flow would write it: wrapped to `width` (a terminal) or as is, ending with one newline. */
export function wholeText(text: string, width: number | undefined): string {
  const flow = textFlow(width);
  return flow.push(text) + flow.end();
}
