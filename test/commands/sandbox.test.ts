// `kagent sandbox`, run in-process through the program with fake streams: it
// prints its base URL and key (JSON, piped and terminal forms), writes the
// `sandbox` profile, logs requests to stderr unless --quiet, refuses bad flags,
// and stops on Ctrl-C (the abort signal), saving --state.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import sandboxCommand from '../../commands/sandbox/index.js';
import { pipedKeysOf } from '../helpers/piped-help.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kagent-sandbox-cmd-'));
  dirs.push(dir);
  return dir;
}

interface Running {
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code once the command returns. */
  exit: Promise<number>;
  stop(): Promise<number>;
  configDir: string;
}

function capture(tty: boolean) {
  const stream = new PassThrough() as PassThrough & { isTTY?: boolean; columns?: number };
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  if (tty) {
    stream.isTTY = true;
    stream.columns = 100;
  }
  return { stream, text: () => text };
}

function start(argv: string[], options: { tty?: boolean } = {}): Running {
  const configDir = tempDir();
  const controller = new AbortController();
  const stdout = capture(options.tty ?? false);
  const stderr = capture(options.tty ?? false);
  const exit = run({
    argv: ['sandbox', ...argv],
    env: { KAGENT_CONFIG_DIR: configDir, NO_COLOR: '1', PATH: process.env.PATH },
    stdin: new PassThrough(),
    stdout: stdout.stream,
    stderr: stderr.stream,
    signal: controller.signal,
    version: '0.0.0-test',
  });
  return {
    stdout: stdout.text,
    stderr: stderr.text,
    exit,
    configDir,
    async stop() {
      controller.abort();
      return exit;
    },
  };
}

