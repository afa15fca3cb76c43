// A failed write is a failure: a file kagent could not write is said with its
// path and the system's reason, exit 1 — never hidden behind the tolerant
// reading of an answer that fit its shape. `doc pull --all` goes on past a
// document it could not write and ends non-zero, counting what failed.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Context, GlobalFlags } from '../../src/context.js';
import { recoverFromMisfit } from '../../src/io/output.js';
import { createIO } from '../../src/io/terminal.js';
import { bin, ensureBuilt, testNode } from '../helpers/binary.js';
import { docServerFixture } from '../helpers/doc-server.js';
import { runCli } from '../helpers/run.js';

const fixture = docServerFixture();
const { scratch, serve } = fixture;

const kagent = (argv: string[], tty = false) =>
  runCli(argv, { tty, env: { KAGENT_BASE_URL: fixture.server?.baseUrl, KAGENT_API_KEY: 'k_test', NO_COLOR: '1' } });

describe('doc pull: a file that cannot be written', () => {
  it('-o /proc/x.md: exit 1 with the path and the reason; the document is not printed instead', async () => {
    await serve([{ id: 'dc_1', title: 'Plan', body: '# Plan\n' }]);
    for (const tty of [false, true]) {
      const r = await kagent(['doc', 'pull', 'dc_1', '-o', '/proc/x.md'], tty);
      expect(r.stderr).toMatch(
        /^error: cannot write \/proc\/x\.md: E[A-Z]+: [a-z ]+ \(WRITE_FAILED\)\nhint: kagent keeps what it pulled beside the file, in \/proc\/\.kagent\/docs\n$/,
      );
      expect(r.stderr).not.toContain('as it came');
      expect(r.stdout).toBe('');
      expect(r.code).toBe(1);
    }
  });

  it('--json: the error envelope on stderr, nothing on stdout, exit 1', async () => {
    await serve([{ id: 'dc_1', title: 'Plan', body: '# Plan\n' }]);
    const r = await kagent(['doc', 'pull', 'dc_1', '-o', '/proc/x.md', '--json']);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr).error).toMatchObject({
      code: 'WRITE_FAILED',
      message: expect.stringMatching(/^cannot write \/proc\/x\.md: E[A-Z]+/),
    });
    expect(r.code).toBe(1);
  });

  it('--all: 2 of 21 cannot be written; the 19 others are, and the run ends with exit 1 counting the failures', async () => {
    const docs = Array.from({ length: 21 }, (_, i) => ({
      id: `dc_${i + 1}`,
      title: `Note ${i + 1}`,
      body: `note ${i + 1}\n`,
    }));
    await serve(docs);
    const dir = scratch();
    // Where notes 4 and 17 would go, a directory with something in it: a rename over it fails (EISDIR / ENOTEMPTY).
    for (const n of [4, 17]) {
      mkdirSync(join(dir, `note-${n}.md`));
      writeFileSync(join(dir, `note-${n}.md`, 'keep'), 'mine');
    }
    const r = await kagent(['doc', 'pull', '--all', '--force', '-o', dir]);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t'));
    expect(rows).toHaveLength(21);
    expect(rows.filter((row) => row[0] === 'pulled')).toHaveLength(19);
    expect(rows.filter((row) => row[0] === 'failed').map((row) => row[1])).toEqual(['dc_4', 'dc_17']);
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^warning: cannot write ${join(dir, 'note-4.md')}: E[A-Z]+`));
    expect(lines[1]).toMatch(new RegExp(`^warning: cannot write ${join(dir, 'note-17.md')}: E[A-Z]+`));
    expect(lines[2]).toBe('error: 2 of 21 files could not be written (WRITE_FAILED)');
    expect(r.code).toBe(1);
    expect(readFileSync(join(dir, 'note-21.md'), 'utf8')).toBe('note 21\n');
    expect(readdirSync(join(dir, 'note-4.md'))).toEqual(['keep']);
  });
});

class Capture extends Writable {
  text = '';
  constructor(public isTTY: boolean) {
    super();
  }
  override _write(chunk: Buffer, _e: BufferEncoding, done: () => void) {
    this.text += chunk.toString();
    done();
  }
}

function context(json: boolean) {
  const stdout = new Capture(false);
  const stderr = new Capture(false);
  const flags: GlobalFlags = {
    json,
    color: false,
    input: true,
    yes: false,
    quiet: false,
    debug: false,
    insecure: false,
  };
  const io = createIO(
    { stdin: Object.assign(new Capture(false), { read() {} }) as never, stdout, stderr },
    { NO_COLOR: '1' },
    flags,
  );
  return { ctx: { io, flags, misfits: [] } as unknown as Context, stdout, stderr };
}

describe('recoverFromMisfit acts only on an answer that did not fit its shape', () => {
  const fitting = {
    id: 'dc_1',
    title: 'Plan',
    body: 'x',
    revision: 1,
    origin: 'user',
    folderId: null,
    updatedAt: '2026-01-15T09:00:00.000Z',
    space: null,
    publication: null,
  };
  const enoent = () =>
    Object.assign(new Error("ENOENT: no such file or directory, open '/proc/.x.md.1.tmp'"), {
      code: 'ENOENT',
      errno: -2,
      syscall: 'open',
    });

  it('an answer that fit, then a failure: not recovered (with or without --json)', async () => {
    for (const json of [false, true]) {
      const { ctx, stdout, stderr } = context(json);
      (ctx as any).lastAnswer = { op: 'getDoc', body: fitting };
      expect(await recoverFromMisfit(ctx as any, enoent())).toBe(false);
      expect(await recoverFromMisfit(ctx as any, new TypeError('a bug'))).toBe(false);
      expect(stdout.text + stderr.text).toBe('');
    }
  });

  it('an answer that did not fit, then a system error (a file, a directory): still not recovered', async () => {
    const { ctx, stdout } = context(false);
    (ctx as any).lastAnswer = { op: 'getDoc', body: { ...fitting, revision: 'one' } };
    expect(await recoverFromMisfit(ctx as any, enoent())).toBe(false);
    // A failure of the program over that answer is: shown as it came.
    expect(await recoverFromMisfit(ctx as any, new TypeError('x.toFixed is not a function'))).toBe(true);
    expect(stdout.text).toContain('revision\tone');
  });
});

describe('stdout that cannot be written (a full disk: /dev/full)', () => {
  /** The built binary with stdout on /dev/full (asynchronously: the doc server answers from this process). */
  function intoFullDisk(
    args: string[],
    env: Record<string, string> = {},
  ): Promise<{ code: number | null; stderr: string }> {
    ensureBuilt();
    const fd = openSync('/dev/full', 'w');
    const child = spawn(testNode, [bin, ...args], {
      env: { PATH: process.env.PATH, HOME: scratch(), ...env },
      stdio: ['ignore', fd, 'pipe'],
    });
    closeSync(fd);
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr }));
    });
  }
  const lost = 'error: cannot write the output: no space left on device (OUTPUT_FAILED)\n';

  it.each([['--help'], ['-V'], [], ['help'], ['space', '--help'], ['space', 'list', '-h'], ['help', 'space']])(
    'kagent %s: exit 1 and one line saying so, no stack',
    async (...args) => {
      const r = await intoFullDisk(args);
      expect(r.stderr).toBe(lost);
      expect(r.code).toBe(1);
    },
  );

  it('a command: exit 1 with the reason, not UNEXPECTED', async () => {
    await serve([{ id: 'dc_1', title: 'Plan', body: '# Plan\n' }]);
    const r = await intoFullDisk(['doc', 'list'], {
      KAGENT_BASE_URL: fixture.server!.baseUrl,
      KAGENT_API_KEY: 'k_test',
    });
    expect(r.stderr).toBe(lost);
    expect(r.code).toBe(1);
  });
});
