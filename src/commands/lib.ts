// `kagent lib`: the library — saved links, saved brief entries, uploaded files, saved media.
//   list     listLibrary (newest first; --space, --kind, --limit, --all)
//   search   listLibrary with q (best matches, no paging)
//   show     getLibraryItem (summary and key points rendered as Markdown on a terminal)
//   text     readLibraryText (one chunk, or --all streaming every chunk in order)
//   save     saveLink (video and podcast links: points to `kagent media quote`)
//   edit     updateLibraryItem (note, space)
//   delete   deleteLibraryItem (several ids; confirmed on a terminal, --yes elsewhere)
//   upload   uploadFile (files, folders, globs, `-` for stdin; see src/upload/)
// Writes answered with 204 print, with --json, what was done: {id, note?, spaceId?}
// for edit, [{id, deleted, error?}] for delete.
import type { Context } from '../context.js';
import type { LibraryItem, LibraryText, LinkSaved } from '../api/shapes.js';
import type { Formatter } from '../io/format.js';
import { ApiError, CliError, ExitCode, InterruptedError, UsageError } from '../errors.js';
import { sanitizeLine } from '../io/sanitize.js';
import { checkInput, defineCommand, defineGroup } from './define.js';

const KINDS = ['entry', 'link', 'file', 'media'] as const;
type Kind = (typeof KINDS)[number];

// ---------------------------------------------------------------- helpers

async function shapes() {
  return import('../api/shapes.js');
}

/** A space given by id or name, as `kagent space` resolves it. */
async function spaceIdFor(ctx: Context, ref: string): Promise<string> {
  const { resolveSpace } = await import('./space.js');
  return (await resolveSpace(ctx, ref)).id;
}

/** `kagent WORDS ARGS…` as this user would retype it; ARGS are shell-quoted. */
async function command(ctx: Context, words: string, ...args: string[]): Promise<string> {
  const { kagentCommand, shellQuote } = await import('../io/task-follow.js');
  return kagentCommand(ctx, [words, ...args.map(shellQuote)].join(' '));
}

/** 404s on an item say how to find one. */
async function itemHint(ctx: Context, error: unknown, id: string): Promise<unknown> {
  if (error instanceof ApiError && error.status === 404 && !error.hint) {
    error.hint = `no library item "${id}": \`${await command(ctx, 'lib list')}\` or \`${await command(ctx, 'lib search WORDS')}\` shows the ids`;
  }
  return error;
}

async function withItem<T>(ctx: Context, id: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw await itemHint(ctx, error, id);
  }
}

/** Space names for people (one extra request, terminal only); scripts get ids. */
async function spaceNames(ctx: Context, items: Array<{ spaceId: string | null }>): Promise<Map<string, string>> {
  const { wantsJson } = await import('../io/output.js');
  if (!ctx.io.stdoutIsTTY || wantsJson(ctx) || !items.some((item) => item.spaceId)) return new Map();
  try {
    const { items: spaces } = await (await ctx.api()).call('listSpaces', { signal: ctx.signal });
    return new Map(spaces.map((space) => [space.id, space.name]));
  } catch {
    return new Map();
  }
}

function sourceOf(item: LibraryItem): string {
  return item.url ?? item.fileName ?? '';
}

async function printItems(ctx: Context, items: AsyncIterable<LibraryItem> | LibraryItem[], empty: string): Promise<void> {
  const { printList } = await import('../io/output.js');
  // A streamed list may hold any space: on a terminal, ask for the names up front.
  const names = await spaceNames(ctx, Array.isArray(items) ? items : [{ spaceId: 'any' }]);
  await printList<LibraryItem>(ctx, items, {
    empty,
    columns: [
      { header: 'Id', value: (i) => i.id },
      { header: 'Kind', value: (i) => i.kind },
      { header: 'Title', value: (i) => i.title, flex: true },
      { header: 'Source', value: (i) => sourceOf(i), flex: true, only: 'tty' },
      { header: 'Space', value: (i) => i.spaceId, display: (i) => (i.spaceId ? (names.get(i.spaceId) ?? i.spaceId) : ''), only: 'tty' },
      { header: 'Saved', value: (i) => i.createdAt, kind: 'time' },
      { header: 'Space', value: (i) => i.spaceId, only: 'plain' },
      { header: 'Source', value: (i) => sourceOf(i), only: 'plain' },
    ],
  });
}

