// Display width on a terminal, and text cut or wrapped to it. Widths come from
// string-width (grapheme clusters; East Asian wide characters and emoji two
// columns, combining marks and zero-width joiners none, escape sequences none).
// Colour (SGR) and hyperlinks (OSC 8) survive cutting and wrapping: a style or
// link open at a line break is closed at the end of the line and opened again
// on the next, so every line stands on its own (in a pager too).
import { loadStringWidth } from '../lazy.js';

// string-width loads on the first text that is not printable ASCII (src/lazy.ts),
// so piped output and plain ASCII tables never pay for it.
const stringWidth = (text: string) => loadStringWidth()(text);

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ANY_ESCAPE = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b\[[0-?]*[ -/]*[@-~]/g;

/** Columns a string takes on a terminal. */
export function displayWidth(text: string): number {
  // Most text is printable ASCII (once escapes are out): its width is its length.
  const bare = text.includes('\x1b') ? text.replace(ANY_ESCAPE, '') : text;
  return PRINTABLE_ASCII.test(bare) ? bare.length : stringWidth(bare);
}

// Widths of the graphemes met so far (CJK text repeats them): measuring is the slow part.
const graphemeWidths = new Map<string, number>();
function graphemeWidth(grapheme: string): number {
  let width = graphemeWidths.get(grapheme);
  if (width === undefined) {
    width = stringWidth(grapheme);
    if (graphemeWidths.size < 10_000) graphemeWidths.set(grapheme, width);
  }
  return width;
}

// An escape sequence: OSC (hyperlinks) ended by BEL or ST, or CSI (SGR colour and the rest).
const ESCAPE = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b\[[0-?]*[ -/]*[@-~]/y;
const OSC8 = /^\x1b\]8;[^;\x07\x1b]*;([^\x07\x1b]*)(?:\x07|\x1b\\)$/;

let graphemes: Intl.Segmenter | undefined;
function segmenter(): Intl.Segmenter {
  return (graphemes ??= new Intl.Segmenter('en', { granularity: 'grapheme' }));
}

type Kind = 'space' | 'word' | 'wide';
type Token = { escape: string } | { text: string; width: number; kind: Kind };

// Printable ASCII: one column a character, no segmenting or measuring needed (most text is this).
const ASCII_RUN = /[\x20-\x7e]+/g;
const ASCII_PIECES = /\s+|\S+/g;

/** Escape sequences and text: runs of ASCII as whole words and spaces, anything else grapheme by grapheme. */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let plainFrom = 0;
  const graphemesOf = (part: string) => {
    for (const { segment } of segmenter().segment(part)) {
      const width = graphemeWidth(segment);
      tokens.push({ text: segment, width, kind: graphemeKind(segment, width) });
    }
  };
  const flushPlain = (until: number) => {
    if (until <= plainFrom) return;
    const part = text.slice(plainFrom, until);
    let at = 0;
    for (const run of part.matchAll(ASCII_RUN)) {
      const start = run.index ?? 0;
      // An ASCII character right before a combining mark belongs to the grapheme that follows.
      let end = start + run[0].length;
      if (end < part.length && /\p{M}/u.test(part[end] ?? '')) end--;
      if (start > at) graphemesOf(part.slice(at, start));
      for (const piece of part.slice(start, end).matchAll(ASCII_PIECES))
        tokens.push({ text: piece[0], width: piece[0].length, kind: /^\s/.test(piece[0]) ? 'space' : 'word' });
      at = end;
    }
    if (at < part.length) graphemesOf(part.slice(at));
  };
  for (let i = text.indexOf('\x1b'); i !== -1; i = text.indexOf('\x1b', i + 1)) {
    ESCAPE.lastIndex = i;
    const match = ESCAPE.exec(text);
    if (!match) continue;
    flushPlain(i);
    tokens.push({ escape: match[0] });
    plainFrom = i + match[0].length;
    i = plainFrom - 1;
  }
  plainFrom = Math.min(plainFrom, text.length);
  flushPlain(text.length);
  return tokens;
}

