// The one way commands print results, so every command gets the output
// contract for free:
//   --json        the API's own objects; lists as a JSON array ([] when empty),
//                 streamed item by item; pretty on a terminal, compact when piped
//   --jq EXPR     the same JSON through jq (strings raw)
//   terminal      tables that fit the width, text wrapped to it, relative times,
//                 colour; output taller than the screen through the pager (lists
//                 ask for it here; show commands declare `pager: true`)
//   piped         tab-separated rows without header, ISO times, raw values, no colour
// Results go to stdout; notes, warnings and confirmations to stderr. Server
// text is sanitised before it reaches the terminal. Heavy modules (chalk,
// the table layout, jq) are imported on first use, never at start-up.
import type { Context } from '../context.js';
import { CliError, InterruptedError } from '../errors.js';
import { misfitOf, NotAListError, type Misfit } from '../api/misfit.js';
import type { Formatter } from './format.js';
import { escapeJsonControls, sanitize, sanitizeDeep, sanitizeStyled } from './sanitize.js';
import { emit, hasWritten, PipeClosedError } from './streams.js';
import { checkFields, pickFields, selectFields, type FieldLinks } from './fields.js';
import { renderGeneric } from './generic.js';
import type { Column } from './table.js';
import { columnLinks, jsonLinks, renderView, type ItemView } from './declared.js';
import { formatter, plain } from './format.js';
import { runJq } from './jq.js';
import { loadShapes } from '../lazy.js';
import { visibleColumns, plainRow, renderTable } from './table.js';
import { wrapText } from './width.js';
import { aboveLive } from './live-line.js';
import { stderrColumns } from './terminal.js';

export type { Column } from './table.js';
export type { Field, ItemView } from './declared.js';
export { pipedFieldsHelp, pipedRowsHelp, renderView } from './declared.js';
export type { Formatter } from './format.js';
export { renderGeneric } from './generic.js';

/** The command's signal, when given, ends a --jq program (its deadline, Ctrl-C). */
type OutputContext = Pick<Context, 'io' | 'flags' | 'clock' | 'serviceClock'> & { signal?: AbortSignal };
type Items<T> = Iterable<T> | AsyncIterable<T>;

export interface ListOptions<T> {
  columns: Column<T>[];
  /** Said on stderr (terminal only) when there is nothing to list: "No spaces." */
  empty?: string;
  /** Terminal rows rendered per table batch when streaming (widths come from the first batch). */
  batch?: number;
}

export function wantsJson(ctx: Pick<Context, 'flags'>): boolean {
  return ctx.flags.json || ctx.flags.jq !== undefined;
}

/** Formatter for stdout (or stderr): colour and terminal rules of this run. */
export async function getFormatter(
  ctx: Pick<Context, 'io' | 'clock' | 'serviceClock'>,
  stream: 'stdout' | 'stderr' = 'stdout',
): Promise<Formatter> {
  return formatter(ctx, stream);
}

/** Prints a value as JSON (or through --jq); `--json FIELDS` takes the API's names and the keys `links` gives. */
export async function printJson(ctx: OutputContext, data: unknown, links?: FieldLinks): Promise<void> {
  const pretty = ctx.io.stdoutIsTTY;
  if (ctx.flags.jsonFields) data = selectFields(data, ctx.flags.jsonFields, links);
  if (ctx.flags.jq !== undefined) {
    // jq prints strings raw (like -r): server text, so it is sanitised like any other text. It goes out as it comes.
    await runJq(data, ctx.flags.jq, pretty, {
      signal: ctx.signal,
      env: ctx.io.env,
      write: (text) => emit(ctx.io.stdout, sanitize(text)),
    });
    return;
  }
  await emit(ctx.io.stdout, `${toJson(data ?? null, pretty)}\n`);
}

/**
 * JSON.stringify escapes C0 controls but leaves DEL, C1 (U+007F–U+009F) and
 * bidi controls raw, and terminals act on those; escape them too. Still the same JSON.
 */
