// `kagent help <topic>`: exit codes and environment variables. (`kagent help`
// and `kagent help <command>` are turned into --help by the program itself.)
import { exitCodeTable } from '../errors.js';
import { UsageError } from '../errors.js';
import { printItem } from '../io/output.js';
import { defineGroup } from './define.js';

export const environmentTable: Array<[string, string]> = [
  ['KAGENT_API_KEY', 'API key; wins over the profile\'s key (never printed, except by `kagent auth token`)'],
  ['KAGENT_BASE_URL', 'API base URL, e.g. https://example.com/api/v1; --base-url wins over it'],
  ['KAGENT_PROFILE', 'profile to use instead of the current one; -p/--profile wins over it'],
  ['KAGENT_LANG', 'content language for writes: zh or en; --lang wins over it'],
  ['KAGENT_CONFIG_DIR', 'directory of config.json (default: $XDG_CONFIG_HOME/kagent or ~/.config/kagent)'],
  ['KAGENT_NO_PROMPT', 'never prompt (like --no-input)'],
  ['KAGENT_DEBUG', 'trace HTTP requests on stderr (like --debug)'],
  ['CI', 'set by CI systems: no prompts, no spinners'],
  ['NO_COLOR', 'no colour (--no-color does the same)'],
  ['FORCE_COLOR', 'colour even when piped (0 or false: never); wins over NO_COLOR'],
  ['KAGENT_PAGER', 'pager for long output on a terminal (cat or empty: none); wins over `kagent config set pager` and PAGER'],
  ['PAGER', 'pager when neither KAGENT_PAGER nor the pager setting is set (default: less -FRX, if installed)'],
  ['LINES', 'terminal height when the terminal does not say (output taller than it is paged)'],
  ['VISUAL, EDITOR', 'the editor commands open for you to write in'],
  ['XDG_CONFIG_HOME', 'base of the default config directory'],
];

const TOPICS = ['exit-codes', 'environment'] as const;

function table(rows: Array<[string | number, string]>): string {
  const width = Math.max(...rows.map(([key]) => String(key).length));
  return rows.map(([key, text]) => `  ${String(key).padEnd(width)}   ${text}`).join('\n');
}

export default defineGroup<Record<string, never>, { topic?: string }>({
  name: 'help',
  summary: 'Help on a command, or a topic: exit-codes, environment',
  description: 'Topics: exit-codes (what each exit status means), environment (variables kagent reads). `kagent help <command>` is the same as `kagent <command> --help`.',
  arguments: [{ name: 'topic', description: 'exit-codes, environment, or a command', optional: true }],
  examples: ['kagent help exit-codes', 'kagent help environment', 'kagent help space create'],
  async run(ctx, _opts, args) {
    if (args.topic === 'exit-codes') {
      const data = exitCodeTable.map(([code, meaning]) => ({ code, meaning }));
      await printItem(ctx, data, () => `Exit codes:\n${table(exitCodeTable)}\n\nEvery error prints one line "error: <message> (<CODE>)" on stderr, plus a hint where one helps;\nwith --json the error is a JSON envelope {"error":{"code","message","issues"}} on stderr.`);
      return;
    }
    if (args.topic === 'environment') {
      const data = environmentTable.map(([name, meaning]) => ({ name, meaning }));
      await printItem(ctx, data, () => `Environment variables:\n${table(environmentTable)}\n\nPrecedence: flag > environment > profile > default.`);
      return;
    }
    throw new UsageError(`no help topic "${args.topic ?? ''}"`, `topics: ${TOPICS.join(', ')}; or a command, e.g. \`kagent help space\``);
  },
});
