// What several `kagent inbox` verbs share.
import type { Context } from '../../src/context.js';
import type { InboxItem } from '../../src/api/shapes.js';
import { ApiError, CliError, throwIfAborted, mostSevere } from '../../src/errors.js';
import type { Formatter } from '../../src/io/format.js';
import { itemFailed } from '../../src/kit/batch.js';
import { checkInput, defineCommand, type CommandSpec, type OptionsOf } from '../../src/kit/define.js';
import { suggest } from '../../src/kit/hints.js';
import { pageOptions, paging } from '../../src/kit/options.js';
import { paginate } from '../../src/http/paginate.js';
import { printList, note, wantsJson, printJson, success } from '../../src/io/output.js';
import { emit } from '../../src/io/streams.js';
import * as S from '../../src/api/shapes.js';

const FILTERS = ['all', 'unread', 'approval', 'task', 'brief'] as const;

function kindText(kind: string, f: Formatter): string {
  switch (kind) {
    case 'approval':
      return f.yellow(kind);
    case 'task':
      return f.cyan(kind);
    case 'brief':
      return f.magenta(kind);
    case 'alert':
      return f.red(kind);
    case 'suggestion':
      return f.dim(kind);
    default:
      return kind;
  }
}

// ---------------------------------------------------------------- list

export const listOptions = [
  {
    flags: '--filter <filter>',
    description: 'all, unread, approval (actions waiting), task (finished tasks), brief (briefs and alerts)',
    choices: FILTERS,
    default: 'all',
  },
  ...pageOptions('every item'),
] as const;

export type ListOptions = OptionsOf<typeof listOptions>;

export const LIST_DESCRIPTION =
  'Actions waiting for a decision come first, then the rest, newest first. Piped, each row is: id, kind, read (true/false), title, created (ISO 8601), action id, task id, watch slug, brief id. --json prints the InboxItems.';

export async function listInbox(ctx: Context, opts: ListOptions): Promise<void> {
  const filter = opts.filter ?? 'all';
  checkInput(S.Queries.listInbox, { filter }, { filter: '--filter' });
  const api = await ctx.api();
  let unread: number | undefined;
  // The footer's approve/reject line only where the pages read hold an action waiting.
  let waiting = false;
  const items = paginate<InboxItem>(async (cursor) => {
    const page = await api.call('listInbox', {
      query: { filter, ...(cursor !== undefined ? { cursor } : {}) },
      signal: ctx.signal,
    });
    if (typeof page.unread === 'number') unread = page.unread;
    if (Array.isArray(page.items))
      waiting ||= page.items.some((item) => item?.kind === 'approval' || Boolean(item?.action));
    return page;
  }, paging(opts));
  const empty =
    filter === 'all'
      ? 'Your inbox is empty.'
      : filter === 'approval'
        ? 'No actions are waiting for your decision.'
        : `Nothing in your inbox for --filter ${filter}.`;
  const count = await printList<InboxItem>(ctx, items, {
    empty,
    columns: [
      { header: 'Id', value: (i) => i.id },
      { header: 'Kind', value: (i) => i.kind, display: (i, f) => kindText(i.kind, f) },
      { header: 'Read', value: (i) => i.read === true, only: 'plain' },
      { header: '', value: (i) => (i.read ? '' : '●'), display: (i, f) => (i.read ? '' : f.cyan('●')), only: 'tty' },
      { header: 'Title', value: (i) => i.title, flex: true },
      { header: 'Created', value: (i) => i.createdAt, kind: 'time' },
      { header: 'Action', value: (i) => i.action?.id, only: 'plain' },
      { header: 'Task', value: (i) => i.taskId, only: 'plain' },
      { header: 'Watch', value: (i) => i.watchSlug, only: 'plain' },
      { header: 'Brief', value: (i) => i.briefId, only: 'plain' },
    ],
  });
  if (!ctx.io.stdoutIsTTY || wantsJson(ctx)) return;
  const lines: string[] = [];
  if (unread !== undefined) lines.push(`${unread} unread`);
  if (count > 0) {
    lines.push(`mark: ${suggest(ctx, 'inbox read|done|dismiss ID...')}`);
    if (waiting)
      lines.push(`actions waiting: ${suggest(ctx, 'actions approve ID')} or ${suggest(ctx, 'actions reject ID')}`);
  }
  if (lines.length > 0) await note(ctx, (f) => f.dim(lines.join('\n')));
}

// ---------------------------------------------------------------- read / done / dismiss

export type Mark = 'read' | 'done' | 'dismissed';

export function markCommand(
  name: 'read' | 'done' | 'dismiss',
  mark: Mark,
  summary: string,
): CommandSpec<Record<string, never>, { ids: string[] }> {
  return defineCommand({
    name,
    summary,
    description: `Every id is tried; the exit status is that of the most severe failure (4 when an id was not found). Piped, prints each id marked; --json prints [{id, ${mark}, error?}].`,
    arguments: [{ name: 'ids', description: 'one or more inbox items', variadic: true, complete: 'inbox' }],
    examples: [
      `kagent inbox ${name} ib_3k9x8q2m7d`,
      `kagent inbox list --filter ${name === 'read' ? 'unread' : 'brief'} | cut -f1 | xargs kagent inbox ${name}`,
    ],
    async run(ctx, _opts, args) {
      const ids = [...new Set(args.ids)];
      const api = await ctx.api();
      const results: Array<Record<string, unknown>> = [];
      const failures: CliError[] = [];
      const hint = `\`${suggest(ctx, 'inbox list')}\` shows the ids`;
      for (const id of ids) {
        throwIfAborted(ctx.signal);
        try {
          await api.call('markInboxItem', { params: { id }, body: { [mark]: true }, signal: ctx.signal });
          results.push({ id, [mark]: true });
          if (!wantsJson(ctx)) {
            if (ctx.io.stdoutIsTTY) await success(ctx, `Marked ${id} ${mark}`);
            else await emit(ctx.io.stdout, `${id}\n`);
          }
        } catch (error) {
          if (error instanceof ApiError && error.status === 404 && !error.hint)
            error.hint = `no inbox item "${id}": ${hint}`;
          if (!(error instanceof ApiError) || ids.length === 1) throw error;
          failures.push(error);
          await itemFailed(ctx, results, mark, id, error);
        }
      }
      if (wantsJson(ctx)) await printJson(ctx, results);
      if (failures.length > 0) {
        const codes = [...new Set(failures.map((f) => f.code))];
        throw new CliError(`could not mark ${failures.length} of ${ids.length} items ${mark}`, {
          code: codes.length === 1 ? (codes[0] as string) : 'MARK_FAILED',
          exitCode: mostSevere(failures.map((f) => f.exitCode)),
          hint,
        });
      }
    },
  });
}
