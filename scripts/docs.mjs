// `npm run docs`: writes the command reference of docs/commands.md — usage,
// arguments, flags and examples of every command — from the command tree
// (src/cli/command-docs.ts), between the file's two markers; the hand-written prose
// around them is kept. test/unit/command-docs.test.ts fails when the committed
// file is out of date with the commands. `--check` writes nothing and exits 1
// when the file is out of date.
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const file = join(root, 'docs', 'commands.md');
const check = process.argv.includes('--check');

const temp = mkdtempSync(join(tmpdir(), 'kagent-docs-'));
try {
  const entry = join(temp, 'command-docs.mjs');
  await build({
    entryPoints: [join(root, 'src', 'cli', 'command-docs.ts')],
    outfile: entry,
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
  const { commandReference, withReference } = await import(pathToFileURL(entry).href);
  const current = readFileSync(file, 'utf8');
  const fresh = withReference(current, await commandReference());
  if (check) {
    if (fresh !== current) {
      console.error('docs/commands.md is out of date with the command tree: run npm run docs');
      process.exitCode = 1;
    }
  } else if (fresh !== current) {
    writeFileSync(file, fresh);
    console.log('docs/commands.md: the command reference was rewritten from the command tree');
  } else {
    console.log('docs/commands.md is up to date');
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}
