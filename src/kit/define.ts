// How a kagent command is declared. A group is a folder under commands/: its
// index.ts default-exports the group (defineGroup), each verb is a file of its
// own default-exporting one command (defineCommand):
//
//   // commands/space/list.ts
//   import { defineCommand } from './define.js';
//   import { pageOptions, paging } from './options.js';
//
//   export default defineCommand({
//     name: 'list',
//     aliases: ['ls'],
//     summary: 'List spaces',
//     options: [...pageOptions('every space')],
//     examples: ['kagent space list', 'kagent space list --json | jq ".[].name"'],
//     async run(ctx, opts) { ... },   // opts: { limit?: number; all?: boolean }, from the declaration
//   });
//
//   // commands/space/index.ts
//   export default defineGroup({ description: '...', examples: [...], commands: [list, create, edit, remove] });
//
// The rules (docs/architecture.md has the whole picture):
// - Every group is a folder of commands/ and a line in src/cli/manifest.ts (its name
//   and one line, what the root help shows without importing any group module).
//   Only the group named on the command line is imported and registered.
// - `examples` is required and never empty: every `--help` shows an Examples section.
//   Lines starting with `#` are printed as comments, others get a `$ ` prompt.
// - `options` use commander's flag syntax ('--icon <emoji>', '-L, --limit <n>',
//   '--all', '--no-wait'). `type` parses values ('integer' | 'number', with min/max);
//   `choices` restricts them; `repeatable` collects every occurrence into an array.
//   A bad value is a usage error (exit 2) naming the flag. Options several
//   commands share (--space, --limit/--all, --idempotency-key) come from ./options.ts.
// - Global flags (--json, --jq, -p/--profile, --base-url, --lang, --no-color,
//   --no-input, -y/--yes, -q/--quiet, --debug, --timeout, --insecure) belong to
//   the root: read them from `ctx.flags`, never redeclare them.
// - `arguments` are positional, in order; `args` reaches `run` as a record by
//   name (camelCased): `{ space: 'Work' }`, variadic ones as arrays.
// - `run(ctx, opts, args)` uses only what `ctx` gives it (io, config, api(),
//   clock, prompter, editor, signal) and returns when done. It never calls
//   process.exit: it throws a CliError (src/errors.ts) and the one error handler
//   prints `error: <message> (<CODE>)` plus the hint, or the JSON envelope with
//   --json, and exits with the error's code.
// - Output goes through src/io/output.ts (printList / printItem / printJson) so
//   --json, --jq, terminal tables and piped TSV come for free; prompts through
//   src/io/prompt.ts (askText / askSecret / confirmOrYes), which refuse with a
//   usage error naming the flag when there is no terminal.
// - Check a request body against the contract before sending it with
//   checkInput(shape, body, { field: '--flag' }) (exit 2, naming the flag and
//   the bound). A space the user named (id or name): resolveSpace from ./space.ts;
//   a 404 on an id: withNotFound from src/io/not-found.ts.
// - Heavy dependencies are imported inside `run`, never at the top of a verb
//   file: `kagent <group> --help` must stay fast.
import type { Context } from '../context.js';
import { CliError, ExitCode, type ApiIssue } from '../errors.js';
import { validate } from '../api/validate.js';

export type OptionValueType = 'string' | 'integer' | 'number';

/**
 * What the shell completion offers for a value, asked of the account at Tab
 * time (`kagent completion __complete KIND PREFIX`, see src/kit/complete.ts):
 * watch slugs, space names and ids, the ids of docs, library items, media,
 * tasks, conversations, actions and inbox items, profile names.
 */
export type CompleteKind =
  'watch' | 'space' | 'doc' | 'lib' | 'media' | 'task' | 'conversation' | 'action' | 'inbox' | 'profile';

export interface OptionSpec {
  /** Commander flag syntax: '--icon <emoji>', '-l, --limit <n>', '--all', '--no-wait'. */
  flags: string;
  description: string;
  /** How a value is parsed; 'string' when left out. */
  type?: OptionValueType;
  /** Bounds for 'integer' and 'number' values. */
  min?: number;
  max?: number;
  choices?: readonly string[];
  /** May be given more than once; the values arrive as an array. */
  repeatable?: boolean;
  /** Reads each value given (after choices are checked): what the handler gets instead of the text. */
  parse?: (value: string) => unknown;
  default?: string | number | boolean | string[];
  /** Missing → usage error (exit 2). Prefer a prompt on a terminal where it helps. */
  required?: boolean;
  hidden?: boolean;
  /** The shell completion offers these values (fetched at Tab time). */
  complete?: CompleteKind;
}

