// The command reference of docs/commands.md, in Markdown: the global flags, then
// every group and subcommand with its usage, arguments, flags and examples. It
// comes from the same command tree as `--help`, the completion scripts and the
// man pages (src/cli/manpages.ts): the manifest's groups, each loaded through the
// program's own loader, and the root's data in src/cli/root-help.ts.
// `npm run docs` (scripts/docs.mjs) writes it between the two markers of
// docs/commands.md; the prose around them is hand-written and kept. A test
// fails when the committed block differs from what the tree generates.
import type { ArgumentSpec, CommandSpec, OptionSpec } from '../kit/define.js';
import { loadGroup } from './groups.js';
import { groups } from './manifest.js';
import { argumentUsage, optionDescription, usage, visible } from './manpages.js';
import { GLOBAL_FLAGS, HELP_FLAG, VERSION_FLAG } from './global-flags.js';
import { flagDescription } from './root-help.js';

export const BEGIN_MARKER =
  '<!-- BEGIN GENERATED REFERENCE: `npm run docs` writes this block from the command tree (src/cli/command-docs.ts); edit the commands, not this block -->';
export const END_MARKER = '<!-- END GENERATED REFERENCE -->';

/** The generated block, markers excluded. A group that fails to load fails the whole run. */
export async function commandReference(): Promise<string> {
  const specs: CommandSpec[] = [];
  for (const group of groups) specs.push(await loadGroup(group.name));
  const lines = ['## Global flags', '', 'These work with every command.', '', '| Flag | Meaning |', '|---|---|'];
  for (const flag of [...GLOBAL_FLAGS, VERSION_FLAG, HELP_FLAG])
    lines.push(`| \`${flag.flags}\` | ${cell(flagDescription(flag))} |`);
  lines.push('', '## Command groups', '');
  for (const section of [...new Set(groups.map((group) => group.section))]) {
    lines.push(
      `- **${section}:** ${groups
        .filter((group) => group.section === section)
        .map((group) => `[${group.name}](#${anchor(`kagent ${group.name}`)})`)
        .join(', ')}`,
    );
  }
  for (const spec of specs) lines.push('', ...groupSection(spec));
  return `${lines.join('\n')}\n`;
}

/** `document` with the block between its markers replaced by `reference`; it must hold both markers, in order. */
export function withReference(document: string, reference: string): string {
  const begin = document.indexOf(BEGIN_MARKER);
  const end = document.indexOf(END_MARKER);
  if (begin < 0 || end < begin)
    throw new Error("docs/commands.md must hold the generated block's two markers, in order");
  return `${document.slice(0, begin + BEGIN_MARKER.length)}\n\n${reference}\n${document.slice(end)}`;
}

/** The block between the markers of `document`, as `commandReference` returns it (undefined without both markers). */
export function referenceIn(document: string): string | undefined {
  const begin = document.indexOf(BEGIN_MARKER);
  const end = document.indexOf(END_MARKER);
  if (begin < 0 || end < begin) return undefined;
  return document
    .slice(begin + BEGIN_MARKER.length, end)
    .replace(/^\n\n/, '')
    .replace(/\n$/, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen. */
export function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function groupSection(spec: CommandSpec): string[] {
  const path = ['kagent', spec.name];
  const commands = visible(spec.commands);
  const lines = [`## ${path.join(' ')}`, '', ...prose(spec)];
  if (spec.run || commands.length === 0)
    lines.push('', ...usageBlock(path, { ...spec, commands: [] }), ...argumentsAndOptions(spec));
  if (commands.length) {
    lines.push(
      '',
      `Commands: ${commands.map((command) => `[${command.name}](#${anchor(`${path.join(' ')} ${command.name}`)})`).join(', ')}.`,
    );
  }
  lines.push('', ...examples(spec.examples));
  const walk = (command: CommandSpec, parent: string[]) => {
    const own = [...parent, command.name];
    lines.push(
      '',
      `### ${own.join(' ')}`,
      '',
      ...prose(command),
      '',
      ...usageBlock(own, command),
      ...argumentsAndOptions(command),
      '',
      ...examples(command.examples),
    );
    for (const sub of visible(command.commands)) walk(sub, own);
  };
  for (const command of commands) walk(command, path);
  return lines;
}

/** The summary and the description, as paragraphs; a line break inside a paragraph stays one. */
function prose(spec: CommandSpec): string[] {
  const text = spec.summary + (spec.description ? `.\n\n${spec.description}` : '.');
  const paragraphs = text
    .trim()
    .split(/\n\s*\n/)
    .map((paragraph) =>
      paragraph
        .split('\n')
        .map((line) => markdownText(line.trim()))
        .join('\\\n'),
    );
  const lines = paragraphs.flatMap((paragraph, i) => (i > 0 ? ['', paragraph] : [paragraph]));
  if (spec.aliases?.length) lines.push('', `Aliases: ${spec.aliases.map((alias) => `\`${alias}\``).join(', ')}.`);
  return lines;
}

function usageBlock(path: string[], spec: CommandSpec): string[] {
  return ['```', usage(path, spec), '```'];
}

function argumentsAndOptions(spec: CommandSpec): string[] {
  const lines: string[] = [];
  const args: readonly ArgumentSpec[] = spec.arguments ?? [];
  if (args.length) {
    lines.push('', '| Argument | Meaning |', '|---|---|');
    for (const argument of args) {
      const choices = argument.choices ? ` (one of: ${argument.choices.join(', ')})` : '';
      lines.push(`| \`${argumentUsage(argument)}\` | ${cell(`${argument.description}${choices}`)} |`);
    }
  }
  const options: OptionSpec[] = visible(spec.options);
  if (options.length) {
    lines.push('', '| Flag | Meaning |', '|---|---|');
    for (const option of options) lines.push(`| \`${option.flags}\` | ${cell(optionDescription(option))} |`);
  }
  return lines;
}

function examples(lines: readonly string[]): string[] {
  return ['Examples:', '', '```sh', ...lines.map((line) => (line.startsWith('#') ? line : `$ ${line}`)), '```'];
}

/** Text in a table cell: one line, its pipes escaped. */
function cell(text: string): string {
  return markdownText(text)
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ');
}

/** Plain text as Markdown shows it as typed: outside `code` spans, backslashes, `*` and `<` are escaped (no emphasis, no HTML tags). */
function markdownText(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/[\\*<]/g, (char) => `\\${char}`)))
    .join('');
}
