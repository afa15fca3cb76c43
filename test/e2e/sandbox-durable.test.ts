// A durable `kagent sandbox --state FILE`, run as the built binary: killed with
// SIGKILL at random moments under 8 writing clients it keeps every write it
// answered; SIGTERM and SIGHUP end it like Ctrl-C (state saved, temp dirs
// removed, exit 0); a second sandbox on a state in use is refused and names
// the process holding it; a state of an unknown version is refused and left as
// it is; an unwritable --state fails at start.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { bin, ensureBuilt } from '../helpers/binary.js';

let home: string;
beforeAll(() => {
  ensureBuilt();
  home = mkdtempSync(join(tmpdir(), 'kagent-durable-'));
}, 60_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

interface Child {
  child: ChildProcess;
  /** Resolves with what the sandbox printed (--json) once it listens; rejects if it exits first. */
  started: Promise<{ baseUrl: string; apiKey: string }>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

function sandboxChild(args: string[], env: Record<string, string> = {}): Child {
  const child = spawn(
    process.execPath,
    [bin, 'sandbox', '--port', '0', '--json', '--rate-limit', '0', '--no-save-profile', ...args],
    {
      env: { PATH: process.env.PATH, HOME: home, KAGENT_CONFIG_DIR: join(home, 'config'), NO_COLOR: '1', ...env },
    },
  );
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const started = new Promise<{ baseUrl: string; apiKey: string }>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (stdout.includes('\n')) resolve(JSON.parse(stdout.slice(0, stdout.indexOf('\n'))));
    });
    void exited.then(({ code }) => reject(new Error(`the sandbox exited (${code}) before listening: ${stderr}`)));
  });
  started.catch(() => undefined);
  return { child, started, exited, stderr: () => stderr };
}

