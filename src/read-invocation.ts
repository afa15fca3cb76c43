// The command line of a command that runs, read without commander. Loading and
// building commander was the largest part of an API call's start-up after Node
// itself (about 4 ms of `kagent me --json` on Node 20, 3 ms on Node 26). This
// is commander's own algorithm over the same declarations: each command reads
// the options it knows wherever they stand in what it is given (the root first,
// so a global flag works anywhere), hands the first unknown option and all that
// follows on, and passes the rest to the subcommand its first operand names;
// the command reached checks its operands against its arguments.
//
// Commander is still what shows help and what reports a malformed command line:
// on anything this reader is not certain of (help, version, an unknown option,
// a value missing or refused, an operand missing or extra, a group without a
// verb) it answers undefined and the program asks commander, which prints the
// message. A test reads every command and a corpus of command lines both ways
// and requires the same result wherever this one answers.
import type { CommandSpec } from './kit/define.js';
import { camelCase, flagShape, timeoutParser, valueParser, type FlagShape, type Invocation } from './option-values.js';
import { GLOBAL_FLAGS, VERSION_FLAG } from './root-help.js';

export interface ReadCommandLine {
  invocation: Invocation;
  /** The root's flags, as commander's program.opts() has them. */
  globals: Record<string, unknown>;
}

/** Not certain: commander reads this command line. */
class Unsure extends Error {}

interface Declared {
  shape: FlagShape;
  parse?: (value: string, previous: unknown) => unknown;
  mandatory: boolean;
  version: boolean;
}

type Source = 'default' | 'cli';

/** One command on the path: its options and the values they got. */
class Level {
  readonly values: Record<string, unknown> = {};
  readonly sources = new Map<string, Source>();
  readonly options: Declared[] = [];

  constructor(
    readonly spec: CommandSpec | undefined,
    declared: { shape: FlagShape; parse?: Declared['parse']; default?: unknown; mandatory?: boolean; version?: boolean }[],
  ) {
    for (const { shape, parse, mandatory = false, version = false, default: fallback } of declared) {
      // Not read here: variadic options, and digit flags (-1), which change what a negative number is.
      if (shape.variadic || /^-\d$/.test(shape.short ?? '')) throw new Unsure();
      // As commander adds an option: a --no-X without an --X declared before it defaults to true.
      if (shape.negate && !this.find(shape.long!.replace(/^--no-/, '--'))) this.set(shape.attribute, fallback ?? true, 'default');
      else if (!shape.negate && fallback !== undefined) this.set(shape.attribute, fallback, 'default');
      this.options.push({ shape, parse, mandatory, version });
    }
  }

  find(flag: string): Declared | undefined {
    return this.options.find((option) => option.shape.short === flag || option.shape.long === flag);
  }

  private set(attribute: string, value: unknown, source: Source): void {
    this.values[attribute] = value;
    this.sources.set(attribute, source);
  }

  /** An option given on the command line, with its value (null: none given), as commander's handler takes it. */
  give(option: Declared, value: string | null): void {
    if (option.version) throw new Unsure();
    let parsed: unknown = value;
    if (value !== null && option.parse) parsed = option.parse(value, this.values[option.shape.attribute]);
    if (parsed === null || parsed === undefined) parsed = option.shape.negate ? false : option.shape.value === 'required' ? '' : true;
    this.set(option.shape.attribute, parsed, 'cli');
  }
}

const maybeOption = (arg: string) => arg.length > 1 && arg[0] === '-';
// A negative number is never an option: a digit flag (-1) is left to commander (above).
const negativeNumber = (arg: string) => /^-(\d+|\d*\.\d+)(e[+-]?\d+)?$/.test(arg);

