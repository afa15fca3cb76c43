// `kagent doc`: documents in the service's Markdown dialect (no front matter).
//   list     listDocs (most recently updated first; --space, --limit, --all)
//   search   searchDocs (keywords and meaning; best first, no paging)
//   show     getDoc (Markdown rendered on a terminal, the raw body when piped or --raw)
//   create   createDoc (--title, --file PATH|-, --body TEXT, --space, --folder)
//   update   updateDoc (replaces title and/or body; carries the revision read as baseRevision)
//   edit     editDoc (exact-match edits from flags, an --ops file, or $EDITOR)
//   delete   deleteDoc (confirmed on a terminal, --yes elsewhere)
// Every save increments a doc's revision; update and edit send the revision
// they are based on, so a change never overwrites a newer one unnoticed
// (REVISION_CONFLICT, exit 5, explained with the latest revision).
// --json prints the API's answers: DocSummary[], DocHit[], Doc, DocCreated,
// Revision; delete (204) prints {"id": ..., "deleted": true}.
import type { Context } from '../context.js';
import type { Doc, DocHit, DocSummary, EditOp, Revision } from '../api/shapes.js';
import { ApiError, CliError, ExitCode, UsageError } from '../errors.js';
import { sanitizeLine } from '../io/sanitize.js';
import { checkInput, defineCommand, defineGroup } from './define.js';
import { checkIdempotencyKey } from './idempotency-key.js';

// ---------------------------------------------------------------- helpers

async function shapes() {
  return import('../api/shapes.js');
}

async function command(ctx: Context, words: string): Promise<string> {
  const { kagentCommand } = await import('../io/task-follow.js');
  return kagentCommand(ctx, words);
}

/** 404s on a doc say how to find one. */
async function docHint(ctx: Context, error: unknown, id: string): Promise<unknown> {
  if (error instanceof ApiError && error.status === 404 && !error.hint) {
    error.hint = `no doc "${id}": \`${await command(ctx, 'doc list')}\` or \`${await command(ctx, 'doc search WORDS')}\` shows the ids`;
  }
  return error;
}

async function withDoc<T>(ctx: Context, id: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw await docHint(ctx, error, id);
  }
}

async function readDoc(ctx: Context, id: string): Promise<Doc> {
  const api = await ctx.api();
  return withDoc(ctx, id, () => api.call('getDoc', { params: { id }, signal: ctx.signal }));
}

async function spaceIdFor(ctx: Context, ref: string): Promise<string> {
  const { resolveSpace } = await import('./space.js');
  return (await resolveSpace(ctx, ref)).id;
}

/** The body given by --file (path or -) or --body; undefined when neither. */
async function bodyFrom(ctx: Context, opts: { file?: string; body?: string }): Promise<{ text: string; flag: string } | undefined> {
  if (opts.file !== undefined && opts.body !== undefined) throw new UsageError('use --file or --body, not both');
  if (opts.body !== undefined) return { text: opts.body, flag: '--body' };
  if (opts.file === undefined) return undefined;
  const { readTextArg } = await import('../io/doc-edit.js');
  return { text: await readTextArg(ctx, opts.file, '--file'), flag: '--file' };
}

/** A saved Revision: "✓ Saved: doc X is now at revision N" on stderr; piped "id<TAB>revision"; --json the Revision. */
async function printRevision(ctx: Context, revision: Revision, what: string): Promise<void> {
  const { printItem, success } = await import('../io/output.js');
  await success(ctx, `${what}: doc ${revision.id} is now at revision ${revision.revision}`);
  await printItem(ctx, revision, (r, f) => (f.tty ? '' : `${r.id}\t${r.revision}`));
}

interface Latest {
  revision: number;
  title?: string;
  updatedAt?: string;
}

/** The current revision a REVISION_CONFLICT carries in `latest` (or undefined). */
function latestOf(error: ApiError): Latest | undefined {
  const latest = (error.body as { latest?: unknown } | undefined)?.latest;
  if (latest && typeof latest === 'object' && typeof (latest as Latest).revision === 'number') return latest as Latest;
  return undefined;
}