async function call(dispatcher: Agent, baseUrl: string, apiKey: string, method: string, path: string, body?: unknown) {
  const res = await request(`${baseUrl}${path}`, {
    method: method as 'GET',
    dispatcher,
    headers: { authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
}

type Expected = { title: string; alt?: string } | { deleted: true; alt?: string };

describe('kill -9 under load (built binary)', () => {
  it('keeps every acknowledged write, 5 rounds of 8 writing clients killed at random moments', async () => {
    const dir = join(home, 'kill9');
    mkdirSync(dir);
    const stateFile = join(dir, 'state.json');
    const apiKey = 'kak_durable_kill_test_key';
    // id → what the last acknowledged write left; `alt`: what a write in flight at the kill may have left instead.
    const expected = new Map<string, Expected>();
    let acknowledged = 0;
    for (let round = 0; round < 5; round++) {
      const sandbox = sandboxChild(['--state', stateFile, '--api-key', apiKey, '--quiet']);
      const { baseUrl } = await sandbox.started;
      const dispatcher = new Agent({ connections: 8 });
      let killed = false;
      const client = async (c: number): Promise<void> => {
        const mine: string[] = [];
        for (let i = 0; !killed; i++) {
          const title = `r${round}-c${c}-${i}`;
          const target = mine[(i * 7) % Math.max(1, mine.length)];
          const kind = target && i % 3 === 1 ? 'update' : target && i % 7 === 6 ? 'delete' : 'create';
          if (kind !== 'create')
            expected.set(target!, {
              ...(expected.get(target!) as Expected),
              alt: kind === 'update' ? title : 'deleted',
            });
          let answer;
          try {
            if (kind === 'create')
              answer = await call(dispatcher, baseUrl, apiKey, 'POST', '/docs', {
                title,
                markdown: `body of ${title}`,
              });
            else if (kind === 'update')
              answer = await call(dispatcher, baseUrl, apiKey, 'PATCH', `/docs/${target}`, { title });
            else answer = await call(dispatcher, baseUrl, apiKey, 'DELETE', `/docs/${target}`);
          } catch {
            return; // the sandbox is gone: this write was never answered
          }
          if (kind === 'create' && answer.status === 201) {
            expected.set(answer.body.id, { title });
            mine.push(answer.body.id);
          } else if (kind === 'update' && answer.status === 200) {
            expected.set(target!, { title });
          } else if (kind === 'delete' && answer.status === 204) {
            expected.set(target!, { deleted: true });
            mine.splice(mine.indexOf(target!), 1);
          } else {
            throw new Error(`unexpected answer ${answer.status} to ${kind}: ${JSON.stringify(answer.body)}`);
          }
          acknowledged++;
        }
      };
      const clients = Array.from({ length: 8 }, (_, c) => client(c));
      await new Promise((resolve) => setTimeout(resolve, 150 + Math.random() * 450));
      killed = true;
      sandbox.child.kill('SIGKILL');
      expect((await sandbox.exited).signal).toBe('SIGKILL');
      await Promise.all(clients);
      await dispatcher.close().catch(() => undefined);

      // Back up on the same state (the dead holder's lock is taken over at once): every answered write is there.
      const check = await startSandbox({ stateFile, quiet: true, autoAdvance: false, rateLimit: 0, apiKey });
      const checker = new Agent();
      try {
        for (const [id, want] of expected) {
          const got = await call(checker, check.baseUrl, apiKey, 'GET', `/docs/${id}`);
          const seen = got.status === 404 ? 'deleted' : got.status === 200 ? got.body.title : `status ${got.status}`;
          const allowed = ['deleted' in want ? 'deleted' : want.title, want.alt];
          expect(allowed, `doc ${id} after round ${round}`).toContain(seen);
          // What survived is now the acknowledged state.
          expected.set(id, seen === 'deleted' ? { deleted: true } : { title: seen });
        }
      } finally {
        await checker.close();
        await check.close();
      }
    }
    // Each round answered writes (the check above is not vacuous).
    expect(acknowledged).toBeGreaterThan(5 * 8);
    expect([...expected.values()].filter((e) => !('deleted' in e)).length).toBeGreaterThan(20);
  }, 120_000);
});

describe('stopping with a signal (built binary)', () => {
  for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
    it(`${signal} ends it like Ctrl-C: state saved, exit 0, no temp dir left`, async () => {
      const dir = join(home, signal);
      mkdirSync(dir);
      const stateFile = join(dir, 'state.json');
      // The sandbox's own temp dirs go under this TMPDIR, so a leftover would show.
      const tmp = join(dir, 'tmp');
      mkdirSync(tmp);
      const sandbox = sandboxChild(['--state', stateFile], { TMPDIR: tmp });
      const { baseUrl, apiKey } = await sandbox.started;
      const dispatcher = new Agent();
      const created = await call(dispatcher, baseUrl, apiKey, 'POST', '/spaces', { name: `Saved on ${signal}` });
      expect(created.status).toBe(201);
      await dispatcher.close();
      sandbox.child.kill(signal);
      const exit = await sandbox.exited;
      expect(exit).toEqual({ code: 0, signal: null });
      expect(sandbox.stderr()).toContain(`Sandbox stopped; state saved to ${stateFile}`);
      // Saved as one snapshot (the journal folded in), unlocked.
      const snapshot = JSON.parse(readFileSync(stateFile, 'utf8'));
      expect(JSON.stringify(snapshot.accounts)).toContain(`Saved on ${signal}`);
      expect(readFileSync(`${stateFile}.journal`, 'utf8').trim().split('\n')).toHaveLength(1);
      expect(existsSync(`${stateFile}.lock`)).toBe(false);
      expect(existsSync(`${stateFile}.lock.pid`)).toBe(false);
      expect(readdirSync(tmp)).toEqual([]);
    }, 30_000);
  }

  it('without --state, SIGTERM removes the temp dir of uploaded files', async () => {
    const tmp = join(home, 'tmp-nostate');
    mkdirSync(tmp);
    const sandbox = sandboxChild(['--quiet'], { TMPDIR: tmp });
    const { baseUrl, apiKey } = await sandbox.started;
    const res = await request(`${baseUrl}/library/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'x-file-name': 'note.txt', 'content-type': 'text/plain' },
      body: 'some text',
    });
    await res.body.dump();
    expect(res.statusCode).toBe(201);
    expect(readdirSync(tmp).filter((name) => name.startsWith('kagent-sandbox-'))).toHaveLength(1);
    sandbox.child.kill('SIGTERM');
    expect(await sandbox.exited).toEqual({ code: 0, signal: null });
    expect(readdirSync(tmp)).toEqual([]);
  }, 30_000);
});

describe('temp dirs of a killed sandbox (built binary)', () => {
  it('the next sandbox removes the temp dir left by one killed with SIGKILL', async () => {
    const tmp = join(home, 'tmp-killed');
    mkdirSync(tmp);
    const killed = sandboxChild(['--quiet'], { TMPDIR: tmp });
    await killed.started;
    killed.child.kill('SIGKILL');
    await killed.exited;
    const left = readdirSync(tmp);
    expect(left).toEqual([expect.stringMatching(new RegExp(`^kagent-sandbox-${killed.child.pid}-`))]);
    const next = sandboxChild(['--quiet'], { TMPDIR: tmp });
    await next.started;
    const now = readdirSync(tmp);
    expect(now).not.toContain(left[0]);
    expect(now).toEqual([expect.stringMatching(new RegExp(`^kagent-sandbox-${next.child.pid}-`))]);
    next.child.kill('SIGTERM');
    expect(await next.exited).toEqual({ code: 0, signal: null });
    expect(readdirSync(tmp)).toEqual([]);
  }, 30_000);
});

describe('refusals at start (built binary)', () => {
  it('a second sandbox on a state in use is refused, naming the process that holds it', async () => {
    const stateFile = join(home, 'shared', 'state.json');
    const first = sandboxChild(['--state', stateFile, '--quiet']);
    await first.started;
    try {
      const second = sandboxChild(['--state', stateFile, '--quiet']);
      const exit = await second.exited;
      // --json: the error envelope on stderr.
      expect(JSON.parse(second.stderr()).error).toEqual({
        code: 'STATE_LOCKED',
        message: `the state file ${stateFile} is in use by another sandbox (process ${first.child.pid})`,
        hint: 'stop that sandbox first, or use another --state file',
      });
      expect(exit.code).toBe(2);
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
    }
  }, 30_000);

  it('a state file of an unknown version is refused and left untouched', async () => {
    const dir = join(home, 'future');
    mkdirSync(dir);
    const stateFile = join(dir, 'state.json');
    const text = JSON.stringify({
      version: 2,
      seed: 1,
      accounts: { acc_future: { id: 'acc_future' } },
      keys: { kak_future: 'acc_future' },
    });
    writeFileSync(stateFile, text);
    const sandbox = sandboxChild(['--state', stateFile, '--quiet']);
    const exit = await sandbox.exited;
    expect(JSON.parse(sandbox.stderr()).error).toMatchObject({
      code: 'STATE_VERSION',
      message: `sandbox state ${stateFile} has version 2; this kagent reads version 1 only (the file was left as it is)`,
    });
    expect(exit.code).toBe(2);
    expect(readFileSync(stateFile, 'utf8')).toBe(text);
    expect(readdirSync(dir)).toEqual(['state.json']);
  }, 30_000);

  it('an unwritable --state fails at start with a clear message', async () => {
    const file = join(home, 'plain-file');
    writeFileSync(file, 'not a directory');
    const stateFile = join(file, 'state.json');
    const started = Date.now();
    const sandbox = sandboxChild(['--state', stateFile, '--quiet']);
    const exit = await sandbox.exited;
    const error = JSON.parse(sandbox.stderr()).error;
    expect(error.code).toBe('STATE_UNWRITABLE');
    expect(error.message).toBe(`cannot use --state ${stateFile}: ${file} is not a directory`);
    expect(error.hint).toBe('give --state a file in a directory you can write');
    expect(exit.code).toBe(2);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 30_000);
});

describe('state files in-process', () => {
  it('a second sandbox in the same process is refused with this pid', async () => {
    const stateFile = join(home, 'inproc', 'state.json');
    const first = await startSandbox({ stateFile, quiet: true, autoAdvance: false });
    try {
      await expect(startSandbox({ stateFile, quiet: true, autoAdvance: false })).rejects.toMatchObject({
        stateError: 'STATE_LOCKED',
        pid: process.pid,
        message: `the state file ${stateFile} is in use by another sandbox (process ${process.pid})`,
      });
    } finally {
      await first.close();
    }
    // Free again once the first is closed.
    const again = await startSandbox({ stateFile, quiet: true, autoAdvance: false });
    await again.close();
  });

  it('removes uploads cut short by a crash (files/incoming-*) on start', async () => {
    const stateFile = join(home, 'leftover', 'state.json');
    await (await startSandbox({ stateFile, quiet: true, autoAdvance: false })).close();
    mkdirSync(`${stateFile}.blobs/files`, { recursive: true });
    writeFileSync(`${stateFile}.blobs/files/incoming-0000`, 'half an upload');
    writeFileSync(`${stateFile}.blobs/files/kept`, 'a stored file');
    const sandbox = await startSandbox({ stateFile, quiet: true, autoAdvance: false });
    await sandbox.close();
    expect(readdirSync(`${stateFile}.blobs/files`)).toEqual(['kept']);
  });
});
