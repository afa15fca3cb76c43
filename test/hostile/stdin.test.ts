// Text read from stdin that is not what it seems: a directory (Node ends such a
// stdin at once, as if empty) or nothing at all. `agent memory --file -` must not
// take either for "replace the memory with nothing".
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, testNode } from '../helpers/binary.js';
import { binaryAgainstSandbox, type BinarySandbox } from '../helpers/binary-sandbox.js';

let s: BinarySandbox;
beforeAll(async () => {
  s = await binaryAgainstSandbox('kagent-stdin-');
});
afterAll(() => s.close());

/** The built binary with `stdin` (a path opened for reading) as its standard input. */
function kagentWithStdin(
  args: string[],
  stdin: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const fd = openSync(stdin, 'r');
  return new Promise((resolve, reject) => {
    const child = spawn(testNode, [bin, ...args], {
      env: { PATH: process.env.PATH, ...s.env },
      stdio: [fd, 'pipe', 'pipe'],
    });
    closeSync(fd);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('agent memory --file -', () => {
  it('stdin a directory or empty: exit 2, the memory left as it was', async () => {
    const set = await kagentWithStdin(['agent', 'memory', '--set', '- important memory'], '/dev/null');
    expect(set.status).toBe(0);
    const directory = await kagentWithStdin(['agent', 'memory', '--file', '-'], s.home);
    expect(directory.status).toBe(2);
    expect(directory.stderr).toBe(
      'error: --file - reads stdin, but stdin is a directory (USAGE)\nhint: pipe the text in, or give a file\n',
    );
    const empty = await kagentWithStdin(['agent', 'memory', '--file', '-'], '/dev/null');
    expect(empty.status).toBe(2);
    expect(empty.stderr).toBe(
      "error: --file gave no text; the memory was left as it was (USAGE)\nhint: to empty the memory on purpose: `kagent agent memory --set ''`\n",
    );
    const shown = await kagentWithStdin(['agent', 'show', '--json', 'memory'], '/dev/null');
    expect(JSON.parse(shown.stdout)).toEqual({ memory: '- important memory' });
  });
});

describe('a stdin that never ends', () => {
  it('`doc create --file -`: Ctrl-C ends the wait at once (exit 130), nothing sent', async () => {
    const child = spawn(testNode, [bin, 'doc', 'create', '--title', 'Never', '--file', '-'], {
      env: { PATH: process.env.PATH, ...s.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const before = ((await s.t.call('GET', '/docs')).body as { items: unknown[] }).items.length;
    await new Promise((resolve) => setTimeout(resolve, 800));
    const interruptedAt = Date.now();
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(130);
    expect(Date.now() - interruptedAt).toBeLessThan(2_000);
    expect(stderr).not.toContain('error');
    expect(((await s.t.call('GET', '/docs')).body as { items: unknown[] }).items).toHaveLength(before);
    child.stdin.destroy();
  });
});
