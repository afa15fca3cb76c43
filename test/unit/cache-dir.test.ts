// Where kagent keeps its caches, Node's compile cache among them.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultCacheDir } from '../../src/cache-dir.js';
import { compileCacheDir } from '../../src/compile-cache.js';

describe('the cache dir', () => {
  it('is KAGENT_CACHE_DIR, else $XDG_CACHE_HOME/kagent, else ~/.cache/kagent', () => {
    expect(defaultCacheDir({ KAGENT_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x' })).toBe('/c');
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/x' })).toBe(join('/x', 'kagent'));
    expect(defaultCacheDir({}, 'linux')).toBe(join(homedir(), '.cache', 'kagent'));
  });
  it('holds the compile cache in compile-cache/', () => {
    expect(compileCacheDir({ KAGENT_CACHE_DIR: '/c' })).toBe(join('/c', 'compile-cache'));
    expect(compileCacheDir({ XDG_CACHE_HOME: '/x' })).toBe(join('/x', 'kagent', 'compile-cache'));
  });
});
