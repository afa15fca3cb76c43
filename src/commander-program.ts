// The command line through commander: the root help (`kagent help`), a
// group's or a command's help, and every command line src/read-invocation.ts
// leaves to it, whose mistakes commander reports (exit 2, with a pointer to the
// command's help). Loaded only then: commander is the largest module a command
// would otherwise load.
import { Command } from 'commander';
import type { CommandSpec } from './kit/define.js';
import { timeoutParser, ParseFailure, type Invocation } from './option-values.js';
import type { RunOptions } from './program.js';
import type { ReadCommandLine } from './read-invocation.js';
import { replaceWithSpec } from './register.js';
import { groups } from './manifest.js';
import { GLOBAL_FLAGS, GLOBAL_FLAGS_HEADING, HELP_FLAG, ROOT_AFTER, ROOT_DESCRIPTION, ROOT_USAGE, VERSION_FLAG } from './root-help.js';

/** `kagent help`: the root help, every group listed. */
export function showRootHelp(options: RunOptions): void {
  buildRoot(options).outputHelp();
}

/**
 * Reads the command line with commander, which shows help where it is asked
 * for (then undefined: nothing runs) and throws ParseFailure on a mistake.
 * `group` (the one the command line names, if any) is registered in full; the
 * others only for `kagent help …`, which may list them.
 */
export async function readWithCommander(options: RunOptions, argv: string[], group: CommandSpec | undefined): Promise<ReadCommandLine | undefined> {
  // A command of a group: only that group is registered (start-up); the others are
  // needed only to list them or to suggest one for a name that is none.
  const program = buildRoot(options, group && group.name !== 'help' ? group.name : undefined);
  let invocation: Invocation | undefined;
  if (group) {
    const placeholder = program.commands.find((command) => command.name() === group.name);
    if (placeholder) replaceWithSpec(program, placeholder, group, (found) => (invocation = found));
  }
  if (argv.length === 0) {
    program.outputHelp();
    return undefined;
  }
  await program.parseAsync(argv, { from: 'user' });
  return invocation ? { invocation, globals: program.opts() } : undefined;
}

function buildRoot(options: RunOptions, onlyGroup?: string): Command {
  const columns = () => options.stdout.columns || Number.parseInt(options.env.COLUMNS ?? '', 10) || 80;
  const program = new Command('kagent');
  // Output and error behaviour first: subcommands copy these settings when created.
  program
    .configureOutput({
      writeOut: (text) => void options.stdout.write(text),
      writeErr: (text) => void options.stderr.write(text),
      // Parse errors are printed by the one error handler (with code and hint), not by commander.
      outputError: () => {},
      getOutHelpWidth: columns,
      getErrHelpWidth: () => options.stderr.columns || columns(),
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    })
    .exitOverride((error) => {
      throw new ParseFailure(error, 'kagent');
    })
    .showSuggestionAfterError(true)
    .helpCommand(false)
    .usage(ROOT_USAGE)
    .description(ROOT_DESCRIPTION)
    .optionsGroup(GLOBAL_FLAGS_HEADING);

  // The flags as listed in src/root-help.ts (which renders the same help without commander).
  for (const flag of GLOBAL_FLAGS) {
    const option = program.createOption(flag.flags, flag.description);
    if (flag.choices) option.choices(flag.choices);
    // At most what a timer can hold (2^31 − 1 ms, 24.8 days): a longer one would fire at once.
    if (option.attributeName() === 'timeout') option.argParser(timeoutParser());
    program.addOption(option);
  }
  program.version(options.versionText ?? options.version, VERSION_FLAG.flags, VERSION_FLAG.description).helpOption(HELP_FLAG.flags, HELP_FLAG.description);

  for (const group of groups) {
    if (onlyGroup !== undefined && group.name !== onlyGroup) continue;
    program.command(group.name).summary(group.summary).description(group.summary).helpGroup(`${group.section}:`);
  }
  program.addHelpText('after', ROOT_AFTER);
  return program;
}
