// The command groups as the root help lists them: name and one line each.
// `kagent --help` reads only this. A group is its line here and its folder
// commands/<name>/ (src/cli/groups.ts loads its index.ts and gives it this line's
// name and summary; test/architecture/groups.test.ts checks neither is alone).

export interface GroupEntry {
  name: string;
  summary: string;
  section: 'Account' | 'Knowledge' | 'Agent' | 'Tools';
}

export const groups = [
  {
    name: 'auth',
    section: 'Account',
    summary: 'Log in with an API key, check who you are, log out',
  },
  {
    name: 'config',
    section: 'Account',
    summary: 'Read and change settings and profiles',
  },
  {
    name: 'me',
    section: 'Account',
    summary: 'Your account: plan, trial, credits and limits',
  },

  {
    name: 'space',
    section: 'Knowledge',
    summary: 'List, show, create, edit and delete spaces',
  },
  {
    name: 'watch',
    section: 'Knowledge',
    summary: 'Follow subjects, sources and pages, and read their briefs',
  },
  {
    name: 'entry',
    section: 'Knowledge',
    summary: 'Rate and save entries of a brief',
  },
  {
    name: 'lib',
    section: 'Knowledge',
    summary: 'Your library: save links, upload files, list, search and read',
  },
  {
    name: 'doc',
    section: 'Knowledge',
    summary: 'Documents: list, show, write, edit, pull and push',
  },
  {
    name: 'media',
    section: 'Knowledge',
    summary: 'Transcribe videos and podcasts and read the transcripts',
  },

  {
    name: 'agent',
    section: 'Agent',
    summary: "Your agent's name, memory and email address",
  },
  {
    name: 'home',
    section: 'Agent',
    summary: 'An overview: what the agent read, briefs, tasks, actions, inbox',
  },
  {
    name: 'inbox',
    section: 'Agent',
    summary: 'Finished tasks, briefs, alerts and actions waiting for you',
  },
  {
    name: 'task',
    section: 'Agent',
    summary: 'Background tasks: list, show, follow and cancel',
  },
  { name: 'chat', section: 'Agent', summary: 'Talk to your agent' },
  {
    name: 'conversation',
    section: 'Agent',
    summary: 'List, show and delete conversations',
  },
  {
    name: 'actions',
    section: 'Agent',
    summary: "Approve, reject and undo the agent's actions",
  },

  {
    name: 'api',
    section: 'Tools',
    summary: 'Make an authenticated request to any API path',
  },
  {
    name: 'sandbox',
    section: 'Tools',
    summary: 'Run a local double of the whole API for tests and demos',
  },
  {
    name: 'doctor',
    section: 'Tools',
    summary: 'Check config, network, key, clock and API shapes',
  },
  {
    name: 'completion',
    section: 'Tools',
    summary: 'Print a shell completion script (bash, zsh, fish)',
  },
  {
    name: 'version',
    section: 'Tools',
    summary: 'Print the version (as --version)',
  },
  {
    name: 'help',
    section: 'Tools',
    summary: 'Help on a command, or a topic: exit-codes, environment',
  },
] as const satisfies readonly GroupEntry[];

export type GroupName = (typeof groups)[number]['name'];

/** Other words for a group: `kagent status` is `kagent home` (src/cli/program.ts); the completion scripts offer them too. */
export const groupAliases: Readonly<Record<string, string>> = { status: 'home' };

export function findGroup(name: string | undefined): (typeof groups)[number] | undefined {
  return name === undefined ? undefined : groups.find((group) => group.name === name);
}
