// `npm run docs`: writes the command reference of docs/commands.md — usage,
// arguments, flags and examples of every command — from the command tree
// (src/cli/command-docs.ts), between the file's two markers; the hand-written prose
// around them is kept. It also writes package.json's `man` field, one page per
// group of the manifest (src/cli/manpages.ts), so that a new group needs no list
// kept by hand. test/unit/command-docs.test.ts and test/unit/manpages.test.ts fail
// when either is out of date. `--check` writes nothing and exits 1 when one is.
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const file = join(root, 'docs', 'commands.md');
const packageFile = join(root, 'package.json');
const check = process.argv.includes('--check');

const temp = mkdtempSync(join(tmpdir(), 'kagent-docs-'));
try {
  await build({
    entryPoints: [join(root, 'src', 'cli', 'command-docs.ts'), join(root, 'src', 'cli', 'manpages.ts')],
    outdir: temp,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
    // As the build bundles the program: the two runtime dependencies stay outside, and `require` works in ESM.
    external: ['unpdf', 'unpdf/*', 'jq-wasm'],
    banner: {
      js: "import { createRequire as __kagentRequire } from 'node:module'; const require = __kagentRequire(import.meta.url);",
    },
  });
  const { commandReference, withReference } = await import(pathToFileURL(join(temp, 'command-docs.mjs')).href);
  const { manPageFiles } = await import(pathToFileURL(join(temp, 'manpages.mjs')).href);
  const current = readFileSync(file, 'utf8');
  update('docs/commands.md', file, current, withReference(current, await commandReference()));
  const pkgText = readFileSync(packageFile, 'utf8');
  const pkg = JSON.parse(pkgText);
  pkg.man = manPageFiles().map((page) => `./dist/man/${page}`);
  update("package.json's man field", packageFile, pkgText, `${JSON.stringify(pkg, null, 2)}\n`);
} finally {
  rmSync(temp, { recursive: true, force: true });
}

/** Writes `fresh` where it differs from `current` (with --check: says so and fails instead). */
function update(what, path, current, fresh) {
  if (fresh === current) console.log(`${what} is up to date`);
  else if (check) {
    console.error(`${what} is out of date with the command tree: run npm run docs`);
    process.exitCode = 1;
  } else {
    writeFileSync(path, fresh);
    console.log(`${what} was rewritten from the command tree`);
  }
}