// ---------------------------------------------------------------- list

interface ListOptions {
  space?: string;
  kind?: Kind;
  limit?: number;
  all?: boolean;
}

const list = defineCommand<ListOptions>({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the library, newest first',
  description: 'Columns when piped: id, kind, title, saved (ISO time), space id, link or file name.',
  options: [
    { flags: '--space <space>', description: 'only items of this space (id or name)' },
    { flags: '--kind <kind>', description: 'only this kind: entry, link, file or media', choices: KINDS },
    { flags: '-L, --limit <n>', description: 'at most this many (default: the first page, 50)', type: 'integer', min: 1 },
    { flags: '--all', description: 'every item, following every page' },
  ],
  examples: [
    'kagent lib list',
    'kagent lib list --kind file --limit 10',
    'kagent lib list --space Research --all --json | jq -r ".[].title"',
    '# ids of every uploaded file',
    'kagent lib list --kind file --all | cut -f1',
  ],
  async run(ctx, opts) {
    if (opts.all && opts.limit !== undefined) throw new UsageError('use --limit or --all, not both');
    const S = await shapes();
    const query: Record<string, string | undefined> = { space: opts.space, kind: opts.kind };
    checkInput(S.Queries.listLibrary, query, { space: '--space', kind: '--kind' });
    if (opts.space !== undefined) query.space = await spaceIdFor(ctx, opts.space);
    const api = await ctx.api();
    const items = api.paginate('listLibrary', { query, signal: ctx.signal }, { limit: opts.limit, all: opts.all });
    await printItems(ctx, items, `Nothing in the library${opts.kind ? ` of kind ${opts.kind}` : ''}${opts.space ? ` in ${opts.space}` : ''}: save a link with \`${await command(ctx, 'lib save URL')}\` or upload files with \`${await command(ctx, 'lib upload PATH')}\`.`);
  },
});

// ---------------------------------------------------------------- search

const search = defineCommand<Omit<ListOptions, 'all'>, { query: string }>({
  name: 'search',
  summary: 'Search the library: titles, notes, summaries, key points and file text',
  description: 'Answers the best matches first (no paging). Columns when piped: as for `lib list`.',
  arguments: [{ name: 'query', description: 'words to look for (at most 200 characters)' }],
  options: [
    { flags: '--space <space>', description: 'only items of this space (id or name)' },
    { flags: '--kind <kind>', description: 'only this kind: entry, link, file or media', choices: KINDS },
    { flags: '-L, --limit <n>', description: 'at most this many (1 to 200; default 50)', type: 'integer', min: 1, max: 200 },
  ],
  examples: ['kagent lib search "harbour expansion"', 'kagent lib search budget --kind file --json', 'kagent lib search invoice --jq ".[0].id"'],
  async run(ctx, opts, args) {
    if (args.query.trim() === '') throw new UsageError('QUERY must not be empty');
    const S = await shapes();
    const query: Record<string, string | number | undefined> = { q: args.query, space: opts.space, kind: opts.kind, limit: opts.limit };
    checkInput(S.Queries.listLibrary, query, { q: 'QUERY', space: '--space', kind: '--kind', limit: '--limit' });
    if (opts.space !== undefined) query.space = await spaceIdFor(ctx, opts.space);
    const api = await ctx.api();
    const { items } = await api.call('listLibrary', { query, signal: ctx.signal });
    await printItems(ctx, items, `Nothing in the library matches "${args.query}".`);
  },
});

// ---------------------------------------------------------------- show

