// The root of the command line as data — usage, examples, help topics (the
// global flags are in global-flags.ts) — and a renderer of `kagent --help` that
// needs no commander. The program registers its root from this same data, and a
// test checks that this renderer prints exactly what commander prints; so
// `kagent --help` can be answered by the entry alone, at close to bare `node` speed.
import { GLOBAL_FLAGS, GLOBAL_FLAGS_HEADING, HELP_FLAG, VERSION_FLAG, type GlobalFlag } from './global-flags.js';
import { groups } from './manifest.js';

export const ROOT_USAGE = '<command> [subcommand] [flags]';
export const ROOT_DESCRIPTION =
  'Command-line client for your knowledge agent: spaces, watches and briefs, library, documents, media, tasks, chat.';
export const ROOT_EXAMPLES = [
  'kagent auth login --base-url https://example.com/api/v1',
  'kagent me',
  'kagent space list --json | jq -r ".[].name"',
  'kagent space create "Reading list"',
];

export function formatExamples(examples: readonly string[]): string {
  const lines = examples.map((example) => (example.startsWith('#') ? `  ${example}` : `  $ ${example}`));
  return `Examples:\n${lines.join('\n')}`;
}

export const ROOT_AFTER =
  `\n${formatExamples(ROOT_EXAMPLES)}\n\n` +
  'Help topics:\n  kagent help exit-codes    what each exit status means\n  kagent help environment   environment variables kagent reads\n\n' +
  "Run `kagent <command> --help` for a command's flags and examples.\n";

/** The description commander shows for a flag (it appends the choices). */
export function flagDescription(flag: GlobalFlag): string {
  return flag.choices
    ? `${flag.description} (choices: ${flag.choices.map((choice) => JSON.stringify(choice)).join(', ')})`
    : flag.description;
}

// ---------------------------------------------------------------- commander's layout, by hand

/** Help wraps from this width up (commander's own default, 40, left narrower text unwrapped: words cut by the terminal). */
export const MIN_WIDTH_TO_WRAP = 10;
/** Room a description needs beside its flag or command; narrower, it goes on the lines under it. */
export const DESCRIPTION_ROOM = 24;

/** Commander's boxWrap: wrap at whitespace, keeping existing line breaks. */
function boxWrap(text: string, width: number): string {
  if (width < MIN_WIDTH_TO_WRAP) return text;
  const wrapped: string[] = [];
  for (const line of text.split(/\r\n|\n/)) {
    const chunks = line.match(/[\s]*[^\s]+/g);
    if (chunks === null) {
      wrapped.push('');
      continue;
    }
    let current = [chunks.shift() as string];
    let currentWidth = (current[0] as string).length;
    for (const chunk of chunks) {
      if (currentWidth + chunk.length <= width) {
        current.push(chunk);
        currentWidth += chunk.length;
        continue;
      }
      wrapped.push(current.join(''));
      const next = chunk.trimStart();
      current = [next];
      currentWidth = next.length;
    }
    wrapped.push(current.join(''));
  }
  return wrapped.join('\n');
}

/** Commander's formatItem as configured (src/cli/commander.ts): indent, padded term, wrapped description, or the description under a term it has no room beside. */
function formatItem(term: string, termWidth: number, description: string, helpWidth: number): string {
  const remaining = helpWidth - termWidth - 2 - 2;
  if (description && remaining < DESCRIPTION_ROOM)
    return `  ${term}\n${boxWrap(description, Math.max(10, helpWidth - 6)).replace(/^/gm, '      ')}`;
  const body =
    remaining < MIN_WIDTH_TO_WRAP
      ? description
      : boxWrap(description, remaining).replace(/\n/g, `\n${' '.repeat(termWidth + 2)}`);
  return `  ${term.padEnd(termWidth)}  ${body.replace(/\n/g, '\n  ')}`;
}

/** Exactly what `kagent --help` prints at this terminal width. */
export function renderRootHelp(helpWidth: number): string {
  const flags = [...GLOBAL_FLAGS, VERSION_FLAG, HELP_FLAG];
  const termWidth = Math.max(...flags.map((flag) => flag.flags.length), ...groups.map((group) => group.name.length));
  const usage = boxWrap(`kagent ${ROOT_USAGE}`, Math.max(10, helpWidth - 7)).replace(/\n/g, `\n${' '.repeat(7)}`);
  const lines = [`Usage: ${usage}`, '', boxWrap(ROOT_DESCRIPTION, helpWidth), '', GLOBAL_FLAGS_HEADING];
  for (const flag of flags) lines.push(formatItem(flag.flags, termWidth, flagDescription(flag), helpWidth));
  lines.push('');
  const sections = [...new Set(groups.map((group) => group.section))];
  for (const section of sections) {
    lines.push(`${section}:`);
    for (const group of groups.filter((candidate) => candidate.section === section))
      lines.push(formatItem(group.name, termWidth, group.summary, helpWidth));
    lines.push('');
  }
  // Commander writes the after-help text followed by a newline.
  return `${lines.join('\n')}${ROOT_AFTER}\n`;
}
