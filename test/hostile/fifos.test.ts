// FIFOs, devices and huge files where kagent reads or writes a file. A FIFO
// with no writer used to hold the process past --timeout, Ctrl-C and SIGTERM
// (the open waited in one of Node's threads, and the exit waited for it);
// /dev/zero and /dev/urandom were read until memory ran out; a 400 MB file was
// read whole before the contract's 500,000-character bound refused it. Now a
// FIFO is waited on in the event loop (--timeout: exit 7 by N + 1 s; Ctrl-C 130;
// SIGTERM 143), what is no plain file is refused where a file is needed, and a
// file too large is refused from its size, before a byte is read.
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, truncateSync, unlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTimed } from '../helpers/binary.js';
import { binaryAgainstSandbox, type BinarySandbox } from '../helpers/binary-sandbox.js';
import { tempDir } from '../helpers/run.js';

let s: BinarySandbox;
let dir: string;
let fifo: string;
let docId: string;
beforeAll(async () => {
  s = await binaryAgainstSandbox('kagent-fifo-');
  dir = tempDir('kagent-fifo-dir-');
  fifo = join(dir, 'pipe');
  execFileSync('mkfifo', [fifo]);
  const created = await s.t.call('POST', '/docs', { body: { title: 'Plan', markdown: '# Plan\n' } });
  docId = created.body.id;
}, 60_000);
afterAll(() => s.close());

// The old code never ended here: no test waits past 15 s.
const kagent = (args: string[], options: { signal?: NodeJS.Signals; afterMs?: number; cwd?: string } = {}) =>
  runTimed(args, {
    env: s.env,
    cwd: options.cwd ?? dir,
    signal: options.signal,
    signalAfterMs: options.afterMs,
    guardMs: 15_000,
  });

describe('a FIFO nobody writes to, as an input file, ends by --timeout 2 + 1 s with exit 7', () => {
  const cases: Array<[string, () => string[]]> = [
    ['doc create --file', () => ['doc', 'create', '--title', 'x', '--file', fifo]],
    ['doc update --file', () => ['doc', 'update', docId, '--file', fifo]],
    ['doc edit --ops', () => ['doc', 'edit', docId, '--ops', fifo]],
    ['agent memory --file', () => ['agent', 'memory', '--file', fifo]],
    ['api --input', () => ['api', '-X', 'POST', '/spaces', '--input', fifo]],
    ['api -F x=@fifo', () => ['api', '-X', 'POST', '/spaces', '-F', `name=@${fifo}`]],
  ];
  for (const [name, args] of cases) {
    it(name, async () => {
      const r = await kagent([...args(), '--timeout', '2']);
      expect(r.stderr).toMatch(/TIMEOUT/);
      expect(r.code).toBe(7);
      expect(r.elapsedMs).toBeLessThan(3_000);
    });
  }

  it('Ctrl-C ends the wait: 130', async () => {
    const r = await kagent(['doc', 'create', '--title', 'x', '--file', fifo], { signal: 'SIGINT' });
    expect(r.code).toBe(130);
    expect(r.elapsedMs).toBeLessThan(3_000);
  });

  it('SIGTERM ends the wait: 143', async () => {
    const r = await kagent(['doc', 'create', '--title', 'x', '--file', fifo], { signal: 'SIGTERM' });
    expect(r.code).toBe(143);
    expect(r.elapsedMs).toBeLessThan(3_000);
  });
});

