// The fish completion script, generated from the command tree (see tree.ts).
import { nodes, flagNames, valueFlagCases, childCases, fishQuote, header, type Node, type FlagInfo } from './tree.js';

export function fishScript(root: Node, version: string): string {
  const global = root.flags;
  const globalValue = global.filter((flag) => flag.takesValue).flatMap(flagNames);
  const complete = (path: string | undefined, rest: string) =>
    `complete -c kagent${path === undefined ? '' : ` -n ${fishQuote(`__kagent_at ${fishQuote(path)}`)}`} ${rest}`;
  const flagLine = (path: string | undefined, flag: FlagInfo) => {
    const names = [flag.long ? `-l ${flag.long.slice(2)}` : '', flag.short ? `-s ${flag.short.slice(1)}` : '']
      .filter(Boolean)
      .join(' ');
    return complete(path, `${names}${fishValue(flag)} -d ${fishQuote(flag.description)}`);
  };
  const lines: string[] = [
    header('fish', version, [
      'Load it in the current shell:  kagent completion fish | source',
      'or install it:  kagent completion fish > ~/.config/fish/completions/kagent.fish',
    ]),
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
    ...(valueFlagCases(root).length
      ? [
          `        case ${valueFlagCases(root)
            .map(([path, name]) => fishQuote(`${path} ${name}`))
            .join(' ')}`,
          '            return 0',
        ]
      : []),
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
    '# Values of a kind asked of kagent itself ("value<TAB>title" a line), quietly and within a deadline:',
    '# nothing at all when there is no key or no network. The profile typed (-p NAME) is the one asked.',
    'function __kagent_fetch',
    '    set -l current (commandline -ct)',
    '    if string match -q -- \'-*\' "$current"; or not command -q kagent',
    '        return',
    '    end',
    '    set -l words (commandline -opc)',
    '    set -l profile',
    '    for i in (seq (count $words))',
    '        switch $words[$i]',
    '            case -p --profile',
    '                if test $i -lt (count $words)',
    '                    set profile $words[(math $i + 1)]',
    '                end',
    "            case '--profile=*'",
    "                set profile (string replace -- '--profile=' '' $words[$i])",
    '        end',
    '    end',
    '    if test -n "$profile"',
    '        command kagent --profile $profile completion __complete $argv[1] "$current" 2>/dev/null </dev/null',
    '    else',
    '        command kagent completion __complete $argv[1] "$current" 2>/dev/null </dev/null',
    '    end',
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
      for (const alias of child.aliases)
        lines.push(complete(node.path, `-a ${fishQuote(alias)} -d ${fishQuote(`alias of ${child.name}`)}`));
    }
    if (node.path === '') continue;
    for (const flag of node.flags) lines.push(flagLine(node.path, flag));
    for (const arg of node.args) {
      if (arg.files) lines.push(complete(node.path, '-F'));
      else if (arg.choices) lines.push(complete(node.path, `-a ${fishQuote(arg.choices.join(' '))}`));
      else if (arg.complete) lines.push(complete(node.path, `-a ${fishQuote(`(__kagent_fetch ${arg.complete})`)}`));
    }
  }
  lines.push('');
  return lines.join('\n');
}

/** What a flag's value completes to in fish: files, its choices, a lookup, or anything. */
function fishValue(flag: FlagInfo): string {
  if (!flag.takesValue) return '';
  if (flag.files) return ' -r -F';
  if (flag.choices) return ` -x -a ${fishQuote(flag.choices.join(' '))}`;
  if (flag.complete) return ` -x -a ${fishQuote(`(__kagent_fetch ${flag.complete})`)}`;
  return ' -x';
}
