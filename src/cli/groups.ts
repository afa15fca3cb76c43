// Where each command group's module is: commands/<name>/index.ts, imported only
// when its group is named on the command line (or every group, for completions
// and the generated docs). This is the one place src/ reaches into commands/;
// the root help's list of groups (src/cli/manifest.ts) loads none of them.
import type { CommandSpec } from '../kit/define.js';
import { findGroup, groups, type GroupName } from './manifest.js';

const loaders: Record<GroupName, () => Promise<{ default: CommandSpec }>> = {
  auth: () => import('../../commands/auth/index.js'),
  config: () => import('../../commands/config/index.js'),
  me: () => import('../../commands/me/index.js'),
  space: () => import('../../commands/space/index.js'),
  watch: () => import('../../commands/watch/index.js'),
  entry: () => import('../../commands/entry/index.js'),
  lib: () => import('../../commands/lib/index.js'),
  doc: () => import('../../commands/doc/index.js'),
  media: () => import('../../commands/media/index.js'),
  agent: () => import('../../commands/agent/index.js'),
  home: () => import('../../commands/home/index.js'),
  inbox: () => import('../../commands/inbox/index.js'),
  task: () => import('../../commands/task/index.js'),
  chat: () => import('../../commands/chat/index.js'),
  conversation: () => import('../../commands/conversation/index.js'),
  actions: () => import('../../commands/actions/index.js'),
  api: () => import('../../commands/api/index.js'),
  sandbox: () => import('../../commands/sandbox/index.js'),
  doctor: () => import('../../commands/doctor/index.js'),
  completion: () => import('../../commands/completion/index.js'),
  version: () => import('../../commands/version/index.js'),
  help: () => import('../../commands/help/index.js'),
};

/** The command tree of a group, from its module. */
export async function loadGroup(name: string): Promise<CommandSpec> {
  const entry = findGroup(name);
  if (!entry) throw new Error(`no command group "${name}"`);
  return (await loaders[entry.name]()).default;
}

/** Every group's command tree, in the root help's order (for completions and generated docs). */
export async function loadAllGroups(): Promise<CommandSpec[]> {
  return Promise.all(groups.map((group) => loadGroup(group.name)));
}