/** REVISION_CONFLICT in words: the revision given, the latest one, what to do (exit 5). */
async function conflictError(ctx: Context, error: ApiError, id: string, based: number | undefined, retry: string): Promise<CliError> {
  let latest = latestOf(error);
  if (!latest) {
    try {
      latest = await readDoc(ctx, id);
    } catch {
      latest = undefined;
    }
  }
  const { formatter } = await import('../io/format.js');
  const f = formatter(ctx, 'stderr');
  const now = latest ? `it is now at revision ${latest.revision}${latest.updatedAt ? ` (saved ${f.time(latest.updatedAt)})` : ''}` : 'it has a newer revision';
  const since = based !== undefined ? ` since revision ${based}` : '';
  return new CliError(`doc ${id} changed${since}: ${now}; nothing was saved`, {
    exitCode: ExitCode.CONFLICT,
    code: 'REVISION_CONFLICT',
    hint: `read it again (\`${await command(ctx, `doc show ${id} --raw`)}\`) and reapply your change; ${retry}`,
    cause: error,
  });
}

function isConflict(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === 'REVISION_CONFLICT';
}

// ---------------------------------------------------------------- list

interface ListOptions {
  space?: string;
  limit?: number;
  all?: boolean;
}

const listColumns = [
  { header: 'Id', value: (d: DocSummary) => d.id },
  { header: 'Title', value: (d: DocSummary) => d.title, flex: true },
  { header: 'Rev', value: (d: DocSummary) => d.revision, kind: 'number' as const },
  { header: 'Updated', value: (d: DocSummary) => d.updatedAt, kind: 'time' as const },
  { header: 'Space', value: (d: DocSummary) => d.spaceId, only: 'plain' as const },
  { header: 'Folder', value: (d: DocSummary) => d.folderId, only: 'plain' as const },
];

const list = defineCommand<ListOptions>({
  name: 'list',
  aliases: ['ls'],
  summary: 'List documents, most recently updated first',
  description: 'Columns when piped: id, title, revision, updated (ISO time), space id, folder id.',
  options: [
    { flags: '--space <space>', description: 'only documents of this space (id or name)' },
    { flags: '-L, --limit <n>', description: 'at most this many (default: the first page, 100)', type: 'integer', min: 1 },
    { flags: '--all', description: 'every document, following every page' },
  ],
  examples: ['kagent doc list', 'kagent doc list --space Research --limit 10', 'kagent doc list --all --json | jq -r ".[].title"', 'kagent doc list | cut -f1,2'],
  async run(ctx, opts) {
    if (opts.all && opts.limit !== undefined) throw new UsageError('use --limit or --all, not both');
    const S = await shapes();
    const query: Record<string, string | undefined> = { space: opts.space };
    checkInput(S.Queries.listDocs, query, { space: '--space' });
    if (opts.space !== undefined) query.space = await spaceIdFor(ctx, opts.space);
    const api = await ctx.api();
    const { printList } = await import('../io/output.js');
    const items = api.paginate('listDocs', { query, signal: ctx.signal }, { limit: opts.limit, all: opts.all });
    await printList<DocSummary>(ctx, items, {
      columns: listColumns,
      empty: `No documents${opts.space ? ` in ${opts.space}` : ''}: write one with \`${await command(ctx, 'doc create --title TITLE --file notes.md')}\`.`,
    });
  },
});

// ---------------------------------------------------------------- search

const search = defineCommand<Record<string, never>, { query: string }>({
  name: 'search',
  summary: 'Search documents by keywords and meaning',
  description: 'Best matches first (no paging). Columns when piped: id, title, updated (ISO time), space id, excerpt.',
  arguments: [{ name: 'query', description: 'what to look for (1 to 200 characters)' }],
  examples: ['kagent doc search "quarterly budget"', 'kagent doc search roadmap --json', "kagent doc search meeting --jq '.[0].id'"],
  async run(ctx, _opts, args) {
    const S = await shapes();
    checkInput(S.Queries.searchDocs, { q: args.query }, { q: 'QUERY' });
    if (args.query.trim() === '') throw new UsageError('QUERY must not be blank');
    const api = await ctx.api();
    const { items } = await api.call('searchDocs', { query: { q: args.query }, signal: ctx.signal });
    const { printList } = await import('../io/output.js');
    await printList<DocHit>(ctx, items, {
      empty: `No document matches "${args.query}".`,
      columns: [
        { header: 'Id', value: (d) => d.id },
        { header: 'Title', value: (d) => d.title, flex: true },
        { header: 'Excerpt', value: (d) => d.excerpt, flex: true, only: 'tty' },
        { header: 'Updated', value: (d) => d.updatedAt, kind: 'time' },
        { header: 'Space', value: (d) => d.spaceId, only: 'plain' },
        { header: 'Excerpt', value: (d) => d.excerpt, only: 'plain' },
      ],
    });
  },
});

