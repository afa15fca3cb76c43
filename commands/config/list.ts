import type { Column } from '../../src/io/output.js';
import { defineCommand } from '../../src/kit/define.js';
import { checkNamedProfile } from '../../src/config/resolve.js';
import { type Row, SETTINGS, rowFor } from './shared.js';
import * as output from '../../src/io/output.js';
import { aside } from '../../src/io/outcome.js';

const SOURCE_WORDS: Record<string, string> = {
  'base-url': 'KAGENT_BASE_URL',
  lang: 'KAGENT_LANG',
  'api-key': 'KAGENT_API_KEY',
  pager: 'KAGENT_PAGER or PAGER',
};

function sourceText(row: Row): string {
  if (row.source === 'env') return SOURCE_WORDS[row.key] ?? 'environment';
  if (row.source === 'flag') return `--${row.key}`;
  return row.source ?? '';
}

const rowColumns: Column<Row>[] = [
  { header: 'key', value: (row) => row.key },
  { header: 'value', value: (row) => row.value, flex: true },
  {
    header: 'source',
    value: (row) => row.source,
    display: (row) => sourceText(row),
    about: 'flag, env, profile or default',
  },
];

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'Show every setting in effect and where it came from',
  description: `${output.pipedRowsHelp(rowColumns)} Unset settings have an empty value.`,
  examples: ['kagent config list', 'kagent config list -p work', 'kagent config list --json'],
  async run(ctx) {
    checkNamedProfile(ctx.config);
    const rows = SETTINGS.map((setting) => rowFor(ctx, setting));
    await aside(ctx, `Profile "${ctx.config.profile}" (${ctx.config.configPath})`);
    await output.printList(ctx, rows, { columns: rowColumns });
  },
});
