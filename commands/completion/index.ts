// `kagent completion bash|zsh|fish`: prints a completion script generated from
// the command tree of this very binary — every group module is imported (this
// command is not start-up critical), so the script always matches the commands,
// flags and choices there are. The files in completions/ only load this output.
import { defineGroup } from '../../src/kit/define.js';
import values from './values.js';
import { operations } from '../../src/api/operations.js';
import { emit } from '../../src/io/streams.js';
import { loadAllGroups } from '../../src/cli/groups.js';
import { groupAliases } from '../../src/cli/manifest.js';
import { buildTree, flagInfo } from './tree.js';
import { scriptFor } from './scripts.js';
import { GLOBAL_FLAGS, HELP_FLAG, VERSION_FLAG } from '../../src/cli/global-flags.js';

/** Paths that `kagent api` can complete (those without a parameter), and the help topics. */
async function argumentValues(groupNames: string[]): Promise<Record<string, Record<number, readonly string[]>>> {
  const paths = [
    ...new Set(
      Object.values(operations)
        .map((info) => info.path)
        .filter((path) => !path.includes('{')),
    ),
  ].sort();
  return {
    api: { 0: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', ...paths], 1: paths },
    help: { 0: ['exit-codes', 'environment', ...groupNames.filter((name) => name !== 'help')] },
  };
}

export default defineGroup({
  description: [
    'The script completes command groups, subcommands and their aliases, every flag (with its description in zsh and fish), the choices of flags and arguments, and file names where a path is expected.',
    'bash:  eval "$(kagent completion bash)" in ~/.bashrc, or save it as ~/.local/share/bash-completion/completions/kagent',
    'zsh:   kagent completion zsh > "${fpath[1]}/_kagent" (then restart zsh), or source <(kagent completion zsh) in ~/.zshrc after compinit',
    'fish:  kagent completion fish > ~/.config/fish/completions/kagent.fish',
  ].join('\n'),
  arguments: [{ name: 'shell', description: 'bash, zsh or fish', choices: ['bash', 'zsh', 'fish'] }],
  examples: [
    'eval "$(kagent completion bash)"',
    'kagent completion bash > ~/.local/share/bash-completion/completions/kagent',
    'kagent completion zsh > "${fpath[1]}/_kagent"',
    'kagent completion fish > ~/.config/fish/completions/kagent.fish',
  ],
  commands: [values],
  async run(ctx, _opts, args) {
    const specs = await loadAllGroups();
    const globals = [...GLOBAL_FLAGS, VERSION_FLAG, HELP_FLAG].map((flag) => flagInfo(flag));
    const tree = buildTree(globals, specs, await argumentValues(specs.map((spec) => spec.name)), groupAliases);
    await emit(ctx.io.stdout, scriptFor(args.shell, tree, ctx.version));
  },
});