function graphemeKind(segment: string, width: number): Kind {
  // A no-break space (U+00A0) holds what it joins on one line (an arrow and its URL): not a place to break.
  if (/^[^\S\u00a0]+$/.test(segment)) return 'space';
  return width >= 2 ? 'wide' : 'word';
}

/** A token's graphemes, for splitting a word wider than the line. */
function graphemeTokens(token: Token): Token[] {
  if ('escape' in token || token.text.length === 1) return [token];
  return [...segmenter().segment(token.text)].map(({ segment }) => ({
    text: segment,
    width: graphemeWidth(segment),
    kind: token.kind,
  }));
}

/**
 * The styles and link open at some point of a line, to close at a break and
 * reopen after it. Styles are kept per attribute (foreground, background,
 * bold/dim, …), so one that was closed (chalk closes each with its own code,
 * `\x1b[39m` after a colour) is not reopened on the next line.
 */
class Pen {
  private open = new Map<string, string>();
  private link: string | undefined;

  apply(escape: string): void {
    const osc = OSC8.exec(escape);
    if (osc) {
      this.link = osc[1] ? escape : undefined;
      return;
    }
    const sgr = /^\x1b\[([0-9;]*)m$/.exec(escape);
    if (!sgr) return;
    const codes = (sgr[1] ?? '').split(';').map(Number);
    for (let i = 0; i < codes.length; i++) {
      const code = codes[i] ?? 0;
      if (code === 38 || code === 48) {
        // An extended colour takes its parameters with it: 38;5;N or 38;2;R;G;B.
        const length = EXTENDED_COLOUR_LENGTH[codes[i + 1] ?? 0] ?? 1;
        this.open.set(code === 38 ? 'fg' : 'bg', `\x1b[${codes.slice(i, i + length).join(';')}m`);
        i += length - 1;
        continue;
      }
      const slot = SGR_SLOTS.find(([, opens]) => opens.includes(code));
      if (slot) this.open.set(slot[0], `\x1b[${code}m`);
      else if (code === 0) this.open.clear();
      else for (const [name, , closes] of SGR_SLOTS) if (closes === code) this.open.delete(name);
    }
  }

  /** What ends the line cleanly (a link is closed with the terminator it was opened with). */
  close(): string {
    return `${this.closeLink()}${this.open.size > 0 ? '\x1b[0m' : ''}`;
  }

  private closeLink(): string {
    if (!this.link) return '';
    return this.link.endsWith('\x07') ? '\x1b]8;;\x07' : '\x1b]8;;\x1b\\';
  }

  /** What starts the next line in the same state. */
  reopen(): string {
    return `${[...this.open.values()].join('')}${this.link ?? ''}`;
  }
}

// How many codes an extended colour takes, by its mode: 38;5;N (a palette index) or 38;2;R;G;B.
const EXTENDED_COLOUR_LENGTH: Record<number, number> = { 5: 3, 2: 5 };

// SGR attributes: the codes that set each and the one that ends it (22 ends both bold and dim).
const SGR_SLOTS: [string, number[], number][] = [
  ['fg', [30, 31, 32, 33, 34, 35, 36, 37, 90, 91, 92, 93, 94, 95, 96, 97], 39],
  ['bg', [40, 41, 42, 43, 44, 45, 46, 47, 100, 101, 102, 103, 104, 105, 106, 107], 49],
  ['intensity', [1, 2], 22],
  ['italic', [3], 23],
  ['underline', [4], 24],
  ['inverse', [7], 27],
  ['hidden', [8], 28],
  ['strike', [9], 29],
];

/**
 * Cuts text to at most `width` columns, ending with `…` when anything was cut.
 * Escape sequences are kept (an open style or link is closed after the cut).
 */
export function truncate(text: string, width: number, ellipsis = '…'): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  const room = width - displayWidth(ellipsis);
  const pen = new Pen();
  let out = '';
  let used = 0;
  for (const token of tokenize(text)) {
    if ('escape' in token) {
      pen.apply(token.escape);
      out += token.escape;
      continue;
    }
    if (used + token.width > room) {
      // A word that does not fit whole: as much of it as fits.
      for (const part of graphemeTokens(token)) {
        if ('escape' in part || used + part.width > room) break;
        out += part.text;
        used += part.width;
      }
      break;
    }
    out += token.text;
    used += token.width;
  }
  return `${out}${room >= 0 ? ellipsis : ''}${pen.close()}`;
}

