// One schema for what `lib sync` and `lib upload` print, plan (--dry-run) and run alike: the same
// JSON fields on every line, the same TSV columns, the status differing only by tense (upload →
// uploaded, replace → replaced, delete → deleted, keep → kept, fail → failed; exists and unchanged
// the same). Each plan is compared with the run that follows it, file by file.
import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kagent, key, s, useLibSandbox, scratchFolder, writeInto } from '../helpers/lib-sandbox.js';
import { FIELDS } from '../../src/upload/lines.js';

useLibSandbox(async () => {
  await s.t.call('POST', '/spaces', { key, body: { name: 'Handbook' } });
});

const PAST: Record<string, string> = {
  upload: 'uploaded',
  replace: 'replaced',
  delete: 'deleted',
  keep: 'kept',
  fail: 'failed',
  exists: 'exists',
  unchanged: 'unchanged',
};

const folder = (content: Record<string, string>) => scratchFolder('kagent-schema-', content);
const write = writeInto;
const ndjson = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
const rows = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t'));

/** A folder synced once, then: one file changed, one removed, one added, one empty (refused). */
async function changedFolder(): Promise<string> {
  const dir = folder({ 'keep.md': '# keep\n', 'edit.md': '# edit\n', 'gone.md': '# gone\n' });
  const first = await kagent(['lib', 'sync', dir, '--space', 'Handbook']);
  expect(first.code, first.stderr).toBe(0);
  write(dir, 'edit.md', '# edit\n\nlonger now\n');
  unlinkSync(join(dir, 'gone.md'));
  write(dir, 'new.md', '# new\n');
  write(dir, 'empty.md', '');
  return dir;
}

const syncArgs = (dir: string, ...extra: string[]) => [
  'lib',
  'sync',
  dir,
  '--space',
  'Handbook',
  '--delete',
  '--yes',
  '--verbose',
  ...extra,
];

describe('lib sync: the plan and the run share one schema', () => {
  it("--json: every line has the same fields; each file's plan line is its run line but for the tense", async () => {
    const dir = await changedFolder();
    const plan = await kagent(syncArgs(dir, '--dry-run', '--json'));
    const run = await kagent(syncArgs(dir, '--json'));
    expect(plan.code).toBe(2); // the empty file, in both
    expect(run.code).toBe(2);
    const planned = ndjson(plan.stdout);
    const done = ndjson(run.stdout);
    for (const line of [...planned, ...done]) expect(Object.keys(line)).toEqual([...FIELDS]);
    const byPath = new Map(done.map((line) => [line.path, line]));
    expect(planned.map((l) => [l.path, l.status]).sort()).toEqual([
      ['edit.md', 'replace'],
      ['empty.md', 'fail'],
      ['gone.md', 'delete'],
      ['keep.md', 'unchanged'],
      ['new.md', 'upload'],
    ]);
    expect(done.map((l) => l.path).sort()).toEqual(planned.map((l) => l.path).sort());
    for (const line of planned) {
      const after = byPath.get(line.path)!;
      expect(after.status, String(line.path)).toBe(PAST[String(line.status)]);
      for (const field of ['path', 'name', 'size', 'previous'] as const) expect(after[field]).toEqual(line[field]);
    }
    // What the plan said it would delete is what the run deleted.
    const gone = planned.find((l) => l.path === 'gone.md')!;
    expect((byPath.get('gone.md')!.item as { id: string }).id).toBe((gone.item as { id: string }).id);
    expect(byPath.get('empty.md')!.error).toMatchObject({ code: 'EMPTY_FILE' });
  });

  it('piped: the same four columns, status, path, item, earlier items or error code', async () => {
    const dir = await changedFolder();
    const plan = rows((await kagent(syncArgs(dir, '--dry-run'))).stdout);
    const run = rows((await kagent(syncArgs(dir))).stdout);
    for (const row of [...plan, ...run]) expect(row).toHaveLength(4);
    const byPath = new Map(run.map((row) => [row[1], row]));
    expect(plan.map((row) => row[1]).sort()).toEqual(run.map((row) => row[1]).sort());
    for (const [status, path, item, detail] of plan) {
      const [after, , itemAfter, detailAfter] = byPath.get(path)!;
      expect(after, path).toBe(PAST[String(status)]);
      // Earlier items (replace), the error code (fail), the item to delete: the same in both.
      if (status !== 'upload' && status !== 'replace') expect(itemAfter).toBe(item);
      expect(detailAfter).toBe(detail);
    }
  });
});

describe('lib upload: the plan and the run share one schema', () => {
  it('--json and piped: the same fields and columns, the status in the plain tense in the plan', async () => {
    const dir = folder({ 'a.md': '# a\n', 'b.md': '# b\n', 'empty.md': '' });
    expect((await kagent(['lib', 'upload', join(dir, 'a.md')])).code).toBe(0);
    const plan = await kagent(['lib', 'upload', dir, '--dry-run', '--json']);
    const planRows = rows((await kagent(['lib', 'upload', dir, '--dry-run'])).stdout);
    const run = await kagent(['lib', 'upload', dir, '--json']);
    expect([plan.code, run.code]).toEqual([2, 2]);
    const planned = ndjson(plan.stdout);
    const done = ndjson(run.stdout);
    for (const line of [...planned, ...done]) expect(Object.keys(line)).toEqual([...FIELDS]);
    const byName = (lines: Array<Record<string, unknown>>) => lines.map((l) => [l.name, l.status]).sort();
    expect(byName(planned)).toEqual([
      ['a.md', 'exists'],
      ['b.md', 'upload'],
      ['empty.md', 'fail'],
    ]);
    expect(byName(done)).toEqual(byName(planned).map(([name, status]) => [name, PAST[String(status)]]));
    // Piped, the plan's columns are the run's (status, path, item, error code); the run was checked above.
    expect(planRows.map((row) => [row.length, row[0]]).sort()).toEqual([
      [4, 'exists'],
      [4, 'fail'],
      [4, 'upload'],
    ]);
  });
});
