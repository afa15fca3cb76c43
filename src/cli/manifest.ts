// The command groups as the root help lists them: name, one line each, and how
// to load the group's module. `kagent --help` reads only this; the module
// commands/<name>/index.ts is imported (by `load`) only when its group is named
// on the command line. This is the one place src/ reaches into commands/.
// A group's own summary must match its line here (tested).
import type { CommandSpec } from '../kit/define.js';

export interface GroupEntry {
  name: string;
  summary: string;
  section: 'Account' | 'Knowledge' | 'Agent' | 'Tools';
  load: () => Promise<{ default: CommandSpec }>;
}

export const groups: readonly GroupEntry[] = [
  {
    name: 'auth',
    section: 'Account',
    summary: 'Log in with an API key, check who you are, log out',
    load: () => import('../../commands/auth/index.js'),
  },
  {
    name: 'config',
    section: 'Account',
    summary: 'Read and change settings and profiles',
    load: () => import('../../commands/config/index.js'),
  },
  {
    name: 'me',
    section: 'Account',
    summary: 'Your account: plan, trial, credits and limits',
    load: () => import('../../commands/me/index.js'),
  },

  {
    name: 'space',
    section: 'Knowledge',
    summary: 'List, show, create, edit and delete spaces',
    load: () => import('../../commands/space/index.js'),
  },
  {
    name: 'watch',
    section: 'Knowledge',
    summary: 'Follow subjects, sources and pages, and read their briefs',
    load: () => import('../../commands/watch/index.js'),
  },
  {
    name: 'entry',
    section: 'Knowledge',
    summary: 'Rate and save entries of a brief',
    load: () => import('../../commands/entry/index.js'),
  },
  {
    name: 'lib',
    section: 'Knowledge',
    summary: 'Your library: save links, upload files, list, search and read',
    load: () => import('../../commands/lib/index.js'),
  },
  {
    name: 'doc',
    section: 'Knowledge',
    summary: 'Documents: list, show, write, edit, pull and push',
    load: () => import('../../commands/doc/index.js'),
  },
  {
    name: 'media',
    section: 'Knowledge',
    summary: 'Transcribe videos and podcasts and read the transcripts',
    load: () => import('../../commands/media/index.js'),
  },

  {
    name: 'agent',
    section: 'Agent',
    summary: "Your agent's name, memory and email address",
    load: () => import('../../commands/agent/index.js'),
  },
  {
    name: 'home',
    section: 'Agent',
    summary: 'An overview: what the agent read, briefs, tasks, actions, inbox',
    load: () => import('../../commands/home/index.js'),
  },
  {
    name: 'inbox',
    section: 'Agent',
    summary: 'Finished tasks, briefs, alerts and actions waiting for you',
    load: () => import('../../commands/inbox/index.js'),
  },
  {
    name: 'task',
    section: 'Agent',
    summary: 'Background tasks: list, show, follow and cancel',
    load: () => import('../../commands/task/index.js'),
  },
  { name: 'chat', section: 'Agent', summary: 'Talk to your agent', load: () => import('../../commands/chat/index.js') },
  {
    name: 'conversation',
    section: 'Agent',
    summary: 'List, show and delete conversations',
    load: () => import('../../commands/conversation/index.js'),
  },
  {
    name: 'actions',
    section: 'Agent',
    summary: "Approve, reject and undo the agent's actions",
    load: () => import('../../commands/actions/index.js'),
  },

  {
    name: 'api',
    section: 'Tools',
    summary: 'Make an authenticated request to any API path',
    load: () => import('../../commands/api/index.js'),
  },
  {
    name: 'sandbox',
    section: 'Tools',
    summary: 'Run a local double of the whole API for tests and demos',
    load: () => import('../../commands/sandbox/index.js'),
  },
  {
    name: 'doctor',
    section: 'Tools',
    summary: 'Check config, network, key, clock and API shapes',
    load: () => import('../../commands/doctor/index.js'),
  },
  {
    name: 'completion',
    section: 'Tools',
    summary: 'Print a shell completion script (bash, zsh, fish)',
    load: () => import('../../commands/completion/index.js'),
  },
  {
    name: 'version',
    section: 'Tools',
    summary: 'Print the version (as --version)',
    load: () => import('../../commands/version/index.js'),
  },
  {
    name: 'help',
    section: 'Tools',
    summary: 'Help on a command, or a topic: exit-codes, environment',
    load: () => import('../../commands/help/index.js'),
  },
];

export function findGroup(name: string | undefined): GroupEntry | undefined {
  return name === undefined ? undefined : groups.find((group) => group.name === name);
}

/** The command tree of a group, from its module. */
export async function loadGroup(name: string): Promise<CommandSpec> {
  const entry = findGroup(name);
  if (!entry) throw new Error(`no command group "${name}"`);
  return (await entry.load()).default;
}

/** Every group's command tree, in the root help's order (for completions and generated docs). */
export async function loadAllGroups(): Promise<CommandSpec[]> {
  return Promise.all(groups.map((group) => loadGroup(group.name)));
}
