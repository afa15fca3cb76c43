// `--timeout N` is a deadline for the whole command: the built binary, against
// peers that never finish, ends within N s plus at most one — whether the
// service trickles its answer a byte at a time, accepts and never answers, a
// proxy never opens its tunnel, or the wait is for the rate budget or a retry.
// One Ctrl-C ends a command whose socket is stuck, at once. A reader that takes
// nothing of the output (stdout a pipe nobody reads) holds it no longer either.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeProfile } from '../../src/config/store.js';
import { bin, ensureBuilt, root, testNode } from '../helpers/binary.js';
import { bigMe, hostileServer, silentProxy, type HostileServer, type SilentProxy } from '../helpers/hostile-server.js';
import { tempDir } from '../helpers/run.js';

beforeAll(() => ensureBuilt());

const KEY = 'ka_test_deadlines';
/** What the deadline may overshoot by, start-up and exit included (the task's bound). */
const SLACK_MS = 1_000;

let peers: Array<HostileServer | SilentProxy> = [];
afterEach(async () => {
  await Promise.all(peers.map((peer) => peer.close()));
  peers = [];
});

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  /** From spawning the process to its end. */
  elapsedMs: number;
}

/** Runs the built `kagent ARGS…`; `interruptAfterMs` sends one SIGINT (Ctrl-C) then. */
function kagent(
  args: string[],
  env: Record<string, string> = {},
  options: { interruptAfterMs?: number; configDir?: string; stdoutUnread?: boolean } = {},
): Promise<Ran & { interruptedAt?: number }> {
  const home = options.configDir ?? tempDir('kagent-hostile-');
  const started = Date.now();
  const child = spawn(testNode, [bin, ...args], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      KAGENT_CONFIG_DIR: home,
      KAGENT_CACHE_DIR: home,
      KAGENT_API_KEY: KEY,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  // stdoutUnread: a reader that takes nothing (the pipe fills, and kagent's writes wait).
  if (options.stdoutUnread) child.stdout.pause();
  else child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let interruptedAt: number | undefined;
  if (options.interruptAfterMs !== undefined) {
    setTimeout(() => {
      interruptedAt = Date.now();
      child.kill('SIGINT');
    }, options.interruptAfterMs);
  }
  // Whatever happens, no test waits past this (the old code ran for minutes).
  const guard = setTimeout(() => child.kill('SIGKILL'), 15_000);
  return new Promise((resolve) => {
    // (An unread stdout never closes: the process's exit is the end then.)
    child.on(options.stdoutUnread ? 'exit' : 'close', (code) => {
      clearTimeout(guard);
      resolve({
        code,
        stdout,
        stderr,
        elapsedMs: Date.now() - started,
        interruptedAt: interruptedAt === undefined ? undefined : Date.now() - interruptedAt,
      });
    });
  });
}

async function serve(...args: Parameters<typeof hostileServer>): Promise<HostileServer> {
  const server = await hostileServer(...args);
  peers.push(server);
  return server;
}

async function proxy(): Promise<SilentProxy> {
  const p = await silentProxy();
  peers.push(p);
  return p;
}

describe('a --timeout shorter than start-up', () => {
  it('is TIMEOUT, said as such (not the rate limit), and nothing is sent', async () => {
    const s = await serve(() => ({ kind: 'silent' }));
    const r = await kagent(['me', '--timeout', '0.001', '--base-url', s.baseUrl]);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/^error: --timeout \(0\.001 s\) ran out before the command finished \(TIMEOUT\)\n/);
    expect(s.requests).toHaveLength(0);
  });
});

