// Manual pages in man(7) roff: kagent(1) for the root (global flags, the
// command groups, exit status, environment) and kagent-<group>(1) for each
// group with every subcommand, argument, flag and example. They come from the
// same command tree as `--help` and the completion scripts: the groups of the
// manifest, each loaded through the program's own loader, and the root's data
// in src/cli/root-help.ts and src/cli/global-flags.ts. The build writes them to dist/man/ (scripts/build.mjs);
// package.json's `man` field lists them, so a global install puts them in place.
import type { ArgumentSpec, CommandSpec, OptionSpec } from '../kit/define.js';
import { environmentTable } from './environment.js';
import { exitCodeTable } from '../errors.js';
import { loadGroup } from './groups.js';
import { groups } from './manifest.js';
import { GLOBAL_FLAGS, HELP_FLAG, VERSION_FLAG } from './global-flags.js';
import { flagDescription, ROOT_DESCRIPTION, ROOT_EXAMPLES } from './root-help.js';

export interface ManPage {
  /** `kagent.1`, `kagent-space.1`, … */
  file: string;
  text: string;
}

export interface ManMeta {
  version: string;
  /** YYYY-MM-DD: the build's date. */
  date: string;
}

/** The file names of the pages, in the manifest's order: what package.json's `man` field must list. */
export function manPageFiles(): string[] {
  return ['kagent.1', ...groups.map((group) => `kagent-${group.name}.1`)];
}

/** Every page: kagent(1), then one per group. A group that fails to load fails the whole run. */
export async function manPages(meta: ManMeta): Promise<ManPage[]> {
  const specs: CommandSpec[] = [];
  for (const group of groups) specs.push(await loadGroup(group.name));
  return [
    { file: 'kagent.1', text: shortLines(rootPage(meta)) },
    ...specs.map((spec) => ({ file: `kagent-${spec.name}.1`, text: shortLines(groupPage(spec, meta)) })),
  ];
}

/**
 * The page's source with text lines of at most 80 bytes where a space allows
 * (man-pages(7) style, which `mandoc -T lint` checks): filled text breaks into
 * lines (the reader joins them again); a line of a no-fill block (`.nf`, the
 * examples) continues with a trailing `\`, so it still shows as one line.
 * Requests (`.TP`, `.SS "…"`) are left as they are.
 */
export function shortLines(page: string, width = 80): string {
  let noFill = false;
  const out: string[] = [];
  for (const line of page.split('\n')) {
    if (line === '.nf') noFill = true;
    if (line === '.fi') noFill = false;
    if (line.startsWith('.') || line.length <= width) {
      out.push(line);
      continue;
    }
    let rest = line;
    while (rest.length > width) {
      // The last single space (not escaped, not next to another) within the width.
      let at = -1;
      for (let i = Math.min(width - 2, rest.length - 1); i > 0; i--)
        if (rest[i] === ' ' && rest[i - 1] !== ' ' && rest[i - 1] !== '\\' && rest[i + 1] !== ' ') {
          at = i;
          break;
        }
      if (at < 0) break;
      out.push(noFill ? `${rest.slice(0, at + 1)}\\` : rest.slice(0, at));
      rest = rest.slice(at + 1);
      // A filled line that now starts with `.` or `'` would be read as a request.
      if (!noFill && /^[.']/.test(rest)) rest = `\\&${rest}`;
    }
    out.push(rest);
  }
  return out.join('\n');
}

// ---------------------------------------------------------------- roff

/**
 * Text as roff reads it: backslashes and hyphens escaped (so `--json` copies as
 * typed, not as typographic hyphens), every other non-ASCII character as a
 * named code point (no dependence on the formatter's input encoding), and
 * `code` spans in bold. A line can never start a request: a leading `.` or `'`
 * is guarded.
 */
export function roffText(text: string): string {
  let out = '';
  for (const char of text.replace(/\\/g, '\\e').replace(/-/g, '\\-')) {
    const code = char.codePointAt(0) as number;
    out += code < 0x80 ? char : `\\[u${code.toString(16).toUpperCase().padStart(4, '0')}]`;
  }
  return out
    .replace(/`([^`]+)`/g, '\\fB$1\\fR')
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n');
}

/** A macro argument: quoted, with its own quotes written as the roff glyph. */
function arg(text: string): string {
  return `"${roffText(text).replace(/"/g, '\\(dq')}"`;
}

function bold(text: string): string {
  return `\\fB${roffText(text)}\\fR`;
}

/** Paragraphs from text whose lines are meant as lines (descriptions keep their breaks). */
function paragraphs(text: string): string[] {
  return text
    .trim()
    .split(/\n\s*\n/)
    .flatMap((paragraph, i) => [
      ...(i > 0 ? ['.PP'] : []),
      paragraph
        .split('\n')
        .map((line, j) => (j === 0 ? '' : lineBreak(line)) + roffText(line))
        .join(''),
    ]);
}

