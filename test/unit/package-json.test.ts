// package.json says what the package ships: `dependencies` are exactly the
// packages the built dist/ loads from node_modules at run time (everything else
// is bundled and belongs in devDependencies), the packages whose internals the
// build replaces are pinned exactly, nothing runs at install time, and the
// licences of everything bundled ship with it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { ensureBuilt, root } from '../helpers/binary.js';

const dist = join(root, 'dist');

/**
 * Bare imports the bundle leaves to Node at run time, with the files they are in.
 * `import … from`, `import(…)`, and `require(…)` or `require.resolve(…)` calls
 * (esbuild's `__require` too) — but not such text inside a string (ajv keeps
 * `'require("ajv/dist/runtime/equal")'` as code to generate).
 */
function runtimeImports(dir: string): Map<string, Array<{ file: string; index: number; text: string }>> {
  const patterns = [
    /^\s*(?:import|export)\b[^;\n]*?\bfrom\s*["']([^"']+)["']/gm,
    /^\s*import\s*["']([^"']+)["']/gm,
    /(?<![\w$.'"`])import\(\s*["']([^"']+)["']\s*\)/g,
    /(?<![\w$.'"`])(?:__require|require)(?:\.resolve)?\(\s*["']([^"']+)["']\s*\)/g,
    // A file of a package found at run time (the --jq worker loads jq-wasm's build this way).
    /\bcreateRequire\([^()]*(?:\([^()]*\))?[^()]*\)\.resolve\(\s*["']([^"']+)["']\s*\)/g,
  ];
  const found = new Map<string, Array<{ file: string; index: number; text: string }>>();
  const visit = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (/\.[cm]?js$/.test(entry.name)) {
        const text = readFileSync(path, 'utf8');
        for (const pattern of patterns) {
          for (const match of text.matchAll(pattern)) {
            const specifier = match[1] as string;
            if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) continue;
            if (builtinModules.includes(specifier) || builtinModules.includes(specifier.split('/')[0] as string))
              continue;
            const name = specifier.startsWith('@')
              ? specifier.split('/').slice(0, 2).join('/')
              : (specifier.split('/')[0] as string);
            found.set(name, [...(found.get(name) ?? []), { file: path, index: match.index ?? 0, text }]);
          }
        }
      }
    }
  };
  visit(dir);
  return found;
}

/**
 * Loaded only if present, inside try/catch, and never used by kagent: fdir (in
 * tinyglobby) probes for picomatch to offer a `.glob()` tinyglobby does not call.
 */
const OPTIONAL_PROBES = new Set(['picomatch']);

beforeAll(() => ensureBuilt());

describe('package.json dependencies', () => {
  it('are exactly the packages the built dist/ imports at run time', () => {
    const imports = runtimeImports(dist);
    const loaded = [...imports.keys()].filter((name) => !OPTIONAL_PROBES.has(name)).sort();
    const declared = Object.keys(pkg.dependencies).sort();
    // A runtime import that is not a dependency: the installed kagent fails to load it.
    expect(
      loaded.filter((name) => !declared.includes(name)),
      'imported at run time but not in dependencies',
    ).toEqual([]);
    // A dependency never imported: bundled (a devDependency) or unused.
    expect(
      declared.filter((name) => !loaded.includes(name)),
      'in dependencies but never imported by dist/',
    ).toEqual([]);
    expect(loaded).toEqual(declared);
  });

  it('the optional probes it tolerates are guarded by try/catch and not dependencies', () => {
    const imports = runtimeImports(dist);
    for (const name of OPTIONAL_PROBES) {
      expect(Object.keys(pkg.dependencies)).not.toContain(name);
      for (const site of imports.get(name) ?? []) {
        const before = site.text.slice(Math.max(0, site.index - 80), site.index);
        expect(before, `${name} in ${site.file}`).toMatch(/try\s*\{[^}]*$/);
      }
    }
  });

  it('finds a runtime import the dependencies lack (the check can fail)', async () => {
    const { mkdtempSync, writeFileSync, mkdirSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'kagent-imports-'));
    mkdirSync(join(dir, 'chunks'));
    writeFileSync(
      join(dir, 'cli.js'),
      'import { x } from "left-pad";\nconst s = \'require("ajv/dist/runtime/equal")\';\nawait import("node:fs");\n',
    );
    writeFileSync(join(dir, 'chunks', 'a.js'), 'const y = __require("@scope/pkg/sub"); import("./local.js");');
    expect([...runtimeImports(dir).keys()].sort()).toEqual(['@scope/pkg', 'left-pad']);
  });

  it('every library the sources import is declared: bundled ones as devDependencies, the ones left to run time as dependencies', async () => {
    const { sourceFiles } = await import('../helpers/imports.js');
    const specifiers = new Set<string>();
    for (const file of sourceFiles(root, ['src', 'commands'])) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const match of text.matchAll(
        /^\s*import\s+(?!type\b)[^'"]*?from\s+['"]([^'"./][^'"]*)['"]|\bimport\(\s*['"]([^'"./][^'"]*)['"]\s*\)/gm,
      )) {
        specifiers.add((match[1] ?? match[2]) as string);
      }
    }
    const packageOf = (specifier: string) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/');
    const imported = [
      ...new Set([...specifiers].filter((s) => !s.startsWith('node:') && !builtinModules.includes(s)).map(packageOf)),
    ].sort();
    expect(imported.length).toBeGreaterThan(10);
    const runtime = [...runtimeImports(dist).keys()];
    for (const name of imported) {
      if (runtime.includes(name)) expect(Object.keys(pkg.dependencies), name).toContain(name);
      else {
        expect(Object.keys(pkg.devDependencies), `${name} is bundled: a devDependency`).toContain(name);
        expect(Object.keys(pkg.dependencies), name).not.toContain(name);
      }
    }
  });

  it('the packages whose insides the build replaces are pinned exactly, at the version the lock file installs', () => {
    // scripts/build.mjs: marked-terminal (its
    // cli-highlight and node-emoji imports) and node-emoji (src/io/emoji-codes.ts
    // stands in for it). A range
    // would let an install pick a version whose code the stand-ins no longer fit.
    const build = readFileSync(join(root, 'scripts', 'build.mjs'), 'utf8');
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version: string }>;
    };
    const devDependencies = pkg.devDependencies as Record<string, string>;
    for (const name of ['marked-terminal', 'node-emoji']) {
      expect(build, `scripts/build.mjs reaches into ${name}`).toContain(name);
      expect(devDependencies[name], name).toMatch(/^\d+\.\d+\.\d+$/);
      expect(lock.packages[`node_modules/${name}`]?.version, `${name} in package-lock.json`).toBe(
        devDependencies[name],
      );
      const installed = JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as {
        version: string;
      };
      expect(installed.version, `${name} installed`).toBe(devDependencies[name]);
    }
  });
});