async function renderItem(ctx: Context, item: LibraryItem, f: Formatter, spaceName: string | undefined): Promise<string> {
  const file = item.fileName ? [item.fileName, item.mime, item.size !== null ? f.bytes(item.size) : undefined].filter(Boolean).join(' · ') : undefined;
  if (!f.tty) {
    const lines = [
      f.fields([
        ['id', item.id],
        ['kind', item.kind],
        ['title', item.title],
        ['status', item.status],
        ['space', item.spaceId ?? ''],
        ['url', item.url],
        ['file', item.fileName],
        ['mime', item.mime],
        ['size', item.size === null ? undefined : String(item.size)],
        ['sha256', item.sha256],
        ['note', item.note],
        ['saved', item.createdAt],
        ['updated', item.updatedAt],
        ['summary', item.summary],
      ]),
      ...item.keyPoints.map((point) => f.fields([['key-point', point]])),
    ];
    return lines.join('\n');
  }
  const { renderMarkdown } = await import('../io/markdown.js');
  const head = [
    f.bold(item.title || '(untitled)'),
    f.fields([
      ['Id', item.id],
      ['Kind', item.kind],
      ['Status', item.status === 'ready' ? item.status : f.yellow(item.status)],
      ['Space', item.spaceId ? (spaceName ? `${spaceName} ${f.dim(`(${item.spaceId})`)}` : item.spaceId) : undefined],
      ['Link', item.url],
      ['File', file],
      ['Note', item.note],
      ['Saved', f.time(item.createdAt)],
      ['Updated', item.updatedAt !== item.createdAt ? f.time(item.updatedAt) : undefined],
    ]),
  ].join('\n');
  let markdown = '';
  if (item.summary) markdown += `**Summary**\n\n${item.summary}\n\n`;
  if (item.keyPoints.length > 0) markdown += `**Key points**\n\n${item.keyPoints.map((point) => `- ${point.replace(/\n+/g, ' ')}`).join('\n')}\n`;
  if (markdown === '') return head;
  return `${head}\n\n${(await renderMarkdown(ctx, markdown)).trimEnd()}`;
}

const show = defineCommand<Record<string, never>, { id: string }>({
  name: 'show',
  pager: true,
  aliases: ['view'],
  summary: 'Show a library item: where it came from, its summary and key points',
  description: 'Piped: one "field<TAB>value" line each (summary on one line, one key-point line per point).',
  arguments: [{ name: 'id', description: 'the item (ids are shown by `lib list` and `lib search`)' }],
  examples: ['kagent lib show li_8f2k1x', 'kagent lib show li_8f2k1x --json | jq .keyPoints', "kagent lib show li_8f2k1x | grep '^summary' | cut -f2"],
  async run(ctx, _opts, args) {
    const api = await ctx.api();
    const item = await withItem(ctx, args.id, () => api.call('getLibraryItem', { params: { id: args.id }, signal: ctx.signal }));
    const { printItem, note } = await import('../io/output.js');
    const names = await spaceNames(ctx, [item]);
    await printItem(ctx, item, (i, f) => renderItem(ctx, i, f, i.spaceId ? names.get(i.spaceId) : undefined));
    if (ctx.io.stdoutIsTTY && item.kind === 'file') await note(ctx, `Its full text: \`${await command(ctx, 'lib text', item.id)}\``);
  },
});

// ---------------------------------------------------------------- text

interface TextOptions {
  offset?: number;
  limit?: number;
  all?: boolean;
}

function noTextHint(ctx: Context, error: unknown, id: string): Promise<unknown> | unknown {
  if (error instanceof ApiError && error.code === 'NO_TEXT') {
    return (async () => {
      error.hint ??= `only uploaded files keep their text (and not every file has text to extract); for a link or entry, \`${await command(ctx, 'lib show', id)}\` shows its summary and key points`;
      return error;
    })();
  }
  return itemHint(ctx, error, id);
}

