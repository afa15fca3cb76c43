// docs/commands.md: its command reference is generated from the command tree
// (src/cli/command-docs.ts, written by `npm run docs`), so the committed block must
// be exactly what the current commands produce (a stale file fails here), must
// cover every group, subcommand and flag, and link only to its own headings;
// the hand-written prose around the block is kept by the generator.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  anchor,
  BEGIN_MARKER,
  commandReference,
  END_MARKER,
  referenceIn,
  withReference,
} from '../../src/cli/command-docs.js';
import type { CommandSpec } from '../../src/kit/define.js';
import { loadGroup } from '../../src/cli/groups.js';
import { groups } from '../../src/cli/manifest.js';
import { GLOBAL_FLAGS } from '../../src/cli/global-flags.js';
import { root } from '../helpers/binary.js';

const file = join(root, 'docs', 'commands.md');
const committed = readFileSync(file, 'utf8');

describe('docs/commands.md', () => {
  it('holds exactly the reference the current command tree generates (run npm run docs when this fails)', async () => {
    const block = referenceIn(committed);
    expect(block, 'the generated block and its markers').toBeDefined();
    expect(block, 'docs/commands.md is out of date with the command tree: run npm run docs').toBe(
      await commandReference(),
    );
    expect(withReference(committed, await commandReference())).toBe(committed);
  });

  it('has every global flag, and every group, subcommand and visible flag under its own heading', async () => {
    for (const flag of GLOBAL_FLAGS) expect(committed).toContain(`| \`${flag.flags}\` |`);
    const sections = committed.split(/^(?=#{2,3} )/m);
    const section = (path: string[]) =>
      sections.find((text) => text.startsWith(`## ${path.join(' ')}\n`) || text.startsWith(`### ${path.join(' ')}\n`));
    const walk = (spec: CommandSpec, parent: string[]) => {
      const own = [...parent, spec.name];
      const text = section(own);
      expect(text, own.join(' ')).toBeDefined();
      for (const option of spec.options ?? [])
        if (!option.hidden) expect(text, `${own.join(' ')} ${option.flags}`).toContain(`| \`${option.flags}\` |`);
      for (const example of spec.examples)
        expect(text, `${own.join(' ')}: ${example}`).toContain(example.startsWith('#') ? example : `$ ${example}`);
      for (const sub of spec.commands ?? []) if (!sub.hidden) walk(sub, own);
    };
    for (const group of groups) walk(await loadGroup(group.name), ['kagent']);
  });

  it('links only to headings it has', () => {
    const headings = new Set([...committed.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1]!)));
    const links = [...committed.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(groups.length);
    for (const link of links) expect(headings, link).toContain(link);
  });

  it('the generator replaces only the block between the markers, keeping the prose around it', () => {
    const document = `# Title\n\nBefore.\n\n${BEGIN_MARKER}\n\nold\n${END_MARKER}\n\nAfter.\n`;
    const updated = withReference(document, '## New\n');
    expect(updated).toBe(`# Title\n\nBefore.\n\n${BEGIN_MARKER}\n\n## New\n\n${END_MARKER}\n\nAfter.\n`);
    expect(referenceIn(updated)).toBe('## New\n');
    expect(() => withReference('# No markers\n', 'x')).toThrow(/markers/);
  });
});
