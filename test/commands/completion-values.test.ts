// Completion of values, not just flags: the scripts ask the hidden
// `kagent completion __complete KIND PREFIX` for watch slugs, space names and
// ids, the ids of docs, library items, media, tasks, conversations, actions
// and inbox items (with titles as descriptions in zsh and fish), and profile
// names. Checked in real bash, zsh and fish with the built binary as `kagent`
// on PATH against a sandbox in this process; and the hidden command itself:
// its cache, and silence (never a hang, never an error) with no key, no
// network, a service that does not answer or answers nonsense.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeProfile } from '../../src/config/store.js';
import { CACHE_TTL_MS, completeValues } from '../../src/kit/complete.js';
import { bin as kagentJs, ensureBuilt } from '../helpers/binary.js';
import { runCli, tempDir } from '../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { tinyServer, type TinyServer } from '../helpers/tiny-server.js';

const dir = tempDir('kagent-complete-');
const binDir = join(dir, 'bin');
const configDir = join(dir, 'config');
const cacheDir = join(dir, 'cache');
const work = join(dir, 'work');
let t: TestSandbox;
let slug: string;
let docId: string;
let spaceId: string;
let hanging: TinyServer;

beforeAll(async () => {
  ensureBuilt();
  mkdirSync(binDir, { recursive: true });
  writeFileSync(
    join(binDir, 'kagent'),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(kagentJs)} "$@"\n`,
  );
  chmodSync(join(binDir, 'kagent'), 0o755);
  // A directory with files in it: nothing here may be offered where a value is expected.
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, 'notes.txt'), 'x');
  t = await startTestSandbox();
  await writeProfile(
    configDir,
    'sandbox',
    { baseUrl: t.baseUrl, apiKey: t.apiKey, rateLimit: 100_000 },
    { makeCurrent: true },
  );
  await writeProfile(configDir, 'work', { baseUrl: 'http://127.0.0.1:9/api/v1' });
  slug = (await t.call('POST', '/watches', { body: { intent: 'Lighthouse restoration news' } })).body.slug;
  docId = (await t.call('POST', '/docs', { body: { title: 'Quarterly plan', markdown: '# Plan' } })).body.id;
  spaceId = (await t.call('POST', '/spaces', { body: { name: 'Field notes' } })).body.id;
  hanging = await tinyServer(() => ({ status: 200, delayMs: Infinity }));
}, 60_000);

afterAll(async () => {
  await hanging?.close();
  await t?.close();
});

/** Runs a shell without blocking this process (the sandbox answers from here). */
function shell(
  program: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, {
      cwd: work,
      // A loaded test machine may be slower than the 250 ms a Tab waits by default.
      env: {
        PATH: `${binDir}:${process.env.PATH}`,
        HOME: dir,
        KAGENT_CONFIG_DIR: configDir,
        KAGENT_CACHE_DIR: cacheDir,
        KAGENT_COMPLETE_TIMEOUT: '5000',
        ...env,
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

async function script(name: string): Promise<string> {
  const r = await runCli(['completion', name]);
  expect(r.code, r.stderr).toBe(0);
  const file = join(dir, `kagent.${name}`);
  writeFileSync(file, r.stdout);
  return file;
}

describe('real shells offer what the account holds', () => {
  it('bash: a watch slug, a document id, space names and ids, profiles after -p and `config use` (no file names)', async () => {
    const file = await script('bash');
    const harness = [
      `source ${JSON.stringify(file)}`,
      'comp() { COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=(); _kagent; local IFS="|"; echo "${COMPREPLY[*]}"; }',
      "comp kagent watch show ''",
      `comp kagent watch show '${slug.slice(0, 4)}'`,
      "comp kagent doc show ''",
      "comp kagent space edit ''",
      "comp kagent doc list --space 'Fie'",
      "comp kagent config use ''",
      "comp kagent -p ''",
      "comp kagent config get ''",
      "comp kagent -p work watch show ''",
      "comp kagent watch show 'zzz'",
    ].join('\n');
    const r = await shell('bash', ['-c', harness]);
    expect(r.stderr).toBe('');
    const [watches, prefixed, docs, spaces, spaceFlag, profiles, profileFlag, settings, otherProfile, none] =
      r.stdout.split('\n');
    expect(watches).toBe(slug);
    expect(prefixed).toBe(slug);
    expect(docs!.split('|')).toContain(docId);
    expect(spaces!.split('|')).toEqual(expect.arrayContaining(['Personal', 'Field\\ notes', spaceId]));
    expect(spaceFlag).toBe('Field\\ notes');
    expect(profiles!.split('|').sort()).toEqual(['sandbox', 'work']);
    expect(profileFlag!.split('|').sort()).toEqual(['sandbox', 'work']);
    expect(settings).toBe('base-url|lang|space|rate-limit|pager|api-key');
    // -p work points at a port where nothing listens: nothing offered, nothing printed
    expect(otherProfile).toBe('');
    expect(none).toBe('');
  }, 30_000);

  it('bash: a value typed escaped or quoted (--space Field\\ n), and the ids of space show, doc pull, actions undo', async () => {
    const file = await script('bash');
    const harness = [
      `source ${JSON.stringify(file)}`,
      'comp() { COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=(); _kagent; local IFS="|"; echo "${COMPREPLY[*]}"; }',
      "comp kagent doc list --space 'Field\\ n'",
      `comp kagent doc list --space '"Field n'`,
      "comp kagent space show ''",
      "comp kagent doc pull ''",
    ].join('\n');
    const r = await shell('bash', ['-c', harness]);
    expect(r.stderr).toBe('');
    const [escaped, quoted, spaceShow, docPull] = r.stdout.split('\n');
    expect(escaped).toBe('Field\\ notes');
    expect(quoted).toBe('Field\\ notes');
    expect(spaceShow!.split('|')).toEqual(expect.arrayContaining(['Field\\ notes', spaceId]));
    expect(docPull!.split('|')).toContain(docId);
    // actions undo takes action ids (as approve and reject do), each of its arguments
    const generated = (await runCli(['completion', 'bash'])).stdout;
    expect(generated).toMatch(/^ {4}'actions\/undo'\) case "\$2" in \*\) REPLY='@complete:action' ;; esac ;;$/m);
  }, 30_000);

  it('zsh: values with their titles as descriptions', async () => {
    const file = await script('zsh');
    const harness = [
      'compdef() { :; }',
      `source ${JSON.stringify(file)}`,
      '_describe() { local -a items; items=("${(@P)4}"); print -r -- "describe ${(j:|:)items}"; }',
      'compadd() { shift; print -r -- "compadd $*"; }',
      '_files() { print -r -- "files"; }',
      't() { words=("$@"); CURRENT=${#words}; _kagent; }',
      "t kagent watch show ''",
      "t kagent -p sandbox doc show ''",
      "t kagent config use ''",
    ].join('\n');
    const r = await shell('zsh', ['-c', harness]);
    expect(r.stderr).toBe('');
    const [watches, docs, profiles] = r.stdout.trimEnd().split('\n');
    expect(watches).toBe(`describe ${slug}:Lighthouse restoration news`);
    expect(docs).toContain(`${docId}:Quarterly plan`);
    expect(profiles).toMatch(/^describe (sandbox|work):/);
    expect(profiles).toContain('|');
  }, 30_000);

  it('fish: values with their titles as descriptions; `config use` offers profiles, not files', async () => {
    const file = await script('fish');
    const lines = [
      'kagent watch show ',
      'kagent -p sandbox doc show ',
      'kagent config use ',
      'kagent chat --conversation ',
    ];
    const harness = [
      `source ${JSON.stringify(file)}`,
      ...lines.map((line) => `echo (complete -C ${JSON.stringify(line)} | string join '|')`),
    ].join('\n');
    const r = await shell('fish', ['-c', harness]);
    expect(r.stderr).toBe('');
    const [watches, docs, profiles, conversations] = r.stdout.split('\n');
    expect(watches).toBe(`${slug}\tLighthouse restoration news`);
    expect(docs).toContain(`${docId}\tQuarterly plan`);
    expect(
      profiles!
        .split('|')
        .map((item) => item.split('\t')[0])
        .sort(),
    ).toEqual(['sandbox', 'work']);
    expect(profiles).not.toContain('notes.txt');
    expect(conversations).toBe('');
  }, 30_000);
});

describe('kagent completion __complete', () => {
  const env = (extra: Record<string, string | undefined> = {}) => ({
    KAGENT_CACHE_DIR: tempDir('kagent-cache-'),
    KAGENT_BASE_URL: t.baseUrl,
    KAGENT_API_KEY: t.apiKey,
    KAGENT_COMPLETE_TIMEOUT: '5000',
    ...extra,
  });

  it('prints value<TAB>title lines for each kind, filtered by the prefix', async () => {
    const watch = await runCli(['completion', '__complete', 'watch', ''], { env: env() });
    expect(watch.code).toBe(0);
    expect(watch.stdout).toBe(`${slug}\tLighthouse restoration news\n`);
    const space = await runCli(['completion', '__complete', 'space', 'Fi'], { env: env() });
    expect(space.stdout).toBe(`Field notes\t${spaceId}\n`);
    expect((await runCli(['completion', '__complete', 'doc', docId.slice(0, 5)], { env: env() })).stdout).toContain(
      `${docId}\tQuarterly plan\n`,
    );
  });

  it('is hidden: not in help, not offered by the scripts', async () => {
    const help = await runCli(['completion', '--help']);
    expect(help.stdout).not.toContain('__complete');
    expect((await runCli(['completion', 'bash'])).stdout).not.toContain("'completion/__complete'");
  });

  it('reuses answers for a short while (cache dir, per base URL and key), then asks again', async () => {
    const cache = tempDir('kagent-cache-');
    const source = {
      baseUrl: t.baseUrl,
      apiKey: t.apiKey,
      configPath: join(configDir, 'config.json'),
      env: { KAGENT_CACHE_DIR: cache, KAGENT_COMPLETE_TIMEOUT: '5000' },
      version: '0.0.0',
    };
    let now = Date.now();
    const first = await completeValues('watch', '', { ...source, now: () => now });
    expect(first.map((c) => c.value)).toEqual([slug]);
    const second = (await t.call('POST', '/watches', { body: { intent: 'Canal boat prices' } })).body.slug as string;
    now += CACHE_TTL_MS - 1_000;
    expect((await completeValues('watch', '', { ...source, now: () => now })).map((c) => c.value)).toEqual([slug]);
    // another key has its own cache
    const other = await t.newAccount();
    expect(await completeValues('watch', '', { ...source, apiKey: other.apiKey, now: () => now })).toEqual([]);
    now += 2_000;
    expect((await completeValues('watch', '', { ...source, now: () => now })).map((c) => c.value).sort()).toEqual(
      [slug, second].sort(),
    );
    await t.call('DELETE', `/watches/${second}/follow`);
  });

  it('prints nothing and exits 0 with no key, an unknown kind, a refused connection, a service that never answers, or an odd answer', async () => {
    const cases: Array<[string[], Record<string, string | undefined>]> = [
      [['watch', ''], { KAGENT_API_KEY: undefined, KAGENT_BASE_URL: undefined }],
      [['nonsense', ''], {}],
      [['watch', ''], { KAGENT_BASE_URL: 'http://127.0.0.1:9/api/v1' }],
      [['watch', ''], { KAGENT_BASE_URL: hanging.baseUrl, KAGENT_COMPLETE_TIMEOUT: undefined }],
    ];
    for (const [args, extra] of cases) {
      const r = await runCli(['completion', '__complete', ...args], { env: env(extra) });
      expect([r.code, r.stdout, r.stderr], args.join(' ')).toEqual([0, '', '']);
    }
    const odd = await tinyServer(() => ({ status: 200, body: { items: 'not a list' } }));
    const html = await tinyServer(() => ({ status: 200, body: '<html>', headers: { 'content-type': 'text/html' } }));
    try {
      for (const server of [odd, html]) {
        const r = await runCli(['completion', '__complete', 'task', ''], {
          env: env({ KAGENT_BASE_URL: server.baseUrl }),
        });
        expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
      }
    } finally {
      await odd.close();
      await html.close();
    }
  }, 10_000);

  it('a service that never answers: the built binary still returns at once, quietly', async () => {
    const r = await shell(process.execPath, [kagentJs, 'completion', '__complete', 'watch', ''], {
      KAGENT_BASE_URL: hanging.baseUrl,
      KAGENT_API_KEY: 'kak_test',
      KAGENT_COMPLETE_TIMEOUT: '',
    });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
  }, 5_000);
});