/** What starts a paragraph's line after its first: a line that starts with a blank breaks on its own (a `.br` before it is redundant). */
function lineBreak(line: string): string {
  return line.startsWith(' ') ? '\n' : '\n.br\n';
}

/** An indented block of examples, one per line; `lead` opens it with a paragraph break (not wanted right after `.SH`). */
function examples(lines: readonly string[], lead = true): string[] {
  return [
    ...(lead ? ['.PP'] : []),
    '.RS 4',
    '.nf',
    ...lines.map((line) => roffText(line.startsWith('#') ? line : `$ ${line}`)),
    '.fi',
    '.RE',
  ];
}

function header(name: string, meta: ManMeta): string[] {
  // The date as written, unescaped: man(7) readers parse it (mandoc cannot read `2026\-12\-07`).
  if (!/^\d{4}-\d{2}-\d{2}$/.test(meta.date)) throw new Error(`man page date is not YYYY-MM-DD: ${meta.date}`);
  return [
    `.\\" Generated from kagent's command tree by the build (src/cli/manpages.ts); do not edit.`,
    `.TH ${arg(name.toUpperCase())} 1 "${meta.date}" ${arg(`kagent ${meta.version}`)} "kagent manual"`,
    // No hyphenation, ragged right: flags and variable names stay whole.
    '.nh',
    '.ad l',
  ];
}

/** A flag's entry: the flag in bold, its value placeholder in italics, then what it does. */
function flagItem(flags: string, description: string): string[] {
  const term = flags
    .split(/,\s*/)
    .map((part) => {
      const [name, ...value] = part.split(' ');
      return `${bold(name as string)}${value.length ? ` \\fI${roffText(value.join(' '))}\\fR` : ''}`;
    })
    .join(', ');
  return ['.TP', term, roffText(description)];
}

export function optionDescription(option: OptionSpec): string {
  const notes = [
    ...(option.choices ? [`one of: ${option.choices.join(', ')}`] : []),
    ...(option.default !== undefined && option.default !== false
      ? [`default: ${Array.isArray(option.default) ? option.default.join(', ') : String(option.default)}`]
      : []),
    ...(option.repeatable ? ['may be repeated'] : []),
    ...(option.required ? ['required'] : []),
  ];
  return notes.length ? `${option.description} (${notes.join('; ')})` : option.description;
}

export function argumentUsage(argument: ArgumentSpec): string {
  const name = `${argument.name}${argument.variadic ? '...' : ''}`;
  return argument.optional ? `[${name}]` : `<${name}>`;
}

/** `kagent space create <name> [flags]` */
export function usage(path: string[], spec: CommandSpec): string {
  const parts = [...path, ...commandSlot(spec), ...(spec.arguments ?? []).map(argumentUsage)];
  return `${parts.join(' ')} [flags]`;
}

/** A group's subcommand: required when the group does nothing itself, optional when it runs too. */
function commandSlot(spec: CommandSpec): string[] {
  if (!spec.commands?.length) return [];
  return spec.run ? ['[command]'] : ['<command>'];
}

export function visible<T extends { hidden?: boolean }>(items: readonly T[] | undefined): T[] {
  return (items ?? []).filter((item) => !item.hidden);
}

// ---------------------------------------------------------------- kagent(1)

function rootPage(meta: ManMeta): string {
  const lines = [
    ...header('kagent', meta),
    '.SH NAME',
    `kagent \\- ${roffText('command-line client for the knowledge-agent API')}`,
    '.SH SYNOPSIS',
    `${bold('kagent')} \\fI<command>\\fR [\\fIsubcommand\\fR] [\\fIflags\\fR]`,
    '.SH DESCRIPTION',
    ...paragraphs(ROOT_DESCRIPTION),
    '.PP',
    roffText(
      'Each command group has its own page: kagent-<group>(1), e.g. kagent-space(1). `kagent <command> --help` prints the same help on the terminal.',
    ),
    '.SH GLOBAL FLAGS',
    roffText('These work with every command.'),
    ...[...GLOBAL_FLAGS, VERSION_FLAG, HELP_FLAG].flatMap((flag) => flagItem(flag.flags, flagDescription(flag))),
    '.SH COMMANDS',
  ];
  for (const section of [...new Set(groups.map((group) => group.section))]) {
    lines.push(`.SS ${arg(section)}`);
    for (const group of groups.filter((candidate) => candidate.section === section)) {
      lines.push(
        '.TP',
        bold(`kagent ${group.name}`),
        `${roffText(group.summary)}; see \\fBkagent\\-${roffText(group.name)}\\fR(1).`,
      );
    }
  }
  lines.push(
    '.SH EXAMPLES',
    ...examples(ROOT_EXAMPLES, false),
    '.SH EXIT STATUS',
    ...exitCodeTable.flatMap(([code, meaning]) => ['.TP', bold(String(code)), roffText(meaning)]),
    '.PP',
    roffText(
      'Every error prints one line "error: <message> (<CODE>)" on stderr, plus a hint where one helps; with --json the error is a JSON envelope {"error":{"code","message","issues"}} on stderr.',
    ),
    '.SH ENVIRONMENT',
    ...environmentTable.flatMap(([name, meaning]) => ['.TP', bold(name), roffText(meaning)]),
    '.PP',
    roffText('Precedence: flag > environment > profile > default.'),
    '.SH SEE ALSO',
    groups.map((group) => `\\fBkagent\\-${roffText(group.name)}\\fR(1)`).join(', '),
  );
  return `${lines.join('\n')}\n`;
}

