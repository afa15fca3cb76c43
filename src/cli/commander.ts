// The one reader of the command line: commander, with the root's flags from
// global-flags.ts and only the group the command line names registered in full
// (building every group's tree would cost every command the time to load all
// of them). Shows help where it is asked for; a mistake throws ParseFailure,
// which the program reports as a usage error (exit 2) with a pointer to help.
import { Command, Help } from 'commander';
import { bareGroupVerb, type ArgumentSpec, type CommandSpec, type OptionSpec } from '../kit/define.js';
import { camelCase, timeoutParser, ParseFailure, valueParser, type Invocation } from './option-values.js';
import type { RunOptions } from './program.js';
import { groups } from './manifest.js';
import {
  GLOBAL_ATTRIBUTES,
  GLOBAL_FLAGS,
  GLOBAL_FLAGS_HEADING,
  GLOBAL_SHORT_FLAGS,
  HELP_FLAG,
  NEGATE_ONLY_ATTRIBUTES,
  VERSION_FLAG,
} from './global-flags.js';
import {
  DESCRIPTION_ROOM,
  formatExamples,
  MIN_WIDTH_TO_WRAP,
  ROOT_AFTER,
  ROOT_DESCRIPTION,
  ROOT_USAGE,
} from './root-help.js';

/** `kagent help`: the root help, every group listed. */
export function showRootHelp(options: RunOptions): void {
  buildRoot(options).outputHelp();
}

/** A command line read: the command to run, with the root's flags as commander's opts() has them. */
export interface ReadCommandLine {
  invocation: Invocation;
  globals: Record<string, unknown>;
}

/**
 * Reads the command line, showing help where it is asked for (then undefined:
 * nothing runs); throws ParseFailure on a mistake. `group` (the one the command
 * line names, if any) is registered in full; the others only by name, for
 * `kagent help` and for suggesting a group for a word that is none.
 */
export async function readCommandLine(
  options: RunOptions,
  argv: string[],
  group: CommandSpec | undefined,
): Promise<ReadCommandLine | undefined> {
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
    .configureHelp(NARROW_HELP)
    .exitOverride((error) => {
      throw new ParseFailure(error, 'kagent');
    })
    .showSuggestionAfterError(true)
    .helpCommand(false)
    .usage(ROOT_USAGE)
    .description(ROOT_DESCRIPTION)
    .optionsGroup(GLOBAL_FLAGS_HEADING);

  // The flags as the root help lists them (root-help.ts renders the same help without commander).
  for (const flag of GLOBAL_FLAGS) {
    const option = program.createOption(flag.flags, flag.description);
    if (flag.choices) option.choices(flag.choices);
    // At most what a timer can hold (2^31 − 1 ms, 24.8 days): a longer one would fire at once.
    if (option.attributeName() === 'timeout') option.argParser(timeoutParser());
    program.addOption(option);
  }
  program
    .version(options.versionText ?? options.version, VERSION_FLAG.flags, VERSION_FLAG.description)
    .helpOption(HELP_FLAG.flags, HELP_FLAG.description);

  for (const group of groups) {
    if (onlyGroup !== undefined && group.name !== onlyGroup) continue;
    program.command(group.name).summary(group.summary).description(group.summary).helpGroup(`${group.section}:`);
  }
  program.addHelpText('after', ROOT_AFTER);
  return program;
}

/**
 * Help at any width wraps at word boundaries (commander leaves text unwrapped below 40 columns, and the
 * terminal then cuts words in two): prose wraps from 10 columns up, and where a description has too little
 * room beside its flag or command, it is written under it, indented. Examples stay whole (commands to copy, like
 * URLs). Every command's help inherits this.
 */
const NARROW_HELP: Partial<Help> = {
  minWidthToWrap: MIN_WIDTH_TO_WRAP,
  formatItem(term: string, termWidth: number, description: string, helper: Help): string {
    const width = helper.helpWidth ?? 80;
    if (!description || width - termWidth - 4 >= DESCRIPTION_ROOM)
      return Help.prototype.formatItem.call(helper, term, termWidth, description, helper);
    const under = helper.boxWrap(description, Math.max(10, width - 6));
    return `  ${term}\n${under.replace(/^/gm, '      ')}`;
  },
  // The usage line wraps too, under itself ("Usage: " is 7 columns).
  styleUsage(this: Help, usage: string): string {
    return this.boxWrap(usage, Math.max(10, (this.helpWidth ?? 80) - 7)).replace(/\n/g, `\n${' '.repeat(7)}`);
  },
};

