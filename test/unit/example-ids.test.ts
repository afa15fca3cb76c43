// Example ids look like the ids the service gives: a kind's prefix (the
// sandbox's, `doc_` for documents) and ten characters of its alphabet, so a
// reader who copies an example, or matches ids with a pattern, sees the real
// thing. Checked in the README, every docs/ page and the whole command tree
// (summaries, descriptions, flags, examples: what --help, the man pages and
// docs/commands.md print).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadGroup } from '../../src/cli/groups.js';
import { groups } from '../../src/cli/manifest.js';
import { ROOT_DESCRIPTION, ROOT_EXAMPLES } from '../../src/cli/root-help.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The prefixes the sandbox gives ids (`world.id('doc')`), read from its sources. */
function sandboxPrefixes(): Set<string> {
  const prefixes = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts'))
        for (const match of readFileSync(join(root, path), 'utf8').matchAll(/\.id\('(\w+)'\)/g))
          prefixes.add(match[1] as string);
    }
  };
  walk('src/sandbox');
  return prefixes;
}

const prefixes = sandboxPrefixes();
/** `doc_8f2k3xq9mz`: what src/sandbox/world.ts's id() makes. */
const realId = new RegExp(`^(${[...prefixes].join('|')})_[abcdefghijkmnpqrstuvwxyz23456789]{10}$`);

/** Words shaped like an id (`dc_8f2k1x`, `sp_123`): a short prefix, `_`, and something with a digit. A masked key (`kak_3x…`) is not one. */
function idLikeWords(text: string): string[] {
  return [...text.matchAll(/\b[a-z]{1,4}_[a-z0-9]*\d[a-z0-9]*\b(?!…)/g)].map((match) => match[0]);
}

function badIds(text: string): string[] {
  return idLikeWords(text).filter((word) => !realId.test(word));
}

describe('example ids', () => {
  it('the sandbox is where the formats come from', () => {
    expect([...prefixes]).toEqual(expect.arrayContaining(['doc', 'li', 'sp', 'tk', 'ac', 'cv', 'md', 'ib', 'en']));
    expect(realId.test('doc_8f2k3xq9mz')).toBe(true);
    expect(badIds('kagent doc show dc_8f2k1x; doc:doc_8k2m; sp_123; doc_8f2k1xq9mz; key kak_3x…')).toEqual([
      'dc_8f2k1x',
      'doc_8k2m',
      'sp_123',
      'doc_8f2k1xq9mz',
    ]);
  });

  it('are real-looking in the README and every docs/ page', () => {
    const pages = ['README.md', ...readdirSync(join(root, 'docs')).map((name) => join('docs', name))].filter((path) =>
      path.endsWith('.md'),
    );
    for (const page of pages) expect(badIds(readFileSync(join(root, page), 'utf8')), page).toEqual([]);
  });

  it('are real-looking in every help text of the command tree', async () => {
    expect(badIds([ROOT_DESCRIPTION, ...ROOT_EXAMPLES].join('\n'))).toEqual([]);
    for (const group of groups) {
      const spec = await loadGroup(group.name);
      expect(badIds(JSON.stringify(spec)), group.name).toEqual([]);
    }
  });
});