// ---------------------------------------------------------------- kagent-<group>(1)

function groupPage(spec: CommandSpec, meta: ManMeta): string {
  const name = `kagent-${spec.name}`;
  const commands = visible(spec.commands);
  const lines = [...header(name, meta), '.SH NAME', `${roffText(name)} \\- ${roffText(spec.summary)}`, '.SH SYNOPSIS'];
  const synopsis: string[] = [];
  if (spec.run || commands.length === 0) synopsis.push(usage(['kagent', spec.name], { ...spec, commands: [] }));
  const walkUsage = (command: CommandSpec, path: string[]) => {
    const own = [...path, command.name];
    if (command.run || visible(command.commands).length === 0) synopsis.push(usage(own, { ...command, commands: [] }));
    for (const sub of visible(command.commands)) walkUsage(sub, own);
  };
  for (const command of commands) walkUsage(command, ['kagent', spec.name]);
  lines.push(synopsis.map((line) => `${bold(line.split(' [flags]')[0] as string)} [\\fIflags\\fR]`).join('\n.br\n'));
  lines.push('.SH DESCRIPTION', ...paragraphs(spec.summary + (spec.description ? `.\n\n${spec.description}` : '.')));
  if (spec.aliases?.length) lines.push('.PP', roffText(`Aliases: ${spec.aliases.join(', ')}.`));
  lines.push(...argumentsAndOptions(spec, '.SH'));
  if (commands.length) {
    lines.push('.SH COMMANDS');
    const walk = (command: CommandSpec, path: string[]) => {
      const own = [...path, command.name];
      lines.push(
        `.SS ${arg(usage(own, command))}`,
        ...paragraphs(command.summary + (command.description ? `.\n\n${command.description}` : '.')),
      );
      if (command.aliases?.length) lines.push('.PP', roffText(`Aliases: ${command.aliases.join(', ')}.`));
      lines.push(...argumentsAndOptions(command, '.PP'));
      lines.push('.PP', '\\fIExamples:\\fR', ...examples(command.examples));
      for (const sub of visible(command.commands)) walk(sub, own);
    };
    for (const command of commands) walk(command, ['kagent', spec.name]);
  }
  lines.push(
    '.SH EXAMPLES',
    ...examples(spec.examples, false),
    '.SH GLOBAL FLAGS',
    roffText(
      'The global flags (--json, --jq, -p/--profile, --base-url, --lang, --no-color, --no-input, -y/--yes, -q/--quiet, --debug, --timeout, --insecure) work with every command: see kagent(1), which also lists the exit status and the environment variables.',
    ),
    '.SH SEE ALSO',
    '\\fBkagent\\fR(1)',
  );
  return `${lines.join('\n')}\n`;
}

/** Arguments and flags of one command: as sections (.SH) for the group itself, as labelled paragraphs (.PP) under a subcommand. */
function argumentsAndOptions(spec: CommandSpec, level: '.SH' | '.PP'): string[] {
  const lines: string[] = [];
  const heading = (title: string) => (level === '.SH' ? [`.SH ${title.toUpperCase()}`] : ['.PP', `\\fI${title}:\\fR`]);
  const args = spec.arguments ?? [];
  if (args.length) {
    lines.push(...heading('Arguments'));
    for (const argument of args) {
      const choices = argument.choices ? ` (one of: ${argument.choices.join(', ')})` : '';
      lines.push('.TP', `\\fI${roffText(argumentUsage(argument))}\\fR`, roffText(`${argument.description}${choices}`));
    }
  }
  const options = visible(spec.options);
  if (options.length) {
    lines.push(...heading('Options'));
    for (const option of options) lines.push(...flagItem(option.flags, optionDescription(option)));
  }
  return lines;
}
