// Shell completion scripts (bash, zsh, fish) generated from the command tree:
// the command groups with their subcommands and aliases, every flag (global
// and per command) with its description, the values of flags and arguments
// that have choices, and file names where a flag or argument takes a path.
// Each script finds where the cursor is the same way: it walks the words typed
// so far, skipping flags (and the value of a flag that takes one), and follows
// subcommand names from the root; what it offers depends on that path.
import type { ArgumentSpec, CommandSpec, CompleteKind, OptionSpec } from '../../src/kit/define.js';

export type Shell = 'bash' | 'zsh' | 'fish';

export interface FlagInfo {
  long?: string;
  short?: string;
  takesValue: boolean;
  description: string;
  choices?: readonly string[];
  files: boolean;
  /** Values asked of `kagent completion __complete KIND` at Tab time. */
  complete?: CompleteKind;
}

export interface ArgInfo {
  choices?: readonly string[];
  files: boolean;
  complete?: CompleteKind;
  variadic: boolean;
}

export interface Node {
  /** '' for the root, then 'space', 'space/list', … */
  path: string;
  name: string;
  aliases: readonly string[];
  summary: string;
  flags: FlagInfo[];
  args: ArgInfo[];
  children: Node[];
}

/** Extra values for arguments whose choices are not fixed (so commander does not restrict them). */
type ArgumentValues = Record<string, Record<number, readonly string[]>>;

/** A placeholder naming a path: 'file', 'paths', 'out-dir' (but not 'profile'). */
const FILE_PLACEHOLDER = /(?:^|[^a-z])(?:file|path|dir)s?$/i;

export function flagInfo(spec: Pick<OptionSpec, 'flags' | 'description' | 'choices' | 'complete'>): FlagInfo {
  const short = /(?:^|[\s,])(-[A-Za-z])(?=[\s,]|$)/.exec(spec.flags)?.[1];
  const long = /(--[A-Za-z0-9][\w-]*)/.exec(spec.flags)?.[1];
  const placeholder = /[<[]([^>\]]+)[>\]]/.exec(spec.flags)?.[1];
  return {
    ...(long ? { long } : {}),
    ...(short ? { short } : {}),
    takesValue: placeholder !== undefined,
    description: oneLine(spec.description),
    ...(spec.choices ? { choices: spec.choices } : {}),
    files: placeholder !== undefined && FILE_PLACEHOLDER.test(placeholder),
    ...(spec.complete ? { complete: spec.complete } : {}),
  };
}

function argInfo(spec: ArgumentSpec): ArgInfo {
  return {
    ...(spec.choices ? { choices: spec.choices } : {}),
    files: FILE_PLACEHOLDER.test(spec.name),
    variadic: spec.variadic === true,
    ...(spec.complete ? { complete: spec.complete } : {}),
  };
}

/** The tree under a root with these global flags and groups (each a group module's CommandSpec). */
export function buildTree(
  globalFlags: FlagInfo[],
  groups: CommandSpec[],
  extra: ArgumentValues = {},
  groupAliases: Readonly<Record<string, string>> = {},
): Node {
  const walk = (spec: CommandSpec, parent: string): Node => {
    const path = parent === '' ? spec.name : `${parent}/${spec.name}`;
    const args = (spec.arguments ?? []).map(argInfo);
    for (const [index, values] of Object.entries(extra[path] ?? {})) {
      const at = Number(index);
      args[at] = { variadic: args[at]?.variadic ?? false, files: false, choices: values };
    }
    return {
      path,
      name: spec.name,
      aliases: [
        ...(spec.aliases ?? []),
        ...(parent === '' ? Object.keys(groupAliases).filter((alias) => groupAliases[alias] === spec.name) : []),
      ],
      summary: oneLine(spec.summary),
      flags: (spec.options ?? []).filter((option) => !option.hidden).map(flagInfo),
      args,
      children: (spec.commands ?? []).filter((command) => !command.hidden).map((command) => walk(command, path)),
    };
  };
  return {
    path: '',
    name: 'kagent',
    aliases: [],
    summary: '',
    flags: globalFlags,
    args: [],
    children: groups.map((group) => walk(group, '')),
  };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function nodes(root: Node): Node[] {
  const all: Node[] = [];
  const visit = (node: Node) => {
    all.push(node);
    node.children.forEach(visit);
  };
  visit(root);
  return all;
}

export function flagNames(flag: FlagInfo): string[] {
  return [flag.long, flag.short].filter((name): name is string => name !== undefined);
}

/** Flags that take a value, outside the root (the root's are global: they apply everywhere). */
export function valueFlagCases(root: Node): Array<[path: string, name: string]> {
  return nodes(root)
    .filter((node) => node.path !== '')
    .flatMap((node) =>
      node.flags
        .filter((flag) => flag.takesValue)
        .flatMap((flag) => flagNames(flag).map((name): [string, string] => [node.path, name])),
    );
}

export function childCases(root: Node): Array<[key: string, path: string]> {
  return nodes(root).flatMap((node) =>
    node.children.flatMap((child) =>
      [child.name, ...child.aliases].map((name): [string, string] => [`${node.path}/${name}`, child.path]),
    ),
  );
}

/** What to offer after a flag: its choices, files, values fetched at Tab time, or nothing. */
export function flagValueCases(
  root: Node,
): Array<{ path: string; names: string[]; choices?: readonly string[]; files: boolean; complete?: CompleteKind }> {
  return nodes(root).flatMap((node) =>
    node.flags
      .filter((flag) => flag.takesValue && offersValues(flag))
      .map((flag) => ({
        path: node.path,
        names: flagNames(flag),
        ...(flag.choices ? { choices: flag.choices } : {}),
        files: flag.files,
        ...(flag.complete ? { complete: flag.complete } : {}),
      })),
  );
}

/** A flag or argument whose values the scripts can offer. */
export function offersValues(item: { choices?: readonly string[]; files: boolean; complete?: CompleteKind }): boolean {
  return item.choices !== undefined || item.files || item.complete !== undefined;
}

/**
 * The word bash and zsh scripts use for what a value takes: '@files', '@complete:KIND'
 * (asked of `kagent completion __complete`), or undefined for fixed choices.
 */
export function valueMarker(item: { files: boolean; complete?: CompleteKind }): string | undefined {
  if (item.files) return '@files';
  return item.complete ? `@complete:${item.complete}` : undefined;
}

// ---------------------------------------------------------------- quoting

export function sq(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function fishQuote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export function header(shell: Shell, version: string, load: string[]): string {
  return [
    `# ${shell} completion for kagent ${version}, generated from its command tree by \`kagent completion ${shell}\`.`,
    ...load.map((line) => `# ${line}`),
    '',
  ].join('\n');
}