interface Piece {
  kind: 'space' | 'word' | 'wide';
  /** Tokens, escape sequences included. */
  tokens: Token[];
  width: number;
  /** The piece's text without escapes (to tell a URL). */
  plain: string;
}

function pieces(tokens: Token[]): Piece[] {
  const out: Piece[] = [];
  let pendingEscapes: Token[] = [];
  let current: Piece | undefined;
  for (const token of tokens) {
    if ('escape' in token) {
      // A style change belongs to what follows it (or ends the current piece's run).
      if (current) current.tokens.push(token);
      else pendingEscapes.push(token);
      continue;
    }
    const kind = token.kind;
    if (current && current.kind === kind && kind !== 'wide') {
      current.tokens.push(token);
      current.width += token.width;
      current.plain += token.text;
      continue;
    }
    current = { kind, tokens: [...pendingEscapes, token], width: token.width, plain: token.text };
    pendingEscapes = [];
    out.push(current);
  }
  if (pendingEscapes.length > 0) {
    if (current) current.tokens.push(...pendingEscapes);
    else out.push({ kind: 'space', tokens: pendingEscapes, width: 0, plain: '' });
  }
  return out;
}

/**
 * A command in backticks (`` `kagent config use sandbox` ``) as one piece: a
 * line break inside it would break it for copying, while a terminal's own
 * wrap of a line too long keeps it whole when selected.
 */
