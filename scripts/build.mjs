// Bundles src/ into dist/ with code splitting: the entry stays tiny and each
// command group, the sandbox and heavy dependencies become chunks loaded on demand.
import { build } from 'esbuild';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildDate, writeManPages, writeNotices } from './build-package.mjs';
import { writeSandboxTypes } from './sandbox-types.mjs';
import pkg from '../package.json' with { type: 'json' };

// Each start-up trick below has a name; KAGENT_BUILD_WITHOUT=name,name builds
// without those, into KAGENT_BUILD_OUT (default dist/), so that
// test/bench/tricks.mjs can measure what each one gains (docs/performance.md).
const without = new Set((process.env.KAGENT_BUILD_WITHOUT ?? '').split(',').filter(Boolean));
const using = (trick) => !without.has(trick);

// without-highlighter: marked-terminal imports cli-highlight (all of highlight.js)
// at its top, for syntax colour in code blocks. src/io/markdown.ts renders code
// blocks itself, plainly, so the highlighter is never called: it is left out
// of the bundle, and the first rendered Markdown no longer pays for it.
// The same for node-emoji (emoji shortcodes, ~100 ms with its table): marked-
// terminal gets src/io/emoji-codes.ts instead, which loads the table only for
// Markdown that has a :code: in it. `doc show` in a terminal: 146-195 ms sooner.
const withoutHighlighter = {
  name: 'without-highlighter',
  setup(build) {
    build.onResolve({ filter: /^node-emoji$/ }, (args) =>
      /node_modules[\\/]marked-terminal[\\/]/.test(args.importer)
        ? { path: fileURLToPath(new URL('../src/io/emoji-codes.ts', import.meta.url)) }
        : undefined,
    );
    build.onResolve({ filter: /^cli-highlight$/ }, (args) =>
      /node_modules[\\/]marked-terminal[\\/]/.test(args.importer)
        ? { path: 'cli-highlight', namespace: 'no-highlighter' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'no-highlighter' }, () => ({
      contents: 'export function highlight(code) { return code; }',
      loader: 'js',
    }));
  },
};

// sets: modules that load together, each set in one chunk. esbuild puts each module
// into the chunk of the set of entry points that reach it, so modules shared by
// different groups (and the sandbox) become many small files, and Node's ESM loader
// spends a fraction of a millisecond on each. The sets are derived from the import
// graph (no list to keep): "program" is every module of ours that src/cli/program.ts
// reaches by static imports, less what the sandbox's entry shares with it (esbuild
// orders a shared chunk from the entry that reaches it first) and what src/main.ts
// loads before it (the compile cache
// and what it needs, errors.ts among them: the cache must be on before the program's
// chunk is compiled, and a set member reached first would run after the whole set). Each member
// also imports a virtual module that imports the whole set, in the order the program
// runs them (dependencies first), so an entry that reaches one reaches all.
async function staticClosure(entry) {
  const { metafile } = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    logLevel: 'silent',
  });
  const order = [];
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const next of metafile.inputs[file]?.imports ?? [])
      if (next.kind === 'import-statement' && !next.external && metafile.inputs[next.path]) visit(next.path);
    if (/^(src|commands)\/.*\.ts$/.test(file)) order.push(file);
  };
  visit(Object.keys(metafile.inputs).find((file) => file === entry));
  return order;
}
const fromRoot = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const beforeProgram = new Set([
  ...(await staticClosure('src/main.ts')),
  ...(await staticClosure('src/cli/compile-cache.ts')),
  ...(await staticClosure('src/sandbox/index.ts')),
]);
const SETS = { program: (await staticClosure('src/cli/program.ts')).filter((file) => !beforeProgram.has(file)) };
const setOf = new Map(Object.entries(SETS).flatMap(([name, paths]) => paths.map((path) => [fromRoot(path), name])));

const chunkSets = {
  name: 'sets',
  setup(build) {
    build.onResolve({ filter: /^kagent:set:/ }, (args) => ({
      path: args.path.slice('kagent:set:'.length),
      namespace: 'kagent-set',
    }));
    build.onLoad({ filter: /.*/, namespace: 'kagent-set' }, (args) => ({
      contents: SETS[args.path].map((path) => `import ${JSON.stringify(fromRoot(path))};`).join('\n'),
      loader: 'js',
      resolveDir: fromRoot(''),
    }));
    build.onLoad({ filter: /[\\/](src|commands)[\\/].*\.ts$/ }, async (args) =>
      setOf.has(args.path)
        ? {
            contents: `import 'kagent:set:${setOf.get(args.path)}';\n${await readFile(args.path, 'utf8')}`,
            loader: 'ts',
          }
        : undefined,
    );
  },
};

// The declarations of the `kagent/sandbox` export, from the sandbox's public face.
await writeSandboxTypes();

// Build beside dist/ and swap it in at the end, so a running kagent (or test)
// never sees a half-written bundle.
const dist = process.env.KAGENT_BUILD_OUT
  ? pathToFileURL(resolve(process.env.KAGENT_BUILD_OUT))
  : new URL('../dist', import.meta.url);
const next = new URL(`${dist.href}.next`);
const old = new URL(`${dist.href}.old`);
rmSync(next, { recursive: true, force: true });
// Package step: the day this build was made, shown by `kagent --version` and the man pages.
const date = buildDate();
const external = ['unpdf', 'unpdf/*', 'jq-wasm'];
const banner = {
  js: "import { createRequire as __kagentRequire } from 'node:module'; const require = __kagentRequire(import.meta.url);",
};
const main = await build({
  entryPoints: { cli: 'src/main.ts', sandbox: 'src/sandbox/index.ts' },
  outdir: fileURLToPath(next),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  // unpdf (the sandbox's PDF parser, 2.6 MB) loads its PDF.js build as `unpdf/pdfjs`
  // from its own package; it stays a package import.
  // jq-wasm finds its .wasm file through __dirname, which an ESM bundle does not have.
  external,
  // Some CommonJS dependencies call require(); give the ESM bundle one.
  banner,
  define: { KAGENT_BUILD_DATE: JSON.stringify(date) },
  metafile: true,
  sourcemap: false,
  minify: false,
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [withoutHighlighter, chunkSets].filter((plugin) => using(plugin.name)),
});
// front: the launcher's front (src/cli/front.ts) answers `--version` and the root
// help, built as CommonJS so that they never start Node's ES module loader nor
// load the program (docs/performance.md). Without it, a front that answers
// nothing: the program answers them.
if (!using('front'))
  writeFileSync(new URL('front.cjs', `${next.href}/`), 'exports.answerWithoutProgram = () => undefined;\n');
const front = await build({
  entryPoints: using('front') ? { front: 'src/cli/front.ts' } : [],
  outdir: fileURLToPath(next),
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  define: { KAGENT_BUILD_DATE: JSON.stringify(date) },
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
});

// Package steps: the licences of everything bundled, and the man pages.
writeNotices([main.metafile, front.metafile], fileURLToPath(next));
await writeManPages(fileURLToPath(next), { version: pkg.version, date }, { external, banner });

rmSync(old, { recursive: true, force: true });
try {
  renameSync(dist, old);
} catch (error) {
  if (error.code !== 'ENOENT') throw error;
}
renameSync(next, dist);
rmSync(old, { recursive: true, force: true });