export function toJson(data: unknown, pretty: boolean): string {
  return escapeJsonControls(JSON.stringify(data, null, pretty ? 2 : undefined));
}

type Render<T> = (data: T, f: Formatter) => string | Promise<string>;

/**
 * Prints one resource: JSON as is (`--json FIELDS` takes the field table's keys too), or the lines
 * of its field table (src/io/declared.ts) or of a `render` function (given a sanitised copy; with
 * a table, for what the table cannot say: a `--` section, a terminal laid out its own way), wrapped
 * to the terminal: lines that fit stay as they are, longer ones are wrapped at word boundaries
 * (URLs whole), continuation lines under their indentation. An answer that did not fit its assumed shape
 * (tolerant reading) is rendered by its view where the view can, with the fields the view does not
 * know shown after it; where the view cannot, the whole answer is shown generically.
 */
export async function printItem<T>(
  ctx: OutputContext,
  data: T,
  view: ItemView<T> | Render<T>,
  own?: Render<T>,
): Promise<void> {
  const table = typeof view === 'function' ? undefined : view;
  if (wantsJson(ctx)) return printJson(ctx, data, table && jsonLinks(table));
  const render = own ?? (table ? (item: T, f: Formatter) => renderView(item, table, f) : (view as Render<T>));
  const f = await getFormatter(ctx);
  const misfit = misfitOf(data);
  // The render may add strings it fetched itself (a space's name): its output is sanitised again, keeping our styling.
  let text: string;
  if (!misfit) text = f.wrap(sanitizeStyled(await render(sanitizeDeep(data), f)));
  else {
    try {
      // The view is given what it knows: the fields it does not know are shown after it, and
      // copying them for it (sanitizeDeep) would double the memory of an answer bloated by them.
      text = f.wrap(sanitizeStyled(await render(sanitizeDeep(withoutFields(data, unknownFields(data, misfit))), f)));
      text = withUnknownFields(text, data, misfit, f);
    } catch (error) {
      if (error instanceof CliError) throw error;
      text = f.wrap(renderGeneric(sanitizeDeep(data), f));
    }
  }
  if (text !== '') await emit(ctx.io.stdout, text.endsWith('\n') ? text : `${text}\n`);
}

/** The view's text, then the answer's top-level fields kagent does not know, shown generically. */
function withUnknownFields(text: string, data: unknown, misfit: Misfit, f: Formatter): string {
  const unknown = unknownFields(data, misfit);
  if (unknown.length === 0) return text;
  const rest = Object.fromEntries(unknown.map((key) => [key, (data as Record<string, unknown>)[key]]));
  // renderGeneric sanitises every key and value it prints: no sanitised copy of the fields first.
  const generic = renderGeneric(rest, f, UNKNOWN_FIELD_LINES);
  return f.tty
    ? `${text.replace(/\n+$/, '')}\n\n${f.dim('Also in the answer:')}\n${generic}`
    : `${text.replace(/\n+$/, '')}\n${generic}`;
}

/**
 * The most lines the fields a view does not know get after it: a courtesy, not the answer
 * (--json prints that whole). An answer bloated with millions of unknown items would
 * otherwise be rendered line by line into gigabytes of strings.
 */
const UNKNOWN_FIELD_LINES = 1_000;

