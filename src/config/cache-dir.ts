// Where kagent keeps what it may lose: the shared pacing state, upload digests,
// Node's compile cache. Small on purpose: the entry imports it before anything else.
import nodeModule from 'node:module';
import { join } from 'node:path';

/**
 * The user's home: $HOME where set (what os.homedir() answers on POSIX), else node:os
 * asked. node:os loads only then: the root --help and every API call read this module
 * (the config's and the cache's paths) and should not load it for nothing.
 */
export function homeDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform !== 'win32' && env.HOME) return env.HOME;
  return (nodeModule.createRequire(import.meta.url)('node:os') as typeof import('node:os')).homedir();
}

/** `$KAGENT_CACHE_DIR`, else `$XDG_CACHE_HOME/kagent`, else `~/.cache/kagent` (`%LOCALAPPDATA%\\kagent` on Windows). */
export function defaultCacheDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (env.KAGENT_CACHE_DIR) return env.KAGENT_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'kagent');
  if (platform === 'win32')
    return join(env.LOCALAPPDATA || join(env.USERPROFILE || homeDir(env, platform), 'AppData', 'Local'), 'kagent');
  return join(homeDir(env, platform), '.cache', 'kagent');
}