const text = defineCommand<TextOptions, { id: string }>({
  name: 'text',
  pager: true,
  summary: "Print the text extracted from an uploaded file, in chunks or all of it",
  description:
    'Without --all: one chunk (8000 characters unless --limit), and a note on stderr saying where the next one starts. ' +
    'With --all: every chunk from --offset on, streamed to stdout in order (memory stays flat however long the text). ' +
    'Only uploaded files keep their text; for other items the service answers NO_TEXT (exit 2).',
  arguments: [{ name: 'id', description: 'an uploaded file (kind "file")' }],
  options: [
    { flags: '--offset <n>', description: 'start at this character (default 0)', type: 'integer', min: 0 },
    { flags: '-L, --limit <n>', description: 'characters per chunk, 100 to 50000 (default 8000; 50000 with --all)', type: 'integer', min: 100, max: 50000 },
    { flags: '--all', description: 'every chunk to the end, streamed in order' },
  ],
  examples: [
    'kagent lib text li_8f2k1x',
    'kagent lib text li_8f2k1x --offset 8000',
    'kagent lib text li_8f2k1x --all > report.txt',
    'kagent lib text li_8f2k1x --all | grep -i budget',
  ],
  async run(ctx, opts, args) {
    const { wantsJson, printJson, printList, note } = await import('../io/output.js');
    const { emit } = await import('../io/streams.js');
    const { sanitize } = await import('../io/sanitize.js');
    const api = await ctx.api();
    const read = (offset: number, limit: number | undefined) =>
      api.call('readLibraryText', { params: { id: args.id }, query: { offset, ...(limit !== undefined ? { limit } : {}) }, signal: ctx.signal });

    try {
      if (!opts.all) {
        const chunk = await read(opts.offset ?? 0, opts.limit);
        if (wantsJson(ctx)) return await printJson(ctx, chunk);
        await emit(ctx.io.stdout, sanitize(chunk.text));
        if (ctx.io.stdoutIsTTY && chunk.text !== '' && !chunk.text.endsWith('\n')) await emit(ctx.io.stdout, '\n');
        if (chunk.nextOffset !== null) {
          const end = chunk.offset + [...chunk.text].length;
          await note(ctx, `Characters ${chunk.offset}–${end} of ${chunk.total}. Next: \`${await command(ctx, 'lib text', args.id, '--offset', String(chunk.nextOffset))}\`, or all of it with --all.`);
        }
        return;
      }

      const limit = opts.limit ?? 50_000;
      async function* chunks(): AsyncGenerator<LibraryText> {
        let offset = opts.offset ?? 0;
        for (;;) {
          const chunk = await read(offset, limit);
          yield chunk;
          if (chunk.nextOffset === null) return;
          if (chunk.nextOffset <= offset) throw new CliError(`the service sent the text back from character ${chunk.nextOffset} again; stopping`, { code: 'TEXT_LOOP' });
          offset = chunk.nextOffset;
        }
      }
      if (wantsJson(ctx)) {
        await printList(ctx, chunks(), { columns: [] });
        return;
      }
      let last = '';
      for await (const chunk of chunks()) {
        if (chunk.text === '') continue;
        await emit(ctx.io.stdout, sanitize(chunk.text));
        last = chunk.text;
      }
      if (ctx.io.stdoutIsTTY && last !== '' && !last.endsWith('\n')) await emit(ctx.io.stdout, '\n');
    } catch (error) {
      throw await noTextHint(ctx, error, args.id);
    }
  },
});

// ---------------------------------------------------------------- save

interface SaveOptions {
  note?: string;
  space?: string;
}