// ---------------------------------------------------------------- show

const show = defineCommand<{ raw?: boolean }, { id: string }>({
  name: 'show',
  pager: true,
  aliases: ['view'],
  summary: 'Show a document: rendered on a terminal, its raw Markdown when piped',
  description:
    'On a terminal: the title, id, revision, space and when it was saved, then the body rendered from Markdown. ' +
    'Piped, or with --raw: the body exactly as stored (only control characters removed), nothing else — ' +
    'so `kagent doc show ID > f.md` and `kagent doc update ID --file f.md` round-trip.',
  arguments: [{ name: 'id', description: 'the document (ids are shown by `doc list` and `doc search`)' }],
  options: [{ flags: '--raw', description: 'print the Markdown source, not rendered, even on a terminal' }],
  examples: ['kagent doc show dc_8f2k1x', 'kagent doc show dc_8f2k1x --raw > notes.md', "kagent doc show dc_8f2k1x --jq '.revision'"],
  async run(ctx, opts, args) {
    const doc = await readDoc(ctx, args.id);
    const { printJson, wantsJson, getFormatter } = await import('../io/output.js');
    if (wantsJson(ctx)) return printJson(ctx, doc);
    const { emit } = await import('../io/streams.js');
    const { sanitize, sanitizeDeep } = await import('../io/sanitize.js');
    const tty = ctx.io.stdoutIsTTY;
    if (!tty || opts.raw) {
      const body = sanitize(doc.body);
      await emit(ctx.io.stdout, tty && body !== '' && !body.endsWith('\n') ? `${body}\n` : body);
      return;
    }
    const clean = sanitizeDeep(doc);
    const f = await getFormatter(ctx);
    const facts = [clean.id, `revision ${clean.revision}`];
    if (clean.space) facts.push(clean.space.icon ? `${clean.space.icon} ${clean.space.name}` : clean.space.name);
    facts.push(`saved ${f.time(clean.updatedAt)}`);
    const lines = [f.bold(clean.title || '(untitled)'), f.dim(facts.join(' · '))];
    if (clean.publication) lines.push(f.dim(`published at ${clean.publication.url}`));
    const { renderMarkdown } = await import('../io/markdown.js');
    const body = clean.body.trim() === '' ? f.dim('(empty)') : (await renderMarkdown(ctx, clean.body)).trimEnd();
    await emit(ctx.io.stdout, `${f.wrap(lines.join('\n'))}\n\n${body}\n`);
  },
});

// ---------------------------------------------------------------- create

interface CreateOptions {
  title?: string;
  file?: string;
  body?: string;
  space?: string;
  folder?: string;
  idempotencyKey?: string;
}