describe('--timeout 2 ends the command within 3 s', () => {
  it('when the service trickles its answer one byte every 300 ms (an idle timer never fires)', async () => {
    const s = await serve(() => ({ kind: 'trickle', everyMs: 300 }));
    const r = await kagent(['me', '--timeout', '2', '--base-url', s.baseUrl]);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/GET \/api\/v1\/me: no complete answer within --timeout \(2 s\)/);
    expect(r.elapsedMs).toBeLessThan(2_000 + SLACK_MS);
  });

  it('when the service accepts and never answers', async () => {
    const s = await serve(() => ({ kind: 'silent' }));
    const r = await kagent(['me', '--timeout', '2', '--base-url', s.baseUrl]);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/--timeout \(2 s\)/);
    expect(r.elapsedMs).toBeLessThan(2_000 + SLACK_MS);
  });

  it('when an HTTPS proxy accepts CONNECT and never answers', async () => {
    const p = await proxy();
    const r = await kagent(['me', '--timeout', '2', '--base-url', 'https://api.example.invalid'], {
      HTTPS_PROXY: p.url,
    });
    expect(p.connections()).toBeGreaterThan(0);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/no complete answer within --timeout \(2 s\)/);
    expect(r.stderr).toMatch(/proxy http:\/\/127\.0\.0\.1:\d+ \(HTTPS_PROXY\)/);
    expect(r.elapsedMs).toBeLessThan(2_000 + SLACK_MS);
  });

  it('doctor, through an HTTPS proxy that never answers CONNECT', async () => {
    const p = await proxy();
    const r = await kagent(['doctor', '--timeout', '2', '--base-url', 'https://api.example.invalid'], {
      HTTPS_PROXY: p.url,
    });
    expect(r.code).toBe(1); // problems found, each said
    expect(r.stdout).toMatch(/fail\treachable\t.*no complete answer within --timeout \(2 s\)/);
    expect(r.elapsedMs).toBeLessThan(2_000 + SLACK_MS);
  });

  it('when the rate budget would make the request wait past the deadline (nothing is sent)', async () => {
    const s = await serve(() => ({ kind: 'answer', status: 200, body: { id: 'u_1', email: 'ada@example.com' } }));
    const home = tempDir('kagent-hostile-');
    await writeProfile(home, 'default', { baseUrl: s.baseUrl, apiKey: KEY, rateLimit: 1 }, { makeCurrent: true });
    const first = await kagent(['me', '--json'], { KAGENT_API_KEY: '' }, { configDir: home });
    expect(first.code).toBe(0);
    const r = await kagent(['me', '--json', '--timeout', '2'], { KAGENT_API_KEY: '' }, { configDir: home });
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/rate limit \(1 request a minute\)/);
    expect(s.requests).toHaveLength(1);
    expect(r.elapsedMs).toBeLessThan(2_000 + SLACK_MS);
  });

  it('when the service keeps answering 503 with Retry-After: 1 (retries and their waits stop at the deadline)', async () => {
    const s = await serve(() => ({
      kind: 'answer',
      status: 503,
      headers: { 'retry-after': '1' },
      body: { error: { code: 'UNAVAILABLE', message: 'down' } },
    }));
    const r = await kagent(['me', '--timeout', '2', '--base-url', s.baseUrl]);
    expect(r.code).toBe(7);
    expect(s.requests.length).toBeGreaterThanOrEqual(2);
    expect(r.elapsedMs).toBeLessThan(2_000 + SLACK_MS);
  });

  it('when the service answers 503 without Retry-After (backoff)', async () => {
    const s = await serve(() => ({
      kind: 'answer',
      status: 503,
      body: { error: { code: 'UNAVAILABLE', message: 'down' } },
    }));
    const r = await kagent(['me', '--timeout', '2', '--base-url', s.baseUrl]);
    expect(r.code).toBe(7);
    expect(r.elapsedMs).toBeLessThan(2_000 + SLACK_MS);
  });
});

describe('--timeout 2 and an upload', () => {
  it('to a service that never answers ends within 3 s with exit 7, not as an interruption (130)', async () => {
    const s = await serve(() => ({ kind: 'silent' }));
    const dir = tempDir('kagent-hostile-upload-');
    writeFileSync(join(dir, 'notes.md'), '# Notes\n\nsomething to keep\n');
    const r = await kagent(['lib', 'upload', join(dir, 'notes.md'), '--timeout', '2', '--base-url', s.baseUrl]);
    expect(s.requests.length).toBeGreaterThan(0);
    expect(r.code).toBe(7);
    expect(r.elapsedMs).toBeLessThan(2_000 + SLACK_MS);
  });
});

