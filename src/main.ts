// The program's entry (bundled to dist/cli.js), and the only place that touches
// the real process: Ctrl-C, SIGTERM and SIGHUP, a closed stdout pipe, the exit
// code. `kagent --version` and the root help never come here: the launcher's
// front (src/cli/front.ts) answers them without the ES module loader.
import nodeModule from 'node:module';
import { isTerminal } from './cli/fd.js';
import { version, versionText } from './cli/version-text.js';

const argv = process.argv.slice(2);

// Node 22.1+: every module a command loads from here on comes from (or goes into)
// Node's compile cache (src/cli/compile-cache.ts). The two `import()`s of this file
// stay on purpose: a static import is evaluated before any line here runs, so the
// program's chunks would load before the cache is on (measured 10.8 ms slower on
// Node 22 and 26, docs/performance.md); and Node 20, which has no compile cache,
// never loads the module that turns it on.
if ('enableCompileCache' in nodeModule) (await import('./cli/compile-cache.js')).enableCompileCache();

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
// After the compile cache is on (above): the program and commander come from it.
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
  version,
  versionText,
  pagerHold,
});
// Let buffered output reach the pipe, then end even if a socket or timer lingers.
await Promise.all([flush(process.stdout), flush(process.stderr)]);
process.exit(ended ?? code);

function flush(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || stream.writableEnded) return resolve();
    stream.write('', () => resolve());
  });
}