const create = defineCommand<CreateOptions>({
  name: 'create',
  summary: 'Create a document from a file, stdin, text or $EDITOR',
  description:
    'The body comes from --file (a path, or - for stdin) or --body. With neither, on a terminal, kagent asks for the title and opens $EDITOR for the body; ' +
    'elsewhere give at least --title. Bounds are checked before anything is sent: title at most 200 characters, body at most 500000. ' +
    'Documents have no front matter: a body starting with a --- block is refused (put the title in --title). ' +
    'Piped, prints the new id; --json prints {id, revision}.',
  options: [
    { flags: '--title <title>', description: 'the title (at most 200 characters)' },
    { flags: '--file <path>', description: 'read the Markdown body from this file, or - for stdin' },
    { flags: '--body <markdown>', description: 'the Markdown body as text' },
    { flags: '--space <space>', description: "the space to put it in (id or name; default: the profile's space, else your default space)" },
    { flags: '--folder <id>', description: 'the folder to put it in' },
    { flags: '--idempotency-key <key>', description: 'reuse this key when rerunning (CI): a rerun within 24 h returns the first doc instead of creating another' },
  ],
  examples: [
    'kagent doc create --title "Meeting notes" --file notes.md',
    'echo "# Ideas" | kagent doc create --title Ideas --file -',
    'kagent doc create --title Todo --body "- [ ] write the report" --space Work',
    'id=$(kagent doc create --title Draft --file draft.md)',
  ],
  async run(ctx, opts) {
    const S = await shapes();
    const given = await bodyFrom(ctx, opts);
    const request: Record<string, unknown> = {};
    if (opts.title !== undefined) request.title = opts.title;
    if (given) request.markdown = given.text;
    const spaceRef = opts.space ?? ctx.config.space;
    if (spaceRef !== undefined) request.spaceId = spaceRef;
    if (opts.folder !== undefined) request.folderId = opts.folder;
    const flagFor = { title: '--title', markdown: given?.flag ?? 'the body', spaceId: opts.space !== undefined ? '--space' : "the profile's space", folderId: '--folder' };
    checkInput(S.CreateDocRequest, request, flagFor);
    await checkIdempotencyKey(opts.idempotencyKey);

    const { refuseFrontMatter } = await import('../io/doc-edit.js');
    if (given) refuseFrontMatter(given.text, given.flag);
    if (!given && opts.title === undefined) {
      if (!ctx.io.canPrompt) throw new UsageError('nothing to create: give --title and/or the body (--file PATH, --file - for stdin, or --body TEXT)');
      const { askText } = await import('../io/prompt.js');
      request.title = await askText(ctx, { message: 'Title', flag: '--title' });
      const text = await ctx.editor.edit('', { extension: '.md' });
      request.markdown = text;
      checkInput(S.CreateDocRequest, request, { ...flagFor, title: 'the title', markdown: 'the body' });
      refuseFrontMatter(text, 'the body', 'remove the block and run the command again');
    }
    if (spaceRef !== undefined) request.spaceId = await spaceIdFor(ctx, spaceRef);

    const api = await ctx.api();
    const result = await api.callFull('createDoc', { body: request, idempotencyKey: opts.idempotencyKey, signal: ctx.signal });
    const created = result.body;
    const { printItem, success, note, wantsJson } = await import('../io/output.js');
    if (result.replayed) await note(ctx, `this key already created doc ${created.id} within the last 24 hours: nothing new was created`);
    else await success(ctx, `Created doc ${created.id}${request.title ? ` "${String(request.title)}"` : ''} (revision ${created.revision})`);
    await printItem(ctx, created, (c, f) => (f.tty ? '' : c.id));
    if (ctx.io.stdoutIsTTY && !wantsJson(ctx)) await note(ctx, `read it: ${await command(ctx, `doc show ${created.id}`)}`);
  },
});

// ---------------------------------------------------------------- update

interface UpdateOptions {
  title?: string;
  file?: string;
  body?: string;
  revision?: number;
  force?: boolean;
}

