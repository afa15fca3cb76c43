// What the bundle leaves out of an API call's start-up (scripts/build.mjs):
// Node built-ins that undici and commander require but kagent does not use stay
// unloaded, and the one setting they stood for, --max-http-header-size, is
// still honoured. A read never loads node:crypto (src/http/shared-pacer.ts).
// A request with its body in memory goes by Node's own node:http, part of the
// node binary, and does not load the bundled undici (src/http/node-wire.ts).
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, ensureBuilt, root, testNode } from '../helpers/binary.js';
import { tinyServer, type TinyServer } from '../helpers/tiny-server.js';

const dir = mkdtempSync(join(tmpdir(), 'kagent-bundle-'));
// Records every built-in loaded through require() (undici's and commander's are).
const recorder = join(dir, 'record-builtins.cjs');
writeFileSync(
  recorder,
  `const Module = require('node:module'); const load = Module._load; const seen = new Set();
  Module._load = function (request, ...rest) { if (request.startsWith('node:')) seen.add(request); return load.call(this, request, ...rest); };
  process.on('exit', () => process.stderr.write('builtins: ' + [...seen].join(' ') + '\\nnative: ' + process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)).join(' ') + '\\n'));`,
);

// Says whether process.stdin was made (its getter read) during the run.
const stdinWatch = join(dir, 'watch-stdin.cjs');
writeFileSync(
  stdinWatch,
  `const real = Object.getOwnPropertyDescriptor(process, 'stdin'); let made = false;
  Object.defineProperty(process, 'stdin', { configurable: true, enumerable: real.enumerable, get() { made = true; return real.get.call(process); } });
  process.on('exit', () => process.stderr.write('stdin made: ' + made + '\\n'));`,
);

let server: TinyServer;
let bigHeader = false;
beforeAll(async () => {
  ensureBuilt();
  server = await tinyServer(() => {
    const headers: Record<string, string> = bigHeader ? { 'x-padding': 'p'.repeat(20_000) } : {};
    return { status: 200, body: { id: 'acc_1', email: 'a@example.test' }, headers };
  });
});
afterAll(() => server.close());

/** Runs the built binary; stdin is an empty pipe, or /dev/null with `stdin: 'ignore'`. */
function kagent(
  args: string[],
  env: Record<string, string> = {},
  { stdin = 'pipe' }: { stdin?: 'pipe' | 'ignore' } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(testNode, [bin, ...args], {
      env: {
        ...process.env,
        KAGENT_CONFIG_DIR: join(dir, 'config'),
        KAGENT_CACHE_DIR: join(dir, 'cache'),
        KAGENT_BASE_URL: server.baseUrl,
        KAGENT_API_KEY: 'kak_test',
        NODE_OPTIONS: '',
        ...env,
      },
      stdio: [stdin, 'pipe', 'pipe'],
    });
    child.stdin?.end();
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** `kagent me --json` with the recorder: it must answer; what Node loaded (its own list), and stderr. */
async function apiCallLoads(
  env: Record<string, string>,
  options: { stdin?: 'pipe' | 'ignore' } = {},
): Promise<{ native: string[]; stderr: string }> {
  bigHeader = false;
  const r = await kagent(
    ['me', '--json'],
    { ...env, NODE_OPTIONS: `--require ${recorder}${env.NODE_OPTIONS ? ` ${env.NODE_OPTIONS}` : ''}` },
    options,
  );
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout)).toMatchObject({ id: 'acc_1' });
  const native = /native: (.*)/.exec(r.stderr)?.[1]?.split(' ') ?? [];
  expect(native).toContain('http');
  return { native, stderr: r.stderr };
}

