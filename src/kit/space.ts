// A space as the user names it on the command line: by id, or by name (exact,
// then ignoring case). Every command taking a space (`--space`, `space edit`)
// goes through here, so they all accept the same forms and fail the same way.
import type { Space } from '../api/shapes.js';
import type { Context } from '../context.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { sanitizeLine } from '../io/sanitize.js';
import { atTerminal } from '../io/outcome.js';

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
    throw new UsageError(
      `"${ref}" names ${matches.length} spaces (${matches.map((space) => space.id).join(', ')})`,
      'name the space by its id',
    );
  }
  // The profile's default space (`config set space`) is named by nobody on this command line: say where it came from.
  const fromProfile = ctx.config.space === ref;
  throw new CliError(
    `no space with id or name "${ref}"${fromProfile ? ` (the default space of profile "${ctx.config.profile}")` : ''}`,
    {
      exitCode: ExitCode.NOT_FOUND,
      code: 'SPACE_NOT_FOUND',
      hint: fromProfile
        ? `see your spaces with \`kagent space list\`; change the default with \`kagent config set space NAME\`, or remove it with \`kagent config unset space\``
        : 'see your spaces with `kagent space list`',
    },
  );
}

/**
 * A space named to be used later (`config set space`), checked now: the space, or why
 * it could not be checked (no key or base URL yet, the service out of reach). No such
 * space, or a name shared by several, fails as in resolveSpace.
 */
export async function checkSpace(ctx: Context, ref: string): Promise<{ space: Space } | { unchecked: string }> {
  try {
    return { space: await resolveSpace(ctx, ref) };
  } catch (error) {
    if (ctx.signal.aborted || error instanceof UsageError) throw error;
    if (error instanceof CliError && error.code === 'SPACE_NOT_FOUND') throw error;
    return { unchecked: error instanceof Error ? error.message : String(error) };
  }
}

/** The id of the space a user named (see resolveSpace). */
export async function spaceIdFor(ctx: Context, ref: string): Promise<string> {
  return (await resolveSpace(ctx, ref)).id;
}

/**
 * Space names by id, for the Space column of a table on a terminal (one extra
 * request); empty for scripts, which get the ids, and when the lookup fails.
 */
export async function spaceNames(
  ctx: Context,
  items: Array<{ spaceId?: string | null }>,
): Promise<Map<string, string>> {
  if (!atTerminal(ctx) || !items.some((item) => item.spaceId)) return new Map();
  try {
    const { items: spaces } = await (await ctx.api()).call('listSpaces', { signal: ctx.signal });
    // Names reach the table through a display callback: sanitise them here, where they are fetched.
    return new Map(spaces.map((space) => [space.id, sanitizeLine(space.name)]));
  } catch {
    return new Map();
  }
}

/**
 * The name of a space by its id, looked up once (one request, on first use) and
 * sanitised; undefined when there is no such space or the lookup fails. For
 * saying where the service put something (`lib upload` without --space).
 */
export function spaceNameLookup(ctx: Context): (id: string) => Promise<string | undefined> {
  let names: Promise<Map<string, string>> | undefined;
  return async (id) => {
    names ??= (async () => {
      try {
        const { items } = await (await ctx.api()).call('listSpaces', { signal: ctx.signal });
        return new Map(items.map((space) => [space.id, sanitizeLine(space.name)]));
      } catch {
        return new Map<string, string>();
      }
    })();
    return (await names).get(id);
  };
}
