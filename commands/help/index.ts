// `kagent help <topic>`: exit codes and environment variables. (`kagent help`
// and `kagent help <command>` are turned into --help by the program itself.)
import { exitCodeTable } from '../../src/errors.js';
import { UsageError } from '../../src/errors.js';
import { environmentTable } from '../../src/cli/environment.js';
import { printItem } from '../../src/io/output.js';
import { defineGroup } from '../../src/kit/define.js';

const TOPICS = ['exit-codes', 'environment'] as const;

function table(rows: Array<[string | number, string]>): string {
  const width = Math.max(...rows.map(([key]) => String(key).length));
  return rows.map(([key, text]) => `  ${String(key).padEnd(width)}   ${text}`).join('\n');
}

export default defineGroup({
  name: 'help',
  summary: 'Help on a command, or a topic: exit-codes, environment',
  description:
    'Topics: exit-codes (what each exit status means), environment (variables kagent reads). `kagent help <command>` is the same as `kagent <command> --help`.',
  arguments: [{ name: 'topic', description: 'exit-codes, environment, or a command', optional: true }],
  examples: ['kagent help exit-codes', 'kagent help environment', 'kagent help space create'],
  async run(ctx, _opts, args) {
    if (args.topic === 'exit-codes') {
      const data = exitCodeTable.map(([code, meaning]) => ({ code, meaning }));
      await printItem(
        ctx,
        data,
        () =>
          `Exit codes:\n${table(exitCodeTable)}\n\nEvery error prints one line "error: <message> (<CODE>)" on stderr, plus a hint where one helps;\nwith --json the error is a JSON envelope {"error":{"code","message","issues"}} on stderr.`,
      );
      return;
    }
    if (args.topic === 'environment') {
      const data = environmentTable.map(([name, meaning]) => ({ name, meaning }));
      await printItem(
        ctx,
        data,
        () =>
          `Environment variables:\n${table(environmentTable)}\n\nPrecedence: flag > environment > profile > default.`,
      );
      return;
    }
    throw new UsageError(
      `no help topic "${args.topic ?? ''}"`,
      `topics: ${TOPICS.join(', ')}; or a command, e.g. \`kagent help space\``,
    );
  },
});
