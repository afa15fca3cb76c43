// Where kagent keeps what it may lose: the shared pacing state, upload digests,
// Node's compile cache. Small on purpose: the entry imports it before anything else.
import nodeModule from 'node:module';
import { isAbsolute, join } from 'node:path';
import { CliError } from '../errors.js';

/**
 * The user's home: $HOME where it is an absolute path (what os.homedir() answers on
 * POSIX), else the account's home from the system. node:os loads only then: the root
 * --help and every API call read this module (the config's and the cache's paths) and
 * should not load it for nothing. An empty or relative HOME would put the config (and
 * its API key) under whatever directory kagent runs in: never.
 */
export function homeDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform !== 'win32' && env.HOME && isAbsolute(env.HOME)) return env.HOME;
  const os = nodeModule.createRequire(import.meta.url)('node:os') as typeof import('node:os');
  let home = '';
  try {
    home = os.userInfo().homedir;
  } catch {
    home = os.homedir();
  }
  if (isAbsolute(home)) return home;
  throw new CliError(`no home directory: HOME (${JSON.stringify(env.HOME ?? '')}) is not an absolute path`, {
    code: 'CONFIG_UNREADABLE',
    hint: 'set HOME to your home directory, or KAGENT_CONFIG_DIR and KAGENT_CACHE_DIR',
  });
}

/** A base directory from XDG_*_HOME: only an absolute path counts (the XDG spec says to ignore a relative one). */
export function xdgBase(value: string | undefined): string | undefined {
  return value && isAbsolute(value) ? value : undefined;
}

/** `$KAGENT_CACHE_DIR`, else `$XDG_CACHE_HOME/kagent`, else `~/.cache/kagent` (`%LOCALAPPDATA%\\kagent` on Windows). */
export function defaultCacheDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (env.KAGENT_CACHE_DIR) return env.KAGENT_CACHE_DIR;
  const xdg = xdgBase(env.XDG_CACHE_HOME);
  if (xdg) return join(xdg, 'kagent');
  if (platform === 'win32')
    return join(env.LOCALAPPDATA || join(env.USERPROFILE || homeDir(env, platform), 'AppData', 'Local'), 'kagent');
  return join(homeDir(env, platform), '.cache', 'kagent');
}
