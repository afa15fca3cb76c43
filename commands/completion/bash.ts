// The bash completion script, generated from the command tree (see tree.ts).
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
} from './tree.js';

export function bashScript(root: Node, version: string): string {
  const global = root.flags;
  const globalValue = global.filter((flag) => flag.takesValue).flatMap(flagNames);
  const lines: string[] = [
    header('bash', version, [
      'Load it in the current shell:  eval "$(kagent completion bash)"',
      'or install it:  kagent completion bash > ~/.local/share/bash-completion/completions/kagent',
    ]),
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
      // At the root, a group's other word (`status`) is offered too: it is typed where a group is.
      const aliases = node.path === '' ? node.children.flatMap((child) => child.aliases) : [];
      const subs = [...node.children.map((child) => child.name), ...aliases].join(' ');
      const flags =
        node.path === '' ? '' : node.flags.flatMap((flag) => (flag.long ? [flag.long] : flagNames(flag))).join(' ');
      return `    ${sq(node.path)}) REPLY=${sq(subs)}; REPLY2=${sq(flags)} ;;`;
    }),
    '    *) REPLY=""; REPLY2="" ;;',
    '  esac',
    '}',
    '',
    '# A word as typed (My\\ T, "My T or \'My T) as the shell will pass it (My T): REPLY. Never eval: a word',
    '# may hold $(...) or backquotes, which completing must not run.',
    '__kagent_dequote() {',
    '  local word="$1" out="" c',
    '  case "$word" in',
    '    \\\'*) word="${word#\\\'}"; REPLY="${word%\\\'}"; return ;;',
    '    \\"*) word="${word#\\"}"; word="${word%\\"}" ;;',
    '  esac',
    '  while [[ -n $word ]]; do',
    '    c="${word:0:1}"; word="${word:1}"',
    '    if [[ $c == \\\\ && -n $word ]]; then c="${word:0:1}"; word="${word:1}"; fi',
    '    out+="$c"',
    '  done',
    '  REPLY="$out"',
    '}',
    '',
    '# Values of a kind asked of kagent itself (slugs, ids, names; one "value<TAB>title" a line), quietly and',
    '# within a deadline: nothing at all when there is no key or no network. $2 is the word typed, $3 the',
    '# profile typed, if any. A value is offered quoted for the shell (Field\\ notes) as it will be inserted.',
    '__kagent_fetch() {',
    '  local line prefix profile',
    '  __kagent_dequote "$2"; prefix="$REPLY"',
    '  __kagent_dequote "$3"; profile="$REPLY"',
    '  COMPREPLY=()',
    '  while IFS= read -r line; do',
    '    [[ -n $line ]] && COMPREPLY+=("$(printf \'%q\' "${line%%$\'\\t\'*}")")',
    '  done < <(command kagent ${profile:+"--profile=$profile"} completion __complete "$1" "$prefix" 2>/dev/null </dev/null)',
    '}',
    '',
    '# File names starting with the word typed, one candidate each (spaces and quotes kept whole); the',
    '# shell quotes what it inserts (-o filenames).',
    '__kagent_files() {',
    '  __kagent_dequote "$1"',
    '  compopt -o filenames 2>/dev/null',
    '  mapfile -t COMPREPLY < <(compgen -f -- "$REPLY")',
    '}',
    '',
    '# Words of a fixed list ($1) starting with the word typed ($2).',
    '__kagent_choices() {',
    '  mapfile -t COMPREPLY < <(compgen -W "$1" -- "$2")',
    '}',
    '',
    '# Values after a flag: REPLY holds the choices, @files or @complete:KIND.',
    '__kagent_flag_values() {',
    '  REPLY=""',
    '  case "$1 $2" in',
    ...flagValueCases(root).flatMap((item) =>
      item.names.map(
        (name) =>
          `    ${sq(`${item.path} ${name}`)}) REPLY=${sq(valueMarker(item) ?? (item.choices ?? []).join(' '))} ;;`,
      ),
    ),
    '  esac',
    ...global
      .filter((flag) => flag.takesValue && offersValues(flag))
      .map(
        (flag) =>
          `  case "$2" in ${flagNames(flag).map(sq).join('|')}) REPLY=${sq(valueMarker(flag) ?? (flag.choices ?? []).join(' '))} ;; esac`,
      ),
    '}',
    '',
    '# Values of the Nth argument (from 0) at a path: REPLY holds the choices, @files or @complete:KIND.',
    '__kagent_arg_values() {',
    '  REPLY=""',
    '  case "$1" in',
    ...nodes(root)
      .filter((node) => node.args.some(offersValues))
      .map((node) => {
        const cases = node.args.map((arg, i) => {
          const value = sq(valueMarker(arg) ?? (arg.choices ?? []).join(' '));
          return arg.variadic ? `*) REPLY=${value} ;;` : `${i}) REPLY=${value} ;;`;
        });
        if (!node.args.some((arg) => arg.variadic)) cases.push('*) REPLY="" ;;');
        return `    ${sq(node.path)}) case "$2" in ${cases.join(' ')} esac ;;`;
      }),
    '  esac',
    '}',
    '',
    '_kagent() {',
    '  local cur="${COMP_WORDS[COMP_CWORD]}" prev="" path="" word i nargs=0 profile="" REPLY REPLY2',
    '  (( COMP_CWORD > 0 )) && prev="${COMP_WORDS[COMP_CWORD-1]}"',
    '  # "--flag=value" may arrive as three words when "=" is in COMP_WORDBREAKS.',
    '  if [[ $cur == "=" ]]; then cur=""; elif [[ $prev == "=" ]] && (( COMP_CWORD > 1 )); then prev="${COMP_WORDS[COMP_CWORD-2]}"; fi',
    '  for (( i = 1; i < COMP_CWORD; i++ )); do',
    '    word="${COMP_WORDS[i]}"',
    '    case "$word" in',
    '      --) break ;;',
    '      --profile=*) profile="${word#--profile=}"; continue ;;',
    '      --*=*) continue ;;',
    '      -?*)',
    '        if [[ $word == -p || $word == --profile ]]; then profile="${COMP_WORDS[i+1]}"; [[ $profile == "=" ]] && profile="${COMP_WORDS[i+2]}"; fi',
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
    '    if [[ $REPLY == @files ]]; then __kagent_files "$cur";',
    '    elif [[ $REPLY == @complete:* ]]; then __kagent_fetch "${REPLY#@complete:}" "$cur" "$profile";',
    '    else __kagent_choices "$REPLY" "$cur"; fi',
    '    return 0',
    '  fi',
    '  __kagent_words "$path"',
    '  if [[ $cur == -* ]]; then',
    `    __kagent_choices "$REPLY2 ${global.flatMap((flag) => (flag.long ? [flag.long] : flagNames(flag))).join(' ')}" "$cur"`,
    '    return 0',
    '  fi',
    '  if [[ -n $REPLY ]]; then __kagent_choices "$REPLY" "$cur"; return 0; fi',
    '  __kagent_arg_values "$path" "$nargs"',
    '  if [[ $REPLY == @files ]]; then __kagent_files "$cur";',
    '  elif [[ $REPLY == @complete:* ]]; then __kagent_fetch "${REPLY#@complete:}" "$cur" "$profile";',
    '  elif [[ -n $REPLY ]]; then __kagent_choices "$REPLY" "$cur"; fi',
    '  return 0',
    '}',
    '',
    'complete -F _kagent kagent',
    '',
  ];
  return lines.join('\n');
}
