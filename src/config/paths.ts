// Where the config lives: $KAGENT_CONFIG_DIR, else the XDG config dir
// ($XDG_CONFIG_HOME/kagent or ~/.config/kagent; %APPDATA%\kagent on Windows).
import { join } from 'node:path';
import { homeDir, xdgBase } from './cache-dir.js';

export const CONFIG_FILE_NAME = 'config.json';

export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.KAGENT_CONFIG_DIR) return env.KAGENT_CONFIG_DIR;
  const xdg = xdgBase(env.XDG_CONFIG_HOME);
  if (xdg) return join(xdg, 'kagent');
  if (process.platform === 'win32')
    return join(env.APPDATA || join(env.USERPROFILE || homeDir(env), 'AppData', 'Roaming'), 'kagent');
  return join(homeDir(env), '.config', 'kagent');
}

export function configPath(dir: string): string {
  return join(dir, CONFIG_FILE_NAME);
}
