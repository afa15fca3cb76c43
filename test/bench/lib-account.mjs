// What the library benchmarks (budget.mjs, sync.mjs, sync-memory.mjs) share:
// the sandbox in the bench's process (rate limit off), its admin and API
// routes, a fresh account with a kagent profile of its own (config and cache
// dirs in a home of its own, a rate set far above what is used, so nothing is
// paced), and a folder of small Markdown files.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const { fetch } = globalThis;
export const bin = fileURLToPath(new URL('../../bin/kagent.js', import.meta.url));

/**
 * Where a bench with tens of thousands of small files keeps them: a memory file system when there is
 * one (/dev/shm), since removing 20,000 files and the sandbox's blobs from a busy disk took minutes
 * (the "hang" at the end of the 20,000-file memory bench: unlink after unlink, in rmSync).
 */
export function manyFilesDir() {
  return existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
}

/** The built sandbox, in this process, answering without a rate limit. */
export async function startBenchSandbox(options = {}) {
  const { startSandbox } = await import('../../dist/sandbox.js');
  return startSandbox({ port: 0, rateLimit: 0, quiet: true, ...options });
}

async function call(url, method, body, headers = {}) {
  const response = await fetch(url, {
    method,
    headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : undefined;
}

/** One of the sandbox's own routes (/_sandbox/...). */
export const admin = (sandbox, method, path, body) => call(`${sandbox.origin}${path}`, method, body);

/**
 * A fresh account (credits, unlimited storage, and `account`'s other settings) with a kagent profile
 * in `home`: `env` runs the binary as it, `call` sends an API request with its key.
 */
export async function benchAccount(sandbox, home, { space, ...account } = {}) {
  const { apiKey } = await admin(sandbox, 'POST', '/_sandbox/accounts', {
    credits: 1_000_000,
    ...account,
    limits: { storageBytes: 1e12, ...account.limits },
  });
  mkdirSync(join(home, 'config'), { recursive: true });
  writeFileSync(
    join(home, 'config', 'config.json'),
    JSON.stringify({
      currentProfile: 'bench',
      profiles: { bench: { baseUrl: sandbox.baseUrl, apiKey, rateLimit: 1_000_000 } },
    }),
    { mode: 0o600 },
  );
  const env = {
    KAGENT_CONFIG_DIR: join(home, 'config'),
    KAGENT_CACHE_DIR: join(home, 'cache'),
    CI: '1',
    NO_COLOR: '1',
    KAGENT_API_KEY: '',
    KAGENT_BASE_URL: '',
  };
  const api = (method, path, body) =>
    call(`${sandbox.baseUrl}${path}`, method, body, { authorization: `Bearer ${apiKey}` });
  if (space !== undefined) await api('POST', '/spaces', { name: space });
  return { apiKey, home, env, call: api };
}

/**
 * `count` small Markdown files under `dir`, spread over `folders` sub-folders (none: all at the top);
 * `text(i)` is file i's content.
 */
export function writeFolder(dir, count, { folders = 0, text = (i) => `# Page ${i}\n\nSome text ${i}.\n` } = {}) {
  const width = String(Math.max(count - 1, 0)).length;
  for (let i = 0; i < count; i++) {
    const sub = folders > 0 ? join(dir, `part-${i % folders}`) : dir;
    if (i < Math.max(folders, 1)) mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `page-${String(i).padStart(Math.max(width, 4), '0')}.md`), text(i));
  }
  return dir;
}
