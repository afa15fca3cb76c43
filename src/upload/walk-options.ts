// What `lib upload` and `lib sync` walk of a folder, from their --exclude, --include and --follow-symlinks.
import type { Context } from '../context.js';
import type { Skipped } from './discover.js';
import { filterRule, orderedRules, ownPaths, pathFilter } from './filter.js';

export interface FileOptions {
  exclude?: Array<ReturnType<typeof filterRule>>;
  include?: Array<ReturnType<typeof filterRule>>;
  followSymlinks?: boolean;
}

/** discover's options for these flags, with `skipped` to tell afterwards (reportSkipped). */
export function discoverOptions(ctx: Pick<Context, 'cwd' | 'signal' | 'io'>, opts: FileOptions) {
  const rules = orderedRules(opts.exclude, opts.include);
  return {
    cwd: ctx.cwd,
    signal: ctx.signal,
    followSymlinks: opts.followSymlinks === true,
    ...(rules.length > 0 ? { filter: pathFilter(rules) } : {}),
    guarded: ownPaths(ctx.io.env),
    skipped: [] as Skipped[],
  };
}
