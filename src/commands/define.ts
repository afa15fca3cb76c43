// How a kagent command is declared. Every command group is one module under
// src/commands/ whose default export is a CommandSpec tree:
//
//   // src/commands/space.ts
//   import { defineCommand, defineGroup } from './define.js';
//
//   const list = defineCommand<{ all?: boolean }>({
//     name: 'list',
//     aliases: ['ls'],
//     summary: 'List spaces',
//     options: [{ flags: '--all', description: 'follow every page' }],
//     examples: ['kagent space list', 'kagent space list --json | jq ".[].name"'],
//     async run(ctx, opts, args) { ... },
//   });
//
//   export default defineGroup({ name: 'space', summary: 'List, create, edit and delete spaces', examples: [...], commands: [list, ...] });
//
// The rules:
// - The group's name and summary are also listed in src/manifest.ts,
//   which is what the root help shows without importing any group module.
//   Only the group named on the command line is imported and registered.
// - `examples` is required and never empty: every `--help` shows an Examples section.
//   Lines starting with `#` are printed as comments, others get a `$ ` prompt.
// - `options` use commander's flag syntax ('--icon <emoji>', '-l, --limit <n>',
//   '--all', '--no-wait'). `type` parses values ('integer' | 'number', with min/max);
//   `choices` restricts them; `repeatable` collects every occurrence into an array.
//   A bad value is a usage error (exit 2) naming the flag.
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
//   Lists: `printList(ctx, api.paginate(op, args, { all, limit }), { columns })`
//   prints row by row as pages arrive.
// - Check a request body against the contract before sending it with
//   checkInput(shape, body, { field: '--flag' }) (exit 2, naming the flag and
//   the bound). A space the user named (id or name): resolveSpace(ctx, ref)
//   from ./space.js.
// - Heavy dependencies are imported inside `run`, never at the top of a group
//   module: `kagent <group> --help` must stay fast.
import type { Context } from '../context.js';
import { CliError, ExitCode, type ApiIssue } from '../errors.js';
import { validate } from '../api/validate.js';

export type OptionValueType = 'string' | 'integer' | 'number';

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
  default?: string | number | boolean | string[];
  /** Missing → usage error (exit 2). Prefer a prompt on a terminal where it helps. */
  required?: boolean;
  hidden?: boolean;
}

export interface ArgumentSpec {
  /** Shown in usage as <name> or [name]; reaches `run` as args[camelCase(name)]. */
  name: string;
  description: string;
  optional?: boolean;
  /** Takes the rest of the operands as an array (last argument only). */
  variadic?: boolean;
  choices?: readonly string[];
}

export type Args = Record<string, string | string[] | undefined>;

export interface CommandSpec<O = any, A = any> {
  name: string;
  aliases?: string[];
  /** One line, no final period: shown in lists of commands. */
  summary: string;
  /** Longer text shown at the top of this command's --help. */
  description?: string;
  arguments?: ArgumentSpec[];
  options?: OptionSpec[];
  examples: [string, ...string[]];
  /** Leave out for a group that only holds subcommands. */
  run?: (ctx: Context, opts: O, args: A) => Promise<void>;
  commands?: CommandSpec[];
  hidden?: boolean;
  /** Ctrl-C is how this command normally ends (a server such as `kagent sandbox`): exit 0, not 130. */
  endsOnInterrupt?: boolean;
  /** Long output goes through the pager on a terminal (src/io/pager.ts): documents, briefs, transcripts. Lists page by themselves. */
  pager?: boolean;
}

/** Identity with types: `defineCommand<{ icon?: string }, { name: string }>({...})`. */
export function defineCommand<O = Record<string, unknown>, A = Args>(spec: CommandSpec<O, A>): CommandSpec<O, A> {
  return spec;
}

/** A group module's default export: a command (maybe runnable itself) holding subcommands. */
export function defineGroup<O = Record<string, unknown>, A = Args>(spec: CommandSpec<O, A>): CommandSpec<O, A> {
  return spec;
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
  throw new InputError(`${flagFor[rootField(first.path)] ?? first.path} ${first.message}`, issues.map((issue) => ({
    path: flagFor[rootField(issue.path)] ?? issue.path,
    message: issue.message,
  })));
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