describe('one Ctrl-C', () => {
  it('ends a command whose request waits on a proxy that never opens its tunnel (exit 130, within a second)', async () => {
    const p = await proxy();
    const r = await kagent(
      ['me', '--base-url', 'https://api.example.invalid'],
      { HTTPS_PROXY: p.url },
      { interruptAfterMs: 1_500 },
    );
    expect(p.connections()).toBeGreaterThan(0);
    expect(r.code).toBe(130);
    // Ctrl-C is not an error, and a plain request stopped leaves nothing to say.
    expect(r.stderr).toBe('');
    expect(r.interruptedAt).toBeLessThan(1_000);
  });

  it('ends a command reading an answer that trickles (exit 130, within a second)', async () => {
    const s = await serve(() => ({ kind: 'trickle', everyMs: 200 }));
    const r = await kagent(['me', '--base-url', s.baseUrl], {}, { interruptAfterMs: 1_500 });
    expect(r.code).toBe(130);
    expect(r.interruptedAt).toBeLessThan(1_000);
  });
});

describe('the deadline is exit 7 and Ctrl-C is 130, whatever was waiting', () => {
  const decided = { error: { code: 'ACTION_DECIDED', message: 'already decided' } };

  it('actions reject: explaining an already decided action with a service gone silent (7, not 130)', async () => {
    const s = await serve((req) =>
      req.method === 'POST' ? { kind: 'answer', status: 409, body: decided } : { kind: 'silent' },
    );
    const r = await kagent(['actions', 'reject', 'ac_1', '--timeout', '2', '--base-url', s.baseUrl]);
    expect(s.requests.map((q) => q.method)).toEqual(['POST', 'GET']);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/--timeout \(2 s\)/);
    expect(r.elapsedMs).toBeLessThan(2_000 + SLACK_MS);
  });

  it('actions reject: Ctrl-C while explaining it is an interruption (130)', async () => {
    const s = await serve((req) =>
      req.method === 'POST' ? { kind: 'answer', status: 409, body: decided } : { kind: 'silent' },
    );
    const r = await kagent(['actions', 'reject', 'ac_1', '--base-url', s.baseUrl], {}, { interruptAfterMs: 1_500 });
    expect(r.code).toBe(130);
    expect(r.interruptedAt).toBeLessThan(1_000);
  });

  it('lib delete of several items to a service that never answers (7), and Ctrl-C there (130)', async () => {
    const s = await serve(() => ({ kind: 'silent' }));
    const args = ['lib', 'delete', 'li_1', 'li_2', '--yes', '--base-url', s.baseUrl];
    const timedOut = await kagent([...args, '--timeout', '2']);
    expect(timedOut.code).toBe(7);
    expect(timedOut.elapsedMs).toBeLessThan(2_000 + SLACK_MS);
    const interrupted = await kagent(args, {}, { interruptAfterMs: 1_500 });
    expect(interrupted.code).toBe(130);
    expect(interrupted.interruptedAt).toBeLessThan(1_000);
  });

  /** A profile paced across processes, its window file made by one call, and its lock then held by "another process". */
  async function heldPacerLock(s: HostileServer): Promise<string> {
    const home = tempDir('kagent-hostile-');
    await writeProfile(home, 'default', { baseUrl: s.baseUrl, apiKey: KEY, rateLimit: 60 }, { makeCurrent: true });
    expect((await kagent(['me', '--json'], { KAGENT_API_KEY: '' }, { configDir: home })).code).toBe(0);
    const windows = readdirSync(home).filter((name) => /^window-.*\.log$/.test(name));
    expect(windows).toHaveLength(1);
    const lock = join(home, `${windows[0]}.lock`);
    writeFileSync(lock, '');
    // Touched in the future: never stale, so kagent cannot break it and has to wait.
    const later = new Date(Date.now() + 3_600_000);
    utimesSync(lock, later, later);
    return home;
  }

  it('the shared pacer waiting on a lock another process holds ends at --timeout 1 (7, within 2 s)', async () => {
    const s = await serve(() => ({ kind: 'answer', status: 200, body: { id: 'u_1', email: 'ada@example.com' } }));
    const home = await heldPacerLock(s);
    const r = await kagent(['me', '--json', '--timeout', '1'], { KAGENT_API_KEY: '' }, { configDir: home });
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/--timeout \(1 s\)/);
    expect(r.elapsedMs).toBeLessThan(1_000 + SLACK_MS);
    expect(s.requests).toHaveLength(1);
  });

  it('the shared pacer waiting on a held lock ends on Ctrl-C (130, within a second)', async () => {
    const s = await serve(() => ({ kind: 'answer', status: 200, body: { id: 'u_1', email: 'ada@example.com' } }));
    const home = await heldPacerLock(s);
    const r = await kagent(['me', '--json'], { KAGENT_API_KEY: '' }, { configDir: home, interruptAfterMs: 1_000 });
    expect(r.code).toBe(130);
    expect(r.interruptedAt).toBeLessThan(1_000);
    expect(s.requests).toHaveLength(1);
  });
});