/** The answer's top-level fields kagent does not know (none unless it is an object). */
function unknownFields(data: unknown, misfit: Misfit): string[] {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return [];
  return misfit.differences.filter((d) => d.kind === 'extra' && !/[.[]/.test(d.path)).map((d) => d.path);
}

/** A shallow copy of an object without `keys` (the object itself when there are none). */
function withoutFields<T>(data: T, keys: string[]): T {
  if (keys.length === 0 || typeof data !== 'object' || data === null) return data;
  const copy = { ...(data as Record<string, unknown>) };
  for (const key of keys) delete copy[key];
  return copy as T;
}

/**
 * The last line of tolerant reading, for a command that failed (not with a CliError,
 * nor with a system error such as a file that could not be written) after the
 * service answered with something that did NOT fit its shape. --json prints that answer as it came (when nothing was printed
 * yet); a terminal or pipe gets it rendered generically, with a note (--debug adds
 * the stack). Returns false when no answer came (the failure is then reported as
 * UNEXPECTED: a bug of kagent's own).
 */
export async function recoverFromMisfit(
  ctx: OutputContext & Pick<Context, 'misfits' | 'lastAnswer'>,
  error: unknown,
): Promise<boolean> {
  const answer = (error as { answer?: unknown } | undefined)?.answer;
  const notAList = (error as { code?: unknown } | undefined)?.code === 'NOT_A_LIST';
  if (notAList) {
    if (!wantsJson(ctx) || hasWritten(ctx.io.stdout)) return false;
    await printJson(ctx, answer);
    return true;
  }
  if (error instanceof CliError || !(error instanceof Error) || isInterruption(error) || isSystemError(error))
    return false;
  // Only an answer that did NOT fit its shape (a field missing or of another type, a list that is not
  // one): the failure is then taken to come from that answer. An answer that fit gives no such excuse:
  // the failure is kagent's own (or the machine's) and is reported as it is, with its exit code.
  const misfit = [...(ctx.misfits ?? [])].reverse().find(doesNotFit) ?? (await lastAnswerVerdict(ctx));
  if (!misfit || !doesNotFit(misfit)) return false;
  if (ctx.flags.debug && error.stack) await emit(ctx.io.stderr, `debug: ${sanitize(error.stack)}\n`);
  if (wantsJson(ctx)) {
    // The result was printed before the failure (a remark after it failed): it stands.
    if (!hasWritten(ctx.io.stdout)) await printJson(ctx, misfit.body);
    return true;
  }
  if (misfit.notAList) throw new NotAListError(misfit.op, misfit.body);
  if (!ctx.flags.quiet)
    await emit(
      ctx.io.stderr,
      `note: kagent could not read the service's ${misfit.shape} (${misfit.op}); here it is as it came\n`,
    );
  const f = await getFormatter(ctx);
  const text = renderGeneric(sanitizeDeep(misfit.body), f);
  if (text !== '') await emit(ctx.io.stdout, `${text}\n`);
  return true;
}

/** The last answer of the run with its verdict (with --json answers are not checked as they come: it is checked now). */
async function lastAnswerVerdict(ctx: Pick<Context, 'lastAnswer'>): Promise<Misfit | undefined> {
  const last = ctx.lastAnswer;
  if (!last) return undefined;
  const verdict = (await loadShapes()).verdictFor(last.op, last.body);
  return verdict ? { ...verdict, body: last.body } : undefined;
}

function doesNotFit(misfit: Misfit): boolean {
  return !misfit.fits || misfit.notAList;
}

/** A failure of the machine (a file, a directory, a process: it carries an errno and a syscall), not of an answer. */
function isSystemError(error: Error): boolean {
  const { errno, syscall } = error as NodeJS.ErrnoException;
  return typeof syscall === 'string' || typeof errno === 'number';
}

function isInterruption(error: Error): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return (
    error.name === 'AbortError' ||
    error.name === 'ExitPromptError' ||
    code === 'EPIPE' ||
    code === 'ERR_STREAM_DESTROYED'
  );
}

/** Prints a list, row by row as it arrives: memory stays flat however many pages follow. Returns how many items there were. */
export async function printList<T>(ctx: OutputContext, items: Items<T>, options: ListOptions<T>): Promise<number> {
  const shown = { count: 0 };
  let count: number;
  try {
    count = await printListAs(ctx, items, options, shown);
  } catch (error) {
    throw stoppedPartWay(error, shown.count);
  }
  await sayCut(ctx, items, count);
  return count;
}

/**
 * A list cut before the service's last item says so on stderr, after it (as gh does):
 * at a terminal whatever cut it; piped or with --json too when nobody chose the cut
 * (one page, neither --all nor --limit), so `lib list | xargs …` does not miss items
 * unwarned. One line; --quiet silences it.
 */
