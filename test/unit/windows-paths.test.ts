// Windows paths, checked here with Windows' rules on any machine: the cache
// folder under %LOCALAPPDATA%, and `lib upload` glob patterns written with
// backslashes (which elsewhere escape the next character, as in a POSIX shell).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultCacheDir } from '../../src/config/cache-dir.js';
import { discover, globPattern } from '../../src/upload/discover.js';

describe('the cache folder', () => {
  it('is under %LOCALAPPDATA% on Windows, ~/.cache elsewhere; KAGENT_CACHE_DIR and XDG_CACHE_HOME win everywhere', () => {
    expect(defaultCacheDir({ LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local' }, 'win32')).toBe(
      join('C:\\Users\\ada\\AppData\\Local', 'kagent'),
    );
    expect(defaultCacheDir({ USERPROFILE: 'C:\\Users\\ada' }, 'win32')).toBe(
      join('C:\\Users\\ada', 'AppData', 'Local', 'kagent'),
    );
    // Elsewhere %LOCALAPPDATA% means nothing: the home (here $HOME, whatever the account's home is) has it.
    expect(defaultCacheDir({ HOME: '/home/ada', LOCALAPPDATA: 'C:\\L' }, 'linux')).toBe(
      join('/home/ada', '.cache', 'kagent'),
    );
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/x/cache', LOCALAPPDATA: 'C:\\L' }, 'win32')).toBe(
      join('/x/cache', 'kagent'),
    );
    expect(defaultCacheDir({ KAGENT_CACHE_DIR: '/k', LOCALAPPDATA: 'C:\\L' }, 'win32')).toBe('/k');
  });
});

describe('upload patterns with backslashes', () => {
  it('separate folders on Windows and escape elsewhere', () => {
    expect(globPattern('docs\\*.pdf', 'win32')).toBe('docs/*.pdf');
    expect(globPattern('C:\\notes\\**\\*.md', 'win32')).toBe('C:/notes/**/*.md');
    expect(globPattern('docs\\*.pdf', 'linux')).toBe('docs\\*.pdf');
  });

  it('find the files a Windows user means, and nothing on POSIX where `\\*` is a literal star', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'kagent-winglob-'));
    mkdirSync(join(cwd, 'docs', 'deep'), { recursive: true });
    writeFileSync(join(cwd, 'docs', 'a.txt'), 'a');
    writeFileSync(join(cwd, 'docs', 'b.md'), 'b');
    writeFileSync(join(cwd, 'docs', 'deep', 'c.txt'), 'c');
    const windows = await discover(['docs\\**\\*.txt'], { cwd, platform: 'win32' });
    expect(windows.map((source) => source.name).sort()).toEqual(['a.txt', 'c.txt']);
    await expect(discover(['docs\\*.txt'], { cwd, platform: 'linux' })).rejects.toThrow(
      'no such file or folder: docs\\*.txt',
    );
  });
});
