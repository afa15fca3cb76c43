// What several `kagent lib` verbs share.
import type { Context } from '../../src/context.js';
import type { LibraryItem } from '../../src/api/shapes.js';
import type { Formatter } from '../../src/io/format.js';
import { spaceNames } from '../../src/kit/space.js';
import { printList, type ItemView } from '../../src/io/output.js';
import type { OptionSpec } from '../../src/kit/define.js';
import { invalid } from '../../src/cli/option-values.js';
import { filterRule } from '../../src/upload/filter.js';
import { renderMarkdown } from '../../src/io/markdown.js';

export const KINDS = ['entry', 'link', 'file', 'media'] as const;

export type Kind = (typeof KINDS)[number];

// ---------------------------------------------------------------- helpers

function sourceOf(item: LibraryItem): string {
  return item.url ?? item.fileName ?? '';
}

export async function printItems(
  ctx: Context,
  items: AsyncIterable<LibraryItem> | LibraryItem[],
  empty: string,
): Promise<void> {
  // A streamed list may hold any space: on a terminal, ask for the names up front.
  const names = await spaceNames(ctx, Array.isArray(items) ? items : [{ spaceId: 'any' }]);
  await printList<LibraryItem>(ctx, items, {
    empty,
    columns: [
      { header: 'Id', value: (i) => i.id },
      { header: 'Kind', value: (i) => i.kind },
      { header: 'Title', value: (i) => i.title, flex: true },
      // The source (a URL or file name) goes early on a narrow terminal: KIND and SPACE stay while the title has room.
      { header: 'Source', value: (i) => sourceOf(i), flex: true, priority: 3, only: 'tty' },
      {
        header: 'Space',
        value: (i) => i.spaceId,
        display: (i) => (i.spaceId ? (names.get(i.spaceId) ?? i.spaceId) : ''),
        only: 'tty',
      },
      { header: 'Saved', value: (i) => i.createdAt, kind: 'time' },
      { header: 'Space', value: (i) => i.spaceId, only: 'plain' },
      { header: 'Source', value: (i) => sourceOf(i), only: 'plain' },
    ],
  });
}

// ---------------------------------------------------------------- list

export interface ListOptions {
  space?: string;
  kind?: Kind;
  limit?: number;
  all?: boolean;
}

// ---------------------------------------------------------------- show

/** The piped lines of `lib show`, declared once: the lines and its help come from it (the terminal shows the item its own way). */
export const pipedItem: ItemView<LibraryItem> = {
  fields: [
    { key: 'id', json: 'id' },
    { key: 'kind', json: 'kind' },
    { key: 'title', json: 'title' },
    { key: 'status', json: 'status' },
    { key: 'space', value: (i) => i.spaceId ?? '', json: 'spaceId' },
    { key: 'url', json: 'url' },
    { key: 'file', json: 'fileName' },
    { key: 'mime', json: 'mime' },
    { key: 'size', about: 'bytes', json: 'size' },
    { key: 'sha256', json: 'sha256' },
    { key: 'note', json: 'note' },
    { key: 'saved', kind: 'time', json: 'createdAt' },
    { key: 'updated', kind: 'time', json: 'updatedAt' },
    { key: 'summary', about: 'on one line', json: 'summary' },
    {
      key: 'key-point',
      about: 'one line per point',
      each: (i) => i.keyPoints.map((point) => ({ key: 'key-point', label: 'Key point', value: point })),
    },
  ],
};

/** An item on a terminal: its head, then its summary and key points as Markdown (piped, `pipedItem` says it). */
export async function renderItem(
  ctx: Context,
  item: LibraryItem,
  f: Formatter,
  spaceName: string | undefined,
): Promise<string> {
  const file = item.fileName
    ? [item.fileName, item.mime, item.size !== null ? f.bytes(item.size) : undefined].filter(Boolean).join(' · ')
    : undefined;
  const head = [
    f.bold(item.title || '(untitled)'),
    f.fields([
      ['Id', item.id],
      ['Kind', item.kind],
      ['Status', item.status === 'ready' ? item.status : f.yellow(item.status)],
      ['Space', spaceText(item.spaceId, spaceName, f)],
      ['Link', item.url],
      ['File', file],
      ['Note', item.note],
      ['Saved', f.time(item.createdAt)],
      ['Updated', item.updatedAt !== item.createdAt ? f.time(item.updatedAt) : undefined],
    ]),
  ].join('\n');
  let markdown = '';
  if (item.summary) markdown += `**Summary**\n\n${item.summary}\n\n`;
  if (item.keyPoints.length > 0)
    markdown += `**Key points**\n\n${item.keyPoints.map((point) => `- ${point.replace(/\n+/g, ' ')}`).join('\n')}\n`;
  if (markdown === '') return head;
  return `${head}\n\n${(await renderMarkdown(ctx, markdown)).trimEnd()}`;
}

/** "Research (sp_…)", the id alone when the name is not known, nothing for an item of no space. */
function spaceText(id: string | null | undefined, name: string | undefined, f: Formatter): string | undefined {
  if (!id) return undefined;
  return name ? `${name} ${f.dim(`(${id})`)}` : id;
}

// ---------------------------------------------------------------- upload and sync: which files

/** --exclude, --include, --follow-symlinks: what `lib upload` and `lib sync` send of a folder. */
export const fileOptions = [
  {
    flags: '--exclude <pattern>',
    description: 'leave out files matching this glob (repeatable)',
    repeatable: true,
    parse: (value) => filterRule('exclude', patternOf(value, '--exclude')),
  },
  {
    flags: '--include <pattern>',
    description: 'keep files an earlier --exclude left out (repeatable)',
    repeatable: true,
    parse: (value) => filterRule('include', patternOf(value, '--include')),
  },
  {
    flags: '--follow-symlinks',
    description: 'follow symbolic links that lead out of the folder',
  },
] as const satisfies readonly OptionSpec[];

function patternOf(value: string, flag: string): string {
  if (value.trim() === '') throw invalid(`${flag} needs a glob pattern, such as "*.tmp" or "drafts/**"`);
  return value;
}
