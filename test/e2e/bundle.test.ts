// What the built bundle must still do for the user (scripts/build.mjs). Which modules
// load and how the chunks fall is not a contract: start-up is a budget, measured by
// `npm run bench` (test/bench/startup.mjs, STARTUP_TARGETS). What stays here is behaviour:
// a streamed upload and an API call both arrive, Node's --max-http-header-size is
// honoured, a command reads stdin when it needs it, and --version and the root help
// are answered by the launcher's CommonJS front without loading the program.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, ensureBuilt, root, testNode } from '../helpers/binary.js';
import { tinyServer, type TinyServer } from '../helpers/tiny-server.js';

const dir = mkdtempSync(join(tmpdir(), 'kagent-bundle-'));
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

describe('the bundle', () => {
  it('a command reads stdin when it needs it', async () => {
    // A command that reads stdin still gets it.
    const login = await new Promise<{ code: number; stderr: string }>((resolve) => {
      const env = {
        ...process.env,
        KAGENT_CONFIG_DIR: join(dir, 'config-login'),
        KAGENT_CACHE_DIR: join(dir, 'cache'),
        NODE_OPTIONS: '',
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
    expect(readFileSync(join(dir, 'config-login', 'config.json'), 'utf8')).toContain('kak_from_stdin');
  });

  it('an upload (a streamed body) and an API call both arrive', async () => {
    const file = join(dir, 'notes.md');
    writeFileSync(file, '# Notes\n');
    const r = await kagent(['lib', 'upload', file, '--json']);
    expect(server.requests.some((request) => request.method === 'POST' && request.url.includes('/library/files'))).toBe(
      true,
    );
    expect(r.stderr).not.toMatch(/TypeError|is not a function/);
    const me = await kagent(['me', '--json']);
    expect(me.code).toBe(0);
    expect(JSON.parse(me.stdout)).toMatchObject({ id: 'acc_1' });
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
});
