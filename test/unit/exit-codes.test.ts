// One text for what each exit status means: src/errors.ts's exitCodeTable, which
// `kagent help exit-codes` prints, and the table of docs/exit-codes.md, row for row.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodeTable } from '../../src/errors.js';
import { root } from '../helpers/binary.js';
import { runCli } from '../helpers/run.js';

describe('exit codes', () => {
  it('docs/exit-codes.md holds exactly the table `kagent help exit-codes` prints', async () => {
    const doc = readFileSync(join(root, 'docs', 'exit-codes.md'), 'utf8');
    const rows = [...doc.matchAll(/^\| (\d+) \| (.*) \|$/gm)].map(([, code, meaning]) => [Number(code), meaning]);
    expect(rows).toEqual(exitCodeTable);
    const help = await runCli(['help', 'exit-codes', '--json']);
    expect(help.code).toBe(0);
    expect(JSON.parse(help.stdout)).toEqual(exitCodeTable.map(([code, meaning]) => ({ code, meaning })));
  });
});
