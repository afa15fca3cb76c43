// The doc model: documents in the service's Markdown dialect (no front matter).
// Every save increments `revision`; a caller passes the revision it read, and a
// stale one is 409 REVISION_CONFLICT. Edits are exact-match, applied in order,
// all or nothing: an edit that does not match is 400 EDIT_NOT_APPLICABLE. The
// routes are in ../routes/docs.ts.
import type {
  CreateDocRequest,
  Doc,
  DocHit,
  DocSummary,
  EditDocRequest,
  EditOp,
  Revision,
  UpdateDocRequest,
} from '../../api/shapes.js';
import { charLength } from '../../api/validate.js';
import { stem, stripMarkdown, tokens } from '../reading.js';
import { HttpFail, type Account, type DocRecord } from '../types.js';
import { notFound, type World } from '../world.js';

export const MARKDOWN_MAX = 500_000;
const SEARCH_RESULTS_MAX = 50;
const EXCERPT_CHARS = 160;

/** Docs in a space (by id or, leniently, exact name), or all of them: the most recently saved first. */
export function docsIn(account: Account, space: string | undefined): DocRecord[] {
  // account.docs is kept in order of last save, so the newest save is last.
  const docs = [...account.docs].reverse();
  if (!space) return docs;
  return docs.filter((d) => d.spaceId === space || account.spaces.some((s) => s.id === d.spaceId && s.name === space));
}

/** A new doc at revision 1, in the space given or the default one. */
export function createDoc(world: World, account: Account, input: CreateDocRequest): DocRecord {
  const markdown = input.markdown ?? '';
  rejectFrontMatter(markdown, 'markdown');
  const space = input.spaceId ? world.space(account, input.spaceId) : world.defaultSpace(account);
  const doc: DocRecord = {
    id: world.id('doc'),
    title: input.title ?? '',
    body: markdown,
    revision: 1,
    origin: 'api',
    folderId: input.folderId ?? null,
    updatedAt: world.iso(),
    spaceId: space.id,
    publication: null,
  };
  account.docs.push(doc);
  return doc;
}

/** Replaces the title and/or body, if `baseRevision` (when given) is still the doc's. */
export function updateDoc(world: World, account: Account, id: string | undefined, input: UpdateDocRequest): Revision {
  const doc = findDoc(account, id);
  if (input.title === undefined && input.body === undefined) {
    throw new HttpFail(400, 'INVALID_INPUT', 'Give a title and/or a body to save', {
      issues: [{ path: '(body)', message: 'must set title and/or body' }],
    });
  }
  if (input.baseRevision !== undefined && input.baseRevision !== doc.revision) throw conflict(doc, input.baseRevision);
  if (input.body !== undefined) rejectFrontMatter(input.body, 'body');
  if (input.title !== undefined) doc.title = input.title;
  if (input.body !== undefined) doc.body = input.body;
  return save(world, account, doc);
}

export function deleteDoc(account: Account, id: string | undefined): void {
  const doc = findDoc(account, id);
  account.docs = account.docs.filter((d) => d !== doc);
}

/** Applies the edits in order, all or nothing, if `revision` (when given) is still the doc's. */
export function editDoc(world: World, account: Account, id: string | undefined, input: EditDocRequest): Revision {
  const doc = findDoc(account, id);
  if (input.revision !== undefined && input.revision !== doc.revision) throw conflict(doc, input.revision);
  let text = doc.body;
  input.edits.forEach((edit, index) => {
    text = applyEdit(text, edit, index);
  });
  if (charLength(text) > MARKDOWN_MAX) {
    throw new HttpFail(
      400,
      'INVALID_INPUT',
      `After these edits the document would be over ${MARKDOWN_MAX} characters`,
      {
        issues: [
          {
            path: 'edits',
            message: `the edited document must be at most ${MARKDOWN_MAX} characters (got ${charLength(text)})`,
          },
        ],
      },
    );
  }
  rejectFrontMatter(text, 'edits');
  doc.body = text;
  return save(world, account, doc);
}

// ------------------------------------------------------------ saving and views

export function findDoc(account: Account, id: string | undefined): DocRecord {
  const doc = account.docs.find((d) => d.id === id && !d._deleted);
  if (!doc) throw notFound('DOC_NOT_FOUND', `Doc ${id}`);
  return doc;
}

/** One save: the revision goes up by one and the doc moves to the front of "most recently updated". */
function save(world: World, account: Account, doc: DocRecord): Revision {
  doc.revision += 1;
  doc.updatedAt = world.iso();
  account.docs = [...account.docs.filter((d) => d !== doc), doc];
  return { id: doc.id, revision: doc.revision, updatedAt: doc.updatedAt };
}

function conflict(doc: DocRecord, given: number): HttpFail {
  return new HttpFail(
    409,
    'REVISION_CONFLICT',
    `The doc is at revision ${doc.revision}, not ${given}: read it again and reapply your change`,
    {
      latest: { revision: doc.revision, title: doc.title, body: doc.body, updatedAt: doc.updatedAt },
    },
  );
}

export function docView(world: World, account: Account, doc: DocRecord): Doc {
  const space = account.spaces.find((s) => s.id === doc.spaceId) ?? world.defaultSpace(account);
  return {
    id: doc.id,
    title: doc.title,
    body: doc.body,
    revision: doc.revision,
    origin: doc.origin,
    folderId: doc.folderId,
    updatedAt: doc.updatedAt,
    space: { id: space.id, name: space.name, icon: space.icon, isDefault: space.isDefault },
    publication: doc.publication,
  };
}

export function summaryView(doc: DocRecord): DocSummary {
  return {
    id: doc.id,
    title: doc.title,
    spaceId: doc.spaceId,
    folderId: doc.folderId,
    revision: doc.revision,
    updatedAt: doc.updatedAt,
  };
}