/** Waits until the command has printed what `ready` looks for (or has ended). */
async function until(running: Running, ready: (stdout: string) => boolean): Promise<void> {
  let ended = false;
  void running.exit.then(() => (ended = true));
  for (let i = 0; i < 400 && !ready(running.stdout()) && !ended; i++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  if (!ready(running.stdout())) throw new Error(`the sandbox did not start: ${running.stderr()}`);
}

async function get(url: string, key?: string) {
  const res = await request(url, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  return { status: res.statusCode, body: (await res.body.json()) as any };
}

describe('kagent sandbox', () => {
  it('--json prints {baseUrl, apiKey, profile}, serves the API, and writes the sandbox profile', async () => {
    const sandbox = start(['--port', '0', '--json']);
    await until(sandbox, (out) => out.includes('\n'));
    const started = JSON.parse(sandbox.stdout());
    expect(started).toEqual({
      baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/),
      apiKey: expect.stringMatching(/^kak_/),
      profile: 'sandbox',
    });
    expect((await get(`${started.baseUrl}/me`, started.apiKey)).status).toBe(200);
    const config = JSON.parse(readFileSync(join(sandbox.configDir, 'config.json'), 'utf8'));
    expect(config.profiles.sandbox).toMatchObject({ baseUrl: started.baseUrl, apiKey: started.apiKey, rateLimit: 60 });
    expect(config.currentProfile).toBeUndefined();
    // Requests are logged on stderr.
    expect(sandbox.stderr()).toMatch(/GET \/api\/v1\/me 200/);
    await sandbox.stop();
  });

  it('--json FIELDS takes its piped keys and the JSON names alike, under the names asked', async () => {
    const sandbox = start(['--port', '0', '--quiet', '--json', 'base-url,apiKey,profile']);
    await until(sandbox, (out) => out.includes('\n'));
    const picked = JSON.parse(sandbox.stdout());
    expect(Object.keys(picked)).toEqual(['base-url', 'apiKey', 'profile']);
    expect(picked['base-url']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    expect(picked.apiKey).toMatch(/^kak_/);
    expect(picked.profile).toBe('sandbox');
    await sandbox.stop();
  });

  // Ctrl-C is how this command ends: a normal stop, exit 0 (other commands exit 130).
  it('exits 0 after Ctrl-C, and stops serving', async () => {
    const sandbox = start(['--port', '0', '--json', '--quiet']);
    await until(sandbox, (out) => out.includes('\n'));
    const { baseUrl, apiKey } = JSON.parse(sandbox.stdout());
    expect((await get(`${baseUrl}/me`, apiKey)).status).toBe(200);
    expect(await sandbox.stop()).toBe(0);
    await expect(get(`${baseUrl}/me`, apiKey)).rejects.toThrow();
  });

  it('piped, prints base-url, api-key and profile as key<TAB>value lines', async () => {
    const sandbox = start(['--port', '0', '--quiet']);
    await until(sandbox, (out) => out.includes('profile\t'));
    const lines = Object.fromEntries(
      sandbox
        .stdout()
        .trim()
        .split('\n')
        .map((line) => line.split('\t')),
    );
    expect(Object.keys(lines)).toEqual(['base-url', 'api-key', 'profile']);
    // The help names every key it printed, in that order (one field table gives both).
    expect(pipedKeysOf(sandboxCommand.description)).toEqual(Object.keys(lines));
    expect((await get(`${lines['base-url']}/spaces`, lines['api-key'])).status).toBe(200);
    // --quiet: no notes and no request log.
    expect(sandbox.stderr()).toBe('');
    await sandbox.stop();
  });

  it('on a terminal, shows the URL, the key and how to use it', async () => {
    const sandbox = start(['--port', '0'], { tty: true });
    await until(sandbox, (out) => out.includes('Profile'));
    expect(sandbox.stdout()).toMatch(/Base URL\s+http:\/\/127\.0\.0\.1/);
    expect(sandbox.stdout()).toMatch(/API key\s+kak_/);
    for (let i = 0; i < 100 && !sandbox.stderr().includes('Ctrl-C'); i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sandbox.stderr()).toContain('kagent -p sandbox me');
    expect(sandbox.stderr()).toContain('/_sandbox/');
    await sandbox.stop();
  });

  it('takes its options: rate limit, error format, seed, api key, no profile', async () => {
    const sandbox = start([
      '--port',
      '0',
      '--json',
      '--rate-limit',
      '2',
      '--error-format',
      'problem',
      '--api-key',
      'kak_fixed_for_test',
      '--no-save-profile',
    ]);
    await until(sandbox, (out) => out.includes('\n'));
    const started = JSON.parse(sandbox.stdout());
    expect(started.apiKey).toBe('kak_fixed_for_test');
    expect(started.profile).toBeNull();
    expect(existsSync(join(sandbox.configDir, 'config.json'))).toBe(false);
    await get(`${started.baseUrl}/me`, started.apiKey);
    await get(`${started.baseUrl}/me`, started.apiKey);
    const limited = await get(`${started.baseUrl}/me`, started.apiKey);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    await sandbox.stop();
  });

  it('with --rate-limit 0 serves without a limit and paces its profile generously', async () => {
    const sandbox = start(['--port', '0', '--json', '--rate-limit', '0', '--quiet']);
    await until(sandbox, (out) => out.includes('\n'));
    const started = JSON.parse(sandbox.stdout());
    for (let i = 0; i < 80; i++) expect((await get(`${started.baseUrl}/spaces`, started.apiKey)).status).toBe(200);
    const config = JSON.parse(readFileSync(join(sandbox.configDir, 'config.json'), 'utf8'));
    expect(config.profiles.sandbox.rateLimit).toBeGreaterThanOrEqual(6000);
    await sandbox.stop();
  });

  it('saves --state on Ctrl-C and reloads it on the next start', async () => {
    const state = join(tempDir(), 'state.json');
    const first = start(['--port', '0', '--json', '--state', state, '--quiet']);
    await until(first, (out) => out.includes('\n'));
    const started = JSON.parse(first.stdout());
    const created = await request(`${started.baseUrl}/spaces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${started.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Persisted' }),
    });
    expect(created.statusCode).toBe(201);
    await created.body.dump();
    await first.stop();
    expect(existsSync(state)).toBe(true);

    const second = start(['--port', '0', '--json', '--state', state, '--quiet']);
    await until(second, (out) => out.includes('\n'));
    const again = JSON.parse(second.stdout());
    expect(again.apiKey).toBe(started.apiKey);
    const spaces = await get(`${again.baseUrl}/spaces`, again.apiKey);
    expect(spaces.body.items.map((s: any) => s.name)).toContain('Persisted');
    await second.stop();
  });

  it('refuses bad flags with exit 2 before starting', async () => {
    for (const argv of [
      ['--faults', 'boom=2'],
      ['--port', '70000'],
      ['--rate-limit', '-1'],
      ['--speed', '0'],
      ['--error-format', 'xml'],
      ['--seed', 'abc'],
    ]) {
      const sandbox = start(argv);
      expect(await sandbox.exit, argv.join(' ')).toBe(2);
      expect(sandbox.stderr()).toMatch(/error:/);
    }
  });

  it('says so when the port is taken (exit 1)', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const sandbox = start(['--port', String(port)]);
    expect(await sandbox.exit).toBe(1);
    expect(sandbox.stderr()).toMatch(/already in use.*PORT_IN_USE/);
    expect(sandbox.stderr()).toMatch(/--port 0/);
    blocker.close();
  });
});
