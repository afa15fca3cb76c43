// Bundles src/ into dist/ with code splitting: the entry stays tiny and each
// command group, the sandbox and heavy dependencies become chunks loaded on demand.
import { build } from 'esbuild';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildDate, StandIns, writeManPages, writeNotices } from './build-package.mjs';
import pkg from '../package.json' with { type: 'json' };

// Each start-up trick below has a name; KAGENT_BUILD_WITHOUT=name,name builds
// without those, into KAGENT_BUILD_OUT (default dist/), so that
// test/bench/tricks.mjs can measure what each one gains (docs/performance.md).
const without = new Set((process.env.KAGENT_BUILD_WITHOUT ?? '').split(',').filter(Boolean));
const using = (trick) => !without.has(trick);

// Package step: every replacement the plugins below make inside a dependency is
// expected, per build, and each must apply (StandIns in scripts/build-package.mjs).
let standIns = new StandIns([]);

// without-http2: kagent never speaks HTTP/2, but undici's client pulls its
// HTTP/2 half (and node:http2) in at load time; left out of the bundle, every
// request that goes by undici (uploads, proxies) starts sooner: 86-89 ms on a
// small `lib upload` (docs/performance.md).
const withoutHttp2 = {
  name: 'without-http2',
  setup(build) {
    build.onResolve({ filter: /client-h2\.js$/ }, (args) => {
      if (!/undici[\\/]lib[\\/]dispatcher/.test(args.resolveDir)) return undefined;
      standIns.apply('undici client-h2.js');
      return { path: args.path, namespace: 'no-http2' };
    });
    build.onLoad({ filter: /.*/, namespace: 'no-http2' }, () => ({
      contents: 'module.exports = () => { throw new Error("HTTP/2 is not part of the kagent bundle"); };',
    }));
  },
};

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

// lazy-builtins: Node built-ins that undici and commander require when they
// load, though a kagent run seldom or never uses them (commander loads for every
// command; `me --json` 2-15 ms sooner, docs/performance.md). They are replaced,
// for those packages only, by what is really used:
// - undici's assert(condition, message): a check that loads node:assert only to
//   throw its AssertionError;
// - undici's node:http: `maxHeaderSize` (Node's default, 16 KiB, unless
//   --max-http-header-size is given, when the real module is loaded) and
//   `IncomingMessage` (to spot a server request passed as a body, which kagent
//   never does);
// - commander's node:child_process (for executable subcommands, which kagent
//   has none of): loaded on first use.
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(build) {
    const stubs = {
      'undici node:assert': `module.exports = function assert(condition, message) {
        if (!condition) { const { AssertionError } = require('node:assert'); throw new AssertionError({ message: message ?? 'assertion failed' }); }
      };`,
      'undici node:http': `const custom = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) => arg.includes('--max-http-header-size'));
      module.exports = custom ? require('node:http') : { maxHeaderSize: 16 * 1024, IncomingMessage: class IncomingMessage {} };`,
      'commander node:child_process': `let real;
      module.exports = new Proxy({}, { get: (_, key) => (real ??= require('node:child_process'))[key] });`,
    };
    build.onResolve({ filter: /^node:(assert|http|child_process)$/ }, (args) => {
      const owner = /node_modules[\\/](undici|commander)[\\/]/.exec(args.importer)?.[1];
      if (!owner || !stubs[`${owner} ${args.path}`]) return undefined;
      standIns.apply(`${owner} ${args.path}`);
      return { path: `${owner} ${args.path}`, namespace: 'lazy-builtin' };
    });
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({ contents: stubs[args.path], loader: 'js' }));
  },
};

