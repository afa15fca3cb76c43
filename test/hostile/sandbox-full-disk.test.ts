// `kagent sandbox --state FILE` on a full disk: a 2 MB tmpfs filled to the brim
// (to the byte) while it runs. A write it cannot save is answered 500
// STATE_NOT_SAVED, its journal line cut back to the last whole one; every
// write it answered 2xx is there after kill -9 and a restart. A restart that
// cannot write its snapshot is refused (exit 2) and leaves the state as it
// was, with no temporary file behind.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, ensureBuilt, testNode } from '../helpers/binary.js';
import { startTestSandbox } from '../helpers/sandbox.js';

let dir: string;
let disk: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'kagent-full-disk-'));
  disk = join(dir, 'disk');
  mkdirSync(disk);
  // Needs root (CI runs as root): a failure here fails the test, it does not skip it.
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', disk]);
}, 60_000);
/** Every sandbox started here: killed before the disk is unmounted (a live one keeps it busy). */
const children: Child[] = [];
afterAll(async () => {
  for (const { child, exited } of children) {
    child.kill('SIGKILL');
    await exited;
  }
  try {
    execFileSync('umount', [disk]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const apiKey = 'kak_full_disk_test_key';

interface Child {
  child: ChildProcess;
  exited: Promise<number | null>;
  started: Promise<{ baseUrl: string }>;
  stderr(): string;
}

function sandboxChild(stateFile: string): Child {
  const child = spawn(
    testNode,
    [bin, 'sandbox', '--port', '0', '--json', '--quiet', '--rate-limit', '0', '--no-save-profile'].concat([
      '--state',
      stateFile,
      '--api-key',
      apiKey,
    ]),
    { env: { PATH: process.env.PATH, HOME: dir, KAGENT_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1' } },
  );
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const started = new Promise<{ baseUrl: string }>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (stdout.includes('\n')) resolve(JSON.parse(stdout.slice(0, stdout.indexOf('\n'))));
    });
    void exited.then((code) => reject(new Error(`the sandbox exited (${code}) before listening: ${stderr}`)));
  });
  started.catch(() => undefined);
  const made = { child, exited, started, stderr: () => stderr };
  children.push(made);
  return made;
}

/** Fills the disk to the last byte: big writes, then smaller, down to one byte. */
function fill(path: string): void {
  const fd = openSync(path, 'a');
  try {
    for (const size of [65_536, 4096, 256, 1]) {
      const chunk = Buffer.alloc(size, 120);
      for (;;) {
        try {
          if (writeSync(fd, chunk) < size) break;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * The journal as it is between two writes. The sandbox's ticker saves work that comes due
 * every 250 ms, and retries what the full disk refused: a read in the middle of such a try
 * sees the part written before it is cut back (or a snapshot's temporary file before it is
 * removed). A torn line or a temporary file still there after 5 s of tries was never cleaned up.
 */
async function betweenWrites(path: string): Promise<string> {
  const settled = (text: string) => text.endsWith('\n') && !readdirSync(disk).some((name) => name.endsWith('.tmp'));
  let text = readFileSync(path, 'utf8');
  for (const until = Date.now() + 5000; !settled(text) && Date.now() < until;) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    text = readFileSync(path, 'utf8');
  }
  return text;
}

describe('--state on a 2 MB filesystem filled to the brim', () => {
  it('answers what it cannot save 500 STATE_NOT_SAVED, and loses no write it answered across kill -9 and restart', async () => {
    const stateFile = join(disk, 'state.json');
    const first = sandboxChild(stateFile);
    const { baseUrl } = await first.started;
    const dispatcher = new Agent();
    const answered = new Map<string, string>();
    const statuses: number[] = [];
    const create = async (title: string) => {
      const res = await request(`${baseUrl}/docs`, {
        method: 'POST',
        dispatcher,
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title, markdown: `${title}: ${'body text '.repeat(40)}` }),
      });
      const body = (await res.body.json()) as any;
      statuses.push(res.statusCode);
      if (res.statusCode === 201) answered.set(body.id, title);
      else expect(body.error.code, `answer ${res.statusCode} to ${title}`).toBe('STATE_NOT_SAVED');
      return res.statusCode;
    };
    for (let i = 0; i < 5; i++) expect(await create(`before-${i}`)).toBe(201);

    fill(join(disk, 'filler'));
    for (let i = 0; i < 40; i++) await create(`full-${i}`);
    // The disk refused writes (the test is not vacuous)…
    expect(statuses.filter((s) => s === 500).length).toBeGreaterThan(0);
    // …the journal holds whole lines only, and no temporary file is left.
    const journal = await betweenWrites(`${stateFile}.journal`);
    expect(journal.endsWith('\n'), `the journal ends in a torn line: ${journal.slice(-80)}`).toBe(true);
    for (const line of journal.trimEnd().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    expect(readdirSync(disk).filter((name) => name.endsWith('.tmp'))).toEqual([]);

    // Room again: the sandbox saves the next write (it was not left broken), then the disk fills up once more.
    rmSync(join(disk, 'filler'));
    expect(await create('with-room')).toBe(201);
    fill(join(disk, 'filler'));
    await create('full-again');
    await dispatcher.close();

    first.child.kill('SIGKILL');
    await first.exited;

    // Back up on the full disk: its snapshot cannot be written, so it is refused, the state as it was.
    const before = { state: readFileSync(stateFile), journal: readFileSync(`${stateFile}.journal`) };
    const refused = sandboxChild(stateFile);
    expect(await refused.exited).toBe(2);
    expect(JSON.parse(refused.stderr()).error).toMatchObject({ code: 'STATE_UNWRITABLE' });
    expect(JSON.parse(refused.stderr()).error.message).toMatch(/^cannot write sandbox state .*no space left on device/);
    expect(readFileSync(stateFile).equals(before.state)).toBe(true);
    expect(readFileSync(`${stateFile}.journal`).equals(before.journal)).toBe(true);
    expect(readdirSync(disk).filter((name) => name.endsWith('.tmp'))).toEqual([]);

    // With room again, every write it answered is there.
    rmSync(join(disk, 'filler'));
    const back = await startTestSandbox({ stateFile, apiKey });
    try {
      for (const [id, title] of answered) {
        const got = await back.call('GET', `/docs/${id}`);
        expect(got.status, `doc ${id} (${title})`).toBe(200);
        expect(got.body.title).toBe(title);
      }
    } finally {
      await back.close();
    }
    expect(answered.size).toBeGreaterThanOrEqual(5);
  }, 60_000);
});