export interface ArgumentSpec {
  /** Shown in usage as <name> or [name]; reaches `run` as args[camelCase(name)]. */
  name: string;
  description: string;
  optional?: boolean;
  /** Takes the rest of the operands as an array (last argument only). */
  variadic?: boolean;
  choices?: readonly string[];
  /** The shell completion offers these values (fetched at Tab time). */
  complete?: CompleteKind;
}

export interface CommandSpec<O = any, A = any> {
  name: string;
  aliases?: readonly string[];
  /** One line, no final period: shown in lists of commands. */
  summary: string;
  /** Longer text shown at the top of this command's --help. */
  description?: string;
  arguments?: readonly ArgumentSpec[];
  options?: readonly OptionSpec[];
  examples: readonly [string, ...string[]];
  /** Leave out for a group that only holds subcommands. */
  run?: (ctx: Context, opts: O, args: A) => Promise<void>;
  commands?: readonly CommandSpec[];
  hidden?: boolean;
  /** Ctrl-C is how this command normally ends (a server such as `kagent sandbox`): exit 0, not 130. */
  endsOnInterrupt?: boolean;
  /** Long output goes through the pager on a terminal (src/io/pager.ts): documents, briefs, transcripts. Lists page by themselves. */
  pager?: boolean;
  /** The command prints the API key itself (`auth token`): the output boundary does not mask it (src/io/redact.ts). */
  revealsKey?: boolean;
}

// ---------------------------------------------------------------- types from the spec
// `run` is typed from the options and arguments as declared, so the two cannot
// drift: '--icon <emoji>' gives `icon?: string`, '-L, --limit <n>' with type
// 'integer' gives `limit?: number`, '--no-wait' gives `wait?: boolean`,
// '--icon <emoji>' with '--no-icon' gives `icon?: string | false`, choices give
// their union, `parse` what it returns, `repeatable` an array; an argument 'ids' (variadic) gives
// `ids: string[]`, an optional one `string | undefined`.

type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
/** '-L, --limit <n>' → 'limit <n>' */
type LongFlag<F extends string> = F extends `${string}--${infer Rest}` ? Rest : never;
type FlagWord<R extends string> = R extends `${infer Word} ${string}` ? Word : R;
type OptionKey<O extends OptionSpec> =
  FlagWord<LongFlag<O['flags']>> extends `no-${infer Name}` ? Camel<Name> : Camel<FlagWord<LongFlag<O['flags']>>>;
type Negated<O extends OptionSpec> = FlagWord<LongFlag<O['flags']>> extends `no-${string}` ? true : false;
type Scalar<O extends OptionSpec> = O extends { parse: (value: string) => infer P }
  ? P
  : O extends { choices: readonly (infer C)[] }
    ? C
    : O extends { type: 'integer' | 'number' }
      ? number
      : string;
type OptionValue<O extends OptionSpec> =
  Negated<O> extends true
    ? false
    : LongFlag<O['flags']> extends `${string} <${string}>` | `${string} [${string}]`
      ? O extends { repeatable: true }
        ? Scalar<O>[]
        : Scalar<O>
      : boolean;
type OptionEntry<O> = O extends OptionSpec
  ? {
      key: OptionKey<O>;
      value: OptionValue<O>;
      negated: Negated<O>;
      defaulted: O extends { default: string | number | boolean | readonly string[] } ? true : false;
    }
  : never;
/** A key declared only as --no-X is true unless the flag is given. */
type ValueOf<E extends { value: unknown; negated: boolean }> = [Exclude<E, { negated: true }>] extends [never]
  ? boolean
  : E['value'];
