// The commander program: global flags, the command groups (registered cheaply
// from the manifest; only the group named on the command line is imported and
// registered in full), help, and the single path from "something went wrong"
// to an exit code. `run` is what the binary calls and what tests call
// in-process with fake streams; it never exits the process itself.
// Start-up matters: for --help only commander, errors.ts and the manifest are
// loaded; everything a command needs is imported once a command runs.
import { Command, CommanderError } from 'commander';
import type { Clock, Editor, GlobalFlags, Prompter } from './context.js';
import { ExitCode, UsageError } from './errors.js';
import type { ArgumentSpec, CommandSpec, OptionSpec } from './kit/define.js';
import type { Streams } from './io/terminal.js';
import { FIELD_LIST, parseFields } from './io/fields.js';
import { findGroup, groups, loadGroup } from './manifest.js';
import { formatExamples, GLOBAL_FLAGS, GLOBAL_FLAGS_HEADING, HELP_FLAG, ROOT_AFTER, ROOT_DESCRIPTION, ROOT_USAGE, VERSION_FLAG } from './root-help.js';

export interface RunOptions extends Streams {
  /** The user's arguments (process.argv.slice(2)). */
  argv: string[];
  env: NodeJS.ProcessEnv;
  version: string;
  /** What --version prints (default: the version alone). */
  versionText?: string;
  /** Aborted on the first Ctrl-C. */
  signal?: AbortSignal;
  /**
   * Called before a command that runs until interrupted (`endsOnInterrupt`, e.g. the sandbox)
   * starts: the binary then lets SIGTERM and SIGHUP end it the way Ctrl-C does.
   */
  onLongRunning?: () => void;
  /** Test seams. */
  overrides?: { prompter?: Prompter; editor?: Editor; clock?: Clock };
  /** Set while a pager runs (the binary then leaves Ctrl-C to the pager). */
  pagerHold?: { running: boolean };
}

/** The root's flags (as attribute names): a command must not declare them again (checked when registering). */
const GLOBAL_OPTION_NAMES = ['json', 'jq', 'profile', 'baseUrl', 'lang', 'color', 'input', 'pager', 'yes', 'quiet', 'debug', 'timeout', 'insecure', 'help', 'version'];
const GLOBAL_SHORT_FLAGS = ['-p', '-y', '-q', '-h', '-V'];
/** Globals that exist only as --no-X: a command's own --X <value> (e.g. `api --input FILE`) is a different flag, which commander tells apart. */
const NEGATE_ONLY_GLOBALS = ['color', 'input', 'pager'];

/** Global flags that take a value: the group-name scan must skip their values. */
/** --timeout's upper bound, in seconds. */
export const MAX_TIMEOUT_S = 2_147_483;
const VALUE_FLAGS = new Set(['--jq', '-p', '--profile', '--base-url', '--lang', '--timeout']);

interface Invocation {
  spec: CommandSpec;
  opts: Record<string, unknown>;
  args: Record<string, unknown>;
}

/** A commander parse failure, with the command it happened in (for the hint). */
class ParseFailure extends Error {
  constructor(
    readonly commanderError: CommanderError,
    readonly commandPath: string,
  ) {
    super(commanderError.message);
  }
}

