// Where kagent keeps what it may lose: the shared pacing state, upload digests,
// Node's compile cache. Small on purpose: the entry imports it before anything else.
import nodeModule from 'node:module';
import { join } from 'node:path';

// node:os only when the home directory is needed: the root --help loads this
// module (its chunk, scripts/build.mjs) and should not load node:os for nothing.
const homedir = (): string => (nodeModule.createRequire(import.meta.url)('node:os') as typeof import('node:os')).homedir();

/** `$KAGENT_CACHE_DIR`, else `$XDG_CACHE_HOME/kagent`, else `~/.cache/kagent` (`%LOCALAPPDATA%\\kagent` on Windows). */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.KAGENT_CACHE_DIR) return env.KAGENT_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'kagent');
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(env.USERPROFILE || homedir(), 'AppData', 'Local'), 'kagent');
  return join(homedir(), '.cache', 'kagent');
}