const save = defineCommand<SaveOptions, { url: string }>({
  name: 'save',
  summary: 'Save a web page to the library: it is read, summarised and given key points',
  description:
    'Spends credits for the summary. Video and podcast links are not saved here: the service says so, and ' +
    "`kagent media quote URL` tells what transcribing one costs. Piped: prints the new item's id.",
  arguments: [{ name: 'url', description: 'an http(s) link' }],
  options: [
    { flags: '--note <text>', description: 'your note on it (at most 2000 characters)' },
    { flags: '--space <space>', description: "the space to save it in (id or name; default: the profile's space, else the agent picks one)" },
  ],
  examples: [
    'kagent lib save https://example.com/article',
    'kagent lib save https://example.com/report --note "for the Q3 review" --space Research',
    'id=$(kagent lib save https://example.com/article)',
  ],
  async run(ctx, opts, args) {
    const S = await shapes();
    const body: Record<string, unknown> = { url: args.url };
    if (opts.note !== undefined) body.note = opts.note;
    if (ctx.config.lang) body.lang = ctx.config.lang;
    // --space, else the profile's default space (`kagent config set space ...`), else the agent picks.
    const spaceRef = opts.space ?? ctx.config.space;
    checkInput(S.SaveLinkRequest, { ...body, ...(spaceRef !== undefined ? { spaceId: spaceRef } : {}) }, { url: 'URL', note: '--note', spaceId: opts.space !== undefined ? '--space' : "the profile's space", lang: '--lang' });
    if (!/^https?:\/\//i.test(args.url)) throw new UsageError(`URL must be an http:// or https:// link (got "${args.url}")`);
    if (spaceRef !== undefined) body.spaceId = await spaceIdFor(ctx, spaceRef);
    const api = await ctx.api();
    const { withSpinner } = await import('../io/spinner.js');
    const saved: LinkSaved = await withSpinner(ctx, 'Reading and summarising the page…', () => api.call('saveLink', { body, signal: ctx.signal }));
    const { printItem, printJson, wantsJson, note, success } = await import('../io/output.js');
    if (saved.media || !saved.item) {
      if (wantsJson(ctx)) await printJson(ctx, saved);
      const quote = await command(ctx, 'media quote', args.url);
      await note(ctx, (f) => `${f.yellow('!')} This is a video or podcast link: nothing was saved. Media is transcribed instead (charged per minute); see the price first with:\n  ${sanitizeLine(quote)}`);
      return;
    }
    if (wantsJson(ctx)) return printJson(ctx, saved);
    await success(ctx, `Saved ${saved.item.title} (${saved.item.id})`);
    const item = saved.item;
    const names = await spaceNames(ctx, [item]);
    await printItem(ctx, item, (i, f) => (f.tty ? renderItem(ctx, i, f, i.spaceId ? names.get(i.spaceId) : undefined) : i.id));
  },
});

// ---------------------------------------------------------------- edit

const edit = defineCommand<SaveOptions, { id: string }>({
  name: 'edit',
  summary: "Change an item's note or move it to another space",
  description: '`--note ""` removes the note. Piped: prints the id; --json prints {id, note?, spaceId?}.',
  arguments: [{ name: 'id', description: 'the item' }],
  options: [
    { flags: '--note <text>', description: 'the new note (at most 2000 characters; "" removes it)' },
    { flags: '--space <space>', description: 'move it to this space (id or name)' },
  ],
  examples: ['kagent lib edit li_8f2k1x --note "read before Monday"', 'kagent lib edit li_8f2k1x --space Archive', 'kagent lib edit li_8f2k1x --note ""'],
  async run(ctx, opts, args) {
    if (opts.note === undefined && opts.space === undefined) throw new UsageError('nothing to change: give --note and/or --space');
    const S = await shapes();
    const body: Record<string, unknown> = {};
    if (opts.note !== undefined) body.note = opts.note === '' ? null : opts.note;
    if (opts.space !== undefined) body.space = opts.space;
    checkInput(S.UpdateLibraryItemRequest, body, { note: '--note', space: '--space' });
    if (opts.space !== undefined) body.space = await spaceIdFor(ctx, opts.space);
    const api = await ctx.api();
    await withItem(ctx, args.id, () => api.call('updateLibraryItem', { params: { id: args.id }, body, signal: ctx.signal }));
    const { printItem, success } = await import('../io/output.js');
    const changes = [opts.note !== undefined ? (body.note === null ? 'removed the note' : 'set the note') : '', opts.space !== undefined ? `moved it to ${opts.space}` : '']
      .filter(Boolean)
      .join(', ');
    await success(ctx, `Updated ${args.id}: ${changes}`);
    const result = { id: args.id, ...(opts.note !== undefined ? { note: body.note } : {}), ...(opts.space !== undefined ? { spaceId: body.space } : {}) };
    await printItem(ctx, result, (r, f) => (f.tty ? '' : r.id));
  },
});

// ---------------------------------------------------------------- delete

const remove = defineCommand<Record<string, never>, { ids: string[] }>({
  name: 'delete',
  aliases: ['rm'],
  summary: 'Delete library items',
  description:
    'Asks first on a terminal; elsewhere needs --yes (without it: exit 2, nothing deleted). ' +
    'Every id is tried; the exit status is that of the most severe failure (4 when an id was not found). ' +
    'Piped: prints each deleted id; --json prints [{id, deleted, error?}].',
  arguments: [{ name: 'ids', description: 'one or more item ids', variadic: true }],
  examples: ['kagent lib delete li_8f2k1x', 'kagent lib delete li_8f2k1x li_3m9q0z --yes', "kagent lib list --kind link --all | cut -f1 | xargs kagent lib delete --yes"],
  async run(ctx, _opts, args) {
    const ids = [...new Set(args.ids)];
    // No key or base URL: say so before asking anything.
    const api = await ctx.api();
    const { confirmOrYes } = await import('../io/prompt.js');
    await confirmOrYes(ctx, {
      message: ids.length === 1 ? `Delete library item ${ids[0]}? This cannot be undone.` : `Delete ${ids.length} library items (${ids.join(', ')})? This cannot be undone.`,
      action: ids.length === 1 ? `delete ${ids[0]}` : `delete ${ids.length} library items`,
    });
    const { printJson, success, wantsJson } = await import('../io/output.js');
    const { emit } = await import('../io/streams.js');
    const { reportError } = await import('../io/report.js');
    const { mostSevere } = await import('../upload/uploader.js');
    const results: Array<{ id: string; deleted: boolean; error?: { code: string; message: string } }> = [];
    const failures: CliError[] = [];
    for (const id of ids) {
      if (ctx.signal.aborted) throw new InterruptedError();
      try {
        await api.call('deleteLibraryItem', { params: { id }, signal: ctx.signal });
        results.push({ id, deleted: true });
        if (!wantsJson(ctx)) {
          if (ctx.io.stdoutIsTTY) await success(ctx, `Deleted ${id}`);
          else await emit(ctx.io.stdout, `${id}\n`);
        }
      } catch (error) {
        if (!(error instanceof ApiError) || ids.length === 1) throw await itemHint(ctx, error, id);
        await itemHint(ctx, error, id);
        failures.push(error);
        results.push({ id, deleted: false, error: { code: error.code, message: error.message } });
        if (!wantsJson(ctx)) reportError(new CliError(`${id}: ${error.message}`, { code: error.code, exitCode: error.exitCode }), { stderr: ctx.io.stderr, json: false, color: ctx.io.colorStderr, debug: false, interrupted: false });
      }
    }
    if (wantsJson(ctx)) await printJson(ctx, results);
    if (failures.length > 0) {
      const codes = [...new Set(failures.map((f) => f.code))];
      throw new CliError(`could not delete ${failures.length} of ${ids.length} items`, {
        code: codes.length === 1 ? (codes[0] as string) : 'DELETE_FAILED',
        exitCode: mostSevere(failures.map((f) => f.exitCode)),
        hint: `\`${await command(ctx, 'lib list')}\` shows the ids there are`,
      });
    }
  },
});

// ---------------------------------------------------------------- upload

interface UploadOptions {
  space?: string;
  note?: string;
  name?: string;
  concurrency: number;
  failFast?: boolean;
}

const upload = defineCommand<UploadOptions, { paths: string[] }>({
  name: 'upload',
  summary: 'Upload files: PDF, Word (.docx), Markdown, plain text and images',
  description: [
    'PATHs are files, folders (walked recursively; hidden files and folders inside them are skipped), quoted glob patterns ("docs/**/*.md"), or - for stdin (with --name). A PATH that matches nothing stops the command before anything is sent (exit 2).',
    "Each file is checked first, and a file refused here costs no request: its type by content (not by name alone), empty files, and the size against your plan's per-file limit (as `kagent me` shows it). Files are streamed from disk, several at once (--concurrency), within the account's request rate, which kagent processes running in parallel on this machine share.",
    'Re-running is safe: each file carries an Idempotency-Key made from its bytes, its name and the --space/--note/--lang given, so a file the service already has is reported as already there and never added twice; failed requests are retried with the same key. stdin is first saved to a temporary file (the service needs the size up front, and the key comes from the bytes).',
    'Output, one line per file: on a terminal "✓ uploaded PATH → ID"; piped, tab-separated "status path item-id error-code" (status: uploaded, exists, failed); with --json one JSON object per line {path, name, size, status, item?, error?}, status also "skipped" for files not attempted or cut short by Ctrl-C. A summary goes to stderr, and on a terminal a progress bar.',
    'Exit status: 0 when every file is uploaded or already there; otherwise that of the most severe failure, in this order: 130 interrupted, 3 not authenticated, 7 unavailable, 6 quota (402, 413), 1 other, 5 conflict, 4 not found, 2 refused (unsupported type, empty file, invalid input).',
  ].join('\n\n'),
  arguments: [{ name: 'paths', description: 'files, folders, glob patterns, or - for stdin', variadic: true }],
  options: [
    { flags: '--space <space>', description: "the space to put them in (id or name; default: the profile's space, else the agent picks one per file)" },
    { flags: '--note <text>', description: 'a note on every file (at most 2000 characters)' },
    { flags: '--name <name>', description: 'the file name to give stdin (or a single file)' },
    { flags: '-c, --concurrency <n>', description: 'files sent at once (1 to 16)', type: 'integer', min: 1, max: 16, default: 4 },
    { flags: '--fail-fast', description: 'start no new file after the first failure (files in flight finish)' },
  ],
  examples: [
    'kagent lib upload report.pdf notes.md',
    'kagent lib upload docs/ --space Research',
    '# quote patterns: kagent expands them the same way in every shell',
    "kagent lib upload 'build/reports/**/*.pdf' --note \"nightly $(date +%F)\" --json > uploads.ndjson",
    'curl -s https://example.com/notes.md | kagent lib upload - --name notes.md',
    '# CI: safe to re-run; fails (non-zero) if any file failed',
    'KAGENT_API_KEY=$SECRET kagent lib upload dist/docs --fail-fast',
  ],
  async run(ctx, opts, args) {
    // The modules of an upload load side by side, not one await after another: the
    // first file is checked ~40 ms sooner.
    void Promise.all([
      import('../upload/discover.js'),
      import('../upload/prepare.js'),
      import('../upload/uploader.js'),
      import('../upload/report.js'),
      import('../upload/digest-cache.js'),
      import('../http/shared-pacer.js'),
      import('../io/spinner.js'),
    ]).catch(() => undefined);
    const S = await shapes();
    const target: { space?: string; note?: string; lang?: 'zh' | 'en' } = {};
    if (opts.note !== undefined) target.note = opts.note;
    if (ctx.config.lang) target.lang = ctx.config.lang;
    // --space, else the profile's default space (`kagent config set space ...`), else the agent picks per file.
    const spaceRef = opts.space ?? ctx.config.space;
    checkInput(S.Queries.uploadFile, { ...target, ...(spaceRef !== undefined ? { space: spaceRef } : {}) }, { space: opts.space !== undefined ? '--space' : "the profile's space", note: '--note', lang: '--lang' });
    const operands = args.paths;
    const wantsStdin = operands.includes('-');
    if (wantsStdin && (opts.name === undefined || opts.name.trim() === '')) {
      throw new UsageError('uploading stdin needs --name: the file name the library shows (and the type hint for Markdown)', 'for example: `cat notes.md | kagent lib upload - --name notes.md`');
    }
    if (opts.name !== undefined && /[/\\]/.test(opts.name)) throw new UsageError('--name is a file name, without folders');
    if (wantsStdin && ctx.io.stdinIsTTY) throw new UsageError('"-" reads the file from stdin, but stdin is a terminal', 'pipe the file in: `cat notes.md | kagent lib upload - --name notes.md`');

    const api = await ctx.api();
    const { discover } = await import('../upload/discover.js');
    const sources = await discover(operands, { cwd: process.cwd(), signal: ctx.signal });
    if (opts.name !== undefined && sources.length !== 1) throw new UsageError(`--name names a single file, but ${sources.length} files were given`);
    if (opts.name !== undefined) (sources[0] as { name: string }).name = opts.name;

    const { note } = await import('../io/output.js');
    const { spoolStdin } = await import('../upload/prepare.js');
    let spooled: Awaited<ReturnType<typeof spoolStdin>> | undefined;
    try {
      const stdinSource = sources.find((s) => s.stdin);
      if (stdinSource) {
        if (ctx.io.stderrIsTTY) await note(ctx, 'Reading stdin into a temporary file first (the service needs the size up front)…');
        spooled = await spoolStdin(ctx.io.stdin, ctx.signal);
        stdinSource.path = spooled.path;
        stdinSource.size = spooled.size;
      }
      if (spaceRef !== undefined) target.space = await spaceIdFor(ctx, spaceRef);
      await runUploads(ctx, api, sources, target, opts);
    } finally {
      await spooled?.remove();
    }
  },
});

async function runUploads(
  ctx: Context,
  api: Awaited<ReturnType<Context['api']>>,
  sources: Awaited<ReturnType<typeof import('../upload/discover.js').discover>>,
  target: { space?: string; note?: string; lang?: 'zh' | 'en' },
  opts: UploadOptions,
): Promise<void> {
  const { uploadAll } = await import('../upload/uploader.js');
  const { createReporter } = await import('../upload/report.js');
  const { spinnersAllowed } = await import('../io/spinner.js');

  // The plan's per-file limit, asked once and only when a file gets that far.
  let limit: Promise<number | undefined> | undefined;
  const planLimit = () =>
    (limit ??= api.call('getMe', { signal: ctx.signal }).then(
      (me) => {
        const bytes = (me as { limits?: { fileBytes?: unknown } }).limits?.fileBytes;
        return typeof bytes === 'number' && bytes > 0 ? bytes : undefined;
      },
      (error: unknown) => {
        // Without an account answer there is nothing to upload with; other failures only skip the check.
        if (error instanceof CliError && (error.exitCode === ExitCode.AUTH || error.exitCode === ExitCode.UNAVAILABLE || error.exitCode === ExitCode.INTERRUPTED)) throw error;
        return undefined;
      },
    ));

  const { digestCache } = await import('../upload/digest-cache.js');
  const { defaultCacheDir } = await import('../http/shared-pacer.js');
  const cache = digestCache(defaultCacheDir(ctx.io.env));

  const reporter = await createReporter(ctx, sources, { progress: spinnersAllowed(ctx) });
  const started = performance.now();
  let summary;
  try {
    summary = await uploadAll(sources, { api, target, concurrency: opts.concurrency, failFast: opts.failFast === true, limit: planLimit, cache, signal: ctx.signal, events: reporter });
  } finally {
    reporter.close();
  }
  await reporter.summary(summary, performance.now() - started);

  const again = 'run the same command again: files already uploaded are recognised and not added twice';
  if (ctx.signal.aborted) throw new InterruptedError('interrupted', again);
  if (summary.stoppedBy) {
    const stopped = summary.stoppedBy;
    stopped.hint = stopped.hint ? `${stopped.hint}; then ${again}` : again;
    throw stopped;
  }
  if (summary.failed > 0) {
    throw new CliError(`${summary.failed} of ${sources.length} file${sources.length === 1 ? '' : 's'} failed`, {
      code: 'UPLOAD_FAILED',
      exitCode: summary.exitCode,
      hint: summary.skipped > 0 ? `--fail-fast stopped after the first failure; ${again}` : `fix those files (see above) and ${again}`,
    });
  }
}

export default defineGroup({
  name: 'lib',
  summary: 'Your library: save links, upload files, list, search and read',
  examples: [
    'kagent lib list --kind file',
    'kagent lib upload docs/ --space Research',
    'kagent lib search "harbour expansion"',
    'kagent lib text li_8f2k1x --all > report.txt',
  ],
  commands: [list, search, show, text, save, edit, remove, upload],
});