describe('where a plain file is needed, a FIFO or a device is refused, not waited on nor read', () => {
  it('doctor --spec FIFO, /dev/zero, /dev/urandom: each a failed check naming what it is, at once', async () => {
    for (const [spec, what] of [
      [fifo, /FIFO/],
      ['/dev/zero', /device/],
      ['/dev/urandom', /device/],
    ] as const) {
      const r = await kagent(['doctor', '--spec', spec, '--timeout', '10']);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(what);
      expect(r.elapsedMs).toBeLessThan(5_000);
    }
  });

  it('doc create --file /dev/zero is a usage error naming it (exit 2), nothing read', async () => {
    const r = await kagent(['doc', 'create', '--title', 'x', '--file', '/dev/zero']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--file: cannot read it \(it is a device, not a file\): \/dev\/zero/);
  });

  it('doc pull ID -o FIFO is refused (exit 2), --force or not, and the FIFO stays', async () => {
    for (const force of [[], ['--force']]) {
      const r = await kagent(['doc', 'pull', docId, '-o', fifo, ...force, '--timeout', '5']);
      expect(r.stderr).toMatch(/is a FIFO \(named pipe\), not a file: nothing was written/);
      expect(r.code).toBe(2);
    }
    expect(execFileSync('stat', ['-c', '%F', fifo]).toString()).toMatch(/fifo/);
  });

  it('doc pull ID -o a socket or a device is refused (exit 2), --force or not, saying which', async () => {
    const socket = join(dir, 'sock');
    const server = createServer().listen(socket);
    await once(server, 'listening');
    try {
      for (const [target, what] of [
        [socket, 'a socket'],
        ['/dev/null', 'a device'],
      ] as const) {
        for (const force of [[], ['--force']]) {
          const r = await kagent(['doc', 'pull', docId, '-o', target, ...force, '--timeout', '5']);
          expect(r.stderr).toContain(`${target} is ${what}, not a file: nothing was written`);
          expect(r.code).toBe(2);
        }
      }
      expect(execFileSync('stat', ['-c', '%F', socket]).toString()).toMatch(/socket/);
    } finally {
      server.close();
    }
  });

  it('a FIFO where a sidecar is expected: doc status ends at once with a clear error', async () => {
    const work = tempDir('kagent-fifo-side-');
    const pulled = await kagent(['doc', 'pull', docId, '-o', join(work, 'plan.md')], { cwd: work });
    expect(pulled.code).toBe(0);
    const sidecar = join(work, '.kagent', 'docs', 'plan.md.json');
    unlinkSync(sidecar);
    execFileSync('mkfifo', [sidecar]);
    const r = await kagent(['doc', 'status', join(work, 'plan.md'), '--timeout', '5'], { cwd: work });
    expect(r.stderr).toMatch(/plan\.md\.json: cannot read it \(it is a FIFO \(named pipe\), not a file\)/);
    expect(r.elapsedMs).toBeLessThan(5_000);
  });
});

describe('a local file far past what a document can be is refused from its size', () => {
  async function pulledFile(): Promise<{ work: string; file: string }> {
    const work = tempDir('kagent-huge-');
    mkdirSync(work, { recursive: true });
    const file = join(work, 'plan.md');
    const r = await kagent(['doc', 'pull', docId, '-o', file], { cwd: work });
    expect(r.code).toBe(0);
    return { work, file };
  }

  it('doc push of a 400 MB file: a clear usage error naming the bound, at once', async () => {
    const { work, file } = await pulledFile();
    truncateSync(file, 400_000_000);
    const r = await kagent(['doc', 'push', file], { cwd: work });
    expect(r.stderr).toMatch(
      /cannot read it \(it holds 400 MB, more than the 2 MB kagent reads: a document is at most 500,000 characters\)/,
    );
    expect(r.stderr).not.toMatch(/UNEXPECTED|Invalid string length/);
    expect(r.code).toBe(2);
    expect(r.elapsedMs).toBeLessThan(5_000);
  });

  it('doc status of a 1.2 GB file: the same, not "Invalid string length"', async () => {
    const { work, file } = await pulledFile();
    truncateSync(file, 1_200_000_000);
    const r = await kagent(['doc', 'status', file], { cwd: work });
    expect(r.stderr).toMatch(/it holds 1\.2 GB/);
    expect(r.stderr).not.toMatch(/Invalid string length/);
    expect(r.elapsedMs).toBeLessThan(5_000);
  });
});
