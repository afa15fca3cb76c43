// kagent space list / create / edit / delete. A space is named by id or by
// name everywhere (resolveSpace, also used by other groups for --space).
import type { Space } from '../api/shapes.js';
import type { Context } from '../context.js';
import { ApiError, CliError, ExitCode, UsageError } from '../errors.js';
import type { Column } from '../io/output.js';
import { checkInput, defineCommand, defineGroup } from './define.js';

/**
 * The space a user named, by id or by name (exact, then ignoring case).
 * No match → exit 4; a name shared by several spaces → exit 2 listing their ids.
 */
export async function resolveSpace(ctx: Context, ref: string): Promise<Space> {
  const api = await ctx.api();
  const { items } = await api.call('listSpaces', { signal: ctx.signal });
  const byId = items.find((space) => space.id === ref);
  if (byId) return byId;
  let matches = items.filter((space) => space.name === ref);
  if (matches.length === 0) matches = items.filter((space) => space.name.toLowerCase() === ref.toLowerCase());
  if (matches.length === 1 && matches[0]) return matches[0];
  if (matches.length > 1) {
    throw new UsageError(`"${ref}" names ${matches.length} spaces (${matches.map((space) => space.id).join(', ')})`, 'name the space by its id');
  }
  throw new CliError(`no space with id or name "${ref}"`, { exitCode: ExitCode.NOT_FOUND, code: 'SPACE_NOT_FOUND', hint: 'see your spaces with `kagent space list`' });
}

const columns: Column<Space>[] = [
  { header: 'id', value: (space) => space.id },
  { header: 'name', value: (space) => space.name, display: (space) => (space.icon ? `${space.icon} ${space.name}` : space.name), flex: true },
  { header: 'icon', value: (space) => space.icon, only: 'plain' },
  { header: 'description', value: (space) => space.description, flex: true },
  { header: 'default', value: (space) => space.isDefault, kind: 'bool' },
  { header: 'created', value: (space) => space.createdAt, kind: 'time' },
];

/** "🔬 Research (sp_123)" */
function label(space: Pick<Space, 'id' | 'name' | 'icon'>): string {
  return `${space.icon ? `${space.icon} ` : ''}${space.name} (${space.id})`;
}

const list = defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List your spaces',
  description: 'Piped, each row is: id, name, icon, description, default (true/false), created (ISO 8601).',
  examples: ['kagent space list', 'kagent space list --json', 'kagent space list | cut -f2'],
  async run(ctx) {
    const { printList } = await import('../io/output.js');
    const api = await ctx.api();
    const { items } = await api.call('listSpaces', { signal: ctx.signal });
    await printList(ctx, items, { columns, empty: 'No spaces.' });
  },
});

const create = defineCommand<{ icon?: string; description?: string }, { name: string }>({
  name: 'create',
  summary: 'Create a space',
  description: "The name, icon and description are checked against the service's bounds before anything is sent.",
  arguments: [{ name: 'name', description: "the new space's name" }],
  options: [
    { flags: '--icon <emoji>', description: 'an icon, usually one emoji' },
    { flags: '--description <text>', description: 'what the space is for' },
  ],
  examples: ['kagent space create Research', 'kagent space create "Reading list" --icon 📚 --description "Long reads for the weekend"', 'id=$(kagent space create Travel)'],
  async run(ctx, opts, args) {
    const { CreateSpaceRequest } = await import('../api/shapes.js');
    const body = { name: args.name, ...(opts.icon !== undefined ? { icon: opts.icon } : {}), ...(opts.description !== undefined ? { description: opts.description } : {}) };
    checkInput(CreateSpaceRequest, body, { name: 'NAME', icon: '--icon', description: '--description' });
    const api = await ctx.api();
    const space = await api.call('createSpace', { body, signal: ctx.signal });
    const { printItem } = await import('../io/output.js');
    await printItem(ctx, space, (created, f) => (f.tty ? `${f.green('✓')} Created space ${label(created)}` : created.id));
  },
});

