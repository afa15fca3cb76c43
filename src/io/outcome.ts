// The output contract's shapes, one function each, so that a command says WHAT it
// has to show and never asks WHERE it goes: no `f.tty`, `stdoutIsTTY` or --json
// check outside src/io (test/architecture/output-contract.test.ts holds the count).
//   printView   an item shown one way on a terminal and another piped; --json the item
//   printDone   a write: on a terminal the ✓ line on stderr, piped a line (an id); --json the item (or the answer)
//   doneEach    writes one after another: each one's line or ✓ line as it is done; --json the array at the end
//   printBody   a text that is the result (a document): rendered on a terminal, the text piped; --json the item
//   printPieces a long text that comes in pieces, written as they come; --json the array of pieces
//   printOwnWay an item a view prints its own way (streaming); --json the item
//   printValue  a bare value (a token, a setting): the value as it is; --json the item
//   aside       a remark beside a result read as text (not with --json)
//   atTerminal  whether a person reads the result: words only for them (a next step) are said then
import type { Context } from '../context.js';
import type { CliError } from '../errors.js';
import type { Formatter } from './format.js';
import type { ItemView } from './declared.js';
import { reportError } from './report.js';
import { getFormatter, note, printItem, printJson, printList, printText, success, wantsJson } from './output.js';
import { sanitize, withoutControls } from './sanitize.js';
import { textFlow } from './text-flow.js';
import { emit, emitText } from './streams.js';

type OutputContext = Parameters<typeof printItem>[0];
type Message = Parameters<typeof success>[1];
type Render<T> = (item: T, f: Formatter) => string | Promise<string>;

export interface View<T> {
  /** What a terminal shows (wrapped to its width, colour allowed). */
  terminal: Render<T>;
  /** What a pipe gets: `key<TAB>value` lines, a row, the raw text. */
  piped: Render<T>;
  /** The field table the piped lines come from, when one does: --json FIELDS takes its keys too (src/io/declared.ts). */
  table?: ItemView<T>;
}

export interface Done<T> {
  /** The ✓ line on stderr (terminal only, as success() says it; --quiet silences it). None: nothing is said. */
  said?: Message;
  /** The line a pipe gets (an id, a row). None: nothing is printed piped. */
  piped?: (item: T) => string;
  /** What stdout shows on a terminal besides the ✓ line. None: nothing (the ✓ line says it). */
  shown?: Render<T>;
  /** What --json prints when it is more than the item (the whole answer it came in; fetched only then). */
  json?: () => unknown;
  /** A remark (a next step) on stderr after the result, as aside() says it. */
  note?: Message;
}

/** An item: its terminal rendering, or its piped one; --json the item itself (printItem's contract, tolerant reading included). */
export async function printView<T>(ctx: OutputContext, item: T, view: View<T>): Promise<void> {
  const render: Render<T> = (data, f) => (f.tty ? view.terminal(data, f) : view.piped(data, f));
  await (view.table ? printItem(ctx, item, view.table, render) : printItem(ctx, item, render));
}

/** What a write did: --json the item; piped its line; on a terminal what `shown` shows; then the ✓ line. */
export async function printDone<T>(ctx: OutputContext, item: T, done: Done<T>): Promise<void> {
  const { piped, shown } = done;
  if (done.json && wantsJson(ctx)) await printJson(ctx, await done.json());
  else await printView(ctx, item, { terminal: shown ?? (() => ''), piped: piped ? (data) => piped(data) : () => '' });
  if (done.said !== undefined) await success(ctx, done.said);
  if (done.note !== undefined) await aside(ctx, done.note);
}

/** Each part of printDone for items done one after another (`lib delete A B C`), said as each is done. */
export interface DoneEach<T, J> {
  said?: (item: T) => Message;
  piped?: (item: T) => string;
  /** The line a terminal shows on stdout for each (besides the ✓ line). */
  shown?: (item: T) => string;
  /** What --json lists for each (default: the item). */
  json?: (item: T) => J;
}

export interface DoneOneByOne<T, J> {
  /** What --json lists, so far. */
  items: J[];
  add(item: T): Promise<void>;
  /** One that failed, the run going on: listed as `item` with --json, else its error said on stderr. */
  failed(item: J, error: CliError): Promise<void>;
  end(): Promise<void>;
}

