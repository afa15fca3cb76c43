// `kagent help <topic>`: exit codes and environment variables. (`kagent help`
// and `kagent help <command>` are turned into --help by the program itself.)
import { exitCodeTable } from '../../src/errors.js';
import { UsageError } from '../../src/errors.js';
import { environmentTable } from '../../src/cli/environment.js';
import { printItem } from '../../src/io/output.js';
import { defineGroup } from '../../src/kit/define.js';

/** Each topic: a table of rows (their --json key's name, then `meaning`) and the words after it. */
const TOPICS: Record<string, { title: string; key: string; rows: Array<[string | number, string]>; after: string }> = {
  'exit-codes': {
    title: 'Exit codes',
    key: 'code',
    rows: exitCodeTable,
    after:
      'Every error prints one line "error: <message> (<CODE>)" on stderr, plus a hint where one helps;\nwith --json the error is a JSON envelope {"error":{"code","message","issues"}} on stderr.',
  },
  environment: {
    title: 'Environment variables',
    key: 'name',
    rows: environmentTable,
    after: 'Precedence: flag > environment > profile > default.',
  },
};

function table(rows: Array<[string | number, string]>): string {
  const width = Math.max(...rows.map(([key]) => String(key).length));
  return rows.map(([key, text]) => `  ${String(key).padEnd(width)}   ${text}`).join('\n');
}

export default defineGroup({
  description:
    'Topics: exit-codes (what each exit status means), environment (variables kagent reads). `kagent help <command>` is the same as `kagent <command> --help`.',
  arguments: [{ name: 'topic', description: 'exit-codes, environment, or a command', optional: true }],
  examples: ['kagent help exit-codes', 'kagent help environment', 'kagent help space create'],
  async run(ctx, _opts, args) {
    const topic = Object.hasOwn(TOPICS, args.topic ?? '') ? TOPICS[args.topic as string] : undefined;
    if (topic) {
      const data = topic.rows.map(([key, meaning]) => ({ [topic.key]: key, meaning }));
      return printItem(ctx, data, () => `${topic.title}:\n${table(topic.rows)}\n\n${topic.after}`);
    }
    throw new UsageError(
      `no help topic "${args.topic ?? ''}"`,
      `topics: ${Object.keys(TOPICS).join(', ')}; or a command, e.g. \`kagent help space\``,
    );
  },
});
