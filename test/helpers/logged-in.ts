// A sandbox plus a config dir already logged in to it: the setup of most command tests.
import { writeProfile } from '../../src/config/store.js';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { startTestSandbox, type TestSandbox } from './sandbox.js';
import { runCli, tempDir, type RunCliOptions, type RunCliResult } from './run.js';

export interface LoggedIn {
  t: TestSandbox;
  configDir: string;
  /** runCli with this config dir. */
  kagent(argv: string[], options?: RunCliOptions): Promise<RunCliResult>;
  close(): Promise<void>;
}

export async function loggedInSandbox(options: SandboxOptions = {}): Promise<LoggedIn> {
  const t = await startTestSandbox(options);
  const configDir = tempDir('kagent-config-');
  // A high client-side rate: tests make many quick calls; the sandbox's own limit is off too.
  await writeProfile(
    configDir,
    'default',
    { baseUrl: t.baseUrl, apiKey: t.apiKey, rateLimit: 100_000 },
    { makeCurrent: true },
  );
  return {
    t,
    configDir,
    kagent: (argv, options = {}) => runCli(argv, { configDir, ...options }),
    close: () => t.close(),
  };
}
