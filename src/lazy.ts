// The one door for heavy third-party libraries: each loads on first use, not
// when kagent starts. Everything else in src/ and commands/ is a static import
// (a command group's chunk is the lazy unit, src/cli/groups.ts); eslint allows
// `import()` only here, in the group registry and in src/main.ts.
// What each one costs when it loads is why it is here: an API call that never
// renders Markdown, prompts, runs jq or uploads does not pay for them.
import { createRequire } from 'node:module';

/** marked and its terminal renderer (src/io/markdown.ts). */
export const loadMarked = () => Promise.all([import('marked'), import('marked-terminal')]);

/** The emoji shortcode table (~100 ms with emojilib), for Markdown that has a `:code:` (src/io/emoji-codes.ts). */
export const loadEmoji = () => import('node-emoji');

/** The prompts, one package per kind (src/io/prompt.ts). */
export const loadPrompt = {
  input: () => import('@inquirer/input'),
  password: () => import('@inquirer/password'),
  confirm: () => import('@inquirer/confirm'),
  select: () => import('@inquirer/select'),
};

/**
 * The answer checker and the request shapes (typebox schemas, ~140 KB built when they load):
 * on the first answer compared with its shape, or the first page asked with --limit/--all,
 * so a plain read such as `me --json` never builds them (src/api/client.ts, src/io/output.ts).
 */
export const loadShapes = async () => {
  const [{ verdictFor }, { Queries }] = await Promise.all([import('./api/fit.js'), import('./api/shapes.js')]);
  return { verdictFor, Queries };
};

/** The spinner, when one first shows (src/io/spinner.ts). */
export const loadOra = () => import('ora');

/** The config file's writer and its lock, for a command that changes the config (src/config/store.ts). */
export const loadConfigWriter = () => Promise.all([import('conf'), import('proper-lockfile')]);

/** The sandbox's state-file lock (src/sandbox/statelock.ts). */
export const loadLockfile = () => import('proper-lockfile');

/** The sandbox's text extractors: PDF (unpdf, 2.6 MB) and .docx (src/sandbox/library/extract.ts). */
export const loadUnpdf = () => import('unpdf');
export const loadMammoth = () => import('mammoth');

// string-width builds an Intl.Segmenter and compiles Unicode-property regexps when it
// loads: src/io/width.ts measures printable ASCII itself and asks for it only on other
// text, synchronously. In the bundle the require() is esbuild's (bundled, initialised on
// first call); from source, Node's require of an ES module (Node 20.19 and later).
declare const require: NodeJS.Require | undefined;
let stringWidth: ((text: string) => number) | undefined;
/** string-width's measure, loaded on first call. */
export function loadStringWidth(): (text: string) => number {
  stringWidth ??= (
    (typeof require === 'function' ? require('string-width') : createRequire(import.meta.url)('string-width')) as {
      default: (text: string) => number;
    }
  ).default;
  return stringWidth;
}
