import { describe, expect, it } from 'vitest';
import { checkBaseUrl, closestName, maskKey, profileNotFound, resolveConfig } from '../../src/config/resolve.js';
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

describe('where a value came from, in words', () => {
  it("a bad base URL saved in a profile is named as that profile's base-url", async () => {
    const dir = tempDir();
    await writeProfile(dir, 'work', { baseUrl: 'ftp://x' }, { makeCurrent: true });
    expect(() => resolveConfig({}, { KAGENT_CONFIG_DIR: dir })).toThrow(
      expect.objectContaining({ exitCode: 2, message: expect.stringContaining('base-url of profile "work"') }),
    );
  });

  it('the pager: the variable that gave it (KAGENT_PAGER before PAGER), none when the profile or the default did', async () => {
    const dir = tempDir();
    const variable = (env: NodeJS.ProcessEnv) => resolveConfig({}, { KAGENT_CONFIG_DIR: dir, ...env }).pagerVariable;
    expect(variable({ KAGENT_PAGER: 'more', PAGER: 'less' })).toBe('KAGENT_PAGER');
    expect(variable({ PAGER: 'less' })).toBe('PAGER');
    expect(variable({})).toBeUndefined();
    await writeProfile(dir, 'default', { pager: 'most' }, { makeCurrent: true });
    expect(variable({ PAGER: 'less' })).toBeUndefined();
  });

  it('a missing profile: the hint minds its name, else names the saved ones, else says how to create one', () => {
    const hint = (name: string, saved: string[]) =>
      profileNotFound(name, saved, { create: 'kagent config set --create' }).hint;
    expect(hint('../x', ['work'])).toBe('profile names are letters, digits, ".", "_" and "-"');
    expect(hint('wrok', ['default', 'work'])).toBe(
      'saved profiles: default, work (`kagent config profiles`); create one with `kagent config set --create`',
    );
    expect(hint('work', [])).toBe('no profile is saved yet: create one with `kagent config set --create`');
  });

  it('a typo is near enough to its name: an edit, a transposition, up to a third of its length', () => {
    expect(closestName('wrok', ['default', 'work'])).toBe('work');
    expect(closestName('sandbx', ['default', 'sandbox'])).toBe('sandbox');
    expect(closestName('', ['a', 'bb'])).toBe('a');
    expect(closestName('stage', ['prod'])).toBeUndefined();
    expect(closestName('abcdef', ['ab'])).toBeUndefined();
  });
});