function keepCommandsWhole(list: Piece[]): Piece[] {
  const out: Piece[] = [];
  for (let i = 0; i < list.length; i++) {
    const first = list[i] as Piece;
    const end =
      first.kind === 'word' && /^\W*`/.test(first.plain) && !/`\W*$/.test(first.plain.replace(/^\W*`/, ''))
        ? closingTick(list, i)
        : -1;
    if (end === -1) {
      out.push(first);
      continue;
    }
    const run = list.slice(i, end + 1);
    out.push({
      kind: 'word',
      tokens: run.flatMap((piece) => piece.tokens),
      width: run.reduce((sum, piece) => sum + piece.width, 0),
      plain: run.map((piece) => piece.plain).join(''),
    });
    i = end;
  }
  return out;
}

/** The index of the piece that closes a backtick span opened at `from` (ASCII only: a command), or -1. */
function closingTick(list: Piece[], from: number): number {
  for (let j = from + 1; j < list.length; j++) {
    const piece = list[j] as Piece;
    if (piece.kind === 'wide') return -1;
    if (piece.kind === 'word' && piece.plain.includes('`')) return j;
  }
  return -1;
}

// A piece that is a whole command in backticks (with the punctuation around it).
const CODE = /^\W*`[^`]*`\W*$/;
const URL_LIKE = /[a-z][a-z0-9+.-]*:\/\/|^\(?www\./i;
// Where a wrapped line's text starts: its indentation, a list marker, a quote bar.
const HANGING = /^(\s*(?:(?:[*•+-]|\d+[.)]|│|>)\s+)?)/;

export interface WrapOptions {
  /** Continuation lines start with this many spaces (default: under the first line's text, after its indentation and any list marker). */
  hanging?: number;
}

/**
 * Wraps text to `width` columns: at spaces between words, and between any two
 * wide (CJK) characters. A Latin word is never split unless it alone is wider
 * than the line; a URL is never split. Each input line is wrapped on its own;
 * continuation lines are indented under the text of the line they continue.
 */
export function wrapText(text: string, width: number, options: WrapOptions = {}): string {
  return text
    .split('\n')
    .map((line) => wrapLine(line, width, options))
    .join('\n');
}

function wrapLine(line: string, width: number, options: WrapOptions): string {
  if (displayWidth(line) <= width) return line;
  const tokens = tokenize(line);
  const writer = new LineWriter(width, hangingOf(tokens, width, options));
  for (const piece of keepCommandsWhole(pieces(tokens))) {
    if (piece.kind === 'space') writer.space(piece);
    else writer.text(piece);
  }
  return writer.finish();
}

/** Continuation lines' indentation: as asked, or under the first line's text; at most half the line. */
function hangingOf(tokens: Token[], width: number, options: WrapOptions): number {
  const visible = tokens.map((token) => ('text' in token ? token.text : '')).join('');
  return Math.min(options.hanging ?? displayWidth(HANGING.exec(visible)?.[1] ?? ''), Math.floor(width / 2));
}

/** A word that may be split when it alone is wider than the line: not a URL, not a command in backticks. */
function splittable(piece: Piece): boolean {
  return piece.kind === 'word' && !URL_LIKE.test(piece.plain) && !CODE.test(piece.plain);
}

/** The lines of one wrapped input line, written piece by piece. */
class LineWriter {
  private readonly pen = new Pen();
  private readonly lines: string[] = [];
  private out = '';
  private used = 0;
  private lineHasText = false;
  /** The space after a word: written only if the next word fits after it on the same line. */
  private pendingSpace: Piece | undefined;

  constructor(
    private readonly width: number,
    private readonly hanging: number,
  ) {}

  space(piece: Piece): void {
    if (this.lineHasText) this.pendingSpace = piece;
    else if (this.lines.length === 0)
      this.emit(piece.tokens); // leading indentation stays
    else this.escapesOnly(piece.tokens);
  }

  text(piece: Piece): void {
    this.settleSpace(piece.width);
    if (this.used + piece.width > this.width && splittable(piece)) this.splitWord(piece);
    else {
      this.emit(piece.tokens);
      this.lineHasText = true;
    }
  }

  finish(): string {
    if (this.pendingSpace) this.escapesOnly(this.pendingSpace.tokens);
    this.lines.push(this.out.replace(/[ \t]+$/, ''));
    return this.lines.join('\n');
  }

  /** The space before a word: written when the word fits after it, else the line breaks there (its styles still count). */
  private settleSpace(wordWidth: number): void {
    const space = this.pendingSpace;
    this.pendingSpace = undefined;
    if (this.lineHasText && this.used + (space?.width ?? 0) + wordWidth > this.width) {
      if (space) this.escapesOnly(space.tokens);
      this.breakLine();
    } else if (space) this.emit(space.tokens);
  }

  /** One word wider than the line: split it where it must be. */
  private splitWord(piece: Piece): void {
    for (const token of piece.tokens.flatMap(graphemeTokens)) {
      if ('text' in token && this.lineHasText && this.used + token.width > this.width) this.breakLine();
      this.emit([token]);
      if ('text' in token) this.lineHasText = true;
    }
  }

  private emit(list: Token[]): void {
    for (const token of list) {
      if ('escape' in token) {
        this.pen.apply(token.escape);
        this.out += token.escape;
      } else {
        this.out += token.text;
        this.used += token.width;
      }
    }
  }

  private escapesOnly(list: Token[]): void {
    for (const token of list) {
      if ('escape' in token) {
        this.pen.apply(token.escape);
        this.out += token.escape;
      }
    }
  }

  private breakLine(): void {
    this.lines.push(`${this.out.replace(/[ \t]+$/, '')}${this.pen.close()}`);
    this.out = `${' '.repeat(this.hanging)}${this.pen.reopen()}`;
    this.used = this.hanging;
    this.lineHasText = false;
  }
}
