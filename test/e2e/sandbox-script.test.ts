// The script example of `kagent sandbox --help`, run as printed, in bash, with
// the built binary as `kagent` on PATH: once its lines have run, KAGENT_BASE_URL
// and KAGENT_API_KEY are set in the script's own shell, a command works with
// them (the example's `kagent me`), and the sandbox in the background ends
// cleanly (exit 0) when the example stops it.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, ensureBuilt, testNode } from '../helpers/binary.js';

let home: string;
beforeAll(() => {
  ensureBuilt();
  home = mkdtempSync(join(tmpdir(), 'kagent-sandbox-script-'));
}, 60_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

function env(): Record<string, string> {
  const binDir = join(home, 'bin');
  mkdirSync(binDir, { recursive: true });
  const launcher = join(binDir, 'kagent');
  writeFileSync(launcher, `#!/bin/sh\nexec '${testNode}' '${bin}' "$@"\n`);
  chmodSync(launcher, 0o755);
  return {
    PATH: `${binDir}:${process.env.PATH ?? ''}`,
    HOME: home,
    KAGENT_CONFIG_DIR: join(home, 'config'),
    NO_COLOR: '1',
    COLUMNS: '200',
  };
}

describe('the script example of kagent sandbox --help', () => {
  it('sets KAGENT_BASE_URL and KAGENT_API_KEY in the shell that runs it, and a command works with them', () => {
    const environment = env();
    const help = spawnSync('kagent', ['sandbox', '--help'], { env: environment, encoding: 'utf8' });
    expect(help.status).toBe(0);
    const lines = help.stdout.split('\n').map((line) => line.trim());
    const start = lines.findIndex((line) => line.startsWith('# in a script:'));
    expect(start).toBeGreaterThan(0);
    const script: string[] = [];
    for (const line of lines.slice(start + 1)) {
      if (!line.startsWith('$ ')) break;
      script.push(line.slice(2));
    }
    expect(script.length).toBeGreaterThanOrEqual(3);
    const work = join(home, 'work');
    mkdirSync(work, { recursive: true });
    // The example's own lines, then what a script would do next with the variables.
    const text = ['set -e', ...script, 'echo "url=$KAGENT_BASE_URL"', 'echo "key=$KAGENT_API_KEY"', 'wait'].join('\n');
    const run = spawnSync('bash', ['-c', text], { cwd: work, env: environment, encoding: 'utf8', timeout: 30_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^url=http:\/\/127\.0\.0\.1:\d+\/api\/v1$/m);
    expect(run.stdout).toMatch(/^key=kak_\S+$/m);
    // `kagent me` (piped: key<TAB>value lines) answered with the sandbox's account.
    expect(run.stdout).toMatch(/^email\t\S+@\S+$/m);
  }, 40_000);
});
