// A sandbox and a private home for runs of the built binary (in a pseudo-terminal
// or piped): the environment that logs each run in to the sandbox.
//
//   const s = await binaryAgainstSandbox('kagent-pty-');
//   await runInPty(['me'], { env: s.env });
//   afterAll(() => s.close());
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeProfile } from '../../src/config/store.js';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { ensureBuilt } from './binary.js';
import { startTestSandbox, type TestSandbox } from './sandbox.js';

export interface BinarySandbox {
  t: TestSandbox;
  /** A temporary directory: HOME, and the config and cache directories inside it. */
  home: string;
  env: Record<string, string>;
  /** The same home, config and cache without the sandbox's URL and key: a run that is not logged in. */
  loggedOut: Record<string, string>;
  /** Stops the sandbox and removes the home. */
  close(): Promise<void>;
}

export async function binaryAgainstSandbox(prefix: string, options: SandboxOptions = {}): Promise<BinarySandbox> {
  ensureBuilt();
  const t = await startTestSandbox(options);
  const home = mkdtempSync(join(tmpdir(), prefix));
  const loggedOut = { HOME: home, KAGENT_CONFIG_DIR: join(home, 'config'), KAGENT_CACHE_DIR: join(home, 'cache') };
  return {
    t,
    home,
    env: { ...loggedOut, KAGENT_BASE_URL: t.baseUrl, KAGENT_API_KEY: t.apiKey },
    loggedOut,
    async close() {
      await t.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh account for one test of `lib sync` or `lib upload` as the built binary: 100 000 credits,
 * a space "Handbook", and a profile of its own (a config directory under `home`) with the client's
 * pacing off (a high rate), as the test sandbox's own limit is off, to keep the test quick.
 */
export async function handbookAccount(
  t: TestSandbox,
  home: string,
): Promise<{ key: string; accountId: string; configDir: string }> {
  const { apiKey: key, accountId } = await t.newAccount({ credits: 100_000 });
  await t.call('POST', '/spaces', { key, body: { name: 'Handbook' } });
  const configDir = mkdtempSync(join(home, 'config-'));
  await writeProfile(
    configDir,
    'default',
    { baseUrl: t.baseUrl, apiKey: key, rateLimit: 100_000 },
    { makeCurrent: true },
  );
  return { key, accountId, configDir };
}
