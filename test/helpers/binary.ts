// The built binary, for end-to-end tests that run it as a user would, often in
// a pseudo-terminal made by `script` from util-linux.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const bin = join(root, 'bin', 'kagent.js');

/** Whether `script` is here to give a process a terminal (pty tests skip with this reason otherwise). */
export const hasScript = spawnSync('script', ['--version']).status === 0;

/** `npm test` builds first; a test file run on its own builds here. */
export function ensureBuilt(): void {
  if (!existsSync(join(root, 'dist', 'cli.js'))) spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
}

/** The shell command line that runs `kagent ARGS…` (quoted for `script -c`). */
export function kagentCommandLine(args: string[]): string {
  return [process.execPath, bin, ...args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
}
