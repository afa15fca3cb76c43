// The binary's entry (bundled to dist/cli.js), and the only place that touches
// the real process: Ctrl-C, SIGTERM and SIGHUP, a closed stdout pipe, the exit
// code. `kagent --version` and the root `kagent --help` are answered here
// without loading commander (the help text comes from src/cli/root-help.ts,
// tested to match commander's); everything else goes to the program
// (src/cli/program.ts), imported on demand.
import nodeModule from 'node:module';
import pkg from '../package.json' with { type: 'json' };

const argv = process.argv.slice(2);

// The day this build was made (scripts/build.mjs defines it; absent when run from source).
declare const KAGENT_BUILD_DATE: string | undefined;
const buildDate = typeof KAGENT_BUILD_DATE === 'string' ? KAGENT_BUILD_DATE : undefined;
// As `gh --version` prints it.
const versionText = `kagent version ${pkg.version}${buildDate ? ` (${buildDate})` : ''}`;

const only = argv.length === 1 ? argv[0] : argv.length === 0 ? '' : undefined;
const isVersion = (arg: string) => arg === '--version' || arg === '-V';
const versionOnly = argv.some(isVersion) && argv.every((arg) => isVersion(arg) || arg === '--verbose');
const rootHelp = only === '' || only === '--help' || only === '-h' || only === 'help';
// Node 22.1+: every module a command loads from here on comes from (or goes into)
// Node's compile cache (src/cli/compile-cache.ts). --version loads nothing more and the
// root help one small chunk: for them the cache costs more than it saves (measured).
if (!versionOnly && !rootHelp && 'enableCompileCache' in nodeModule)
  (await import('./cli/compile-cache.js')).enableCompileCache();
if (versionOnly) {
  // --verbose adds what a bug report needs: the Node.js and the system it runs on.
  const { platformText } = argv.includes('--verbose') ? await import('./cli/version.js') : { platformText: () => '' };
  writeOut(`${versionText}\n${platformText()}`);
} else if (rootHelp) {
  const { renderRootHelp } = await import('./cli/root-help.js');
  // A terminal's width needs the stream; a pipe's or a file's does not (COLUMNS, else 80).
  writeOut(
    renderRootHelp((isTerminal(1) && process.stdout.columns) || Number.parseInt(process.env.COLUMNS ?? '', 10) || 80),
  );
} else {
  // `| head` closing stdout: stop quietly with success, as a Unix tool should.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(0);
    });
  }
  // First Ctrl-C: abort what is running (waits stop and say how to resume). Second: leave now.
  // While a pager shows the output, Ctrl-C is the pager's: leaving under it would hand the
  // shell a terminal the pager still holds in raw mode. Quitting the pager ends kagent.
  const controller = new AbortController();
  const pagerHold = { running: false };
  process.on('SIGINT', () => {
    if (pagerHold.running) return;
    if (controller.signal.aborted) process.exit(130);
    controller.abort();
  });
  // SIGTERM and SIGHUP (a CI job cancelled, a terminal closed) stop the run the same way, so
  // that what it holds is cleaned up (the temporary copy of stdin), then exit 128 + the signal;
  // a server-like command (the sandbox) ends on them as on Ctrl-C: cleanly, state saved, exit 0.
  // A second signal leaves at once, with the signal's usual exit status.
  let ended: number | undefined;
  let endsOnInterrupt = false;
  for (const [name, exitCode] of [
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    process.on(name, () => {
      if (controller.signal.aborted) process.exit(exitCode);
      if (!endsOnInterrupt) ended = exitCode;
      controller.abort();
    });
  }
  const { run } = await import('./cli/program.js');
  const code = await run({
    argv,
    onLongRunning() {
      endsOnInterrupt = true;
    },
    env: process.env,
    // A getter: creating process.stdin costs start-up time that a command not reading it should not pay.
    get stdin() {
      return process.stdin;
    },
    // A getter too: isatty(0) loads node:tty when stdin is a character device (/dev/null
    // included), and most commands never ask.
    get stdinIsTTY() {
      return isTerminal(0);
    },
    stdout: process.stdout,
    stderr: process.stderr,
    signal: controller.signal,
    // When the process started: --timeout counts from here, start-up included.
    startedAt: Date.now() - process.uptime() * 1000,
    version: pkg.version,
    versionText,
    pagerHold,
  });
  // Let buffered output reach the pipe, then end even if a socket or timer lingers.
  await Promise.all([flush(process.stdout), flush(process.stderr)]);
  process.exit(ended ?? code);
}

/**
 * isatty(fd), without loading node:tty (which loads node:net and the streams,
 * ~2.5 ms on Node 26) for what is no character device: a pipe, a file, a socket.
 */
function isTerminal(fd: number): boolean {
  const load = nodeModule.createRequire(import.meta.url);
  try {
    if (!(load('node:fs') as typeof import('node:fs')).fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  return (load('node:tty') as typeof import('node:tty')).isatty(fd);
}

/**
 * --version and the root help: written straight to fd 1. Making process.stdout
 * costs more than the rest of `--version` (a pipe's stream loads node:net and
 * the stream modules, ~2 ms on Node 26). A closed pipe ends quietly with success,
 * as above; a pipe that would block (non-blocking, and full) gets the rest
 * through process.stdout, which waits.
 */
function writeOut(text: string): void {
  const { writeSync } = nodeModule.createRequire(import.meta.url)('node:fs') as typeof import('node:fs');
  let bytes = Buffer.from(text);
  try {
    while (bytes.length > 0) bytes = bytes.subarray(writeSync(1, bytes));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') process.exit(0);
    if (code !== 'EAGAIN') throw error;
    process.stdout.on('error', (failure: NodeJS.ErrnoException) => {
      if (failure.code === 'EPIPE') process.exit(0);
    });
    process.stdout.write(bytes);
  }
}

function flush(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || stream.writableEnded) return resolve();
    stream.write('', () => resolve());
  });
}
