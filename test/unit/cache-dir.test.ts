// Where kagent keeps its caches, Node's compile cache among them.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultCacheDir, homeDir } from '../../src/config/cache-dir.js';
import { compileCacheDir } from '../../src/cli/compile-cache.js';

describe('the cache dir', () => {
  it('is KAGENT_CACHE_DIR, else $XDG_CACHE_HOME/kagent, else ~/.cache/kagent', () => {
    expect(defaultCacheDir({ KAGENT_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x' })).toBe('/c');
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/x' })).toBe(join('/x', 'kagent'));
    expect(defaultCacheDir({}, 'linux')).toBe(join(homedir(), '.cache', 'kagent'));
  });
  it('finds the home in $HOME on POSIX (as os.homedir() does), else asks node:os; on Windows always asks node:os', () => {
    expect(homeDir({ HOME: '/home/ada' }, 'linux')).toBe('/home/ada');
    expect(defaultCacheDir({ HOME: '/home/ada' }, 'darwin')).toBe(join('/home/ada', '.cache', 'kagent'));
    expect(homeDir({}, 'linux')).toBe(homedir());
    expect(homeDir({ HOME: '' }, 'linux')).toBe(homedir());
    expect(homeDir({ HOME: '/home/ada' }, 'win32')).toBe(homedir());
  });
  it('holds the compile cache in compile-cache/', () => {
    expect(compileCacheDir({ KAGENT_CACHE_DIR: '/c' })).toBe(join('/c', 'compile-cache'));
    expect(compileCacheDir({ XDG_CACHE_HOME: '/x' })).toBe(join('/x', 'kagent', 'compile-cache'));
  });
});
