// From a command spec (src/kit/define.ts) to commander: arguments, options
// with their parsing and bounds, help text, and what a run of the command
// hands back to the program (its spec, options and arguments).
import type { Command } from 'commander';
import type { ArgumentSpec, CommandSpec, OptionSpec } from './kit/define.js';
import { camelCase, ParseFailure, valueParser, type Invocation } from './option-values.js';
import { formatExamples } from './root-help.js';

/** The root's flags (as attribute names): a command must not declare them again (checked when registering). */
const GLOBAL_OPTION_NAMES = ['json', 'jq', 'profile', 'baseUrl', 'lang', 'color', 'input', 'pager', 'yes', 'quiet', 'debug', 'timeout', 'insecure', 'help', 'version'];
const GLOBAL_SHORT_FLAGS = ['-p', '-y', '-q', '-h', '-V'];
/** Globals that exist only as --no-X: a command's own --X <value> (e.g. `api --input FILE`) is a different flag, which commander tells apart. */
const NEGATE_ONLY_GLOBALS = ['color', 'input', 'pager'];

/** Swaps a manifest placeholder for the full command tree of its module. */
export function replaceWithSpec(program: Command, placeholder: Command, spec: CommandSpec, onInvoke: (invocation: Invocation) => void): void {
  const section = placeholder.helpGroup();
  const index = program.commands.indexOf(placeholder);
  (program.commands as Command[]).splice(index, 1);
  const full = register(program, spec, onInvoke, ['kagent']);
  full.helpGroup(section);
  // Keep the root help's order: move it back where the placeholder was.
  const commands = program.commands as Command[];
  commands.splice(commands.indexOf(full), 1);
  commands.splice(index, 0, full);
}

function register(parent: Command, spec: CommandSpec, onInvoke: (invocation: Invocation) => void, parentPath: string[]): Command {
  const path = [...parentPath, spec.name];
  const command = parent.command(spec.name, spec.hidden ? { hidden: true } : undefined);
  command
    .summary(spec.summary)
    .description(spec.description ? `${spec.summary}\n\n${spec.description}` : spec.summary)
    .exitOverride((error) => {
      throw new ParseFailure(error, path.join(' '));
    })
    // Not the root's "Global flags" heading, and no `help` subcommand (`kagent help …` does that).
    .optionsGroup('Options:')
    .helpOption('-h, --help', 'show help for this command')
    .helpCommand(false);
  if (spec.aliases?.length) command.aliases(spec.aliases);

  for (const argument of spec.arguments ?? []) command.addArgument(toArgument(command, argument));
  for (const option of spec.options ?? []) command.addOption(toOption(command, option, path));

  for (const sub of spec.commands ?? []) register(command, sub, onInvoke, path);

  const inherits = spec.commands?.length ? '' : `\nGlobal flags (--json, --jq, -p, -y, -q, ...) work here too: see \`kagent --help\`.\n`;
  command.addHelpText('after', `\n${formatExamples(spec.examples)}\n${inherits}`);

  if (spec.run) {
    command.action((...received: unknown[]) => {
      const self = received[received.length - 1] as Command;
      const args: Record<string, unknown> = {};
      (spec.arguments ?? []).forEach((argument, i) => {
        args[camelCase(argument.name)] = self.processedArgs[i];
      });
      onInvoke({ spec, opts: ownOptions(self), args });
    });
  }
  return command;
}

/**
 * The command's option values. A runnable group may declare the same option as
 * its subcommand (`kagent inbox --filter x` and `kagent inbox list --filter x`);
 * commander gives a flag after the subcommand's name to the group, so a value
 * the group got from the command line is the subcommand's, unless the
 * subcommand got its own. The root's flags are the global ones, never a
 * command's own (`kagent api --no-input` is not `api --input`).
 */
function ownOptions(command: Command): Record<string, unknown> {
  const opts = command.opts();
  const names = new Set(command.options.map((option) => option.attributeName()));
  for (let parent = command.parent; parent?.parent; parent = parent.parent) {
    for (const [name, value] of Object.entries(parent.opts())) {
      if (names.has(name) && parent.getOptionValueSource(name) === 'cli' && command.getOptionValueSource(name) !== 'cli') opts[name] = value;
    }
  }
  return opts;
}

function toArgument(command: Command, spec: ArgumentSpec) {
  const name = `${spec.name}${spec.variadic ? '...' : ''}`;
  const argument = command.createArgument(spec.optional ? `[${name}]` : `<${name}>`, spec.description);
  if (spec.choices) argument.choices(spec.choices);
  return argument;
}

function toOption(command: Command, spec: OptionSpec, path: string[]) {
  const option = command.createOption(spec.flags, spec.description);
  const sameName = GLOBAL_OPTION_NAMES.includes(option.attributeName()) && !(NEGATE_ONLY_GLOBALS.includes(option.attributeName()) && !option.negate);
  if (sameName || (option.short !== undefined && GLOBAL_SHORT_FLAGS.includes(option.short))) {
    throw new Error(`${path.join(' ')}: option ${spec.flags} clashes with a global flag`);
  }
  const takesValue = option.required || option.optional;
  if (takesValue) {
    option.argParser(valueParser(spec));
    if (spec.choices) option.argChoices = [...spec.choices];
  }
  if (spec.default !== undefined) option.default(spec.default);
  if (spec.required) option.makeOptionMandatory(true);
  if (spec.hidden) option.hideHelp(true);
  return option;
}
