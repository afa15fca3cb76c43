// Where each command group's module is: commands/<name>/index.ts, its folder
// named as its manifest line (src/cli/manifest.ts). A group's module is imported
// only when its group is named on the command line (or every group, for
// completions and the generated docs). This is the one place src/ reaches into
// commands/; the root help's list of groups (src/cli/manifest.ts) loads none of them.
import { completeGroup, type CommandSpec, type GroupBody } from '../kit/define.js';
import { findGroup, groups } from './manifest.js';

/** The command tree of a group: its module's verbs under its manifest line's name and summary. */
export async function loadGroup(name: string): Promise<CommandSpec> {
  const entry = findGroup(name);
  if (!entry) throw new Error(`no command group "${name}"`);
  // A template import: the build bundles every commands/*/index.ts, each its own chunk
  // (named .ts: esbuild matches the pattern against the files, it does not map .js to .ts).
  const body = ((await import(`../../commands/${entry.name}/index.ts`)) as { default: GroupBody }).default;
  return completeGroup(entry, body);
}

/** Every group's command tree, in the root help's order (for completions and generated docs). */
export async function loadAllGroups(): Promise<CommandSpec[]> {
  return Promise.all(groups.map((group) => loadGroup(group.name)));
}
