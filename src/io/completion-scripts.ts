// Shell completion scripts (bash, zsh, fish) generated from the command tree:
// the command groups with their subcommands and aliases, every flag (global
// and per command) with its description, the values of flags and arguments
// that have choices, and file names where a flag or argument takes a path.
// Each script finds where the cursor is the same way: it walks the words typed
// so far, skipping flags (and the value of a flag that takes one), and follows
// subcommand names from the root; what it offers depends on that path.
import type { ArgumentSpec, CommandSpec, OptionSpec } from '../kit/define.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export interface FlagInfo {
  long?: string;
  short?: string;
  takesValue: boolean;
  description: string;
  choices?: readonly string[];
  files: boolean;
}

export interface ArgInfo {
  choices?: readonly string[];
  files: boolean;
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
export type ArgumentValues = Record<string, Record<number, readonly string[]>>;

const FILE_PLACEHOLDER = /file|path|dir/i;

export function flagInfo(spec: Pick<OptionSpec, 'flags' | 'description' | 'choices'>): FlagInfo {
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
  };
}

function argInfo(spec: ArgumentSpec): ArgInfo {
  return { ...(spec.choices ? { choices: spec.choices } : {}), files: FILE_PLACEHOLDER.test(spec.name), variadic: spec.variadic === true };
}

/** The tree under a root with these global flags and groups (each a group module's CommandSpec). */
export function buildTree(globalFlags: FlagInfo[], groups: CommandSpec[], extra: ArgumentValues = {}): Node {
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
      aliases: spec.aliases ?? [],
      summary: oneLine(spec.summary),
      flags: (spec.options ?? []).filter((option) => !option.hidden).map(flagInfo),
      args,
      children: (spec.commands ?? []).filter((command) => !command.hidden).map((command) => walk(command, path)),
    };
  };
  return { path: '', name: 'kagent', aliases: [], summary: '', flags: globalFlags, args: [], children: groups.map((group) => walk(group, '')) };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function nodes(root: Node): Node[] {
  const all: Node[] = [];
  const visit = (node: Node) => {
    all.push(node);
    node.children.forEach(visit);
  };
  visit(root);
  return all;
}

function flagNames(flag: FlagInfo): string[] {
  return [flag.long, flag.short].filter((name): name is string => name !== undefined);
}

/** Flags that take a value, outside the root (the root's are global: they apply everywhere). */
function valueFlagCases(root: Node): Array<[path: string, name: string]> {
  return nodes(root)
    .filter((node) => node.path !== '')
    .flatMap((node) => node.flags.filter((flag) => flag.takesValue).flatMap((flag) => flagNames(flag).map((name): [string, string] => [node.path, name])));
}

function childCases(root: Node): Array<[key: string, path: string]> {
  return nodes(root).flatMap((node) => node.children.flatMap((child) => [child.name, ...child.aliases].map((name): [string, string] => [`${node.path}/${name}`, child.path])));
}

/** What to offer after a flag: its choices, files, or nothing. */
function flagValueCases(root: Node): Array<{ path: string; names: string[]; choices?: readonly string[]; files: boolean }> {
  return nodes(root).flatMap((node) =>
    node.flags.filter((flag) => flag.takesValue && (flag.choices || flag.files)).map((flag) => ({ path: node.path, names: flagNames(flag), ...(flag.choices ? { choices: flag.choices } : {}), files: flag.files })),
  );
}

// ---------------------------------------------------------------- quoting