describe('a config write waiting on the config lock another process holds', () => {
  /** A saved config whose lock (`config.json.lock`, a directory) is held, touched in the future so it never goes stale. */
  async function heldConfigLock(): Promise<{ home: string; saved: string }> {
    const home = tempDir('kagent-hostile-');
    await writeProfile(home, 'default', { lang: 'en' }, { makeCurrent: true });
    const lock = join(home, 'config.json.lock');
    mkdirSync(lock);
    const later = new Date(Date.now() + 3_600_000);
    utimesSync(lock, later, later);
    return { home, saved: readFileSync(join(home, 'config.json'), 'utf8') };
  }

  it('`config set --timeout 1` ends at the deadline (7, within 2 s), not after the 5 s lock wait; nothing saved', async () => {
    const { home, saved } = await heldConfigLock();
    const r = await kagent(['config', 'set', 'lang', 'zh', '--timeout', '1'], {}, { configDir: home });
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/--timeout \(1 s\)/);
    expect(r.elapsedMs).toBeLessThan(1_000 + SLACK_MS);
    expect(readFileSync(join(home, 'config.json'), 'utf8')).toBe(saved);
  });

  it('one Ctrl-C ends the wait (130, within a second); nothing saved', async () => {
    const { home, saved } = await heldConfigLock();
    const r = await kagent(['config', 'set', 'lang', 'zh'], {}, { configDir: home, interruptAfterMs: 1_000 });
    expect(r.code).toBe(130);
    expect(r.interruptedAt).toBeLessThan(SLACK_MS);
    expect(readFileSync(join(home, 'config.json'), 'utf8')).toBe(saved);
  });
});

describe('a reader that takes nothing (stdout a pipe nobody reads)', () => {
  /** /me with a 2 MB field: far more than a pipe holds. */
  const bigAnswer = () => serve(() => ({ kind: 'answer', status: 200, bytes: bigMe(2 * 1024 * 1024) }));

  it.each([[['me', '--json']], [['me']], [['api', '/me']]])(
    '`kagent %j --timeout 2` ends within 3 s with exit 7 (TIMEOUT), not when the reader leaves',
    async (args) => {
      const server = await bigAnswer();
      const r = await kagent([...args, '--timeout', '2', '--base-url', server.baseUrl], {}, { stdoutUnread: true });
      expect(r.code).toBe(7);
      expect(r.stderr).toMatch(/TIMEOUT/);
      expect(r.elapsedMs).toBeLessThan(2_000 + SLACK_MS);
    },
  );

  it('one Ctrl-C ends it (exit 130, within a second)', async () => {
    const server = await bigAnswer();
    const r = await kagent(
      ['me', '--json', '--base-url', server.baseUrl],
      {},
      {
        stdoutUnread: true,
        interruptAfterMs: 1_000,
      },
    );
    expect(r.code).toBe(130);
    expect(r.interruptedAt).toBeLessThan(SLACK_MS);
  });
});