type Entries<T extends readonly OptionSpec[]> = OptionEntry<T[number]>;
/** Keys with a default (or only --no-X) always have a value. */
type Present<T extends readonly OptionSpec[]> = Extract<Entries<T>, { defaulted: true }>['key'];
export type OptionsOf<T extends readonly OptionSpec[]> = {
  [K in Exclude<Entries<T>['key'], Present<T>>]?: ValueOf<Extract<Entries<T>, { key: K }>>;
} & { [K in Present<T>]: ValueOf<Extract<Entries<T>, { key: K }>> };

type ArgumentValue<A extends ArgumentSpec> = A extends { variadic: true }
  ? string[]
  : A extends { choices: readonly (infer C)[] }
    ? C
    : string;
export type ArgsOf<T extends readonly ArgumentSpec[]> = {
  [A in T[number] as Camel<A['name']>]: A extends { optional: true; variadic?: false }
    ? ArgumentValue<A> | undefined
    : ArgumentValue<A>;
};

type Declared<Opts extends readonly OptionSpec[], Argz extends readonly ArgumentSpec[]> = Omit<
  CommandSpec<OptionsOf<Opts>, ArgsOf<Argz>>,
  'options' | 'arguments'
> & {
  options?: Opts;
  arguments?: Argz;
};

/** A command: its `run` gets options and arguments typed from what it declares. */
export function defineCommand<
  const Opts extends readonly OptionSpec[] = readonly [],
  const Argz extends readonly ArgumentSpec[] = readonly [],
>(spec: Declared<Opts, Argz>): CommandSpec {
  return spec as CommandSpec;
}

/**
 * The verb a group runs when named alone: its `list`, when it has no `run` of its
 * own and `list` needs no argument (`kagent space` is `kagent space list`). A group
 * without one prints its help on stdout (exit 0).
 */
export function bareGroupVerb(group: CommandSpec): CommandSpec | undefined {
  if (group.run) return undefined;
  const list = group.commands?.find((command) => command.name === 'list');
  return list?.run && !(list.arguments ?? []).some((argument) => !argument.optional) ? list : undefined;
}

/** A group module's default export: the group as its folder declares it; its name and summary are its manifest line's. */
export type GroupBody = Omit<CommandSpec, 'name' | 'summary'>;

/**
 * A group module's default export: a command (maybe runnable itself) holding
 * subcommands. Its name and one line are not repeated here: src/cli/groups.ts
 * gives it those of its manifest line (completeGroup).
 */
export function defineGroup<
  const Opts extends readonly OptionSpec[] = readonly [],
  const Argz extends readonly ArgumentSpec[] = readonly [],
>(declared: Omit<Declared<Opts, Argz>, 'name' | 'summary'>): GroupBody {
  return declared as GroupBody;
}

/** A group's command tree: its body under its manifest line; its description says what the group alone does (bareGroupVerb). */
export function completeGroup(line: { name: string; summary: string }, body: GroupBody): CommandSpec {
  const spec: CommandSpec = { ...body, name: line.name, summary: line.summary };
  if (!bareGroupVerb(spec)) return spec;
  const alone = `With no subcommand, runs \`kagent ${spec.name} list\`.`;
  return { ...spec, description: spec.description ? `${spec.description} ${alone}` : alone };
}

/**
 * Checks a request body against its shape from src/api/shapes.ts before anything
 * is sent; the first problem becomes a usage error that names the flag and the
 * bound ("--icon must be at most 16 characters (got 20)").
 * `flagFor` maps body fields to the flag or argument the user typed.
 */
export function checkInput(schema: Record<string, any>, body: unknown, flagFor: Record<string, string>): void {
  const issues = validate(schema, body);
  const first = issues[0];
  if (!first) return;
  throw new InputError(
    `${flagFor[rootField(first.path)] ?? first.path} ${first.message}`,
    issues.map((issue) => ({
      path: flagFor[rootField(issue.path)] ?? issue.path,
      message: issue.message,
    })),
  );
}

/** Invalid input caught before sending (exit 2, code INVALID_INPUT like the service's own answer); carries every issue found. */
export class InputError extends CliError {
  readonly issues: ApiIssue[];
  constructor(message: string, issues: ApiIssue[], hint?: string) {
    super(message, { exitCode: ExitCode.USAGE, code: 'INVALID_INPUT', hint });
    this.name = 'InputError';
    this.issues = issues;
  }
}

function rootField(path: string): string {
  return path.split('.')[0] ?? path;
}