export async function run(options: RunOptions): Promise<number> {
  const { env, version } = options;
  const signal = options.signal ?? new AbortController().signal;
  let argv = options.argv;
  let flags: GlobalFlags | undefined;

  try {
    let groupName = groupNameIn(argv);

    let invocation: Invocation | undefined;
    const program = buildRoot(options);

    // `kagent help` is `kagent --help`; `kagent help <group> [sub]` is `kagent <group> [sub] --help`.
    if (groupName === 'help') {
      const topic = operandsAfter(argv, 'help')[0];
      if (topic === undefined) {
        program.outputHelp();
        return ExitCode.OK;
      }
      if (findGroup(topic) && topic !== 'help') {
        const at = argv.indexOf('help');
        argv = [...argv.slice(0, at), ...argv.slice(at + 1), '--help'];
        groupName = topic;
      }
    }
    // `kagent status` is `kagent home`.
    if (groupName === 'status') {
      argv = argv.map((token, i) => (i === argv.indexOf('status') ? 'home' : token));
      groupName = 'home';
    }
    const entry = findGroup(groupName);
    // What running a command needs loads while the group module does (not for --help).
    const helpOnly = argv.includes('--help') || argv.includes('-h');
    const runtime = entry && !helpOnly ? loadRuntime(entry.name) : undefined;
    let jsonFields: string[] | undefined;
    if (entry) {
      const spec = await loadGroup(entry.name);
      ({ argv, fields: jsonFields } = extractJsonFields(argv, spec));
      const placeholder = program.commands.find((command) => command.name() === entry.name);
      if (placeholder) replaceWithSpec(program, placeholder, spec, (found) => (invocation = found));
    }

    if (argv.length === 0) {
      program.outputHelp();
      return ExitCode.OK;
    }
    await program.parseAsync(argv, { from: 'user' });
    if (!invocation) return ExitCode.OK;

    const [{ createContext }, { guardStream, settled }, { envFlag }] = await (runtime ?? loadRuntime(undefined));
    guardStream(options.stdout);
    guardStream(options.stderr);
    flags = { ...globalFlags(program.opts(), envFlag(env, 'KAGENT_DEBUG')), ...(jsonFields ? { jsonFields } : {}) };
    const ctx = createContext({ streams: options, env, flags, signal, version, overrides: options.overrides, pagerHold: options.pagerHold });
    const found = invocation as Invocation;
    if (found.spec.endsOnInterrupt) options.onLongRunning?.();
    try {
      if (found.spec.pager) await ctx.io.page();
      await found.spec.run?.(ctx, found.opts, found.args);
    } catch (error) {
      // Tolerant reading: a failure over an answer that did not fit its shape shows that answer instead.
      const { recoverFromMisfit } = await import('./io/output.js');
      if (!(await recoverFromMisfit(ctx, error))) throw error;
    } finally {
      // What was held for the pager is written (or the pager is waited for) before any error is reported.
      await ctx.io.endPaging();
    }
    await Promise.all([settled(options.stdout), settled(options.stderr)]);
    if (signal.aborted && !found.spec.endsOnInterrupt) return ExitCode.INTERRUPTED;
    return ExitCode.OK;
  } catch (error) {
    if (isHelpOrVersion(error)) return ExitCode.OK;
    const [{ reportError }, { colorEnabled, envFlag }] = await Promise.all([import('./io/report.js'), import('./io/terminal.js')]);
    return reportError(toUsage(error), {
      stderr: options.stderr,
      json: flags ? flags.json : jsonRequested(argv),
      color: colorEnabled(options.stderr.isTTY === true, env, flags ? flags.color : !argv.includes('--no-color')),
      debug: flags ? flags.debug : argv.includes('--debug') || envFlag(env, 'KAGENT_DEBUG'),
      interrupted: signal.aborted,
    });
  }
}

function commanderErrorOf(error: unknown): CommanderError | undefined {
  return error instanceof ParseFailure ? error.commanderError : error instanceof CommanderError ? error : undefined;
}

/** Help and version (and a group named without its subcommand, which shows help) end with success. */
function isHelpOrVersion(error: unknown): boolean {
  const code = commanderErrorOf(error)?.code;
  return code === 'commander.helpDisplayed' || code === 'commander.version' || code === 'commander.help';
}

/** Commander's parse errors are usage errors: exit 2 (commander itself uses 1), with a pointer to the command's help. */
function toUsage(error: unknown): unknown {
  const commanderError = commanderErrorOf(error);
  if (!commanderError) return error;
  const path = error instanceof ParseFailure ? error.commandPath : 'kagent';
  return new UsageError(commanderError.message.replace(/^error:\s*/, ''), `see \`${path} --help\``);
}