async function sayCut(ctx: OutputContext, items: unknown, count: number): Promise<void> {
  if (count === 0 || typeof items !== 'object' || items === null) return;
  const { cut, onePage } = items as { cut?: unknown; onePage?: unknown };
  if (cut !== true || (onePage !== true && !ctx.io.stderrIsTTY)) return;
  await note(ctx, (f) => f.dim(`Showing ${count} of more: --all lists every one, --limit N up to N`));
}

/**
 * A listing that fails part-way (a later page's error, a cursor loop, Ctrl-C) fails with
 * that error and its exit code; what was printed is whole (a closed JSON array, whole
 * lines), and the hint says it is not the entire list.
 */
function stoppedPartWay(error: unknown, count: number): unknown {
  if (count > 0 && error instanceof CliError && !(error instanceof PipeClosedError)) {
    const what = error instanceof InterruptedError ? 'it was stopped' : 'this error';
    const said = `the list printed is incomplete: ${count} item${count === 1 ? '' : 's'} came before ${what}`;
    error.hint = error.hint ? `${error.hint}; ${said}` : said;
  }
  return error;
}

async function printListAs<T>(
  ctx: OutputContext,
  items: Items<T>,
  options: ListOptions<T>,
  shown: { count: number },
): Promise<number> {
  if (ctx.flags.jq !== undefined) {
    const all: T[] = [];
    for await (const item of items) all.push(item);
    await printJson(ctx, all, columnLinks(options.columns));
    return all.length;
  }
  if (ctx.flags.json) return streamJsonArray(ctx, items, shown, columnLinks(options.columns));

  const f = await getFormatter(ctx);
  const columns = visibleColumns(options.columns, f.tty).map(tolerantColumn);

  if (!f.tty) {
    // One write per row: a failure between rows leaves whole lines only.
    for await (const item of items) {
      await emit(ctx.io.stdout, `${plainRow(sanitizeDeep(item), columns)}\n`);
      shown.count++;
    }
    return shown.count;
  }

  // A list taller than the screen goes through the pager.
  await ctx.io.page();
  const size = Array.isArray(items) ? Math.max(items.length, 1) : (options.batch ?? 100);
  let batch: T[] = [];
  let widths: number[] | undefined;
  let fetched = 0;
  const flushBatch = async () => {
    if (batch.length === 0) return;
    const rendered = renderTable(batch, columns, f, widths);
    widths = rendered.widths;
    shown.count += batch.length;
    batch = [];
    await emit(ctx.io.stdout, `${rendered.text}\n`);
  };
  try {
    for await (const item of items) {
      batch.push(sanitizeDeep(item));
      fetched++;
      if (batch.length >= size) await flushBatch();
    }
  } catch (error) {
    // The rows fetched before the failure are shown, then the error.
    await flushBatch().catch(() => undefined);
    throw error;
  }
  await flushBatch();
  if (fetched === 0 && options.empty) await note(ctx, options.empty);
  return fetched;
}

/**
 * A column that cannot fail on an item of another shape (tolerant reading): a
 * getter that trips over a missing or retyped field shows the cell empty.
 */
function tolerantColumn<T>(column: Column<T>): Column<T> {
  const value = (row: T): unknown => {
    try {
      return column.value(row);
    } catch (error) {
      if (error instanceof CliError) throw error;
      return undefined;
    }
  };
  const display = column.display;
  return {
    ...column,
    value,
    display: display
      ? (row, f) => {
          try {
            // A display callback may add strings fetched elsewhere (space names): its output is sanitised, keeping
            // our styling (colour codes there cannot be told from ours, so such strings are sanitised where fetched too).
            return sanitizeStyled(display(row, f));
          } catch (error) {
            if (error instanceof CliError) throw error;
            return sanitize(plain(value(row)));
          }
        }
      : undefined,
  };
}

