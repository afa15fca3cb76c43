// The binary's entry (bundled to dist/cli.js). `kagent --version` and the
// root `kagent --help` are answered here without loading commander (the help
// text comes from src/root-help.ts, tested to match commander's); everything
// else goes to the program, imported on demand. This is the only place that touches the real process:
// Ctrl-C, a closed stdout pipe, and the exit code.
import nodeModule from 'node:module';
import pkg from '../package.json' with { type: 'json' };

const argv = process.argv.slice(2);

// `| head` closing stdout: stop quietly with success, as a Unix tool should.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
  });
}

const only = argv.length === 1 ? argv[0] : argv.length === 0 ? '' : undefined;
const versionOnly = only === '--version' || only === '-V';
const rootHelp = only === '' || only === '--help' || only === '-h' || only === 'help';
// Node 22.1+: every module a command loads from here on comes from (or goes into)
// Node's compile cache (src/compile-cache.ts). --version loads nothing more and the
// root help one small chunk: for them the cache costs more than it saves (measured).
if (!versionOnly && !rootHelp && 'enableCompileCache' in nodeModule) (await import('./compile-cache.js')).enableCompileCache();
if (versionOnly) {
  process.stdout.write(`${pkg.version}\n`);
} else if (rootHelp) {
  const { renderRootHelp } = await import('./root-help.js');
  process.stdout.write(renderRootHelp(process.stdout.columns || Number.parseInt(process.env.COLUMNS ?? '', 10) || 80));
} else {
  // First Ctrl-C: abort what is running (waits stop and say how to resume). Second: leave now.
  const controller = new AbortController();
  process.on('SIGINT', () => {
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