function jsonRequested(argv: string[]): boolean {
  return argv.some((token) => token === '--json' || token.startsWith('--json=') || token === '--jq' || token.startsWith('--jq='));
}

function globalFlags(opts: Record<string, unknown>, debugFromEnv: boolean): GlobalFlags {
  const jq = typeof opts.jq === 'string' ? opts.jq : undefined;
  return {
    json: opts.json === true || typeof opts.json === 'string' || jq !== undefined,
    jq,
    profile: opts.profile as string | undefined,
    baseUrl: opts.baseUrl as string | undefined,
    lang: opts.lang as 'zh' | 'en' | undefined,
    color: opts.color !== false,
    input: opts.input !== false,
    pager: opts.pager !== false,
    yes: opts.yes === true,
    quiet: opts.quiet === true,
    debug: opts.debug === true || debugFromEnv,
    timeout: opts.timeout as number | undefined,
    insecure: opts.insecure === true,
  };
}

/**
 * `--json FIELDS` / `--json=FIELDS` out of the arguments (commander then sees `--json=`).
 * The word after --json is taken as fields when it is a list (has a comma), or one field name
 * where the command reached takes no further operand; else it stays an operand
 * (`kagent doc show --json doc_1`). `--json=FIELDS` always works.
 */
export function extractJsonFields(argv: string[], group: CommandSpec): { argv: string[]; fields?: string[] } {
  const out: string[] = [];
  let fields: string[] | undefined;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] as string;
    if (token === '--') {
      out.push(...argv.slice(i));
      break;
    }
    if (token.startsWith('--json=')) {
      fields = parseFields(token.slice('--json='.length));
      out.push('--json=');
      continue;
    }
    // `--json=` (no value): commander must not take the next word as one.
    out.push(token === '--json' ? '--json=' : token);
    const next = argv[i + 1];
    if (token !== '--json' || next === undefined || !FIELD_LIST.test(next)) continue;
    if (next.includes(',') || !wantsOperand(group, [...out, ...argv.slice(i + 2)], next)) {
      fields = parseFields(next);
      i++;
    }
  }
  return fields ? { argv: out, fields } : { argv: out };
}

/** Whether the command these arguments reach would take `word` as an operand (or as a subcommand). */
function wantsOperand(group: CommandSpec, argv: string[], word: string): boolean {
  const operands = argv.filter((token) => !token.startsWith('-'));
  // `kagent --json space list`: the word is the group's name itself.
  if (!operands.includes(group.name)) return true;
  let spec = group;
  let at = operands.indexOf(group.name) + 1;
  for (; at < operands.length; at++) {
    const sub = spec.commands?.find((command) => command.name === operands[at] || command.aliases?.includes(operands[at] as string));
    if (!sub) break;
    spec = sub;
  }
  if (spec.commands?.some((command) => command.name === word || command.aliases?.includes(word))) return true;
  const declared = spec.arguments ?? [];
  if (declared.some((argument) => argument.variadic)) return true;
  return operands.length - at < declared.length;
}

/** The first operand past the global flags (and their values): the group to load. */
export function groupNameIn(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] as string;
    if (token === '--') return argv[i + 1];
    if (token.startsWith('--')) {
      if (!token.includes('=') && VALUE_FLAGS.has(token)) i++;
      // `--json id,title` before the group's name
      else if (token === '--json' && argv[i + 1]?.includes(',') && FIELD_LIST.test(argv[i + 1] as string)) i++;
      continue;
    }
    if (token.startsWith('-') && token.length > 1) {
      // A cluster of short flags: "-p NAME", "-qp NAME" take the next token; "-pNAME" does not.
      if (token.endsWith('p')) i++;
      continue;
    }
    return token;
  }
  return undefined;
}

function operandsAfter(argv: string[], word: string): string[] {
  const rest = argv.slice(argv.indexOf(word) + 1);
  const operands: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const token = rest[i] as string;
    if (token.startsWith('-')) {
      if (VALUE_FLAGS.has(token) || (/^-[a-z]+$/.test(token) && token.endsWith('p'))) i++;
      continue;
    }
    operands.push(token);
  }
  return operands;
}

