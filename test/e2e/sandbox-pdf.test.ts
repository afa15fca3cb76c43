// `kagent sandbox` reads PDFs and .docx files with no native package, in a
// fresh process of the built binary (on KAGENT_TEST_NODE in CI's other-Node pass):
// - with @napi-rs/canvas made impossible to load (test/helpers/hide-modules.mjs),
//   the optional native package that pdfjs-dist needed for DOMMatrix, a PDF's
//   text is still extracted and nothing is warned;
// - with the PDF parser itself made impossible to load, the sandbox says so on
//   stderr at start and again for each PDF uploaded, and `lib text` answers NO_TEXT
//   (exit 2) for it, while .docx text still works;
// - and nothing in the installed production tree is a native addon.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bin, ensureBuilt, root, testNode } from '../helpers/binary.js';
import { makeDocx, makePdf } from '../helpers/files.js';

let home: string;
const hook = join(root, 'test', 'helpers', 'hide-modules.mjs');

beforeAll(() => {
  ensureBuilt();
  home = mkdtempSync(join(tmpdir(), 'kagent-e2e-pdf-'));
}, 60_000);
afterAll(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

interface RunningSandbox {
  child: ChildProcess;
  baseUrl: string;
  apiKey: string;
  /** Everything the sandbox wrote to stderr so far. */
  stderr: () => string;
  /** stderr at the moment its base URL was printed. */
  stderrAtStart: string;
}

let running: RunningSandbox | undefined;
afterEach(async () => {
  const child = running?.child;
  running = undefined;
  if (!child || child.exitCode !== null) return;
  // Waited for: on its way out Node writes its compile cache into the home removed after.
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGINT');
  });
});

/** `kagent sandbox` in a fresh process where the packages in `hide` cannot load. */
function startSandbox(hide: string[]): Promise<RunningSandbox> {
  const child = spawn(
    testNode,
    ['--import', hook, bin, 'sandbox', '--port', '0', '--rate-limit', '0', '--no-save-profile', '--quiet', '--json'],
    {
      env: {
        PATH: process.env.PATH,
        HOME: home,
        KAGENT_CONFIG_DIR: join(home, 'config'),
        KAGENT_CACHE_DIR: join(home, 'cache'),
        KAGENT_HIDE_MODULES: hide.join(','),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the sandbox did not start; stderr:\n${stderr}`)), 15_000);
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const end = stdout.indexOf('}');
      if (end < 0) return;
      clearTimeout(timer);
      const started = JSON.parse(stdout.slice(0, end + 1)) as { baseUrl: string; apiKey: string };
      running = {
        child,
        baseUrl: started.baseUrl,
        apiKey: started.apiKey,
        stderr: () => stderr,
        stderrAtStart: stderr,
      };
      resolve(running);
    });
    child.on('exit', (code) => reject(new Error(`the sandbox exited (${code}); stderr:\n${stderr}`)));
  });
}

function kagent(
  sandbox: RunningSandbox,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(testNode, [bin, ...args], {
      env: {
        PATH: process.env.PATH,
        HOME: home,
        KAGENT_CONFIG_DIR: join(home, 'config'),
        KAGENT_CACHE_DIR: join(home, 'cache'),
        KAGENT_BASE_URL: sandbox.baseUrl,
        KAGENT_API_KEY: sandbox.apiKey,
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

/** Uploads a file made in the test; the new item's id. */
async function upload(sandbox: RunningSandbox, name: string, bytes: Buffer): Promise<string> {
  const file = join(home, name);
  writeFileSync(file, bytes);
  const r = await kagent(sandbox, ['lib', 'upload', file, '--json']);
  expect(r.code, r.stderr).toBe(0);
  const ids = [...r.stdout.matchAll(/"id":\s*"(li_[^"]+)"/g)].map((m) => m[1]);
  expect(ids.length, r.stdout).toBeGreaterThan(0);
  return ids[0]!;
}

describe('kagent sandbox without the optional native canvas package', () => {
  it('extracts the text of a PDF and warns about nothing', async () => {
    const sandbox = await startSandbox(['@napi-rs/canvas']);
    const id = await upload(
      sandbox,
      'lighthouse.pdf',
      makePdf(['Annual report of the lighthouse society', 'Membership grew by a third.']),
    );
    const text = await kagent(sandbox, ['lib', 'text', id]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('Annual report of the lighthouse society');
    expect(text.stdout).toContain('Membership grew by a third.');
    expect(sandbox.stderr()).not.toMatch(/warning/i);
  });
});

describe('kagent sandbox where the PDF parser cannot load at all', () => {
  it('says so at start and for each PDF, answers NO_TEXT for it, and still reads .docx', async () => {
    const sandbox = await startSandbox(['unpdf']);
    // At start, before the base URL was printed.
    expect(sandbox.stderrAtStart).toMatch(
      /^warning: PDF text extraction is not available \(.*unpdf.*\): uploaded PDFs are stored without text/m,
    );

    const id = await upload(sandbox, 'minutes.pdf', makePdf(['Minutes of the harbour board']));
    await expect
      .poll(() => sandbox.stderr())
      .toMatch(/^warning: PDF text extraction is not available \(.*\): minutes\.pdf is stored without text/m);
    const text = await kagent(sandbox, ['lib', 'text', id]);
    expect(text.code).toBe(2);
    expect(text.stderr).toContain('NO_TEXT');
    expect(text.stdout).toBe('');

    const docx = await upload(sandbox, 'agenda.docx', makeDocx(['Agenda of the harbour board']));
    const docxText = await kagent(sandbox, ['lib', 'text', docx]);
    expect(docxText.code, docxText.stderr).toBe(0);
    expect(docxText.stdout).toContain('Agenda of the harbour board');
    // One warning at start, one for the PDF, none for the .docx.
    expect(sandbox.stderr().match(/^warning: /gm)).toHaveLength(2);
  });
});

describe('the installed production dependencies', () => {
  it('hold no native addon (no install script, no platform-bound package)', () => {
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean; hasInstallScript?: boolean; os?: string[]; cpu?: string[] }>;
    };
    const production = Object.entries(lock.packages).filter(([path, entry]) => path !== '' && !entry.dev);
    // Only what the bundle loads from node_modules (the rest is bundled into dist/, devDependencies).
    expect(production.map(([path]) => path).sort()).toEqual(['node_modules/jq-wasm', 'node_modules/unpdf']);
    const native = production
      .filter(([, entry]) => entry.hasInstallScript || entry.os || entry.cpu)
      .map(([path]) => path);
    expect(native).toEqual([]);
  });
});
