// Where kagent keeps its caches, Node's compile cache among them.
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultCacheDir, homeDir } from '../../src/config/cache-dir.js';
import { compileCacheDir } from '../../src/cli/compile-cache.js';
import { configDir } from '../../src/config/paths.js';

describe('the cache dir', () => {
  it('is KAGENT_CACHE_DIR, else $XDG_CACHE_HOME/kagent, else ~/.cache/kagent', () => {
    expect(defaultCacheDir({ KAGENT_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x' })).toBe('/c');
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/x' })).toBe(join('/x', 'kagent'));
    expect(defaultCacheDir({}, 'linux')).toBe(join(userInfo().homedir, '.cache', 'kagent'));
  });
  it("finds the home in $HOME on POSIX when it is absolute, else the account's home from the system; on Windows always asks the system", () => {
    const account = userInfo().homedir;
    expect(homeDir({ HOME: '/home/ada' }, 'linux')).toBe('/home/ada');
    expect(defaultCacheDir({ HOME: '/home/ada' }, 'darwin')).toBe(join('/home/ada', '.cache', 'kagent'));
    expect(homeDir({}, 'linux')).toBe(account);
    expect(homeDir({ HOME: '/home/ada' }, 'win32')).toBe(account);
    // Empty or relative: the config and its key would land under the working directory.
    for (const HOME of ['', 'rel', './home', '~']) expect(homeDir({ HOME }, 'linux')).toBe(account);
  });
  it('ignores a relative XDG_CACHE_HOME or XDG_CONFIG_HOME, as the XDG spec says', () => {
    expect(defaultCacheDir({ HOME: '/home/ada', XDG_CACHE_HOME: 'rel' }, 'linux')).toBe(
      join('/home/ada', '.cache', 'kagent'),
    );
    expect(configDir({ HOME: '/home/ada', XDG_CONFIG_HOME: 'rel' })).toBe(join('/home/ada', '.config', 'kagent'));
    expect(configDir({ HOME: '/home/ada', XDG_CONFIG_HOME: '/x' })).toBe(join('/x', 'kagent'));
  });
  it('holds the compile cache in compile-cache/', () => {
    expect(compileCacheDir({ KAGENT_CACHE_DIR: '/c' })).toBe(join('/c', 'compile-cache'));
    expect(compileCacheDir({ XDG_CACHE_HOME: '/x' })).toBe(join('/x', 'kagent', 'compile-cache'));
  });
});