const update = defineCommand<UpdateOptions, { id: string }>({
  name: 'update',
  summary: "Replace a document's title and/or body",
  description:
    'Sends the revision the change is based on: --revision N, or else the revision read just before saving. ' +
    'If someone saved the document in between, nothing is saved: REVISION_CONFLICT (exit 5) says which revision it is at now. ' +
    '--force then reads the document again and saves over that latest revision (once). ' +
    'Bounds are checked first (title at most 200 characters, body at most 500000; no front matter). Piped, prints "id<TAB>revision"; --json prints the Revision.',
  arguments: [{ name: 'id', description: 'the document' }],
  options: [
    { flags: '--title <title>', description: 'the new title (at most 200 characters)' },
    { flags: '--file <path>', description: 'the new Markdown body from this file, or - for stdin' },
    { flags: '--body <markdown>', description: 'the new Markdown body as text' },
    { flags: '--revision <n>', description: 'the revision your change is based on (default: the one read just before saving)', type: 'integer', min: 1 },
    { flags: '--force', description: 'on a conflict, read the latest revision and save over it (once)' },
  ],
  examples: [
    'kagent doc show dc_8f2k1x --raw > notes.md && $EDITOR notes.md && kagent doc update dc_8f2k1x --file notes.md --revision 3',
    'kagent doc update dc_8f2k1x --title "Meeting notes (final)"',
    'cat notes.md | kagent doc update dc_8f2k1x --file -',
    'kagent doc update dc_8f2k1x --file notes.md --force',
  ],
  async run(ctx, opts, args) {
    const S = await shapes();
    const given = await bodyFrom(ctx, opts);
    const request: Record<string, unknown> = {};
    if (opts.title !== undefined) request.title = opts.title;
    if (given) request.body = given.text;
    if (Object.keys(request).length === 0) throw new UsageError('nothing to change: give --title and/or the body (--file PATH, --file - or --body TEXT)');
    checkInput(S.UpdateDocRequest, { ...request, baseRevision: opts.revision }, { title: '--title', body: given?.flag ?? '--body', baseRevision: '--revision' });
    const { refuseFrontMatter } = await import('../io/doc-edit.js');
    if (given) refuseFrontMatter(given.text, given.flag);

    const api = await ctx.api();
    const save = (baseRevision: number) => withDoc(ctx, args.id, () => api.call('updateDoc', { params: { id: args.id }, body: { ...request, baseRevision }, signal: ctx.signal }));
    const based = opts.revision ?? (await readDoc(ctx, args.id)).revision;
    let saved: Revision;
    try {
      saved = await save(based);
    } catch (error) {
      if (!isConflict(error)) throw error;
      if (!opts.force) throw await conflictError(ctx, error, args.id, based, `or save over the latest revision with --force`);
      const latest = await readDoc(ctx, args.id);
      const { warn } = await import('../io/output.js');
      await warn(ctx, `doc ${args.id} changed since revision ${based}: --force saves over revision ${latest.revision}`);
      try {
        saved = await save(latest.revision);
      } catch (again) {
        if (isConflict(again)) throw await conflictError(ctx, again, args.id, latest.revision, 'it is being changed right now: try again in a moment');
        throw again;
      }
    }
    await printRevision(ctx, saved, 'Saved');
  },
});

// ---------------------------------------------------------------- edit

interface EditOptions {
  replace?: string[];
  with?: string[];
  insertAfter?: string[];
  content?: string[];
  append?: string[];
  prepend?: string[];
  ops?: string;
  revision?: number;
}

/** An edit and the flags it came from, to name them when it is out of bounds or does not apply. */
interface SourcedEdit {
  op: EditOp;
  /** "--replace #2", "--append", "--ops edits[3]" */
  source: string;
  flags: Record<string, string>;
}

function editsFromFlags(opts: EditOptions): SourcedEdit[] {
  const replace = opts.replace ?? [];
  const withText = opts.with ?? [];
  if (replace.length !== withText.length) {
    throw new UsageError(`each --replace needs its --with (got ${replace.length} --replace and ${withText.length} --with)`, 'e.g. --replace "old text" --with "new text"; --with "" deletes');
  }
  const after = opts.insertAfter ?? [];
  const content = opts.content ?? [];
  if (after.length !== content.length) {
    throw new UsageError(`each --insert-after needs its --content (got ${after.length} --insert-after and ${content.length} --content)`, "e.g. --insert-after $'## Notes\\n' --content $'- a new line\\n'");
  }
  const numbered = (flag: string, i: number, n: number) => (n > 1 ? `${flag} #${i + 1}` : flag);
  const edits: SourcedEdit[] = [];
  replace.forEach((find, i) => {
    edits.push({ op: { op: 'replace', find, replace: withText[i] as string }, source: numbered('--replace', i, replace.length), flags: { find: numbered('--replace', i, replace.length), replace: numbered('--with', i, replace.length) } });
  });
  after.forEach((anchor, i) => {
    edits.push({ op: { op: 'insert_after', after: anchor, content: content[i] as string }, source: numbered('--insert-after', i, after.length), flags: { after: numbered('--insert-after', i, after.length), content: numbered('--content', i, after.length) } });
  });
  (opts.prepend ?? []).forEach((text, i, all) => {
    edits.push({ op: { op: 'prepend', content: text }, source: numbered('--prepend', i, all.length), flags: { content: numbered('--prepend', i, all.length) } });
  });
  (opts.append ?? []).forEach((text, i, all) => {
    edits.push({ op: { op: 'append', content: text }, source: numbered('--append', i, all.length), flags: { content: numbered('--append', i, all.length) } });
  });
  return edits;
}

