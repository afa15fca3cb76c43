// The built binary (bin/kagent.js → dist/), as a person and a pipeline meet it:
// prompts in a real pseudo-terminal (util-linux `script`), Ctrl-C, a reader
// that goes away (`| head`), and the --version fast path.
// `npm test` builds dist/ first; when it is missing it is built here.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { release, type } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { writeProfile } from '../../src/config/store.js';
import { bin, ensureBuilt, plain, root, runInPty, testNode } from '../helpers/binary.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/run.js';
import { tinyServer, type TinyServer } from '../helpers/tiny-server.js';

let t: TestSandbox;
beforeAll(async () => {
  ensureBuilt();
  t = await startTestSandbox();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

function baseEnv(configDir: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: configDir,
    KAGENT_CONFIG_DIR: configDir,
    KAGENT_CACHE_DIR: join(configDir, 'cache'),
    SHELL: '/bin/sh',
    TERM: 'xterm',
  };
}

describe('in a pseudo-terminal', () => {
  it('auth login asks for the base URL and the key (masked), checks it and saves it', async () => {
    const configDir = tempDir();
    const run = await runInPty(['auth', 'login'], {
      env: baseEnv(configDir),
      steps: [
        { wait: /API base URL/, type: `${t.baseUrl}\r` },
        { wait: /API key/, type: `${t.apiKey}\r` },
      ],
    });
    expect(run).toMatchObject({ code: 0, typed: 2 });
    expect(run.output).toContain('Logged in to 127.0.0.1');
    expect(run.output).not.toContain(t.apiKey);
    expect(run.output).toContain('****');
    const saved = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'));
    expect(saved.profiles.default).toEqual({ baseUrl: t.baseUrl, apiKey: t.apiKey });
  });

  it('the root help is wrapped to the terminal it is shown in (its width, not COLUMNS)', async () => {
    const env = baseEnv(tempDir());
    const run = await runInPty(['--help'], { env: { ...env, COLUMNS: '200' }, cols: 60 });
    expect(run.code).toBe(0);
    const piped = (columns: string) =>
      spawnSync(testNode, [bin, '--help'], { encoding: 'utf8', env: { ...env, COLUMNS: columns } }).stdout;
    // Width matters to this help (its description wraps), so the terminal's 60 columns are what made it.
    expect(piped('60')).not.toBe(piped('200'));
    expect(plain(run.output).replace(/\r\n/g, '\n')).toBe(piped('60'));
  });

  it('Ctrl-C in a prompt stops with exit 130 and saves nothing', async () => {
    const configDir = tempDir();
    const run = await runInPty(['auth', 'login', '--base-url', t.baseUrl], {
      env: baseEnv(configDir),
      steps: [{ wait: /API key/, type: '\x03' }],
    });
    expect(run).toMatchObject({ code: 130, typed: 1 });
    expect(existsSync(join(configDir, 'config.json'))).toBe(false);
  });

  it('space delete asks first: "n" (the default) keeps the space, "y" deletes it', async () => {
    const configDir = tempDir();
    await writeProfile(
      configDir,
      'default',
      { baseUrl: t.baseUrl, apiKey: t.apiKey, rateLimit: 100_000 },
      { makeCurrent: true },
    );
    const id = (await t.call('POST', '/spaces', { body: { name: 'Scratch' } })).body.id as string;

    const keep = await runInPty(['space', 'delete', 'Scratch'], {
      env: baseEnv(configDir),
      steps: [{ wait: /Delete space Scratch \(sp_\w+\)\?/, type: '\r' }],
    });
    expect(keep).toMatchObject({ code: 1, typed: 1 });
    expect((await t.call('GET', '/spaces')).body.items.map((s: { id: string }) => s.id)).toContain(id);

    const remove = await runInPty(['space', 'delete', 'Scratch'], {
      env: baseEnv(configDir),
      steps: [{ wait: /Delete space Scratch/, type: 'y\r' }],
    });
    expect(remove).toMatchObject({ code: 0, typed: 1 });
    expect(remove.output).toContain('Deleted space Scratch');
    expect((await t.call('GET', '/spaces')).body.items.map((s: { id: string }) => s.id)).not.toContain(id);
  });
});

describe('the binary in a pipeline', () => {
  it('--version answers as gh does, with the build date, without loading the program', () => {
    // The date the build recorded (scripts/build.mjs): the one the man pages carry too.
    const date = /^\.TH "KAGENT" 1 "([^"]+)"/m
      .exec(readFileSync(join(root, 'dist', 'man', 'kagent.1'), 'utf8'))?.[1]
      ?.replace(/\\-/g, '-');
    expect(date).toMatch(/^\d{4}-\d\d-\d\d$/);
    const line = `kagent version ${pkg.version} (${date})\n`;
    for (const flag of ['--version', '-V']) {
      const r = spawnSync(testNode, [bin, flag], { encoding: 'utf8' });
      expect(r).toMatchObject({ status: 0, stdout: line, stderr: '' });
    }
    // Through the program (with another global flag) it is the same line.
    const viaProgram = spawnSync(testNode, [bin, '--no-color', '--version'], {
      encoding: 'utf8',
      env: baseEnv(tempDir()),
    });
    expect(viaProgram).toMatchObject({ status: 0, stdout: line, stderr: '' });
    // `kagent version` too (as `gh version`); --json carries the build date.
    const command = spawnSync(testNode, [bin, 'version'], { encoding: 'utf8', env: baseEnv(tempDir()) });
    expect(command).toMatchObject({ status: 0, stdout: line, stderr: '' });
    const json = spawnSync(testNode, [bin, 'version', '--json'], { encoding: 'utf8', env: baseEnv(tempDir()) });
    expect(JSON.parse(json.stdout)).toMatchObject({ version: pkg.version, buildDate: date });
    // JSON asked of --version is JSON given: what `kagent version --json` prints, whatever the order.
    for (const args of [
      ['--version', '--json'],
      ['--json', '-V'],
      ['--version', '--verbose', '--json'],
    ]) {
      const r = spawnSync(testNode, [bin, ...args], { encoding: 'utf8', env: baseEnv(tempDir()) });
      expect(r.status, args.join(' ')).toBe(0);
      expect(JSON.parse(r.stdout), args.join(' ')).toEqual(JSON.parse(json.stdout));
    }
    const jq = spawnSync(testNode, [bin, '--version', '--jq', '.version'], {
      encoding: 'utf8',
      env: baseEnv(tempDir()),
    });
    expect(jq).toMatchObject({ status: 0, stdout: `${pkg.version}\n` });
  });

  it('--version and the root help write to fd 1 without making process.stdout; a closed pipe still ends them with exit 0', async () => {
    // Says whether process.stdout was made (its getter read) during the run.
    const watch = join(tempDir(), 'watch-stdout.cjs');
    writeFileSync(
      watch,
      `const real = Object.getOwnPropertyDescriptor(process, 'stdout'); let made = false;
      Object.defineProperty(process, 'stdout', { configurable: true, enumerable: real.enumerable, get() { made = true; return real.get.call(process); } });
      process.on('exit', () => require('node:fs').writeSync(2, 'stdout made: ' + made + '\\n'));`,
    );
    const env = { ...baseEnv(tempDir()), NODE_OPTIONS: `--require ${watch}` };
    const version = spawnSync(testNode, [bin, '--version'], { encoding: 'utf8', env });
    expect(version).toMatchObject({
      status: 0,
      stdout: expect.stringMatching(/^kagent version /),
      stderr: 'stdout made: false\n',
    });
    const help = spawnSync(testNode, [bin, '--help'], { encoding: 'utf8', env: { ...env, COLUMNS: '64' } });
    expect(help).toMatchObject({
      status: 0,
      stdout: expect.stringContaining('Usage: kagent'),
      stderr: 'stdout made: false\n',
    });
    // A command still writes through process.stdout.
    expect(spawnSync(testNode, [bin, 'help', 'exit-codes', '--json'], { encoding: 'utf8', env }).stderr).toBe(
      'stdout made: true\n',
    );
    // The reader gone before anything is written: EPIPE on fd 1 ends the run quietly, with success.
    for (const args of [['--version'], ['--help']]) {
      const child = spawn(testNode, [bin, ...args], { env: baseEnv(tempDir()), stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect({ args, code, stderr }).toEqual({ args, code: 0, stderr: '' });
    }
  });

  it('--version --verbose adds the Node.js and the platform, for bug reports', () => {
    const nodeVersion = spawnSync(testNode, ['--version'], { encoding: 'utf8' }).stdout.trim();
    for (const args of [
      ['--version', '--verbose'],
      ['--verbose', '-V'],
    ]) {
      const r = spawnSync(testNode, [bin, ...args], { encoding: 'utf8' });
      expect(r.status).toBe(0);
      const [first, second, rest] = r.stdout.split('\n');
      expect(first).toMatch(
        new RegExp(`^kagent version ${pkg.version.replace(/\./g, '\\.')} \\(\\d{4}-\\d\\d-\\d\\d\\)$`),
      );
      expect(second).toBe(`Node.js ${nodeVersion} on ${process.platform}-${process.arch} (${type()} ${release()})`);
      expect(rest).toBe('');
    }
    // --verbose is no flag of its own.
    const alone = spawnSync(testNode, [bin, '--verbose'], { encoding: 'utf8', env: baseEnv(tempDir()) });
    expect(alone.status).toBe(2);
    expect(alone.stderr).toMatch(/unknown option --verbose/);
  });

  it('--jq works in the bundle (jq-wasm loads its WebAssembly at run time)', () => {
    const env = baseEnv(tempDir());
    const ok = spawnSync(testNode, [bin, 'help', 'exit-codes', '--jq', '.[] | select(.code == 130) | .meaning'], {
      encoding: 'utf8',
      env,
    });
    expect(ok).toMatchObject({ status: 0, stdout: expect.stringMatching(/^interrupted \(Ctrl-C\)[;\n]/) });
    const bad = spawnSync(testNode, [bin, 'help', 'exit-codes', '--jq', '.['], { encoding: 'utf8', env });
    expect(bad.status).toBe(2);
    expect(JSON.parse(bad.stderr)).toMatchObject({
      error: { code: 'JQ_ERROR', message: expect.stringContaining('syntax error') },
    });
  });

  it('a reader that closes the pipe early (| head) ends it quietly with exit 0', async () => {
    const configDir = tempDir();
    await writeProfile(
      configDir,
      'default',
      { baseUrl: t.baseUrl, apiKey: t.apiKey, rateLimit: 100_000 },
      { makeCurrent: true },
    );
    // Far more output than a pipe buffers.
    const account = t.sandbox.world.state.accounts[t.sandbox.accountId]!;
    for (let i = 0; i < 4000; i++) {
      account.spaces.push({
        id: `sp_bulk${i}`,
        name: `Bulk space number ${i}`,
        icon: null,
        description: 'x'.repeat(40),
        isDefault: false,
        position: 100 + i,
        createdAt: new Date().toISOString(),
      });
    }
    try {
      const child = spawn(testNode, [bin, 'space', 'list'], {
        env: baseEnv(configDir),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.stdout.once('data', () => child.stdout.destroy());
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(0);
      expect(stderr).toBe('');
    } finally {
      account.spaces = account.spaces.filter((space) => !space.id.startsWith('sp_bulk'));
    }
  });

  describe('Ctrl-C', () => {
    let server: TinyServer;
    beforeAll(async () => {
      server = await tinyServer(() => ({ status: 200, delayMs: Infinity }));
    });
    afterAll(async () => {
      await server?.close();
    });

    const hanging = () => {
      const env = { ...baseEnv(tempDir()), KAGENT_BASE_URL: server.baseUrl, KAGENT_API_KEY: 'kak_hangingserverkey' };
      const child = spawn(testNode, [bin, 'me'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
      return { child, exit, stderr: () => stderr };
    };
    const waitForRequest = async (count: number) => {
      while (server.requests.length < count) await new Promise((resolve) => setTimeout(resolve, 20));
    };

    it('the first one stops what runs (exit 130), quietly: not an error, nothing more to say', async () => {
      const before = server.requests.length;
      const run = hanging();
      await waitForRequest(before + 1);
      run.child.kill('SIGINT');
      expect(await run.exit).toBe(130);
      expect(run.stderr()).toBe('');
    });

    it('a second one leaves at once (exit 130)', async () => {
      const before = server.requests.length;
      const run = hanging();
      await waitForRequest(before + 1);
      run.child.kill('SIGINT');
      run.child.kill('SIGINT');
      expect(await run.exit).toBe(130);
    });
  });
});