const edit = defineCommand<{ name?: string; icon?: string | false; description?: string; position?: number }, { space: string }>({
  name: 'edit',
  summary: "Change a space's name, icon, description or position",
  arguments: [{ name: 'space', description: 'id or name of the space' }],
  options: [
    { flags: '--name <name>', description: 'new name' },
    { flags: '--icon <emoji>', description: 'new icon' },
    { flags: '--no-icon', description: 'remove the icon' },
    { flags: '--description <text>', description: 'new description' },
    { flags: '--position <n>', description: 'new place in the list (0 is first)', type: 'integer', min: 0 },
  ],
  examples: ['kagent space edit Research --name "Research notes"', 'kagent space edit sp_123 --icon 🧪 --position 0', 'kagent space edit Research --no-icon'],
  async run(ctx, opts, args) {
    const body: Record<string, unknown> = {};
    if (opts.name !== undefined) body.name = opts.name;
    if (opts.icon !== undefined) body.icon = opts.icon === false ? null : opts.icon;
    if (opts.description !== undefined) body.description = opts.description;
    if (opts.position !== undefined) body.position = opts.position;
    if (Object.keys(body).length === 0) throw new UsageError('nothing to change', 'pass at least one of --name, --icon, --no-icon, --description, --position');
    const { UpdateSpaceRequest } = await import('../api/shapes.js');
    checkInput(UpdateSpaceRequest, body, { name: '--name', icon: '--icon', description: '--description', position: '--position' });

    const space = await resolveSpace(ctx, args.space);
    const api = await ctx.api();
    await api.call('updateSpace', { params: { id: space.id }, body, signal: ctx.signal });
    // The service answers 204: show the space as it now stands.
    const { items } = await api.call('listSpaces', { signal: ctx.signal });
    const updated = items.find((item) => item.id === space.id) ?? { ...space, ...body };
    const { printItem } = await import('../io/output.js');
    await printItem(ctx, updated, (shown, f) => (f.tty ? `${f.green('✓')} Updated space ${label(shown)}` : shown.id));
  },
});

const remove = defineCommand<Record<string, never>, { space: string }>({
  name: 'delete',
  aliases: ['rm'],
  summary: 'Delete a space; what it holds moves to your default space',
  description: 'Asks for confirmation on a terminal; elsewhere pass --yes. The default space cannot be deleted.',
  arguments: [{ name: 'space', description: 'id or name of the space' }],
  examples: ['kagent space delete Travel', 'kagent space delete sp_123 --yes'],
  async run(ctx, _opts, args) {
    const space = await resolveSpace(ctx, args.space);
    const { sanitizeLine } = await import('../io/sanitize.js');
    if (space.isDefault) throw notDeletable(sanitizeLine(space.name));
    const { confirmOrYes } = await import('../io/prompt.js');
    await confirmOrYes(ctx, {
      message: `Delete space ${sanitizeLine(label(space))}? Its watches, library items, documents and conversations move to your default space.`,
      action: `delete space "${sanitizeLine(space.name)}"`,
    });
    const api = await ctx.api();
    try {
      await api.call('deleteSpace', { params: { id: space.id }, signal: ctx.signal });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'SPACE_NOT_DELETABLE') throw notDeletable(sanitizeLine(space.name));
      throw error;
    }
    // 204: --json shows the space that was deleted.
    const { printItem } = await import('../io/output.js');
    await printItem(ctx, space, (deleted, f) => (f.tty ? `${f.green('✓')} Deleted space ${label(deleted)}; its contents moved to your default space` : deleted.id));
  },
});

function notDeletable(name: string): CliError {
  return new CliError(`"${name}" is your default space, which cannot be deleted`, {
    exitCode: ExitCode.USAGE,
    code: 'SPACE_NOT_DELETABLE',
    hint: 'every account keeps exactly one default space: it is where the contents of deleted spaces (and anything saved without a space) go. Rename it with `kagent space edit` instead',
  });
}

export default defineGroup({
  name: 'space',
  summary: 'List, create, edit and delete spaces',
  description: 'Spaces hold watches, library items, documents and conversations. Name a space by its id or its name.',
  examples: ['kagent space list', 'kagent space create Research --icon 🔬', 'kagent space delete Research --yes'],
  commands: [list, create, edit, remove],
});