/** Groups whose commands never call the API: no point preloading the HTTP client for them. */
const OFFLINE_GROUPS = new Set(['config', 'help', 'completion', 'sandbox']);

function loadRuntime(group: string | undefined) {
  const modules = Promise.all([import('./runtime.js'), import('./io/streams.js'), import('./io/terminal.js')]);
  // The HTTP client is the largest module a command loads: start reading it now; ctx.api() finds it loaded.
  if (group !== undefined && !OFFLINE_GROUPS.has(group)) import('./api/client.js').catch(() => {});
  modules.catch(() => {});
  return modules;
}

// ---------------------------------------------------------------- the root

function buildRoot(options: RunOptions): Command {
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
    if (option.attributeName() === 'timeout') option.argParser(numberParser({ type: 'number', min: 0.001, max: MAX_TIMEOUT_S }));
    program.addOption(option);
  }
  program.version(options.versionText ?? options.version, VERSION_FLAG.flags, VERSION_FLAG.description).helpOption(HELP_FLAG.flags, HELP_FLAG.description);

  for (const group of groups) {
    program.command(group.name).summary(group.summary).description(group.summary).helpGroup(`${group.section}:`);
  }
  program.addHelpText('after', ROOT_AFTER);
  return program;
}

/** Swaps a manifest placeholder for the full command tree of its module. */
function replaceWithSpec(program: Command, placeholder: Command, spec: CommandSpec, onInvoke: (invocation: Invocation) => void): void {
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

// ---------------------------------------------------------------- from a spec to commander

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
    const parseOne = spec.type === 'integer' || spec.type === 'number' ? numberParser(spec) : (value: string) => value;
    option.argParser((value: string, previous: unknown) => {
      if (spec.choices && !spec.choices.includes(value)) throw invalid(`must be one of: ${spec.choices.join(', ')}`);
      const parsed = parseOne(value);
      if (!spec.repeatable) return parsed;
      // The default (if any) is replaced by the first value given, not appended to.
      return Array.isArray(previous) && previous !== spec.default ? [...previous, parsed] : [parsed];
    });
    if (spec.choices) option.argChoices = [...spec.choices];
  }
  if (spec.default !== undefined) option.default(spec.default);
  if (spec.required) option.makeOptionMandatory(true);
  if (spec.hidden) option.hideHelp(true);
  return option;
}

/** 'base-url' → 'baseUrl', as commander names values. */
function camelCase(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** Commander shows "option '--limit <n>' argument 'x' is invalid. <message>" for these. */
function invalid(message: string): Error {
  return Object.assign(new Error(message), { code: 'commander.invalidArgument', exitCode: ExitCode.USAGE });
}

function numberParser(spec: Pick<OptionSpec, 'type' | 'min' | 'max'>): (value: string) => number {
  return (value) => {
    const integer = spec.type === 'integer';
    const parsed = Number(value.trim());
    const ok = value.trim() !== '' && Number.isFinite(parsed) && (!integer || Number.isInteger(parsed));
    const inRange = ok && (spec.min === undefined || parsed >= spec.min) && (spec.max === undefined || parsed <= spec.max);
    if (!inRange) {
      const kind = integer ? 'an integer' : 'a number';
      const aboveZero = spec.min !== undefined && spec.min > 0 && spec.min < 1;
      const upper = spec.max !== undefined ? ` and at most ${spec.max}` : '';
      const range = aboveZero
        ? ` greater than 0${upper}`
        : spec.min !== undefined && spec.max !== undefined
          ? ` from ${spec.min} to ${spec.max}`
          : spec.min !== undefined
            ? ` of at least ${spec.min}`
            : spec.max !== undefined
              ? ` of at most ${spec.max}`
              : '';
      throw invalid(`It must be ${kind}${range}.`);
    }
    return parsed;
  };
}