describe('the bundle', () => {
  it('an API call goes by node:http and loads neither undici, node:child_process, node:assert nor crypto', async () => {
    bigHeader = false;
    const r = await kagent(['me', '--json'], { NODE_OPTIONS: `--require ${recorder}` });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 'acc_1' });
    const loaded = /builtins: (.*)/.exec(r.stderr)?.[1]?.split(' ') ?? [];
    expect(loaded.length).toBeGreaterThan(0); // the recorder saw the bundle's require() calls
    expect(loaded).not.toContain('node:net'); // the bundled undici, which requires it when it loads, was not loaded
    expect(loaded).not.toContain('node:child_process');
    expect(loaded).not.toContain('node:assert');
    // Imported as ES modules, or by process.getBuiltinModule: Node's own list of the modules it loaded.
    const native = /native: (.*)/.exec(r.stderr)?.[1]?.split(' ') ?? [];
    expect(native).toContain('http');
    expect(native).not.toContain('crypto');
    expect(native).not.toContain('child_process');
    expect(native).not.toContain('internal/deps/undici/undici'); // nor Node's own fetch
  });

  it('an API call loads neither node:v8, node:vm nor the file streams, and never makes process.stdin', async () => {
    const { native, stderr } = await apiCallLoads({ NODE_OPTIONS: `--require ${stdinWatch}` });
    // No V8 flags are set and no code is compiled by hand at run time.
    expect(native).not.toContain('v8');
    expect(native).not.toContain('vm');
    // node:fs is required, not imported: no ES module facade reads its ReadStream/Utf8Stream getters.
    expect(native).not.toContain('internal/fs/streams');
    expect(/stdin made: (\w+)/.exec(stderr)?.[1]).toBe('false');
    // A command that reads stdin still gets it.
    const login = await new Promise<{ code: number; stderr: string }>((resolve) => {
      const env = {
        ...process.env,
        KAGENT_CONFIG_DIR: join(dir, 'config-login'),
        KAGENT_CACHE_DIR: join(dir, 'cache'),
        NODE_OPTIONS: `--require ${stdinWatch}`,
      };
      const child = execFile(
        testNode,
        [bin, 'auth', 'login', '--with-key', '--base-url', server.baseUrl],
        { env },
        (error, _stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
      );
      child.stdin?.end('kak_from_stdin\n');
    });
    expect(login.code).toBe(0);
    expect(/stdin made: (\w+)/.exec(login.stderr)?.[1]).toBe('true');
    expect(readFileSync(join(dir, 'config-login', 'config.json'), 'utf8')).toContain('kak_from_stdin');
  });

  it('an API call with stdin at /dev/null (a character device) and a $HOME loads neither node:tty nor node:os', async () => {
    // stdin at /dev/null: isatty(0) would have to load node:tty to tell it from a terminal.
    const { native } = await apiCallLoads({ HOME: dir }, { stdin: 'ignore' });
    expect(native).not.toContain('tty');
    expect(native).not.toContain('os');
  });

  it('an upload (a streamed body) still goes by undici, without node:http', async () => {
    const file = join(dir, 'notes.md');
    writeFileSync(file, '# Notes\n');
    const r = await kagent(['lib', 'upload', file, '--json'], { NODE_OPTIONS: `--require ${recorder}` });
    const loaded = /builtins: (.*)/.exec(r.stderr)?.[1]?.split(' ') ?? [];
    expect(loaded).toContain('node:net'); // undici loaded
    expect(loaded).not.toContain('node:http');
    expect(loaded).not.toContain('node:assert');
    expect(server.requests.some((request) => request.method === 'POST' && request.url.includes('/library/files'))).toBe(
      true,
    );
  });

  it('answers with headers over 16 KiB fail as in Node, and pass with --max-http-header-size', async () => {
    bigHeader = true;
    const refused = await kagent(['me', '--json']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/header/i);
    const allowed = await kagent(['me', '--json'], { NODE_OPTIONS: '--max-http-header-size=65536' });
    expect(allowed.code).toBe(0);
    expect(JSON.parse(allowed.stdout)).toMatchObject({ id: 'acc_1' });
  });

  it('the modules every API command runs through share one chunk', () => {
    const chunks = join(root, 'dist', 'chunks');
    const files = readdirSync(chunks).map((name) => ({ name, text: readFileSync(join(chunks, name), 'utf8') }));
    const holding = (module: string) =>
      files.filter((file) => file.text.includes(`// src/${module}\n`)).map((file) => file.name);
    const core = holding('cli/runtime.ts');
    expect(core).toHaveLength(1);
    for (const module of [
      'api/client.ts',
      'http/transport.ts',
      'http/shared-pacer.ts',
      'io/output.ts',
      'config/resolve.ts',
      'kit/define.ts',
    ]) {
      expect(holding(module)).toEqual(core);
    }
    // A dynamic import of a core module is a reference to it: no file exists only to re-export it.
    const stubs = files.filter(
      (file) => !/\n\/\/ (src|commands|node_modules)\//.test(file.text) && file.text.includes(`from "./${core[0]}"`),
    );
    expect(stubs.map((file) => file.name)).toEqual([]);
    // The chunk the entry loads first, to turn the compile cache on, never names the core
    // chunk: the core would be compiled before the cache could serve it.
    const first = holding('cli/compile-cache.ts');
    expect(first).toHaveLength(1);
    const imported = (name: string) =>
      [...(files.find((file) => file.name === name)?.text ?? '').matchAll(/from "\.\/([^"]+)"/g)].map(
        (m) => m[1] as string,
      );
    const reached = new Set<string>(first);
    for (const name of reached) for (const next of imported(name)) reached.add(next);
    expect([...reached]).not.toContain(core[0]);
  });

  it('--version and the root help load the launcher and its CommonJS front only, never the program or an ES module', async () => {
    // Written with writeSync: process.stderr would load the modules other tests look for.
    const cache = join(dir, 'record-cache.cjs');
    writeFileSync(
      cache,
      `process.on('exit', () => require('node:fs').writeSync(2, 'required: ' + Object.keys(require.cache).join(' ') + '\\n'));`,
    );
    for (const args of [['--version'], ['--version', '--verbose'], ['--help'], ['-h'], ['help'], []]) {
      const r = await kagent(args, { NODE_OPTIONS: `--require ${cache}` });
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout, args.join(' ')).toMatch(/^(kagent version|Usage: kagent)/);
      const required = (/required: (.*)/.exec(r.stderr)?.[1] ?? '').split(' ').filter((file) => file !== cache);
      expect(required, args.join(' ')).toEqual([bin, join(root, 'dist', 'front.cjs')]);
    }
    // What the front holds: its own modules and Node built-ins, nothing of a command.
    const front = readFileSync(join(root, 'dist', 'front.cjs'), 'utf8');
    const modules = [...front.matchAll(/^\/\/ ((?:src|commands|node_modules)\/\S+)$/gm)].map((m) => m[1]);
    expect(modules.filter((module) => !/^src\/cli\//.test(module ?? ''))).toEqual([]);
    expect(
      [...front.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]).filter((name) => !name?.startsWith('node:')),
    ).toEqual([]);
  });

  it('--version and the root --help into a pipe load none of node:net, the streams, node:tty or node:os', async () => {
    // Written with writeSync: process.stderr would load the very modules looked for.
    const quiet = join(dir, 'record-quietly.cjs');
    writeFileSync(
      quiet,
      `process.on('exit', () => require('node:fs').writeSync(2, 'native: ' + process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)).join(' ') + '\\n'));`,
    );
    for (const args of [['--version'], ['--help']]) {
      const r = await kagent(args, { NODE_OPTIONS: `--require ${quiet}` });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^(kagent version|Usage: kagent)/);
      const native = /native: (.*)/.exec(r.stderr)?.[1]?.split(' ') ?? [];
      expect(native.length).toBeGreaterThan(0);
      expect(native.filter((name) => ['net', 'stream', 'tty', 'os'].includes(name))).toEqual([]);
    }
  });

  it('the files an API call loads are plain ASCII (one other character makes Node hold the whole file as a two-byte string)', () => {
    const chunks = join(root, 'dist', 'chunks');
    const files = readdirSync(chunks).map((name) => ({ name, text: readFileSync(join(chunks, name), 'utf8') }));
    const core = files.filter((file) => file.text.includes('// src/http/transport.ts\n'));
    const program = files.filter((file) => file.text.includes('// src/cli/program.ts\n'));
    const me = files.filter((file) => /^me-.*\.js$/.test(file.name));
    expect([core, program, me].map((list) => list.length)).toEqual([1, 1, 1]);
    for (const file of [
      ...core,
      ...program,
      ...me,
      { name: 'cli.js', text: readFileSync(join(root, 'dist', 'cli.js'), 'utf8') },
    ]) {
      const other = /[^\0-\x7f]/.exec(file.text);
      expect(other ? `${file.name}: ${file.text.slice(Math.max(0, other.index - 60), other.index + 20)}` : '').toBe('');
    }
  });
});
