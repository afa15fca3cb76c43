// The binary's entry (bundled to dist/cli.js). `kagent --version` and the
// root `kagent --help` are answered here without loading commander (the help
// text comes from src/root-help.ts, tested to match commander's); everything
// else goes to the program, imported on demand. This is the only place that touches the real process:
// Ctrl-C, a closed stdout pipe, and the exit code.
import pkg from '../package.json' with { type: 'json' };

const argv = process.argv.slice(2);

// `| head` closing stdout: stop quietly with success, as a Unix tool should.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
  });
}

const only = argv.length === 1 ? argv[0] : argv.length === 0 ? '' : undefined;
if (only === '--version' || only === '-V') {
  process.stdout.write(`${pkg.version}\n`);
} else if (only === '' || only === '--help' || only === '-h' || only === 'help') {
  const { renderRootHelp } = await import('./root-help.js');
  process.stdout.write(renderRootHelp(process.stdout.columns || Number.parseInt(process.env.COLUMNS ?? '', 10) || 80));
} else {
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
  const { run } = await import('./program.js');
  const code = await run({
    argv,
    env: process.env,
    // A getter: creating process.stdin costs start-up time that --help should not pay.
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    signal: controller.signal,
    version: pkg.version,
    pagerHold,
  });
  // Let buffered output reach the pipe, then end even if a socket or timer lingers.
  await Promise.all([flush(process.stdout), flush(process.stderr)]);
  process.exit(code);
}

function flush(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || stream.writableEnded) return resolve();
    stream.write('', () => resolve());
  });
}
