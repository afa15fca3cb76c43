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
import type { Formatter } from './format.js';
import { sanitize, sanitizeDeep } from './sanitize.js';
import { emit } from './streams.js';
import type { Column } from './table.js';

export type { Column } from './table.js';
export type { Formatter } from './format.js';

type OutputContext = Pick<Context, 'io' | 'flags' | 'clock'>;
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
export async function getFormatter(ctx: Pick<Context, 'io' | 'clock'>, stream: 'stdout' | 'stderr' = 'stdout'): Promise<Formatter> {
  const { formatter } = await import('./format.js');
  return formatter(ctx, stream);
}

/** Prints a value as JSON (or through --jq). */
export async function printJson(ctx: OutputContext, data: unknown): Promise<void> {
  const pretty = ctx.io.stdoutIsTTY;
  if (ctx.flags.jq !== undefined) {
    const { runJq } = await import('./jq.js');
    // jq prints strings raw (like -r): server text, so it is sanitised like any other text.
    await emit(ctx.io.stdout, sanitize(await runJq(data, ctx.flags.jq, pretty)));
    return;
  }
  await emit(ctx.io.stdout, `${toJson(data ?? null, pretty)}\n`);
}

/**
 * JSON.stringify escapes C0 controls but leaves DEL and C1 (U+007F–U+009F)
 * raw, and some terminals act on those; escape them too. Still the same JSON.
 */
export function toJson(data: unknown, pretty: boolean): string {
  return JSON.stringify(data, null, pretty ? 2 : undefined).replace(/[\x7f-\x9f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Prints one resource: JSON as is, or what `render` makes of it (given a sanitised copy), wrapped to the terminal. */
export async function printItem<T>(ctx: OutputContext, data: T, render: (data: T, f: Formatter) => string | Promise<string>): Promise<void> {
  if (wantsJson(ctx)) return printJson(ctx, data);
  const f = await getFormatter(ctx);
  // On a terminal nothing is wider than the screen: lines that fit stay as they are, longer ones are
  // wrapped at word boundaries (URLs whole), continuation lines under their indentation.
  const text = f.wrap(await render(sanitizeDeep(data), f));
  if (text !== '') await emit(ctx.io.stdout, text.endsWith('\n') ? text : `${text}\n`);
}

/** Prints a list, row by row as it arrives: memory stays flat however many pages follow. Returns how many items there were. */
export async function printList<T>(ctx: OutputContext, items: Items<T>, options: ListOptions<T>): Promise<number> {
  if (ctx.flags.jq !== undefined) {
    const all: T[] = [];
    for await (const item of items) all.push(item);
    await printJson(ctx, all);
    return all.length;
  }
  if (ctx.flags.json) return streamJsonArray(ctx, items);

  const f = await getFormatter(ctx);
  const { visibleColumns, plainRow, renderTable } = await import('./table.js');
  const columns = visibleColumns(options.columns, f.tty);
  let count = 0;

  if (!f.tty) {
    for await (const item of items) {
      await emit(ctx.io.stdout, `${plainRow(sanitizeDeep(item), columns)}\n`);
      count++;
    }
    return count;
  }

  // A list taller than the screen goes through the pager.
  await ctx.io.page();
  const size = Array.isArray(items) ? Math.max(items.length, 1) : (options.batch ?? 100);
  let batch: T[] = [];
  let widths: number[] | undefined;
  const flushBatch = async () => {
    if (batch.length === 0) return;
    const rendered = renderTable(batch, columns, f, widths);
    widths = rendered.widths;
    batch = [];
    await emit(ctx.io.stdout, `${rendered.text}\n`);
  };
  for await (const item of items) {
    batch.push(sanitizeDeep(item));
    count++;
    if (batch.length >= size) await flushBatch();
  }
  await flushBatch();
  if (count === 0 && options.empty) await note(ctx, options.empty);
  return count;
}

async function streamJsonArray<T>(ctx: OutputContext, items: Items<T>): Promise<number> {
  const pretty = ctx.io.stdoutIsTTY;
  let count = 0;
  for await (const item of items) {
    const json = pretty ? toJson(item, true).replace(/\n/g, '\n  ') : toJson(item, false);
    await emit(ctx.io.stdout, count === 0 ? (pretty ? `[\n  ${json}` : `[${json}`) : pretty ? `,\n  ${json}` : `,${json}`);
    count++;
  }
  await emit(ctx.io.stdout, count === 0 ? '[]\n' : pretty ? '\n]\n' : ']\n');
  return count;
}

/** Plain text that is itself the result (e.g. an id when piped). Sanitised. */
export async function printText(ctx: Pick<Context, 'io'>, text: string): Promise<void> {
  const clean = sanitize(text);
  await emit(ctx.io.stdout, clean.endsWith('\n') ? clean : `${clean}\n`);
}

type Message = string | ((f: Formatter) => string);

async function toStderr(ctx: OutputContext, message: Message, decorate: (text: string, f: Formatter) => string): Promise<void> {
  // Output held for the pager (src/io/pager.ts) goes out first: a note after the result reads after it.
  await (ctx.io.stdout as { settle?: () => Promise<void> }).settle?.();
  const f = await getFormatter(ctx, 'stderr');
  const text = typeof message === 'string' ? sanitize(message) : message(f);
  await emit(ctx.io.stderr, `${decorate(text, f)}\n`);
}

/** A remark for the person at the terminal, on stderr; --quiet silences it. Strings are sanitised; a function gets the formatter and must sanitise server text itself (or use data from printItem). */
export async function note(ctx: OutputContext, message: Message): Promise<void> {
  if (ctx.flags.quiet) return;
  await toStderr(ctx, message, (text) => text);
}

/** "✓ Created space Research" on stderr; --quiet silences it. */
export async function success(ctx: OutputContext, message: Message): Promise<void> {
  if (ctx.flags.quiet) return;
  await toStderr(ctx, message, (text, f) => `${f.green('✓')} ${text}`);
}

/** "warning: ..." on stderr; shown even with --quiet. */
export async function warn(ctx: OutputContext, message: Message): Promise<void> {
  await toStderr(ctx, message, (text, f) => `${f.yellow('warning:')} ${text}`);
}