function sq(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function fishQuote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function header(shell: Shell, version: string, load: string[]): string {
  return [
    `# ${shell} completion for kagent ${version}, generated from its command tree by \`kagent completion ${shell}\`.`,
    ...load.map((line) => `# ${line}`),
    '',
  ].join('\n');
}

// ---------------------------------------------------------------- bash

export function bashScript(root: Node, version: string): string {
  const global = root.flags;
  const globalValue = global.filter((flag) => flag.takesValue).flatMap(flagNames);
  const lines: string[] = [
    header('bash', version, ['Load it in the current shell:  eval "$(kagent completion bash)"', 'or install it:  kagent completion bash > ~/.local/share/bash-completion/completions/kagent']),
    '# The subcommand a word names under a path ("" is the root): REPLY, or empty.',
    '__kagent_child() {',
    '  case "$1/$2" in',
    ...childCases(root).map(([key, path]) => `    ${sq(key)}) REPLY=${sq(path)} ;;`),
    '    *) REPLY="" ;;',
    '  esac',
    '}',
    '',
    '# Whether a flag takes a value (the next word) at a path.',
    '__kagent_value_flag() {',
    `  case "$2" in ${globalValue.map(sq).join('|')}) return 0 ;; esac`,
    '  case "$1 $2" in',
    ...valueFlagCases(root).map(([path, name]) => `    ${sq(`${path} ${name}`)}) return 0 ;;`),
    '  esac',
    '  return 1',
    '}',
    '',
    '# Subcommands (REPLY) and flags (REPLY2) at a path.',
    '__kagent_words() {',
    '  case "$1" in',
    ...nodes(root).map((node) => {
      const subs = node.children.map((child) => child.name).join(' ');
      const flags = node.path === '' ? '' : node.flags.flatMap((flag) => (flag.long ? [flag.long] : flagNames(flag))).join(' ');
      return `    ${sq(node.path)}) REPLY=${sq(subs)}; REPLY2=${sq(flags)} ;;`;
    }),
    '    *) REPLY=""; REPLY2="" ;;',
    '  esac',
    '}',
    '',
    '# Values after a flag: REPLY holds the choices, or @files.',
    '__kagent_flag_values() {',
    '  REPLY=""',
    '  case "$1 $2" in',
    ...flagValueCases(root).flatMap((item) => item.names.map((name) => `    ${sq(`${item.path} ${name}`)}) REPLY=${sq(item.files ? '@files' : (item.choices ?? []).join(' '))} ;;`)),
    '  esac',
    ...global
      .filter((flag) => flag.takesValue && (flag.choices || flag.files))
      .map((flag) => `  case "$2" in ${flagNames(flag).map(sq).join('|')}) REPLY=${sq(flag.files ? '@files' : (flag.choices ?? []).join(' '))} ;; esac`),
    '}',
    '',
    '# Values of the Nth argument (from 0) at a path: REPLY holds the choices, or @files.',
    '__kagent_arg_values() {',
    '  REPLY=""',
    '  case "$1" in',
    ...nodes(root)
      .filter((node) => node.args.some((arg) => arg.choices || arg.files))
      .map((node) => {
        const cases = node.args.map((arg, i) => {
          const value = sq(arg.files ? '@files' : (arg.choices ?? []).join(' '));
          return arg.variadic ? `*) REPLY=${value} ;;` : `${i}) REPLY=${value} ;;`;
        });
        if (!node.args.some((arg) => arg.variadic)) cases.push('*) REPLY="" ;;');
        return `    ${sq(node.path)}) case "$2" in ${cases.join(' ')} esac ;;`;
      }),
    '  esac',
    '}',
    '',
    '_kagent() {',
    '  local cur="${COMP_WORDS[COMP_CWORD]}" prev="" path="" word i nargs=0 REPLY REPLY2',
    '  (( COMP_CWORD > 0 )) && prev="${COMP_WORDS[COMP_CWORD-1]}"',
    '  # "--flag=value" may arrive as three words when "=" is in COMP_WORDBREAKS.',
    '  if [[ $cur == "=" ]]; then cur=""; elif [[ $prev == "=" ]] && (( COMP_CWORD > 1 )); then prev="${COMP_WORDS[COMP_CWORD-2]}"; fi',
    '  for (( i = 1; i < COMP_CWORD; i++ )); do',
    '    word="${COMP_WORDS[i]}"',
    '    case "$word" in',
    '      --) break ;;',
    '      --*=*) continue ;;',
    '      -?*)',
    '        if __kagent_value_flag "$path" "$word"; then',
    '          if [[ "${COMP_WORDS[i+1]}" == "=" ]]; then (( i += 2 )); else (( i += 1 )); fi',
    '        fi',
    '        continue ;;',
    '    esac',
    '    __kagent_child "$path" "$word"',
    '    if [[ -n $REPLY ]]; then path="$REPLY"; nargs=0; else (( nargs += 1 )); fi',
    '  done',
    '  COMPREPLY=()',
    '  if [[ $prev == -?* ]] && [[ ${COMP_WORDS[COMP_CWORD]} != -* || $prev == *= ]] && __kagent_value_flag "$path" "$prev"; then',
    '    __kagent_flag_values "$path" "$prev"',
    '    if [[ $REPLY == @files ]]; then compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -f -- "$cur") ); else COMPREPLY=( $(compgen -W "$REPLY" -- "$cur") ); fi',
    '    return 0',
    '  fi',
    '  __kagent_words "$path"',
    '  if [[ $cur == -* ]]; then',
    `    COMPREPLY=( $(compgen -W "$REPLY2 ${global.flatMap((flag) => (flag.long ? [flag.long] : flagNames(flag))).join(' ')}" -- "$cur") )`,
    '    return 0',
    '  fi',
    '  if [[ -n $REPLY ]]; then COMPREPLY=( $(compgen -W "$REPLY" -- "$cur") ); return 0; fi',
    '  __kagent_arg_values "$path" "$nargs"',
    '  if [[ $REPLY == @files ]]; then compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -f -- "$cur") );',
    '  elif [[ -n $REPLY ]]; then COMPREPLY=( $(compgen -W "$REPLY" -- "$cur") ); fi',
    '  return 0',
    '}',
    '',
    'complete -F _kagent kagent',
    '',
  ];
  return lines.join('\n');
}

// ---------------------------------------------------------------- zsh

export function zshScript(root: Node, version: string): string {
  const global = root.flags;
  const globalValue = global.filter((flag) => flag.takesValue).flatMap(flagNames);
  const described = (name: string, description: string) => sq(`${name.replace(/:/g, '\\:')}:${description}`);
  const flagItems = (node: Node) => node.flags.flatMap((flag) => flagNames(flag).map((name) => described(name, flag.description)));
  const lines: string[] = [
    '#compdef kagent',
    header('zsh', version, ['Load it in the current shell:  source <(kagent completion zsh)', 'or install it as _kagent in a directory of $fpath:  kagent completion zsh > "${fpath[1]}/_kagent"']),
    '__kagent_child() {',
    '  case "$1/$2" in',
    ...childCases(root).map(([key, path]) => `    (${sq(key)}) REPLY=${sq(path)} ;;`),
    '    (*) REPLY="" ;;',
    '  esac',
    '}',
    '',
    '__kagent_value_flag() {',
    `  case "$2" in (${globalValue.map(sq).join('|')}) return 0 ;; esac`,
    '  case "$1 $2" in',
    ...valueFlagCases(root).map(([path, name]) => `    (${sq(`${path} ${name}`)}) return 0 ;;`),
    '  esac',
    '  return 1',
    '}',
    '',
    '# Subcommands ("name:description") at a path, in $reply.',
    '__kagent_commands() {',
    '  case "$1" in',
    ...nodes(root)
      .filter((node) => node.children.length > 0)
      .map((node) => `    (${sq(node.path)}) reply=(${node.children.flatMap((child) => [described(child.name, child.summary), ...child.aliases.map((alias) => described(alias, `alias of ${child.name}`))]).join(' ')}) ;;`),
    '    (*) reply=() ;;',
    '  esac',
    '}',
    '',
    '# Flags ("name:description") at a path, global ones included, in $reply.',
    '__kagent_flags() {',
    '  case "$1" in',
    ...nodes(root)
      .filter((node) => node.path !== '')
      .map((node) => `    (${sq(node.path)}) reply=(${flagItems(node).join(' ')}) ;;`),
    '    (*) reply=() ;;',
    '  esac',
    `  reply+=(${flagItems(root).join(' ')})`,
    '}',
    '',
    '# Values after a flag: the choices in $reply, or REPLY=@files.',
    '__kagent_flag_values() {',
    '  REPLY=""; reply=()',
    '  case "$1 $2" in',
    ...flagValueCases(root).flatMap((item) => item.names.map((name) => `    (${sq(`${item.path} ${name}`)}) ${item.files ? 'REPLY=@files' : `reply=(${(item.choices ?? []).map(sq).join(' ')})`} ;;`)),
    '  esac',
    ...global
      .filter((flag) => flag.takesValue && (flag.choices || flag.files))
      .map((flag) => `  case "$2" in (${flagNames(flag).map(sq).join('|')}) ${flag.files ? 'REPLY=@files' : `reply=(${(flag.choices ?? []).map(sq).join(' ')})`} ;; esac`),
    '}',
    '',
    '# Values of the Nth argument (from 0) at a path: the choices in $reply, or REPLY=@files.',
    '__kagent_arg_values() {',
    '  REPLY=""; reply=()',
    '  case "$1" in',
    ...nodes(root)
      .filter((node) => node.args.some((arg) => arg.choices || arg.files))
      .map((node) => {
        const action = (arg: ArgInfo) => (arg.files ? 'REPLY=@files' : `reply=(${(arg.choices ?? []).map(sq).join(' ')})`);
        const cases = node.args.map((arg, i) => (arg.variadic ? `(*) ${action(arg)} ;;` : `(${i}) ${action(arg)} ;;`));
        return `    (${sq(node.path)}) case "$2" in ${cases.join(' ')} esac ;;`;
      }),
    '  esac',
    '}',
    '',
    '_kagent() {',
    '  local path="" word i nargs=0 REPLY',
    '  local -a reply',
    '  local cur="${words[CURRENT]}" prev="${words[CURRENT-1]}"',
    '  for (( i = 2; i < CURRENT; i++ )); do',
    '    word="${words[i]}"',
    '    case "$word" in',
    '      (--) break ;;',
    '      (--*=*) continue ;;',
    '      (-?*) __kagent_value_flag "$path" "$word" && (( i += 1 )); continue ;;',
    '    esac',
    '    __kagent_child "$path" "$word"',
    '    if [[ -n $REPLY ]]; then path="$REPLY"; nargs=0; else (( nargs += 1 )); fi',
    '  done',
    '  if (( CURRENT > 2 )) && [[ $prev == -?* ]] && __kagent_value_flag "$path" "$prev"; then',
    '    __kagent_flag_values "$path" "$prev"',
    '    if [[ $REPLY == @files ]]; then _files; elif (( ${#reply} )); then compadd -- "${reply[@]}"; fi',
    '    return',
    '  fi',
    '  if [[ $cur == -* ]]; then',
    '    __kagent_flags "$path"',
    "    _describe -t flags 'flag' reply",
    '    return',
    '  fi',
    '  __kagent_commands "$path"',
    "  if (( ${#reply} )); then _describe -t commands 'command' reply; return; fi",
    '  __kagent_arg_values "$path" "$nargs"',
    '  if [[ $REPLY == @files ]]; then _files; elif (( ${#reply} )); then compadd -- "${reply[@]}"; fi',
    '}',
    '',
    '# Autoloaded from $fpath (this file, or completions/_kagent evaluating it), the caller is _kagent: run it. Sourced: register it.',
    'if (( ${funcstack[(Ie)_kagent]} )); then',
    '  _kagent "$@"',
    'else',
    '  compdef _kagent kagent',
    'fi',
    '',
  ];
  return lines.join('\n');
}

// ---------------------------------------------------------------- fish

export function fishScript(root: Node, version: string): string {
  const global = root.flags;
  const globalValue = global.filter((flag) => flag.takesValue).flatMap(flagNames);
  const complete = (path: string | undefined, rest: string) => `complete -c kagent${path === undefined ? '' : ` -n ${fishQuote(`__kagent_at ${fishQuote(path)}`)}`} ${rest}`;
  const flagLine = (path: string | undefined, flag: FlagInfo) => {
    const names = [flag.long ? `-l ${flag.long.slice(2)}` : '', flag.short ? `-s ${flag.short.slice(1)}` : ''].filter(Boolean).join(' ');
    const value = !flag.takesValue ? '' : flag.files ? ' -r -F' : flag.choices ? ` -x -a ${fishQuote(flag.choices.join(' '))}` : ' -x';
    return complete(path, `${names}${value} -d ${fishQuote(flag.description)}`);
  };
  const lines: string[] = [
    header('fish', version, ['Load it in the current shell:  kagent completion fish | source', 'or install it:  kagent completion fish > ~/.config/fish/completions/kagent.fish']),
    'function __kagent_child',
    '    switch "$argv[1]/$argv[2]"',
    ...childCases(root).map(([key, path]) => `        case ${fishQuote(key)}\n            echo ${fishQuote(path)}`),
    '    end',
    'end',
    '',
    'function __kagent_value_flag',
    '    switch "$argv[2]"',
    `        case ${globalValue.map(fishQuote).join(' ')}`,
    '            return 0',
    '    end',
    '    switch "$argv[1] $argv[2]"',
    ...(valueFlagCases(root).length ? [`        case ${valueFlagCases(root).map(([path, name]) => fishQuote(`${path} ${name}`)).join(' ')}`, '            return 0'] : []),
    '    end',
    '    return 1',
    'end',
    '',
    '# The command path the words before the cursor lead to ("" is the root); cached per command line.',
    'function __kagent_path',
    '    set -l words (commandline -opc)',
    '    set -l line (string join \\x1e -- $words)',
    '    set -e words[1]',
    '    if set -q __kagent_cached_line; and test "$line" = "$__kagent_cached_line"',
    '        echo $__kagent_cached_path',
    '        return',
    '    end',
    "    set -l path ''",
    '    set -l skip 0',
    '    for word in $words',
    '        if test $skip -eq 1',
    '            set skip 0',
    '            continue',
    '        end',
    '        switch $word',
    "            case '--'",
    '                break',
    "            case '--*=*'",
    '                continue',
    "            case '-?*'",
    '                if __kagent_value_flag "$path" $word',
    '                    set skip 1',
    '                end',
    '                continue',
    '        end',
    '        set -l child (__kagent_child "$path" $word)',
    '        if test -n "$child"',
    '            set path $child',
    '        end',
    '    end',
    '    set -g __kagent_cached_line $line',
    '    set -g __kagent_cached_path $path',
    '    echo $path',
    'end',
    '',
    'function __kagent_at',
    '    test (__kagent_path) = "$argv[1]"',
    'end',
    '',
    '# No file names unless a flag or argument takes a path.',
    'complete -c kagent -f',
    ...global.map((flag) => flagLine(undefined, flag)),
  ];
  for (const node of nodes(root)) {
    for (const child of node.children) {
      lines.push(complete(node.path, `-a ${fishQuote(child.name)} -d ${fishQuote(child.summary)}`));
      for (const alias of child.aliases) lines.push(complete(node.path, `-a ${fishQuote(alias)} -d ${fishQuote(`alias of ${child.name}`)}`));
    }
    if (node.path === '') continue;
    for (const flag of node.flags) lines.push(flagLine(node.path, flag));
    for (const arg of node.args) {
      if (arg.files) lines.push(complete(node.path, '-F'));
      else if (arg.choices) lines.push(complete(node.path, `-a ${fishQuote(arg.choices.join(' '))}`));
    }
  }
  lines.push('');
  return lines.join('\n');
}

export function scriptFor(shell: Shell, root: Node, version: string): string {
  return shell === 'bash' ? bashScript(root, version) : shell === 'zsh' ? zshScript(root, version) : fishScript(root, version);
}
