// What kagent answers without its program: `--version` (with `--verbose`, the
// Node.js and system too) and the root help (`kagent`, `--help`, `-h`, `help`).
// Built on its own as CommonJS (dist/front.cjs), which the launcher require()s:
// these answers then never start Node's ES module loader, ~5 ms on Node 22
// (docs/performance.md). Anything else is for the program (dist/cli.js).
import { isTerminal, writeOut } from './fd.js';
import { renderRootHelp } from './root-help.js';
import { versionText } from './version-text.js';
import { platformText } from './version.js';

const isVersion = (arg: string) => arg === '--version' || arg === '-V';

/** Answers `argv` when it asks only for the version or the root help: a promise then, else undefined. */
export function answerWithoutProgram(argv: readonly string[]): Promise<void> | undefined {
  if (argv.some(isVersion) && argv.every((arg) => isVersion(arg) || arg === '--verbose')) return printVersion(argv);
  if (argv.length > 1 || !['', '--help', '-h', 'help'].includes(argv[0] ?? '')) return undefined;
  // A terminal's width needs the stream; a pipe's or a file's does not (COLUMNS, else 80).
  const width = (isTerminal(1) && process.stdout.columns) || Number.parseInt(process.env.COLUMNS ?? '', 10) || 80;
  writeOut(renderRootHelp(width));
  return Promise.resolve();
}

async function printVersion(argv: readonly string[]): Promise<void> {
  // --verbose adds what a bug report needs.
  writeOut(`${versionText}\n${argv.includes('--verbose') ? platformText() : ''}`);
}