/** "--replace "old text…"" for messages. */
function describeEdit(edit: SourcedEdit): string {
  const op = edit.op as Record<string, unknown>;
  const quoted = typeof op.find === 'string' ? op.find : typeof op.after === 'string' ? op.after : undefined;
  if (quoted === undefined) return edit.source;
  const line = sanitizeLine(quoted);
  return `${edit.source} "${line.length > 40 ? `${line.slice(0, 39)}…` : line}"`;
}

const edit = defineCommand<EditOptions, { id: string }>({
  name: 'edit',
  summary: 'Change a document with exact-match edits, or in $EDITOR',
  description: [
    'Edits (1 to 20 per request) apply in this order: every --replace FIND --with TEXT pair, every --insert-after ANCHOR --content TEXT pair, every --prepend, every --append. ' +
      "Texts are taken as given, without escapes: for a newline, write $'…\\n…' in bash or zsh. " +
      'FIND and ANCHOR must match the current text exactly, once; otherwise the service refuses the request (EDIT_NOT_APPLICABLE, exit 2) and the message names the edit. ' +
      'For another order, or a rewrite, give --ops FILE: a JSON array of edits ({"op":"replace","find":…,"replace":…}, {"op":"insert_after","after":…,"content":…}, {"op":"append"|"prepend","content":…}, {"op":"rewrite","content":…}), or - for stdin.',
    'With no edits given, on a terminal, the body opens in $VISUAL / $EDITOR; when you save and quit, your change is sent as one exact-match replace of the lines you changed ' +
      '(or as a rewrite when it is too large for one), based on the revision you edited: if someone saved the document meanwhile, nothing is saved (REVISION_CONFLICT, exit 5) and your text is kept in a file the message names.',
    'Every bound is checked before anything is sent (find 1 to 20000 characters, replace at most 40000, anchor 1 to 4000, content 1 to 40000). ' +
      '--revision N makes the edits apply only to that revision. Piped, prints "id<TAB>revision"; --json prints the Revision.',
  ].join('\n\n'),
  arguments: [{ name: 'id', description: 'the document' }],
  options: [
    { flags: '--replace <find>', description: 'text to replace, matching exactly once (repeatable; pair each with --with)', repeatable: true },
    { flags: '--with <text>', description: 'what replaces the matching --replace ("" deletes it)', repeatable: true },
    { flags: '--insert-after <anchor>', description: 'insert after this text, matching exactly once (repeatable; pair each with --content)', repeatable: true },
    { flags: '--content <text>', description: 'what to insert after the matching --insert-after', repeatable: true },
    { flags: '--append <text>', description: 'add this at the end (repeatable)', repeatable: true },
    { flags: '--prepend <text>', description: 'add this at the start (repeatable)', repeatable: true },
    { flags: '--ops <file>', description: 'a JSON array of edits from this file, or - for stdin' },
    { flags: '--revision <n>', description: 'apply only if the document is still at this revision', type: 'integer', min: 1 },
  ],
  examples: [
    'kagent doc edit dc_8f2k1x',
    'kagent doc edit dc_8f2k1x --replace "Status: draft" --with "Status: final"',
    "kagent doc edit dc_8f2k1x --insert-after $'## Decisions\\n' --content $'- Ship on Friday\\n' --append $'\\n_Reviewed_'",
    'kagent doc edit dc_8f2k1x --ops edits.json --revision 7',
    `echo '[{"op":"prepend","content":"> Archived\\n\\n"}]' | kagent doc edit dc_8f2k1x --ops -`,
  ],
  async run(ctx, opts, args) {
    const S = await shapes();
    let edits = editsFromFlags(opts);
    let revision = opts.revision;
    if (opts.ops !== undefined) {
      if (edits.length > 0) throw new UsageError('use --ops or the edit flags (--replace, --insert-after, --append, --prepend), not both');
      const { parseOps, readTextArg } = await import('../io/doc-edit.js');
      const parsed = parseOps(await readTextArg(ctx, opts.ops, '--ops'), opts.ops === '-' ? 'stdin' : opts.ops);
      edits = parsed.edits.map((op, i) => ({ op: op as EditOp, source: `--ops edits[${i}]`, flags: {} }));
      revision ??= parsed.revision;
    }
    if (edits.length === 0 && opts.ops === undefined) return editInEditor(ctx, args.id);

    // Each edit against its shape, naming the flag; then the request (1 to 20 edits).
    for (const edit of edits) {
      const fromFile = Object.fromEntries(['op', 'find', 'replace', 'after', 'content'].map((field) => [field, `${edit.source}.${field}`]));
      checkInput(S.EditOp, edit.op, { '(body)': edit.source, ...fromFile, ...edit.flags });
    }
    checkInput(S.EditDocRequest, { edits: edits.map((e) => e.op), ...(revision !== undefined ? { revision } : {}) }, { edits: 'edits', revision: '--revision' });

    const api = await ctx.api();
    let saved: Revision;
    try {
      saved = await withDoc(ctx, args.id, () =>
        api.call('editDoc', { params: { id: args.id }, body: { edits: edits.map((e) => e.op), ...(revision !== undefined ? { revision } : {}) }, signal: ctx.signal }),
      );
    } catch (error) {
      if (isConflict(error)) throw await conflictError(ctx, error, args.id, revision, 'or leave out --revision: exact-match edits are safe on the latest text');
      if (error instanceof ApiError && error.code === 'EDIT_NOT_APPLICABLE') throw await notApplicable(ctx, error, args.id, edits);
      throw error;
    }
    await printRevision(ctx, saved, `Applied ${edits.length} edit${edits.length === 1 ? '' : 's'}`);
  },
});