// sets: modules that load together, each set in one chunk. esbuild puts each
// module into the chunk of the set of entry points that reach it, so small
// modules shared by different sets of commands become files of their own, and
// Node's ESM loader spends a fraction of a millisecond on each however small it
// is. Each member of a set also imports a virtual module that imports the whole
// set, so an entry that reaches one reaches all, and they share one chunk
// (`me --json` 25-55 ms sooner, docs/performance.md).
// - core: the modules every API command runs through, from the program to the
//   answer. src/errors.ts stays out: every set member imports the set, so the
//   order of the set's modules in the chunk depends on which one a command
//   reaches first, and errors.ts holds the classes other members extend as they
//   load (it must run before them).
// - entry: what every command loads with the program: the compile cache it
//   turns on first and the cache dir it lives in, the groups (their list and
//   where each one's module is), the table of global flags, and the root help's
//   texts that commander's root command shows.
const SETS = {
  core: [
    'src/cli/argv.ts',
    'src/cli/option-values.ts',
    'src/kit/define.ts',
    'src/kit/options.ts',
    'src/kit/hints.ts',
    'src/views/not-found.ts',
    'src/kit/space.ts',
    'src/io/command-line.ts',
    'src/cli/runtime.ts',
    'src/config/resolve.ts',
    'src/config/store.ts',
    'src/config/paths.ts',
    'src/io/fields.ts',
    'src/io/editor.ts',
    'src/io/streams.ts',
    'src/io/terminal.ts',
    'src/io/prompt.ts',
    'src/io/sanitize.ts',
    'src/io/spinner.ts',
    'src/io/output.ts',
    'src/api/client.ts',
    'src/api/operations.ts',
    'src/api/validate.ts',
    'src/http/core.ts',
    'src/http/transport.ts',
    'src/http/url.ts',
    'src/http/api-error.ts',
    'src/http/backoff.ts',
    'src/http/trace.ts',
    'src/http/paginate.ts',
    'src/http/clock.ts',
    'src/http/pacer.ts',
    'src/http/shared-pacer.ts',
    'src/http/headers.ts',
    'src/http/exchange.ts',
    'src/http/failures.ts',
    'src/http/deadline.ts',
    'src/http/body.ts',
  ],
  entry: [
    'src/cli/root-help.ts',
    'src/cli/global-flags.ts',
    'src/cli/manifest.ts',
    'src/cli/groups.ts',
    'src/cli/compile-cache.ts',
    'src/config/cache-dir.ts',
  ],
};
const fromRoot = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const setOf = new Map(Object.entries(SETS).flatMap(([name, paths]) => paths.map((path) => [fromRoot(path), name])));
// require-builtins: kagent's own imports of Node built-ins become require() calls. Node gives an
// imported built-in an ES module facade, made by reading every export, getters
// included: node:fs's `promises`, `ReadStream` and `Utf8Stream` getters then
// load fs/promises and the file streams, ~1.5 ms of every API call's start-up
// on Node 26 (measured with --cpu-prof), and on Node 24+ the facade of node:fs
// loads node:os too. A require() reads no getter until it is
// used. The require is made with node:module's createRequire in the module
// itself (esbuild would turn a bare require() into its __require helper, and
// the file would then load the helpers' chunk). node:module stays an import.
// Forms rewritten: `import { a, b as c } from 'node:x'`, `import x from
// 'node:x'` and `import * as x from 'node:x'`; type-only names are dropped.
function requireBuiltins(source) {
  let used = false;
  const rewritten = source.replace(
    /^import\s+(?!type\s)(\{[^}]*\}|\*\s+as\s+[\w$]+|[\w$]+)\s+from\s+(['"])(node:[\w/]+)\2;?[ \t]*$/gm,
    (statement, clause, _quote, name) => {
      if (name === 'node:module') return statement;
      used = true;
      const required = `__kagentBuiltin(${JSON.stringify(name)})`;
      if (!clause.startsWith('{')) return `const ${clause.replace(/^\*\s+as\s+/, '')} = ${required};`;
      const names = clause
        .slice(1, -1)
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part && !part.startsWith('type '))
        .map((part) => part.replace(/\s+as\s+/, ': '));
      return names.length === 0 ? '' : `const { ${names.join(', ')} } = ${required};`;
    },
  );
  return used
    ? `import { createRequire as __kagentCreateRequire } from 'node:module'; const __kagentBuiltin = __kagentCreateRequire(import.meta.url);\n${rewritten}`
    : source;
}

const chunkSets = {
  name: 'chunk-sets',
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
    // Code imports the core set's members statically: a dynamic import of one
    // would cost a file of its own that only re-exports it (the bundle test
    // fails on such a file).
    build.onLoad({ filter: /[\\/](src|commands)[\\/].*\.ts$/ }, async (args) => {
      const original = await readFile(args.path, 'utf8');
      const source = using('require-builtins') ? requireBuiltins(original) : original;
      const joinSet = using('sets') && setOf.has(args.path) ? `import 'kagent:set:${setOf.get(args.path)}';` : '';
      return joinSet || source !== original ? { contents: `${joinSet}\n${source}`, loader: 'ts' } : undefined;
    });
  },
};

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
standIns = new StandIns([
  ...(using('without-http2') ? ['undici client-h2.js'] : []),
  ...(using('lazy-builtins') ? ['undici node:assert', 'undici node:http', 'commander node:child_process'] : []),
]);
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
  plugins: [withoutHttp2, lazyBuiltins, withoutHighlighter, chunkSets].filter((plugin) => using(plugin.name)),
});
standIns.check(fileURLToPath(dist));
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