async function streamJsonArray<T>(
  ctx: OutputContext,
  items: Items<T>,
  shown: { count: number } = { count: 0 },
  links?: FieldLinks,
): Promise<number> {
  const pretty = ctx.io.stdoutIsTTY;
  const close = pretty ? '\n]\n' : ']\n';
  const fields = ctx.flags.jsonFields;
  const pick = fields ? { checkFields, pickFields } : undefined;
  try {
    for await (const raw of items) {
      if (pick && fields && shown.count === 0) pick.checkFields(raw, fields, links);
      const item = pick && fields ? pick.pickFields(raw, fields, links) : raw;
      const json = pretty ? toJson(item, true).replace(/\n/g, '\n  ') : toJson(item, false);
      await emit(ctx.io.stdout, `${arrayJoint(shown.count === 0, pretty)}${json}`);
      shown.count++;
    }
  } catch (error) {
    // Stopped part-way: the array is closed, so stdout still parses (nothing is printed when nothing came).
    if (shown.count > 0) await emit(ctx.io.stdout, close).catch(() => undefined);
    throw error;
  }
  await emit(ctx.io.stdout, shown.count === 0 ? '[]\n' : close);
  return shown.count;
}

/** What goes before an item of a streamed JSON array: the array's opening before the first, a comma before the others. */
function arrayJoint(first: boolean, pretty: boolean): string {
  if (pretty) return first ? '[\n  ' : ',\n  ';
  return first ? '[' : ',';
}

/** Plain text that is itself the result (e.g. an id when piped). Sanitised. */
export async function printText(ctx: Pick<Context, 'io'>, text: string): Promise<void> {
  const clean = sanitize(text);
  await emit(ctx.io.stdout, clean.endsWith('\n') ? clean : `${clean}\n`);
}

type Message = string | ((f: Formatter) => string);

async function toStderr(
  ctx: OutputContext,
  message: Message,
  decorate: (text: string, f: Formatter) => string,
): Promise<void> {
  // Output held for the pager (src/io/pager.ts) goes out first: a note after the result reads after it.
  await (ctx.io.stdout as { settle?: () => Promise<void> }).settle?.();
  const f = await getFormatter(ctx, 'stderr');
  const text = decorate(typeof message === 'string' ? sanitize(message) : sanitizeStyled(message(f)), f);
  // At a terminal, wrapped at its width between words, continuation lines indented (a URL stays whole).
  const line = ctx.io.stderrIsTTY ? wrapText(text, stderrColumns(ctx.io), { hanging: 2 }) : text;
  // Above a live line (a progress bar), never onto it.
  await aboveLive(ctx.io.stderr, () => emit(ctx.io.stderr, `${line}\n`));
}

/** A remark for the person at the terminal, on stderr; --quiet silences it. Strings are sanitised; a function gets the formatter, and what it returns is sanitised keeping our styling. */
export async function note(ctx: OutputContext, message: Message): Promise<void> {
  if (ctx.flags.quiet) return;
  await toStderr(ctx, message, (text) => text);
}

/**
 * "✓ Created space Research" on stderr, only when stderr is a terminal (a piped or logged run has its answer in the
 * exit status and on stdout); --quiet silences it. The one gate for every ✓ line and footer.
 */
export async function success(ctx: OutputContext, message: Message): Promise<void> {
  if (ctx.flags.quiet || !ctx.io.stderrIsTTY) return;
  await toStderr(ctx, message, (text, f) => `${f.green('✓')} ${text}`);
}

/** A footer for the person at the terminal ("conversation cv_3k9x8q2m7d · continue: …"): like success(), terminal stderr only. */
export async function footer(ctx: OutputContext, message: Message): Promise<void> {
  if (ctx.flags.quiet || !ctx.io.stderrIsTTY) return;
  await toStderr(ctx, message, (text) => text);
}

/** "warning: ..." on stderr; shown even with --quiet. */
export async function warn(ctx: OutputContext, message: Message): Promise<void> {
  await toStderr(ctx, message, (text, f) => `${f.yellow('warning:')} ${text}`);
}