/** Which edit did not apply (from the answer: `edit.index`, or "edits[i]" in its message), and what to do. */
async function notApplicable(ctx: Context, error: ApiError, id: string, edits: SourcedEdit[]): Promise<CliError> {
  const body = error.body as { edit?: { index?: unknown; reason?: unknown }; error?: { edit?: { index?: unknown } } } | undefined;
  let index = typeof body?.edit?.index === 'number' ? body.edit.index : typeof body?.error?.edit?.index === 'number' ? body.error.edit.index : undefined;
  if (index === undefined) {
    const match = /edits\[(\d+)\]/.exec(error.message);
    if (match) index = Number(match[1]);
  }
  const which = index !== undefined && edits[index] ? edits[index] : undefined;
  const reason = typeof body?.edit?.reason === 'string' ? body.edit.reason : undefined;
  const what = which
    ? `edit ${(index as number) + 1} of ${edits.length} (${describeEdit(which)}) ${reason ?? 'does not match the current text'}`
    : `an edit does not match the current text (${error.message})`;
  return new CliError(`${what}; doc ${id} was not changed`, {
    exitCode: ExitCode.USAGE,
    code: 'EDIT_NOT_APPLICABLE',
    hint: `read the document again (\`${await command(ctx, `doc show ${id} --raw`)}\`) and give text that matches it exactly, once — include more of the surrounding text when it occurs several times`,
    cause: error,
  });
}

