// A synced folder's record of its files' digests: an entry is used only for the
// very same version of a file, a file changed in the last two seconds is never
// recorded, and the record is written once and only when it changed.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileIdentity, folderDigests } from '../../src/upload/digest-cache.js';

const SHA = 'a'.repeat(64);
const dirs: string[] = [];
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kagent-folder-digests-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('folderDigests', () => {
  it("gives back a settled file's digest on the next run, and nothing once the file changed", async () => {
    const cache = scratch();
    const folder = scratch();
    const file = join(folder, 'a.md');
    writeFileSync(file, 'one');
    const later = () => Date.now() + 10_000;
    const first = await folderDigests(cache, folder, later);
    const stats = statSync(file, { bigint: true });
    const info = fileIdentity(stats);
    expect(first.get('a.md', info)).toBeUndefined();
    first.set('a.md', info, SHA);
    await first.save();
    expect(readdirSync(join(cache, 'digests')).filter((n) => n.startsWith('folder-'))).toHaveLength(1);

    const second = await folderDigests(cache, folder, later);
    expect(second.get('a.md', fileIdentity(statSync(file, { bigint: true })))).toBe(SHA);
    expect(second.get('b.md', fileIdentity(statSync(file, { bigint: true })))).toBeUndefined(); // another path

    writeFileSync(file, 'two'); // same size, new change time
    expect(second.get('a.md', fileIdentity(statSync(file, { bigint: true })))).toBeUndefined();
    utimesSync(file, stats.atime, stats.mtime); // the modification time set back: the change time still moved
    expect(second.get('a.md', fileIdentity(statSync(file, { bigint: true })))).toBeUndefined();
    // Another folder has its own record.
    expect((await folderDigests(cache, scratch(), later)).get('a.md', info)).toBeUndefined();
  });

  it('does not record a file changed in the last two seconds', async () => {
    const cache = scratch();
    const folder = scratch();
    const file = join(folder, 'a.md');
    writeFileSync(file, 'one');
    const record = await folderDigests(cache, folder);
    const info = fileIdentity(statSync(file, { bigint: true }));
    record.set('a.md', info, SHA);
    await record.save();
    expect((await folderDigests(cache, folder)).get('a.md', info)).toBeUndefined();
  });

  it('keeps one string per file ("<identity> <sha256>"), and reads a record of the earlier layout as empty', async () => {
    const cache = scratch();
    const folder = scratch();
    const file = join(folder, 'a.md');
    writeFileSync(file, 'one');
    const later = () => Date.now() + 10_000;
    const info = fileIdentity(statSync(file, { bigint: true }));
    expect(info).toMatch(/^\d+:\d+:3:\d+:\d+$/);
    const first = await folderDigests(cache, folder, later);
    first.set('a.md', info, SHA);
    await first.save();
    const [name] = readdirSync(join(cache, 'digests')).filter((n) => n.startsWith('folder-'));
    const path = join(cache, 'digests', name as string);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ v: 2, files: { 'a.md': `${info} ${SHA}` } });
    // An entry for another version of the file, or a malformed one, gives nothing.
    const [dev, ino, size, mtime, ctime] = info.split(':');
    for (const entry of [
      `${dev}:${ino}:${size}:${mtime}:${BigInt(ctime as string) + 1n} ${SHA}`,
      `${info} ${'g'.repeat(64)}`,
      `${info}  ${SHA}`,
      [info, SHA],
    ]) {
      writeFileSync(path, JSON.stringify({ v: 2, files: { 'a.md': entry } }));
      expect((await folderDigests(cache, folder, later)).get('a.md', info)).toBeUndefined();
    }
    const parts = info.split(':');
    writeFileSync(path, JSON.stringify({ v: 1, files: { 'a.md': [...parts, SHA] } }));
    expect((await folderDigests(cache, folder, later)).get('a.md', info)).toBeUndefined();
  });

  it('drops the files not seen in a run, and ignores a record it cannot read', async () => {
    const cache = scratch();
    const folder = scratch();
    writeFileSync(join(folder, 'a.md'), 'one');
    writeFileSync(join(folder, 'b.md'), 'two');
    const later = () => Date.now() + 10_000;
    const a = fileIdentity(statSync(join(folder, 'a.md'), { bigint: true }));
    const b = fileIdentity(statSync(join(folder, 'b.md'), { bigint: true }));
    const first = await folderDigests(cache, folder, later);
    first.set('a.md', a, SHA);
    first.set('b.md', b, SHA);
    await first.save();
    const second = await folderDigests(cache, folder, later);
    expect(second.get('a.md', a)).toBe(SHA); // b.md is gone from the folder: not looked up
    await second.save();
    const third = await folderDigests(cache, folder, later);
    expect(third.get('a.md', a)).toBe(SHA);
    expect(third.get('b.md', b)).toBeUndefined();

    const [name] = readdirSync(join(cache, 'digests')).filter((n) => n.startsWith('folder-'));
    writeFileSync(join(cache, 'digests', name as string), '{not json');
    expect((await folderDigests(cache, folder, later)).get('a.md', a)).toBeUndefined();
  });
});