/** The text after a command's help wrapped like the rest of it: prose and `# comments` at words, `$ commands` whole. */
function wrapAfterText(command: Command, text: string, toStderr: boolean): string {
  const output = command.configureOutput();
  const width = (toStderr ? output.getErrHelpWidth?.() : output.getOutHelpWidth?.()) ?? 80;
  const help = command.createHelp();
  return text
    .split('\n')
    .map((line) => {
      if (line.startsWith('  $ ') || line.length <= width) return line;
      const comment = /^ {2}# /.test(line);
      const prefix = comment ? '  # ' : '';
      return help.boxWrap(comment ? line.slice(4) : line, Math.max(10, width - prefix.length)).replace(/^/gm, prefix);
    })
    .join('\n');
}

// ---------------------------------------------------------------- a command spec (src/kit/define.ts) in commander

/** Swaps a manifest placeholder for the full command tree of its module. */
function replaceWithSpec(
  program: Command,
  placeholder: Command,
  spec: CommandSpec,
  onInvoke: (invocation: Invocation) => void,
): void {
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

function register(
  parent: Command,
  spec: CommandSpec,
  onInvoke: (invocation: Invocation) => void,
  parentPath: string[],
  isDefault = false,
): Command {
  const path = [...parentPath, spec.name];
  const command = parent.command(spec.name, { hidden: spec.hidden === true, isDefault });
  command
    .summary(spec.summary)
    .description(spec.summary)
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

  const alone = bareGroupVerb(spec);
  for (const sub of spec.commands ?? []) register(command, sub, onInvoke, path, sub === alone);
  if (spec.commands?.length && !spec.run) runAlone(command, spec);

  const inherits = spec.commands?.length
    ? ''
    : `\nGlobal flags (--json, --jq, -p, -y, -q, ...) work here too: see \`kagent --help\`.\n`;
  const after = `${helpTail(spec, path)}${inherits}`;
  command.addHelpText('after', (context) => wrapAfterText(context.command, after, context.error));

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
 * What help shows after the flags: the description's first paragraph (what the
 * command does, in short), the examples, and the manual page, which holds the
 * rest (output formats, exit statuses). Usage and flags lead, as in gh; the
 * long prose would push them off the screen.
 */
function helpTail(spec: CommandSpec, path: string[]): string {
  const [brief, ...more] = spec.description ? spec.description.split('\n\n') : [];
  const manual = `man kagent-${path[1] ?? ''}`;
  return [
    brief ? `\n${brief}\n` : '',
    `\n${formatExamples(spec.examples)}\n`,
    `\n${more.length > 0 ? `The rest of the description: \`${manual}\`` : `Manual: \`${manual}\``}\n`,
  ].join('');
}

/**
 * A group named alone: its list (bareGroupVerb) as commander's default
 * subcommand, else its help on stdout (exit 0). A word that is no verb stays
 * "unknown command" (with a suggestion) rather than an argument of the list.
 */
function runAlone(command: Command, spec: CommandSpec): void {
  const verb = bareGroupVerb(spec);
  if (verb) {
    command.hook('preSubcommand', (self, sub) => {
      const first = self.args[0];
      if (sub.name() === verb.name && first !== undefined && first !== verb.name && !first.startsWith('-'))
        unknownCommand(self);
    });
    return;
  }
  command.allowExcessArguments(true).action((...received: unknown[]) => {
    const self = received[received.length - 1] as Command;
    if (self.args.length > 0) unknownCommand(self);
    self.outputHelp();
  });
}

/** Commander's own "unknown command 'x' (Did you mean y?)" for the first word (not in its typings). */
function unknownCommand(command: Command): never {
  (command as unknown as { unknownCommand(): never }).unknownCommand();
  throw new Error('unreachable');
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
      if (
        names.has(name) &&
        parent.getOptionValueSource(name) === 'cli' &&
        command.getOptionValueSource(name) !== 'cli'
      )
        opts[name] = value;
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
  const sameName =
    GLOBAL_ATTRIBUTES.has(option.attributeName()) &&
    !(NEGATE_ONLY_ATTRIBUTES.has(option.attributeName()) && !option.negate);
  if (sameName || (option.short !== undefined && GLOBAL_SHORT_FLAGS.has(option.short))) {
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