/** No edit flags on a terminal: the body in $EDITOR, the change sent as one exact-match edit on the revision edited. */
async function editInEditor(ctx: Context, id: string): Promise<void> {
  if (!ctx.io.canPrompt) {
    throw new UsageError('no edits given: pass --replace/--with, --insert-after/--content, --append, --prepend or --ops FILE', 'on a terminal, `kagent doc edit ID` alone opens the document in $EDITOR');
  }
  const S = await shapes();
  const doc = await readDoc(ctx, id);
  const edited = await ctx.editor.edit(doc.body, { extension: '.md' });
  const { editFromChange, hasFrontMatter } = await import('../io/doc-edit.js');
  const { note } = await import('../io/output.js');
  const op = editFromChange(doc.body, edited, S.EditOp);
  if (!op) {
    await note(ctx, `No changes: doc ${id} stays at revision ${doc.revision}.`);
    const { printItem } = await import('../io/output.js');
    await printItem(ctx, { id: doc.id, revision: doc.revision, updatedAt: doc.updatedAt }, (r, f) => (f.tty ? '' : `${r.id}\t${r.revision}`));
    return;
  }
  const keep = async (why: string): Promise<string> => {
    const { writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const path = join(tmpdir(), `kagent-${id.replace(/[^\w.-]/g, '_')}-r${doc.revision}-${ctx.clock.now()}.md`);
    await writeFile(path, edited, { mode: 0o600 });
    return `${why}; your text is kept in ${path}`;
  };
  if (hasFrontMatter(edited)) throw new UsageError('the edited text starts with front matter (a --- block): documents have none; nothing was saved', await keep('remove the block and try again'));
  try {
    checkInput(S.EditDocRequest, { edits: [op], revision: doc.revision }, { edits: 'the edited document', revision: 'the revision' });
  } catch (error) {
    if (error instanceof CliError) error.hint = await keep(error.hint ?? 'nothing was saved');
    throw error;
  }
  const api = await ctx.api();
  let saved: Revision;
  try {
    saved = await withDoc(ctx, id, () => api.call('editDoc', { params: { id }, body: { edits: [op], revision: doc.revision }, signal: ctx.signal }));
  } catch (error) {
    if (isConflict(error)) {
      const explained = await conflictError(ctx, error, id, doc.revision, 'then `kagent doc edit` again');
      explained.hint = await keep(explained.hint ?? '');
      throw explained;
    }
    if (error instanceof CliError) error.hint = await keep(error.hint ?? 'nothing was saved');
    throw error;
  }
  await printRevision(ctx, saved, op.op === 'rewrite' ? 'Saved (rewritten)' : 'Saved');
}

// ---------------------------------------------------------------- delete

const remove = defineCommand<Record<string, never>, { id: string }>({
  name: 'delete',
  aliases: ['rm'],
  summary: 'Delete a document',
  description: 'Asks first on a terminal (naming the document); elsewhere needs --yes (without it: exit 2, nothing deleted). Piped, prints the id; --json prints {"id": ..., "deleted": true}.',
  arguments: [{ name: 'id', description: 'the document' }],
  examples: ['kagent doc delete dc_8f2k1x', 'kagent doc delete dc_8f2k1x --yes', 'kagent doc search "old draft" --jq ".[].id" | xargs -n1 kagent doc delete --yes'],
  async run(ctx, _opts, args) {
    const { confirmOrYes } = await import('../io/prompt.js');
    let label = args.id;
    if (!ctx.flags.yes && ctx.io.canPrompt) {
      const doc = await readDoc(ctx, args.id);
      const { sanitizeLine } = await import('../io/sanitize.js');
      label = `"${sanitizeLine(doc.title || '(untitled)')}" (${args.id}, revision ${doc.revision})`;
    }
    await confirmOrYes(ctx, { message: `Delete doc ${label}? This cannot be undone.`, action: `delete doc ${args.id}` });
    const api = await ctx.api();
    await withDoc(ctx, args.id, () => api.call('deleteDoc', { params: { id: args.id }, signal: ctx.signal }));
    const { printItem, success } = await import('../io/output.js');
    await success(ctx, `Deleted doc ${args.id}`);
    await printItem(ctx, { id: args.id, deleted: true }, (r, f) => (f.tty ? '' : r.id));
  },
});

export default defineGroup({
  name: 'doc',
  summary: 'Documents: list, search, show, create, edit and delete',
  description: 'Documents are Markdown (without front matter). Each save increments the revision; `update` and `edit` send the revision they are based on, so they never overwrite a newer change unnoticed.',
  examples: ['kagent doc list', 'kagent doc create --title "Meeting notes" --file notes.md', 'kagent doc edit dc_8f2k1x --replace "draft" --with "final"', 'kagent doc show dc_8f2k1x --raw > notes.md'],
  commands: [list, search, show, create, update, edit, remove],
});
