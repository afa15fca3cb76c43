// Bundles src/ into dist/ with code splitting: the entry stays tiny and each
// command group, the sandbox and heavy dependencies become chunks loaded on demand.
import { build } from 'esbuild';
import { renameSync, rmSync } from 'node:fs';

// kagent never speaks HTTP/2, but undici's client pulls its HTTP/2 half (and
// node:http2) in at load time; leaving it out of the bundle trims start-up of
// every command that calls the API by several percent (measured on `me --json`).
const withoutHttp2 = {
  name: 'without-http2',
  setup(build) {
    build.onResolve({ filter: /client-h2\.js$/ }, (args) =>
      /undici[\\/]lib[\\/]dispatcher/.test(args.resolveDir) ? { path: args.path, namespace: 'no-http2' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'no-http2' }, () => ({
      contents: 'module.exports = () => { throw new Error("HTTP/2 is not part of the kagent bundle"); };',
    }));
  },
};

// Build beside dist/ and swap it in at the end, so a running kagent (or test)
// never sees a half-written bundle.
const dist = new URL('../dist', import.meta.url);
const next = new URL('../dist.next', import.meta.url);
const old = new URL('../dist.old', import.meta.url);
rmSync(next, { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli.ts', sandbox: 'src/sandbox/index.ts' },
  outdir: 'dist.next',
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
  plugins: [withoutHttp2],
});
rmSync(old, { recursive: true, force: true });
try {
  renameSync(dist, old);
} catch (error) {
  if (error.code !== 'ENOENT') throw error;
}
renameSync(next, dist);
rmSync(old, { recursive: true, force: true });
