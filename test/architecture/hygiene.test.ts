// What knip and depcheck would say, checked on the sources: every package a
// source, test or script imports is declared in package.json (not reached
// through another package's dependencies, which may drop it any day), and
// every function, constant or class that src/ exports has a caller.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };

const root = fileURLToPath(new URL('../..', import.meta.url));

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(join(root, dir))) {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) walk(path, out);
    else if (/\.(ts|mts|mjs|js)$/.test(name)) out.push(path);
  }
  return out;
}

const files = ['src', 'commands', 'test', 'scripts', 'bin'].flatMap((dir) => walk(dir));
const texts = new Map(files.map((file) => [file, readFileSync(join(root, file), 'utf8')]));

/** `ajv/dist/2020.js` → `ajv`; `@scope/name/x` → `@scope/name`; relative paths and builtins → undefined. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!))
    return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

describe('packages', () => {
  it('every package imported by the sources, tests and scripts is a dependency or devDependency', () => {
    const declared = new Set([
      pkg.name,
      ...Object.keys(pkg.dependencies ?? {}),
      ...Object.keys(pkg.devDependencies ?? {}),
    ]);
    const missing: string[] = [];
    for (const [file, text] of texts) {
      const specifiers = [
        ...text.matchAll(/^\s*(?:import|export)\s+(?:type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]/gm),
        ...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm),
        ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
      ].map((match) => match[1] as string);
      for (const specifier of specifiers) {
        const name = packageOf(specifier);
        // A package name (the pattern skips the `'…'` of a comment that shows an import).
        if (name && /^(@[\w.-]+\/)?[\w.-]+$/.test(name) && !declared.has(name)) missing.push(`${file}: ${specifier}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('reads a specifier as its package', () => {
    expect(packageOf('ajv/dist/2020.js')).toBe('ajv');
    expect(packageOf('@types/node')).toBe('@types/node');
    expect(packageOf('@scope/name/deep.js')).toBe('@scope/name');
    expect(packageOf('./local.js')).toBeUndefined();
    expect(packageOf('node:fs')).toBeUndefined();
    expect(packageOf('fs/promises')).toBeUndefined();
  });
});

describe('exports', () => {
  it('every function, constant or class exported from src/ has a caller (in another file or its own)', () => {
    const unused: string[] = [];
    for (const [file, text] of texts) {
      if (!file.startsWith('src/')) continue;
      for (const match of text.matchAll(/^export (?:async )?(?:function\*?|const|let|class) (\w+)/gm)) {
        const name = match[1] as string;
        const word = new RegExp(`\\b${name}\\b`);
        const usedElsewhere = [...texts].some(([other, source]) => other !== file && word.test(source));
        const usedHere = (text.match(new RegExp(word, 'g')) ?? []).length > 1;
        if (!usedElsewhere && !usedHere) unused.push(`${file}: ${name}`);
      }
    }
    expect(unused).toEqual([]);
  });
});
