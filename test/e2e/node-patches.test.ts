// One build runs on every Node that package.json's "engines" allows, patch
// releases included: the bundle carries nothing tied to the Node it was built
// on (no V8 code cache, no V8 flags set at run time). A streamed upload (which
// goes by undici) and an API call run on two Node 20 patches and on 22, 24 and
// 26, each installed from the registry by scripts/nodes.mjs (the test fails
// when one cannot be installed).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { satisfies } from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { bin, ensureBuilt, root } from '../helpers/binary.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const VERSIONS = ['20.19.6', '20.20.2', '22', '24', '26'];
const paths = new Map<string, string>();
let sandbox: TestSandbox;
const home = mkdtempSync(join(tmpdir(), 'kagent-node-patches-'));

beforeAll(async () => {
  ensureBuilt();
  const args = VERSIONS.flatMap((version) => ['--version', version]);
  const installed = spawnSync(process.execPath, [join(root, 'scripts', 'nodes.mjs'), ...args], {
    encoding: 'utf8',
    timeout: 600_000,
  });
  if (installed.status !== 0)
    throw new Error(
      `scripts/nodes.mjs could not install ${VERSIONS.join(', ')} (exit ${installed.status}):\n${installed.stderr}`,
    );
  for (const line of installed.stdout.trim().split('\n')) {
    const [spec, path] = line.split(' ') as [string, string];
    paths.set(spec, path);
  }
  sandbox = await startTestSandbox({ rateLimit: 100_000 });
}, 600_000);
afterAll(async () => {
  await sandbox?.close();
  rmSync(home, { recursive: true, force: true });
});

function kagent(node: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [bin, ...args], {
      env: {
        PATH: process.env.PATH,
        HOME: home,
        KAGENT_CONFIG_DIR: join(home, 'config'),
        KAGENT_CACHE_DIR: join(home, `cache-${node.length}`),
        KAGENT_BASE_URL: sandbox.baseUrl,
        KAGENT_API_KEY: sandbox.apiKey,
        NO_COLOR: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('one build on every supported Node', () => {
  it('the bundle holds no V8 code cache and sets no V8 flag at run time', () => {
    const files = readdirSync(join(root, 'dist'), { recursive: true, withFileTypes: true }).filter((entry) =>
      entry.isFile(),
    );
    expect(files.filter((entry) => entry.name.endsWith('.cache')).map((entry) => entry.name)).toEqual([]);
    const flagged = files.filter(
      (entry) =>
        entry.name.endsWith('.js') &&
        /setFlagsFromString|cachedData/.test(readFileSync(join(entry.parentPath, entry.name), 'utf8')),
    );
    expect(flagged.map((entry) => entry.name)).toEqual([]);
  });

  it.each(VERSIONS)('Node %s: lib upload (undici, a streamed body) and me --json', async (version) => {
    const node = paths.get(version) as string;
    const found = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
    expect(found.startsWith(`v${version}`)).toBe(true);
    expect(satisfies(found, pkg.engines.node)).toBe(true);
    const file = join(home, `notes-${version}.md`);
    writeFileSync(file, `# Notes for Node ${version}\n\nUploaded by the built binary.\n`);
    const upload = await kagent(node, ['lib', 'upload', file, '--json']);
    expect(upload.stderr).toMatch(/^1 uploaded, 0 already there, 0 failed/);
    expect(upload.code).toBe(0);
    const result = JSON.parse(upload.stdout) as { status: string; item: { id: string } };
    expect(result.status).toBe('uploaded');
    expect((await sandbox.call('GET', `/library/${result.item.id}`)).status).toBe(200);
    const me = await kagent(node, ['me', '--json']);
    expect(me.code).toBe(0);
    expect(JSON.parse(me.stdout)).toMatchObject({ email: expect.any(String) });
  });
});
