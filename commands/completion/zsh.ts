// The zsh completion script, generated from the command tree (see tree.ts).
import {
  nodes,
  flagNames,
  valueFlagCases,
  childCases,
  flagValueCases,
  offersValues,
  valueMarker,
  sq,
  header,
  type Node,
  type FlagInfo,
} from './tree.js';

export function zshScript(root: Node, version: string): string {
  const global = root.flags;
  const globalValue = global.filter((flag) => flag.takesValue).flatMap(flagNames);
  const described = (name: string, description: string) => sq(`${name.replace(/:/g, '\\:')}:${description}`);
  /** REPLY=@files, REPLY=@complete:KIND, or the choices in $reply. */
  const action = (item: Pick<FlagInfo, 'files' | 'choices' | 'complete'>) => {
    const marker = valueMarker(item);
    return marker ? `REPLY=${marker}` : `reply=(${(item.choices ?? []).map(sq).join(' ')})`;
  };
  const flagItems = (node: Node) =>
    node.flags.flatMap((flag) => flagNames(flag).map((name) => described(name, flag.description)));
  const lines: string[] = [
    '#compdef kagent',
    header('zsh', version, [
      'Load it in the current shell:  source <(kagent completion zsh)',
      'or install it as _kagent in a directory of $fpath:  kagent completion zsh > "${fpath[1]}/_kagent"',
    ]),
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
      .map(
        (node) =>
          `    (${sq(node.path)}) reply=(${node.children.flatMap((child) => [described(child.name, child.summary), ...child.aliases.map((alias) => described(alias, `alias of ${child.name}`))]).join(' ')}) ;;`,
      ),
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
    '# Values of a kind asked of kagent itself ("value<TAB>title" a line), quietly and within a deadline:',
    '# nothing at all when there is no key or no network. $3 is the profile typed, if any.',
    '__kagent_fetch() {',
    '  local line value',
    '  local -a candidates',
    '  for line in "${(@f)$(command kagent ${3:+--profile=$3} completion __complete "$1" "$2" 2>/dev/null </dev/null)}"; do',
    '    [[ -n $line ]] || continue',
    '    value="${line%%$\'\\t\'*}"',
    '    candidates+=("${value//:/\\\\:}:${line#*$\'\\t\'}")',
    '  done',
    '  (( ${#candidates} )) && _describe -t values "$1" candidates',
    '}',
    '',
    '# Values after a flag: the choices in $reply, or REPLY=@files or @complete:KIND.',
    '__kagent_flag_values() {',
    '  REPLY=""; reply=()',
    '  case "$1 $2" in',
    ...flagValueCases(root).flatMap((item) =>
      item.names.map((name) => `    (${sq(`${item.path} ${name}`)}) ${action(item)} ;;`),
    ),
    '  esac',
    ...global
      .filter((flag) => flag.takesValue && offersValues(flag))
      .map((flag) => `  case "$2" in (${flagNames(flag).map(sq).join('|')}) ${action(flag)} ;; esac`),
    '}',
    '',
    '# Values of the Nth argument (from 0) at a path: the choices in $reply, or REPLY=@files or @complete:KIND.',
    '__kagent_arg_values() {',
    '  REPLY=""; reply=()',
    '  case "$1" in',
    ...nodes(root)
      .filter((node) => node.args.some(offersValues))
      .map((node) => {
        const cases = node.args.map((arg, i) => (arg.variadic ? `(*) ${action(arg)} ;;` : `(${i}) ${action(arg)} ;;`));
        return `    (${sq(node.path)}) case "$2" in ${cases.join(' ')} esac ;;`;
      }),
    '  esac',
    '}',
    '',
    '_kagent() {',
    '  # (not "path": in zsh that is $PATH, which the values are fetched with)',
    '  local at="" word i nargs=0 profile="" REPLY',
    '  local -a reply',
    '  local cur="${words[CURRENT]}" prev="${words[CURRENT-1]}"',
    '  for (( i = 2; i < CURRENT; i++ )); do',
    '    word="${words[i]}"',
    '    case "$word" in',
    '      (--) break ;;',
    '      (--profile=*) profile="${word#--profile=}"; continue ;;',
    '      (--*=*) continue ;;',
    '      (-p|--profile) profile="${words[i+1]}"; (( i += 1 )); continue ;;',
    '      (-?*) __kagent_value_flag "$at" "$word" && (( i += 1 )); continue ;;',
    '    esac',
    '    __kagent_child "$at" "$word"',
    '    if [[ -n $REPLY ]]; then at="$REPLY"; nargs=0; else (( nargs += 1 )); fi',
    '  done',
    '  if (( CURRENT > 2 )) && [[ $prev == -?* ]] && __kagent_value_flag "$at" "$prev"; then',
    '    __kagent_flag_values "$at" "$prev"',
    '    if [[ $REPLY == @files ]]; then _files; elif [[ $REPLY == @complete:* ]]; then __kagent_fetch "${REPLY#@complete:}" "$cur" "$profile"; elif (( ${#reply} )); then compadd -- "${reply[@]}"; fi',
    '    return',
    '  fi',
    '  if [[ $cur == -* ]]; then',
    '    __kagent_flags "$at"',
    "    _describe -t flags 'flag' reply",
    '    return',
    '  fi',
    '  __kagent_commands "$at"',
    "  if (( ${#reply} )); then _describe -t commands 'command' reply; return; fi",
    '  __kagent_arg_values "$at" "$nargs"',
    '  if [[ $REPLY == @files ]]; then _files; elif [[ $REPLY == @complete:* ]]; then __kagent_fetch "${REPLY#@complete:}" "$cur" "$profile"; elif (( ${#reply} )); then compadd -- "${reply[@]}"; fi',
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