/** commander's Command.parseOptions: this level's options out of `args`; the rest as operands and unknown. */
function parseOptions(level: Level, args: string[], hasCommands: boolean): { operands: string[]; unknown: string[] } {
  const operands: string[] = [];
  const unknown: string[] = [];
  let dest = operands;
  let cluster: string | undefined;
  let i = 0;
  while (i < args.length || cluster !== undefined) {
    const arg = cluster ?? (args[i++] as string);
    cluster = undefined;
    if (arg === '--') {
      if (dest === unknown) dest.push(arg);
      dest.push(...args.slice(i));
      break;
    }
    const option = maybeOption(arg) ? level.find(arg) : undefined;
    if (option) {
      if (option.shape.value === 'required') {
        const value = args[i++];
        if (value === undefined) throw new Unsure();
        level.give(option, value);
      } else if (option.shape.value === 'optional') {
        const next = args[i];
        const takes = next !== undefined && (!maybeOption(next) || negativeNumber(next));
        if (takes) i++;
        level.give(option, takes ? next : null);
      } else level.give(option, null);
      continue;
    }
    // -abc: flags together; -L5: a flag and its value.
    if (arg.length > 2 && arg[0] === '-' && arg[1] !== '-') {
      const first = level.find(`-${arg[1]}`);
      if (first) {
        if (first.shape.value !== 'none') level.give(first, arg.slice(2));
        else {
          level.give(first, null);
          cluster = `-${arg.slice(2)}`;
        }
        continue;
      }
    }
    if (/^--[^=]+=/.test(arg)) {
      const at = arg.indexOf('=');
      const named = level.find(arg.slice(0, at));
      if (named && named.shape.value !== 'none') {
        level.give(named, arg.slice(at + 1));
        continue;
      }
    }
    // An unknown option: it and everything after it are for a subcommand (or an error).
    if (dest === operands && maybeOption(arg) && !(!hasCommands && negativeNumber(arg))) dest = unknown;
    dest.push(arg);
  }
  return { operands, unknown };
}

function levelOf(spec: CommandSpec): Level {
  return new Level(
    spec,
    (spec.options ?? []).map((option) => ({ shape: flagShape(option.flags), parse: option.flags.match(/[<[]/) ? valueParser(option) : undefined, default: option.default, mandatory: option.required === true })),
  );
}

function rootLevel(): Level {
  return new Level(undefined, [
    ...GLOBAL_FLAGS.map((flag) => {
      const shape = flagShape(flag.flags);
      const parse =
        shape.attribute === 'timeout'
          ? timeoutParser()
          : flag.choices
            ? (value: string) => {
                if (!flag.choices!.includes(value)) throw new Unsure();
                return value;
              }
            : undefined;
      return { shape, parse };
    }),
    { shape: flagShape(VERSION_FLAG.flags), version: true },
  ]);
}

/** commander's Command._parseCommand down the path, to the command that runs. */
function parseCommand(path: Level[], children: readonly CommandSpec[], operands: string[], unknown: string[]): ReadCommandLine {
  const level = path[path.length - 1] as Level;
  const parsed = parseOptions(level, unknown, children.length > 0);
  const all = [...operands, ...parsed.operands];
  const sub = all.length > 0 ? children.find((child) => child.name === all[0] || child.aliases?.includes(all[0] as string)) : undefined;
  if (sub) return parseCommand([...path, levelOf(sub)], sub.commands ?? [], all.slice(1), parsed.unknown);

  const spec = level.spec;
  if (!spec?.run || parsed.unknown.length > 0) throw new Unsure();
  if (path.some((each) => each.options.some((option) => option.mandatory && each.values[option.shape.attribute] === undefined))) throw new Unsure();
  const args = readArguments(spec, all);
  return { invocation: { spec, opts: ownOptions(path), args }, globals: (path[0] as Level).values };
}

function readArguments(spec: CommandSpec, operands: string[]): Record<string, unknown> {
  const declared = spec.arguments ?? [];
  if (declared.some((argument, i) => !argument.optional && operands[i] === undefined)) throw new Unsure();
  if (!declared.at(-1)?.variadic && operands.length > declared.length) throw new Unsure();
  const args: Record<string, unknown> = {};
  declared.forEach((argument, i) => {
    const value = argument.variadic ? operands.slice(i) : operands[i];
    const given = Array.isArray(value) ? value : value === undefined ? [] : [value];
    if (argument.choices && given.some((each) => !argument.choices!.includes(each))) throw new Unsure();
    args[camelCase(argument.name)] = value;
  });
  return args;
}

/**
 * The values of the command that runs. An option it shares with its group, given
 * after the verb, was taken by the group (commander reads outer commands first):
 * it is the verb's, unless the verb got its own (src/register.ts, ownOptions).
 */
function ownOptions(path: Level[]): Record<string, unknown> {
  const own = path[path.length - 1] as Level;
  const opts = { ...own.values };
  const names = new Set(own.options.map((option) => option.shape.attribute));
  for (const parent of path.slice(1, -1).reverse()) {
    for (const [name, value] of Object.entries(parent.values)) {
      if (names.has(name) && parent.sources.get(name) === 'cli' && own.sources.get(name) !== 'cli') opts[name] = value;
    }
  }
  return opts;
}

/**
 * The command `argv` runs in `group` (the group the program loaded), its options
 * and arguments, and the root's flags; undefined where commander must read it.
 */
export function readInvocation(argv: string[], group: CommandSpec): ReadCommandLine | undefined {
  try {
    return parseCommand([rootLevel()], [group], [], argv);
  } catch {
    return undefined;
  }
}