describe('package.json scripts and metadata', () => {
  it('nothing runs when the package is installed; the build runs before packing', () => {
    const scripts = pkg.scripts as Record<string, string>;
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare', 'preprepare', 'postprepare'])
      expect(scripts[hook], hook).toBeUndefined();
    expect(scripts.prepack).toBe('node scripts/build.mjs');
    // The README's promises: on a fresh clone, `npm install && npm run demo` and `npm test` are all it takes, so demo and test build first.
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain('npm install && npm run demo');
    expect(readme).toMatch(/^npm test\b/m);
    expect(scripts.demo).toMatch(/^npm run build && /);
    expect(scripts.test).toMatch(/npm run build && vitest run$/);
    // docs/commands.md is written by `npm run docs`, as docs/development.md says.
    expect(scripts.docs).toBe('node scripts/docs.mjs');
  });

  it('names its licence, repository, homepage and bug tracker; ships a LICENSE', () => {
    expect(pkg.license).toBe('MIT');
    expect(readFileSync(join(root, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} /);
    expect(pkg.repository).toMatchObject({ type: 'git', url: expect.stringMatching(/^git\+https:\/\//) });
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.bugs.url).toMatch(/^https:\/\//);
  });

  it('exports the sandbox with its types, and both files exist', () => {
    const entry = pkg.exports['./sandbox'];
    expect(entry).toEqual({ types: './types/sandbox.d.ts', default: './dist/sandbox.js' });
    expect(existsSync(join(root, entry.types))).toBe(true);
    expect(existsSync(join(root, entry.default))).toBe(true);
    expect(pkg.files).toEqual(expect.arrayContaining(['bin', 'dist', 'completions', 'types']));
  });
});

describe('third-party notices', () => {
  it('name every package with code in the bundle, with its licence text', () => {
    const notices = readFileSync(join(dist, 'THIRD-PARTY-NOTICES.md'), 'utf8');
    // esbuild marks each bundled module with a `// node_modules/<package>/…` comment.
    const bundled = new Set<string>();
    const visit = (folder: string) => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        const path = join(folder, entry.name);
        if (entry.isDirectory()) visit(path);
        else if (/\.[cm]?js$/.test(entry.name)) {
          for (const match of readFileSync(path, 'utf8').matchAll(
            /^\/\/ (?:.*\/)?node_modules\/((?:@[^/]+\/)?[^/]+)\//gm,
          ))
            bundled.add(match[1] as string);
        }
      }
    };
    visit(dist);
    expect(bundled.size).toBeGreaterThan(50);
    for (const name of bundled) {
      const section = new RegExp(
        `^## ${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\d[^\\n]*\\n\\nLicence: ([^\\n]+)\\n([\\s\\S]*?)(?=\\n---\\n|(?![\\s\\S]))`,
        'm',
      ).exec(notices);
      expect(section, name).not.toBeNull();
      // Its licence text: a licence or notice file, or, when it ships none, its README's licence section or the standard text.
      expect(section?.[2], name).toMatch(
        /### (LICEN[CS]E|COPYING|NOTICE|README|[\w.-]+ \(the standard text)[^\n]*\n\n```\n[\s\S]{100,}/i,
      );
    }
    // Runtime dependencies are installed with their own licences, not bundled; what they embed is named, with its licence.
    expect(notices).not.toMatch(/^## (jq-wasm|unpdf|pdfjs-dist) /m);
    expect(notices).toMatch(
      /^## PDF\.js, inside unpdf \d[^\n]*\n\nLicence: Apache-2\.0\n[\s\S]*?```\nCopyright 2012 Mozilla Foundation\n\nApache License\nVersion 2\.0/m,
    );
    expect(notices).toMatch(
      /^## jq, inside jq-wasm \d[^\n]*\n\nLicence: MIT\n[\s\S]*?```\nMIT License\n\nCopyright \(C\) 2012 Stephen Dolan\n/m,
    );
  });
});

describe('hints', () => {
  it('never suggest `npx kagent` (this project publishes no such name): not in the bundle, the scripts, the README or docs/', () => {
    const docs = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md'));
    expect(docs).toEqual(expect.arrayContaining(['commands.md', 'configuration.md', 'sandbox.md']));
    const texts: Array<[string, string]> = [
      ['README.md', readFileSync(join(root, 'README.md'), 'utf8')],
      ...docs.map((name): [string, string] => [`docs/${name}`, readFileSync(join(root, 'docs', name), 'utf8')]),
    ];
    const visit = (folder: string) => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        const path = join(folder, entry.name);
        if (entry.isDirectory()) visit(path);
        else if (/\.(c|m)?js$/.test(entry.name)) texts.push([path, readFileSync(path, 'utf8')]);
      }
    };
    visit(dist);
    visit(join(root, 'scripts'));
    expect(texts.length).toBeGreaterThan(10);
    for (const [path, text] of texts) expect(text, path).not.toMatch(/npx\s+kagent/);
  });
});
