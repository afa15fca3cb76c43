// Commander's mistakes in kagent's words: `unknown key "colour"` with the keys and
// the one meant, never `command-argument value 'colour' is invalid for argument
// 'key'. Allowed choices are …`. One wording for every error (docs/output.md):
// lower-case, values in double quotes, no final period, the help to read as a hint.
import { UsageError } from '../errors.js';
import { closestName } from '../config/resolve.js';

/** The usage error for commander's `code` and `message`, on the command `path` (`kagent space list`). */
export function parseErrorOf(code: string, message: string, path: string): UsageError {
  const text = message.replace(/^error:\s*/, '').trim();
  const help = `see \`${path} --help\``;
  const choice = /^command-argument value '(.*)' is invalid for argument '(.*)'\. Allowed choices are (.*)\.$/s.exec(
    text,
  );
  if (choice) {
    const [, value = '', name = '', list = ''] = choice;
    const choices = list.split(', ');
    const meant = closestName(value, choices);
    return new UsageError(
      `unknown ${name} "${value}"${meant ? `: did you mean "${meant}"?` : ''}`,
      `${name}s: ${choices.join(', ')}; ${help}`,
    );
  }
  const argument = /^command-argument value '(.*)' is invalid for argument '(.*)'\. (.*)$/s.exec(text);
  if (argument) return new UsageError(`${argument[2]} "${argument[1]}": ${tidy(argument[3] ?? '')}`, help);
  const option = /^option '([^']*)' argument '(.*)' is invalid\. (.*)$/s.exec(text);
  if (option) {
    const allowed = /^Allowed choices are (.*)\.$/s.exec(option[3] ?? '');
    const why = allowed ? `must be one of: ${allowed[1]}` : tidy(option[3] ?? '');
    return new UsageError(`${flagName(option[1] ?? '')} "${option[2]}": ${why}`, help);
  }
  const unknown = /^unknown (command|option) '(.*?)'(?:\s*\(Did you mean (?:one of )?(.*)\?\))?$/s.exec(text);
  if (unknown) {
    const [, kind, word, similar] = unknown;
    const meant = similar?.split(', ').map((name) => (kind === 'command' ? `"${name}"` : name));
    const shown = kind === 'command' ? `"${word}"` : word;
    return new UsageError(`unknown ${kind} ${shown}${meant ? `: did you mean ${meant.join(' or ')}?` : ''}`, help);
  }
  const excess = /^too many arguments(?: for '(.*?)')?\. Expected (\d+) arguments? but got (\d+)\.$/.exec(text);
  if (excess && code === 'commander.excessArguments') {
    const [, name, expected = '0'] = excess;
    const takes = expected === '0' ? 'it takes none' : `it takes ${expected}`;
    return new UsageError(`too many arguments${name ? ` for "${name}"` : ''}: ${takes}, got ${excess[3]}`, help);
  }
  const missing = /^missing required argument '(.*)'$/.exec(text);
  if (missing) return new UsageError(`missing argument <${missing[1]}>`, help);
  const noValue = /^option '([^']*)' argument missing$/.exec(text);
  if (noValue) return new UsageError(`${flagName(noValue[1] ?? '')} needs a value`, help);
  return new UsageError(tidy(text.replace(/'([^']*)'/g, '"$1"')), help);
}

/** The name a flag is known by: `--limit` of `-L, --limit <n>`. */
function flagName(flags: string): string {
  const words = flags.split(/[\s,|]+/);
  return words.find((word) => word.startsWith('--')) ?? words[0] ?? flags;
}

/** Lower-case start, no final period. */
function tidy(text: string): string {
  const trimmed = text
    .trim()
    .replace(/\.$/, '')
    .replace(/^It must /, 'must ');
  return /^[A-Z][a-z]/.test(trimmed) ? trimmed[0]!.toLowerCase() + trimmed.slice(1) : trimmed;
}