// ------------------------------------------------------------ edits

/**
 * Applies one exact-match edit. `find` (replace) and `after` (insert_after)
 * must occur exactly once: an ambiguous match is refused like a missing one,
 * so an edit never lands somewhere the caller did not mean.
 */
function applyEdit(text: string, edit: EditOp, index: number): string {
  const fail = (reason: string) =>
    new HttpFail(
      400,
      'EDIT_NOT_APPLICABLE',
      `Edit ${index + 1} of the request (edits[${index}], ${edit.op}) ${reason}; read the document again`,
      {
        edit: { index, op: edit.op, reason },
      },
    );
  switch (edit.op) {
    case 'replace': {
      const at = uniqueIndex(text, edit.find, fail);
      return text.slice(0, at) + edit.replace + text.slice(at + edit.find.length);
    }
    case 'insert_after': {
      const at = uniqueIndex(text, edit.after, fail) + edit.after.length;
      return text.slice(0, at) + edit.content + text.slice(at);
    }
    case 'append':
      // A new block goes on its own line.
      return text === '' || text.endsWith('\n') || edit.content.startsWith('\n')
        ? text + edit.content
        : `${text}\n${edit.content}`;
    case 'prepend':
      return text === '' || edit.content.endsWith('\n') || text.startsWith('\n')
        ? edit.content + text
        : `${edit.content}\n${text}`;
    case 'rewrite':
      return edit.content;
  }
}

function uniqueIndex(text: string, needle: string, fail: (reason: string) => HttpFail): number {
  const first = text.indexOf(needle);
  if (first === -1) throw fail('did not match: the text is not in the document');
  if (text.indexOf(needle, first + 1) !== -1)
    throw fail(
      `matched ${countOccurrences(text, needle)} places: include more surrounding text so it matches exactly one`,
    );
  return first;
}

function countOccurrences(text: string, needle: string): number {
  let n = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) n++;
  return n;
}

/** The service's Markdown has no front matter: a leading `---` (YAML) or `+++` (TOML) block is refused. */
function rejectFrontMatter(markdown: string, path: string): void {
  if (/^\uFEFF?(---|\+\+\+)[ \t]*\r?\n[\s\S]*?\r?\n(---|\+\+\+|\.\.\.)[ \t]*(\r?\n|$)/.test(markdown)) {
    throw new HttpFail(
      400,
      'INVALID_INPUT',
      'Front matter is not supported: put the title in `title` and start the body with its content',
      {
        issues: [{ path, message: 'must not start with front matter (a --- block)' }],
      },
    );
  }
}

// ------------------------------------------------------------ search

/**
 * Keyword search with a crude sense of meaning: words are compared by stem, so
 * "reporting" finds "reports", and a few related words count as a weaker match.
 * Title matches weigh more than body matches; ties go to the most recently updated.
 */
export function searchDocs(docs: DocRecord[], q: string): DocHit[] {
  const wanted = [...new Set(tokens(q, 2))];
  const related = new Set(wanted.flatMap((w) => RELATED.get(w) ?? []).filter((w) => !wanted.includes(w)));
  const needle = q.trim().toLowerCase();
  const hits: Array<{ doc: DocRecord; score: number; order: number }> = [];
  docs.forEach((doc, order) => {
    const titleWords = new Set(tokens(doc.title, 2));
    const bodyWords = new Set(tokens(doc.body, 2));
    let score = 0;
    for (const w of wanted) score += (titleWords.has(w) ? 3 : 0) + (bodyWords.has(w) ? 1 : 0);
    for (const w of related) score += titleWords.has(w) || bodyWords.has(w) ? 0.5 : 0;
    if (needle && `${doc.title}\n${doc.body}`.toLowerCase().includes(needle)) score += 2;
    if (score > 0) hits.push({ doc, score, order });
  });
  return hits
    .sort((a, b) => b.score - a.score || b.order - a.order)
    .slice(0, SEARCH_RESULTS_MAX)
    .map(({ doc }) => ({
      id: doc.id,
      title: doc.title,
      spaceId: doc.spaceId,
      excerpt: excerpt(doc.body, wanted, needle),
      updatedAt: doc.updatedAt,
    }));
}

/** A short passage around the first match (or the start of the doc), as plain text on one line. */
function excerpt(body: string, wanted: string[], needle: string): string {
  const plain = stripMarkdown(body).replace(/\s+/g, ' ').trim();
  const lower = plain.toLowerCase();
  let at = needle ? lower.indexOf(needle) : -1;
  for (const w of wanted) if (at === -1) at = lower.indexOf(w);
  const start = Math.max(0, at - 40);
  const chars = [...plain.slice(start)];
  const text = chars.slice(0, EXCERPT_CHARS).join('');
  return `${start > 0 ? '…' : ''}${text}${chars.length > EXCERPT_CHARS ? '…' : ''}`;
}

/** Small groups of words that mean nearly the same: the "meaning" half of the search. */
const RELATED = new Map<string, string[]>();
for (const group of [
  ['meeting', 'agenda', 'minute', 'call'],
  ['plan', 'roadmap', 'strategy', 'goal'],
  ['budget', 'cost', 'price', 'spend', 'expense'],
  ['bug', 'issue', 'defect', 'error', 'problem'],
  ['idea', 'proposal', 'suggestion'],
  ['note', 'memo', 'summary'],
  ['revenue', 'sale', 'income'],
  ['hire', 'recruit', 'candidate', 'interview'],
  ['launch', 'release', 'ship'],
  ['customer', 'client', 'user'],
]) {
  const stems = group.map(stem);
  for (const word of stems) RELATED.set(word, stems);
}