/**
 * Writes done one by one: each one's line (piped, or `shown` on a terminal) and its ✓ line as it
 * is done; with --json nothing until end(), which prints the array of those done (a run stopped
 * part-way calls end() too: what was done is printed before the error).
 */
export function doneEach<T, J = T>(ctx: OutputContext, each: DoneEach<T, J>): DoneOneByOne<T, J> {
  // What --json lists: those done, and what the command records itself (an item that failed, with its error).
  const items: J[] = [];
  return {
    items,
    async add(item) {
      items.push(each.json ? each.json(item) : (item as unknown as J));
      if (wantsJson(ctx)) return;
      const line = ctx.io.stdoutIsTTY ? each.shown?.(item) : each.piped?.(item);
      if (line !== undefined) await printText(ctx, line);
      if (each.said) await success(ctx, each.said(item));
    },
    async failed(item, error) {
      items.push(item);
      if (wantsJson(ctx)) return;
      reportError(error, {
        stderr: ctx.io.stderr,
        json: false,
        color: ctx.io.colorStderr,
        debug: false,
        interrupted: false,
      });
    },
    async end() {
      if (wantsJson(ctx)) await printJson(ctx, items);
    },
  };
}

export interface Body<T> {
  /** What a terminal shows (Markdown rendered, say), sanitised by whoever made it. */
  terminal: (item: T, f: Formatter) => string | Promise<string>;
  /** The text a pipe gets. */
  piped: (item: T) => string;
  /** Piped, the text is bound for a file and written as the service holds it (emitText); else sanitised as any text. */
  asHeld?: boolean;
}

/** A text that is itself the result (a document's body, a transcript): rendered on a terminal, as text piped; --json the item. */
export async function printBody<T>(ctx: OutputContext, item: T, body: Body<T>): Promise<void> {
  if (wantsJson(ctx)) return printJson(ctx, item);
  if (!ctx.io.stdoutIsTTY) return emitText(ctx.io.stdout, body.piped(item), !body.asHeld);
  await emit(ctx.io.stdout, await body.terminal(item, await getFormatter(ctx)));
}

/**
 * An item a view prints its own way (segments as they come, say): --json the item, else `show`.
 * Says whether the text was shown (remarks for a person follow only then).
 */
export async function printOwnWay<T>(ctx: OutputContext, item: T, show: (item: T) => Promise<void>): Promise<boolean> {
  if (wantsJson(ctx)) await printJson(ctx, item);
  else await show(item);
  return !wantsJson(ctx);
}

/**
 * A long text that comes in pieces (`lib text --all`): each piece's text written as it arrives,
 * sanitised and wrapped on a terminal, as held piped (emitText), ending with one newline (text-flow.ts);
 * --json the array of pieces, streamed.
 */
export async function printPieces<T>(
  ctx: OutputContext,
  pieces: AsyncIterable<T>,
  piece: { text: (piece: T) => string; last: (piece: T) => boolean },
): Promise<void> {
  if (wantsJson(ctx)) {
    await printList(ctx, pieces, { columns: [] });
    return;
  }
  const tty = ctx.io.stdoutIsTTY;
  const flow = textFlow(tty ? ctx.io.columns : undefined);
  for await (const each of pieces) {
    const text = piece.text(each);
    // One write a piece: the last one's carries the end of the text.
    const out = flow.push(tty ? sanitize(text) : withoutControls(text)) + (piece.last(each) ? flow.end() : '');
    if (out !== '') await emitText(ctx.io.stdout, out, tty);
  }
}

/** A bare value (a token, a setting's value): printed as it is, on a terminal or piped; --json the item. */
export async function printValue<T>(ctx: OutputContext, item: T, value: (item: T) => string): Promise<void> {
  if (wantsJson(ctx)) await printJson(ctx, item);
  else await printText(ctx, value(item));
}

/** A remark beside a result read as text: on stderr unless --json (there the JSON says it all); --quiet silences it. */
export async function aside(ctx: OutputContext, message: Message): Promise<void> {
  if (!wantsJson(ctx)) await note(ctx, message);
}

/** A person reads the result (stdout is a terminal, no --json): only then are words for them worth their cost. */
export function atTerminal(ctx: Pick<Context, 'io' | 'flags'>): boolean {
  return ctx.io.stdoutIsTTY && !wantsJson(ctx);
}
