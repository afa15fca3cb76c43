import { defineCommand } from '../../src/kit/define.js';
import { readDoc } from '../../src/docsync/revision.js';
import type { Context } from '../../src/context.js';
import type { Doc } from '../../src/api/shapes.js';
import type { Formatter } from '../../src/io/format.js';
import { printBody } from '../../src/io/outcome.js';
import { sanitize, sanitizeDeep } from '../../src/io/sanitize.js';
import { renderMarkdown } from '../../src/io/markdown.js';

export default defineCommand({
  name: 'show',
  pager: true,
  aliases: ['view'],
  summary: 'Show a document: rendered on a terminal, its raw Markdown when piped',
  description:
    'On a terminal: the title, id, revision, space and when it was saved, then the body rendered from Markdown. ' +
    'Piped, or with --raw: the body exactly as stored, nothing else (escape sequences and control characters but CR ' +
    'removed; on a terminal, bidi and invisible format characters shown as <U+XXXX>) — ' +
    'so `kagent doc show ID > f.md` and `kagent doc update ID --file f.md` round-trip.',
  arguments: [
    { name: 'id', description: 'the document (ids are shown by `doc list` and `doc search`)', complete: 'doc' },
  ],
  options: [{ flags: '--raw', description: 'print the Markdown source, not rendered, even on a terminal' }],
  examples: [
    'kagent doc show doc_8f2k3xq9mz',
    'kagent doc show doc_8f2k3xq9mz --raw > notes.md',
    "kagent doc show doc_8f2k3xq9mz --jq '.revision'",
  ],
  async run(ctx, opts, args) {
    const doc = await readDoc(ctx, args.id);
    await printBody(ctx, doc, {
      terminal: (d, f) => (opts.raw ? rawBody(d) : renderDoc(ctx, d, f)),
      piped: (d) => d.body,
      asHeld: true,
    });
  },
});

/** --raw on a terminal: the Markdown source, sanitised, ending with a newline. */
function rawBody(doc: Doc): string {
  const body = sanitize(doc.body);
  return body !== '' && !body.endsWith('\n') ? `${body}\n` : body;
}

/** On a terminal: the title and facts, then the body rendered from Markdown. */
async function renderDoc(ctx: Context, doc: Doc, f: Formatter): Promise<string> {
  const clean = sanitizeDeep(doc);
  const facts = [clean.id, `revision ${clean.revision}`];
  if (clean.space) facts.push(clean.space.icon ? `${clean.space.icon} ${clean.space.name}` : clean.space.name);
  facts.push(`saved ${f.time(clean.updatedAt)}`);
  const lines = [f.bold(clean.title || '(untitled)'), f.dim(facts.join(' · '))];
  if (clean.publication) lines.push(f.dim(`published at ${clean.publication.url}`));
  const body = clean.body.trim() === '' ? f.dim('(empty)') : (await renderMarkdown(ctx, clean.body)).trimEnd();
  return `${f.wrap(lines.join('\n'))}\n\n${body}\n`;
}
