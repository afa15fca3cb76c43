// A sandbox and a private home for runs of the built binary (in a pseudo-terminal
// or piped): the environment that logs each run in to the sandbox.
//
//   const s = await binaryAgainstSandbox('kagent-pty-');
//   await runInPty(['me'], { env: s.env });
//   afterAll(() => s.close());
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
