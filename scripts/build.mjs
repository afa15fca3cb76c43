// Bundles src/ into dist/ with code splitting: the entry stays tiny and each
// command group, the sandbox and heavy dependencies become chunks loaded on demand.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli.ts', sandbox: 'src/sandbox/index.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  // pdfjs-dist loads its own worker file at run time; it stays a package import.
  // jq-wasm finds its .wasm file through __dirname, which an ESM bundle does not have.
  external: ['pdfjs-dist', 'pdfjs-dist/*', 'jq-wasm'],
  // Some CommonJS dependencies call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __kagentRequire } from 'node:module'; const require = __kagentRequire(import.meta.url);" },
  sourcemap: false,
  minify: false,
  legalComments: 'none',
  logLevel: 'warning',
});
