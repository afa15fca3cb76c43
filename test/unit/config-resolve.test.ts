import { describe, expect, it } from 'vitest';
import { checkBaseUrl, maskKey, resolveConfig } from '../../src/config/resolve.js';
import { writeProfile } from '../../src/config/store.js';
import { tempDir } from '../helpers/run.js';

async function configWith(): Promise<string> {
  const dir = tempDir();
  await writeProfile(
    dir,
    'default',
    {
      baseUrl: 'https://profile.test/api/v1',
      apiKey: 'kak_profilekey1234',
      lang: 'zh',
      space: 'Research',
      rateLimit: 30,
    },
    { makeCurrent: true },
  );
  await writeProfile(dir, 'work', { baseUrl: 'https://work.test/api/v1', apiKey: 'kak_workkey5678' });
  return dir;
}

describe('precedence: flag > env > profile > default', () => {
  it('takes the profile when nothing else is given', async () => {
    const dir = await configWith();
    const config = resolveConfig({}, { KAGENT_CONFIG_DIR: dir });
    expect(config).toMatchObject({
      profile: 'default',
      profileSource: 'profile',
      baseUrl: 'https://profile.test/api/v1',
      baseUrlSource: 'profile',
      apiKey: 'kak_profilekey1234',
      apiKeySource: 'profile',
      lang: 'zh',
      langSource: 'profile',
      space: 'Research',
      rateLimit: 30,
    });
  });

  it('env beats the profile', async () => {
    const dir = await configWith();
    const config = resolveConfig(
      {},
      {
        KAGENT_CONFIG_DIR: dir,
        KAGENT_BASE_URL: 'https://env.test',
        KAGENT_API_KEY: 'kak_envkey',
        KAGENT_LANG: 'en',
        KAGENT_PROFILE: 'work',
      },
    );
    expect(config).toMatchObject({
      profile: 'work',
      profileSource: 'env',
      baseUrl: 'https://env.test',
      baseUrlSource: 'env',
      apiKey: 'kak_envkey',
      apiKeySource: 'env',
      lang: 'en',
      langSource: 'env',
    });
  });

  it('flags beat env', async () => {
    const dir = await configWith();
    const config = resolveConfig(
      { profile: 'default', baseUrl: 'http://127.0.0.1:5/api/v1', lang: 'en' },
      { KAGENT_CONFIG_DIR: dir, KAGENT_PROFILE: 'work', KAGENT_BASE_URL: 'https://env.test', KAGENT_LANG: 'zh' },
    );
    expect(config).toMatchObject({
      profile: 'default',
      profileSource: 'flag',
      baseUrl: 'http://127.0.0.1:5/api/v1',
      baseUrlSource: 'flag',
      lang: 'en',
      langSource: 'flag',
    });
  });

  it('defaults when nothing is configured', () => {
    const config = resolveConfig({}, { KAGENT_CONFIG_DIR: tempDir() });
    expect(config).toMatchObject({
      profile: 'default',
      profileSource: 'default',
      baseUrl: undefined,
      baseUrlSource: 'default',
      apiKey: undefined,
      apiKeySource: 'default',
      rateLimit: 60,
    });
  });

  it('a bad KAGENT_LANG or base URL is a usage error naming where it came from', () => {
    expect(() => resolveConfig({}, { KAGENT_CONFIG_DIR: tempDir(), KAGENT_LANG: 'fr' })).toThrow(
      expect.objectContaining({ exitCode: 2, message: expect.stringContaining('KAGENT_LANG') }),
    );
    expect(() => resolveConfig({}, { KAGENT_CONFIG_DIR: tempDir(), KAGENT_BASE_URL: 'ftp://x' })).toThrow(
      expect.objectContaining({ exitCode: 2, message: expect.stringContaining('KAGENT_BASE_URL') }),
    );
    expect(() => resolveConfig({ baseUrl: 'nope' }, { KAGENT_CONFIG_DIR: tempDir() })).toThrow(
      expect.objectContaining({ message: expect.stringContaining('--base-url') }),
    );
    expect(() => resolveConfig({ profile: '../x' }, { KAGENT_CONFIG_DIR: tempDir() })).toThrow(
      expect.objectContaining({ exitCode: 2 }),
    );
  });
});

describe('helpers', () => {
  it('masks a key to its prefix and last four characters', () => {
    expect(maskKey('kak_abcdefghijklmnop1234')).toBe('kak_…1234');
    expect(maskKey('short')).toBe('…');
    expect(maskKey('noprefixbutlongenough9999')).toBe('…9999');
  });
  it('accepts only http(s) base URLs', () => {
    expect(() => checkBaseUrl('https://a.test/api/v1', 'x')).not.toThrow();
    expect(() => checkBaseUrl('a.test', 'x')).toThrow();
    expect(() => checkBaseUrl('file:///etc/passwd', 'x')).toThrow();
  });
});
