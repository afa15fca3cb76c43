// The progress bar of `lib sync` and `lib upload` in a terminal (a pseudo-terminal, the built binary):
// it counts down the items still to delete, and every other line (a result, a note) is written above
// it, never onto its row. The screen is replayed as a terminal would show it (carriage return,
// erase line, newline), so a line written over the bar's row is seen as the person would see it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { plain, runBinary, runInPty } from '../helpers/binary.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { binaryAgainstSandbox, handbookAccount, type BinarySandbox } from '../helpers/binary-sandbox.js';

let sandbox: BinarySandbox;
let home: string;
let t: TestSandbox;
let configDir: string;
let accountId: string;

beforeAll(async () => {
  sandbox = await binaryAgainstSandbox('kagent-e2e-progress-');
  ({ t, home } = sandbox);
}, 60_000);
afterAll(() => sandbox?.close());
beforeEach(async () => {
  ({ accountId, configDir } = await handbookAccount(t, home));
});

const env = () => ({ HOME: home, KAGENT_CONFIG_DIR: configDir });

function folder(files: Record<string, string>): string {
  const dir = join(mkdtempSync(join(home, 'dir-')), 'docs');
  mkdirSync(dir, { recursive: true });
  for (const [name, data] of Object.entries(files)) writeFileSync(join(dir, name), data);
  return dir;
}

/**
 * The rows a terminal shows after `raw`: "\r" goes to the row's start, ESC[2K erases the row, "\n" starts
 * the next row, printed characters overwrite what is under the cursor; colours and other sequences are left out.
 */
function screen(raw: string): string[] {
  const rows: string[][] = [[]];
  let row = 0;
  let col = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\x1b') {
      const csi = /^\x1b\[([0-9;?]*)([A-Za-z])/.exec(raw.slice(i));
      const osc = /^\x1b\][^\x07\x1b]*(\x07|\x1b\\)/.exec(raw.slice(i));
      const sequence = csi ?? osc;
      if (csi?.[2] === 'K' && csi[1] === '2') rows[row] = [];
      i += (sequence?.[0].length ?? 1) - 1;
    } else if (c === '\r') col = 0;
    else if (c === '\n') {
      row++;
      col = 0;
      rows[row] ??= [];
    } else {
      rows[row]![col] = c;
      col++;
    }
  }
  return rows.map((cells) => Array.from(cells, (cell) => cell ?? ' ').join(''));
}

const BAR = /[█░]/;

describe('the progress bar in a terminal', () => {
  it('lib sync --delete: the bar counts down the items still to delete; each deleted line is a row of its own, and no bar is left behind', async () => {
    const dir = folder({ 'keep.md': '# keep\n', 'a.md': '# a\n', 'b.md': '# b\n', 'c.md': '# c\n' });
    const first = await runBinary(['lib', 'sync', dir, '--space', 'Handbook'], { PATH: process.env.PATH, ...env() });
    expect(first.status, first.stderr).toBe(0);
    for (const name of ['a.md', 'b.md', 'c.md']) rmSync(join(dir, name));
    // Each delete held by the service for a while: the bar is drawn between them.
    await t.inject({ kind: 'slow', ms: 600, count: 3, method: 'DELETE', path: '/api/v1/library/' });
    const run = await runInPty(['lib', 'sync', dir, '--space', 'Handbook', '--delete', '--yes'], {
      env: env(),
      timeoutMs: 20_000,
    });
    expect(run.code, plain(run.output)).toBe(0);
    // The bar's counts of items still to delete, frame by frame: from 3, down, never up.
    const counts = [...plain(run.output).matchAll(/ · (\d+) to delete/g)].map((m) => Number(m[1]));
    expect(counts[0]).toBe(3);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(new Set(counts).size).toBeGreaterThan(1);
    // As the terminal shows it at the end: three rows "- deleted …", the count line, and nothing of the bar.
    const rows = screen(run.output).filter((row) => row.trim() !== '');
    expect(rows.filter((row) => BAR.test(row))).toEqual([]);
    expect(rows.filter((row) => row.includes('deleted ')).map((row) => row.replace(/ \(li_\w+\)\s*$/, ''))).toEqual(
      expect.arrayContaining(['- deleted a.md', '- deleted b.md', '- deleted c.md']),
    );
    expect(rows.filter((row) => /^- deleted/.test(row))).toHaveLength(3);
    expect(rows.at(-1)).toMatch(/^0 uploaded, 0 replaced, 3 deleted, 1 unchanged, 0 failed/);
  }, 30_000);

  it('lib upload: a note written while the bar is shown goes above it, on a row of its own', async () => {
    const dir = folder({ 'a.md': '# a\n', 'b.md': '# b\n' });
    // Answers without SHA-256 (the service's FileSaved differs from what kagent knows): the note comes while the bar is up.
    await t.patchAccount(accountId, { hideFields: ['sha256'] });
    await t.inject({ kind: 'slow', ms: 500, count: 2, method: 'POST', path: '/api/v1/library/files' });
    const run = await runInPty(['lib', 'upload', dir, '--space', 'Handbook'], { env: env(), timeoutMs: 20_000 });
    expect(run.code, plain(run.output)).toBe(0);
    // The bar was up before the note came (else this test proves nothing).
    const raw = plain(run.output);
    expect(raw.indexOf('0/2 files')).toBeGreaterThan(-1);
    expect(raw.indexOf('0/2 files')).toBeLessThan(raw.indexOf('note: '));
    const rows = screen(run.output).filter((row) => row.trim() !== '');
    const notes = rows.filter((row) => row.includes('note: '));
    expect(notes.length).toBeGreaterThan(0);
    for (const note of notes) expect(note).toMatch(/^note: /);
    expect(rows.filter((row) => BAR.test(row))).toEqual([]);
    expect(rows.filter((row) => /^✓ uploaded /.test(row))).toHaveLength(2);
  }, 30_000);
});
