// A command group is its folder commands/<name>/ (index.ts declares its verbs)
// and one line of src/cli/manifest.ts (its name, section and one line): the root
// help, the loader (src/cli/groups.ts, a template import), completion, the man
// pages and docs/commands.md all follow from those two. Neither may be without
// the other.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { groups } from '../../src/cli/manifest.js';
import { importEdges, sourceFiles, templateTargets } from '../helpers/imports.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** What does not match between the folders of commands/ (with an index.ts or not) and the manifest's names. */
function mismatches(folders: Array<{ name: string; hasIndex: boolean }>, manifest: readonly string[]): string[] {
  const named = new Set(folders.map((folder) => folder.name));
  return [
    ...folders.filter((folder) => !folder.hasIndex).map((folder) => `commands/${folder.name}/ has no index.ts`),
    ...folders
      .filter((folder) => !manifest.includes(folder.name))
      .map((folder) => `commands/${folder.name}/ has no line in src/cli/manifest.ts`),
    ...manifest
      .filter((name) => !named.has(name))
      .map((name) => `manifest line "${name}" has no folder commands/${name}/`),
  ];
}

describe('a command group', () => {
  const folders = readdirSync(join(root, 'commands'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => ({ name: entry.name, hasIndex: existsSync(join(root, 'commands', entry.name, 'index.ts')) }));

  it('every folder of commands/ has an index.ts and a manifest line, and every manifest line a folder', () => {
    expect(folders.length).toBeGreaterThanOrEqual(20);
    expect(
      mismatches(
        folders,
        groups.map((group) => group.name),
      ),
    ).toEqual([]);
  });

  it('the rule names a folder without a line, a line without a folder and a folder without index.ts (it can fail)', () => {
    expect(
      mismatches(
        [
          { name: 'space', hasIndex: true },
          { name: 'notes', hasIndex: true },
          { name: 'drafts', hasIndex: false },
        ],
        ['space', 'drafts', 'wiki'],
      ),
    ).toEqual([
      'commands/drafts/ has no index.ts',
      'commands/notes/ has no line in src/cli/manifest.ts',
      'manifest line "wiki" has no folder commands/wiki/',
    ]);
  });

  it('the loader reaches exactly the group indexes, by one template import (no list of groups to keep)', () => {
    const files = sourceFiles(root, ['src', 'commands']);
    const reached = importEdges(root, files)
      .filter((edge) => edge.from === 'src/cli/groups.ts' && edge.to.startsWith('commands/'))
      .map((edge) => edge.to)
      .sort();
    expect(reached).toEqual(folders.map((folder) => `commands/${folder.name}/index.ts`).sort());
    expect(
      templateTargets('src/cli/groups.ts', '../../commands/${name}/index.ts', [
        'commands/a/index.ts',
        'commands/a/b/index.ts',
        'src/a/index.ts',
      ]),
    ).toEqual(['commands/a/index.ts']);
  });
});
