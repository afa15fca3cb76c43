// The package is reproducible: two `npm pack` runs of clean copies of the
// repository, in different folders, with the same SOURCE_DATE_EPOCH, give
// tarballs that are the same bytes.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pack, type Packed } from '../bench/package.mjs';

const SOURCE_DATE_EPOCH = '1764028800'; // 2025-11-25
const packs: Packed[] = [];
beforeAll(() => {
  for (let i = 0; i < 2; i++) packs.push(pack({ SOURCE_DATE_EPOCH }));
}, 600_000);
afterAll(() => {
  for (const packed of packs) packed.remove();
});

/** path → sha256 of every file in a tarball, for a message that says what differs. */
function contents(tarball: string): Record<string, string> {
  const into = mkdtempSync(join(tmpdir(), 'kagent-unpacked-'));
  try {
    const unpacked = spawnSync('tar', ['-xzf', tarball, '-C', into], { encoding: 'utf8' });
    expect(unpacked.status, unpacked.stderr).toBe(0);
    const found: Record<string, string> = {};
    for (const path of readdirSync(into, { recursive: true, withFileTypes: true })) {
      if (!path.isFile()) continue;
      const file = join(path.parentPath, path.name);
      found[relative(into, file)] = createHash('sha256').update(readFileSync(file)).digest('hex');
    }
    return found;
  } finally {
    rmSync(into, { recursive: true, force: true });
  }
}

describe('npm pack with SOURCE_DATE_EPOCH', () => {
  it('twice, in two folders, gives byte-identical tarballs', () => {
    const [a, b] = packs as [Packed, Packed];
    expect(a.copy).not.toBe(b.copy);
    expect(a.packed.files.length).toBeGreaterThan(30);
    const first = readFileSync(a.tarball);
    const second = readFileSync(b.tarball);
    if (!first.equals(second)) {
      const [ca, cb] = [contents(a.tarball), contents(b.tarball)];
      const names = [...new Set([...Object.keys(ca), ...Object.keys(cb)])].filter((name) => ca[name] !== cb[name]);
      expect(names, 'files that differ between the two tarballs').toEqual([]);
    }
    expect(first.equals(second), 'the tarballs are the same bytes').toBe(true);
    // The date the build recorded is the one SOURCE_DATE_EPOCH names.
    expect(readFileSync(join(a.copy, 'dist', 'man', 'kagent.1'), 'utf8')).toMatch(/^\.TH "KAGENT" 1 "2025-11-25"/m);
  });
});
