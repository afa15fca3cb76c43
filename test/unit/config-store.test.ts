import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { describe, expect, it } from 'vitest';
import { configDir } from '../../src/config/paths.js';
import { normalize, readConfigFile, updateConfigFile, writeProfile } from '../../src/config/store.js';
import { tempDir } from '../helpers/run.js';

const mode = (path: string) => statSync(path).mode & 0o777;

describe('where the config lives', () => {
  it('KAGENT_CONFIG_DIR wins, then XDG_CONFIG_HOME, then ~/.config', () => {
    expect(configDir({ KAGENT_CONFIG_DIR: '/x/k', XDG_CONFIG_HOME: '/x/xdg', HOME: '/home/u' })).toBe('/x/k');
    expect(configDir({ XDG_CONFIG_HOME: '/x/xdg', HOME: '/home/u' })).toBe('/x/xdg/kagent');
    expect(configDir({ HOME: '/home/u' })).toBe('/home/u/.config/kagent');
  });
});

describe('writing profiles', () => {
  it('creates the file with mode 0600 in a 0700 directory', async () => {
    const dir = join(tempDir(), 'nested', 'kagent');
    const path = await writeProfile(
      dir,
      'default',
      { baseUrl: 'http://127.0.0.1:1/api/v1', apiKey: 'kak_secret' },
      { makeCurrent: true },
    );
    expect(path).toBe(join(dir, 'config.json'));
    expect(mode(path)).toBe(0o600);
    expect(mode(dir)).toBe(0o700);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      currentProfile: 'default',
      profiles: { default: { baseUrl: 'http://127.0.0.1:1/api/v1', apiKey: 'kak_secret' } },
    });
  });

  it('merges into a profile, removes values set to undefined, keeps other profiles', async () => {
    const dir = tempDir();
    await writeProfile(dir, 'work', { baseUrl: 'https://w.test/api/v1', apiKey: 'k1', lang: 'zh' });
    await writeProfile(dir, 'sandbox', { baseUrl: 'http://127.0.0.1:9/api/v1', apiKey: 'k2' }, { makeCurrent: true });
    await writeProfile(dir, 'work', { apiKey: undefined, rateLimit: 30 });
    expect(readConfigFile(join(dir, 'config.json'))).toEqual({
      currentProfile: 'sandbox',
      profiles: {
        work: { baseUrl: 'https://w.test/api/v1', lang: 'zh', rateLimit: 30 },
        sandbox: { baseUrl: 'http://127.0.0.1:9/api/v1', apiKey: 'k2' },
      },
    });
  });

  it('keeps the file at 0600 even if it was looser before the write', async () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), '{"profiles":{}}', { mode: 0o644 });
    chmodSync(join(dir, 'config.json'), 0o644);
    await updateConfigFile(dir, (config) => {
      config.currentProfile = 'x';
    });
    expect(mode(join(dir, 'config.json'))).toBe(0o600);
  });

  it('tightens an existing directory to 0700 on a write', async () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o755);
    await writeProfile(dir, 'default', { lang: 'en' });
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, 'config.json'))).toBe(0o600);
  });

  it('waits for the lock, then fails with CONFIG_LOCKED and writes nothing', async () => {
    const dir = tempDir();
    await writeProfile(dir, 'default', { lang: 'en' });
    const path = join(dir, 'config.json');
    const before = readFileSync(path, 'utf8');
    const release = await lockfile.lock(path, { lockfilePath: `${path}.lock`, realpath: false, stale: 3000 });
    try {
      const started = Date.now();
      await expect(
        updateConfigFile(dir, (config) => void (config.currentProfile = 'other'), { lockWaitMs: 300 }),
      ).rejects.toMatchObject({
        exitCode: 1,
        code: 'CONFIG_LOCKED',
        message: expect.stringContaining(
          `the config file ${path} is locked by another kagent process; nothing was saved`,
        ),
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      expect(readFileSync(path, 'utf8')).toBe(before);
    } finally {
      await release();
    }
  });

  it('a write waiting for the lock goes through once it is released, keeping both changes', async () => {
    const dir = tempDir();
    await writeProfile(dir, 'a', { lang: 'en' });
    const path = join(dir, 'config.json');
    const release = await lockfile.lock(path, { lockfilePath: `${path}.lock`, realpath: false, stale: 3000 });
    const waiting = writeProfile(dir, 'b', { lang: 'zh' });
    await new Promise((resolve) => setTimeout(resolve, 150));
    // The holder writes while the other waits: the waiter re-reads under the lock and keeps it.
    writeFileSync(path, JSON.stringify({ profiles: { a: { lang: 'en' }, held: { lang: 'zh' } } }), { mode: 0o600 });
    await release();
    await waiting;
    expect(readConfigFile(path).profiles).toEqual({ a: { lang: 'en' }, held: { lang: 'zh' }, b: { lang: 'zh' } });
  });

  it('takes over a lock left by a writer that died (older than 3 s)', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'config.json.lock'), { recursive: true });
    const old = new Date(Date.now() - 10_000);
    utimesSync(join(dir, 'config.json.lock'), old, old);
    await writeProfile(dir, 'default', { lang: 'zh' }, { makeCurrent: true });
    expect(readConfigFile(join(dir, 'config.json'))).toEqual({
      currentProfile: 'default',
      profiles: { default: { lang: 'zh' } },
    });
    expect(existsSync(join(dir, 'config.json.lock'))).toBe(false);
  });

  it('refuses a bad profile name', async () => {
    await expect(writeProfile(tempDir(), '../evil', { apiKey: 'k' })).rejects.toMatchObject({ exitCode: 2 });
  });
});

describe('reading', () => {
  it('a missing file is an empty config', () => {
    expect(readConfigFile(join(tempDir(), 'config.json'))).toEqual({ profiles: {} });
  });

  it('tightens a world-readable file to 0600 on read', () => {
    const path = join(tempDir(), 'config.json');
    writeFileSync(path, '{"profiles":{"default":{"apiKey":"k"}}}');
    chmodSync(path, 0o644);
    readConfigFile(path);
    expect(mode(path)).toBe(0o600);
  });

  it('invalid JSON is a clear error (exit 1) naming the file', () => {
    const path = join(tempDir(), 'config.json');
    writeFileSync(path, '{not json', { mode: 0o600 });
    expect(() => readConfigFile(path)).toThrow(
      expect.objectContaining({ exitCode: 1, code: 'CONFIG_INVALID', message: expect.stringContaining(path) }),
    );
  });

  it('drops wrongly typed values of a hand-edited file instead of crashing', () => {
    expect(
      normalize({
        currentProfile: 3,
        profiles: { a: { baseUrl: 5, apiKey: 'k', lang: 'fr', rateLimit: -1, space: 'S' }, b: 'nope' },
      }),
    ).toEqual({
      profiles: { a: { apiKey: 'k', space: 'S' } },
    });
    expect(normalize(null)).toEqual({ profiles: {} });
  });
});
