// The README's first promise: `npm run demo` tours the built binary against the
// embedded sandbox. Runs the tour itself (the build is done by `npm test`), piped
// and in a pseudo-terminal of 80 columns (`script` from util-linux), where a step
// that asks a question would wait for an answer nobody types.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { plain, testNode } from '../helpers/binary.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('npm run demo', () => {
  it('runs every step of the tour successfully against the embedded sandbox', async () => {
    const child = spawn(testNode, ['scripts/demo.mjs'], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));

    expect(output).not.toMatch(/\(exit \d+\)/);
    expect(code).toBe(0);
    // The steps that show what kagent is for actually happened.
    // Piped, the watch set up is said by its record (the ✓ line is for a terminal).
    expect(output).toMatch(/^slug\topen-source-ai-model-releases-and-benchmarks$/m);
    expect(output).toMatch(/^\[5\/5\] ✓ done: Write the first brief .* \d+ entries$/m);
    expect(output).toMatch(/^entries\t\d+$/m);
    expect(output).toMatch(/1 uploaded, 0 already there, 0 failed/);
    expect(output).toMatch(/0 uploaded, 1 already there, 0 failed/);
    // A folder synced, changed, planned and synced again.
    expect(output).toMatch(/3 uploaded, 0 replaced, 0 deleted, 0 unchanged, 0 failed/);
    expect(output).toMatch(/Dry run, nothing sent: 1 to upload, 1 to replace, 1 to delete, 1 unchanged/);
    expect(output).toMatch(/1 uploaded, 1 replaced, 1 deleted, 1 unchanged, 0 failed/);
    expect(output).toMatch(/That was kagent\./);
    // It points to the binary it ran, never to `npx kagent` (this project does not publish that name).
    expect(output).toContain('`./bin/kagent.js sandbox`');
    expect(output).not.toContain('npx');
  }, 120_000);
});

describe('npm run demo in a terminal of 80 columns', () => {
  it('never asks anything: every step runs and the tour ends', async () => {
    // stdin stays open and nobody types: a question would hold the tour until the timeout.
    const child = spawn('script', ['-qefc', `stty cols 80 rows 40; exec ${testNode} scripts/demo.mjs`, '/dev/null'], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: 'xterm-256color', LANG: 'C.UTF-8' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    const screen = plain(output);

    expect(screen, screen).not.toMatch(/\?\s*Who can see|\(exit \d+\)/);
    expect(code, screen).toBe(0);
    expect(screen).toMatch(/Watch open-source-ai-model-releases-and-benchmarks is set up/);
    expect(screen).toMatch(/That was kagent\./);
  }, 120_000);
});
