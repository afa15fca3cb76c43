// kagent config get / set / unset / list / profiles / use: settings per profile,
// the value in effect and its source, the key masked, bad values refused.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeProfile } from '../../src/config/store.js';
import { runCli, tempDir } from '../helpers/run.js';

const KEY = 'kak_configtestsecret9876';

async function setup(): Promise<string> {
  const configDir = tempDir();
  await writeProfile(configDir, 'default', { baseUrl: 'https://a.test/api/v1', apiKey: KEY }, { makeCurrent: true });
  return configDir;
}

const saved = (configDir: string) => JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'));

describe('config set / get / unset', () => {
  it('saves each setting in the current profile and reads it back', async () => {
    const configDir = await setup();
    for (const [key, value] of [
      ['lang', 'zh'],
      ['space', 'Research'],
      ['rate-limit', '30'],
      ['base-url', 'https://b.test/api/v1'],
    ]) {
      const set = await runCli(['config', 'set', key!, value!], { configDir });
      expect(set.code, key).toBe(0);
      expect(set.stderr).toBe(''); // piped: no ✓ line
      const get = await runCli(['config', 'get', key!], { configDir });
      expect(get).toMatchObject({ code: 0, stdout: `${value}\n` });
    }
    expect(saved(configDir).profiles.default).toEqual({
      baseUrl: 'https://b.test/api/v1',
      apiKey: KEY,
      lang: 'zh',
      space: 'Research',
      rateLimit: 30,
    });
    expect(statSync(join(configDir, 'config.json')).mode & 0o777).toBe(0o600);

    const unset = await runCli(['config', 'unset', 'space'], { configDir });
    expect(unset.code).toBe(0);
    const gone = await runCli(['config', 'get', 'space'], { configDir });
    expect(gone.code).toBe(1);
    expect(gone.stdout).toBe('');
    expect(gone.stderr).toContain('space is not set for profile "default" (NOT_SET)');
  });

  it('-q keeps stderr quiet on success', async () => {
    const configDir = await setup();
    const r = await runCli(['config', 'set', 'lang', 'zh', '-q'], { configDir, tty: true });
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('works on another profile with -p, creating it', async () => {
    const configDir = await setup();
    expect((await runCli(['config', 'set', 'lang', 'en', '-p', 'work'], { configDir })).code).toBe(0);
    expect(saved(configDir).profiles.work).toEqual({ lang: 'en' });
    expect(saved(configDir).currentProfile).toBe('default');
  });

  it('get shows the value in effect: env and flags win, --json says where it came from', async () => {
    const configDir = await setup();
    const env = await runCli(['config', 'get', 'base-url', '--json'], {
      configDir,
      env: { KAGENT_BASE_URL: 'https://env.test/api/v1' },
    });
    expect(JSON.parse(env.stdout)).toEqual({ key: 'base-url', value: 'https://env.test/api/v1', source: 'env' });
    const flag = await runCli(['config', 'get', 'lang', '--lang', 'en', '--json'], { configDir });
    expect(JSON.parse(flag.stdout)).toEqual({ key: 'lang', value: 'en', source: 'flag' });
    const fallback = await runCli(['config', 'get', 'rate-limit', '--json'], { configDir });
    expect(JSON.parse(fallback.stdout)).toEqual({ key: 'rate-limit', value: 60, source: 'default' });
  });

  it('the API key is only ever shown masked, and cannot be set on the command line', async () => {
    const configDir = await setup();
    const get = await runCli(['config', 'get', 'api-key'], { configDir });
    expect(get.stdout).toBe('kak_…9876\n');
    const set = await runCli(['config', 'set', 'api-key', 'kak_typed_on_the_command_line'], { configDir });
    expect(set.code).toBe(2);
    expect(set.stderr).toContain('auth login --with-key');
    expect(saved(configDir).profiles.default.apiKey).toBe(KEY);
  });

  it.each([
    ['lang', 'fr', 'lang must be zh or en'],
    ['base-url', 'example.com', 'base-url must be an http:// or https:// URL'],
    ['rate-limit', 'fast', 'rate-limit must be an integer from 1 to 100000'],
    ['space', 'x'.repeat(81), 'space must be 1 to 80 characters'],
  ])('refuses %s=%s (exit 2), saving nothing', async (key, value, message) => {
    const configDir = await setup();
    const before = readFileSync(join(configDir, 'config.json'), 'utf8');
    const r = await runCli(['config', 'set', key, value], { configDir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(readFileSync(join(configDir, 'config.json'), 'utf8')).toBe(before);
  });
});

describe('config list', () => {
  it('terminal: a table of key, value, source with the key masked', async () => {
    const configDir = await setup();
    const r = await runCli(['config', 'list'], { configDir, tty: true, env: { KAGENT_LANG: 'zh' } });
    expect(r.code).toBe(0);
    const plain = r.stdout.replace(/\x1b\[[0-9;]*m/g, '');
    expect(plain).toMatch(/^KEY\s+VALUE\s+SOURCE$/m);
    expect(plain).toMatch(/^base-url\s+https:\/\/a\.test\/api\/v1\s+profile$/m);
    expect(plain).toMatch(/^lang\s+zh\s+KAGENT_LANG$/m);
    expect(plain).toMatch(/^rate-limit\s+60\s+default$/m);
    expect(plain).toMatch(/^api-key\s+kak_…9876\s+profile$/m);
    expect(r.stderr).toContain('Profile "default"');
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });

  it('piped: key, value, source separated by tabs; --json: an array', async () => {
    const configDir = await setup();
    const piped = await runCli(['config', 'list'], { configDir });
    expect(piped.stdout).toBe(
      'base-url\thttps://a.test/api/v1\tprofile\nlang\t\t\nspace\t\t\nrate-limit\t60\tdefault\npager\tless -FRX\tdefault\napi-key\tkak_…9876\tprofile\n',
    );
    const json = JSON.parse((await runCli(['config', 'list', '--json'], { configDir })).stdout);
    expect(json).toContainEqual({ key: 'api-key', value: 'kak_…9876', source: 'profile' });
    expect(json).toHaveLength(6);
  });
});

describe('profiles', () => {
  it('lists profiles and switches the current one', async () => {
    const configDir = await setup();
    await writeProfile(configDir, 'sandbox', { baseUrl: 'http://127.0.0.1:7/api/v1', apiKey: 'kak_x' });
    const list = await runCli(['config', 'profiles'], { configDir });
    expect(list.stdout).toBe(
      'default\ttrue\thttps://a.test/api/v1\ttrue\nsandbox\tfalse\thttp://127.0.0.1:7/api/v1\ttrue\n',
    );
    const use = await runCli(['config', 'use', 'sandbox'], { configDir });
    expect(use.code).toBe(0);
    expect(saved(configDir).currentProfile).toBe('sandbox');
    expect((await runCli(['config', 'get', 'base-url'], { configDir })).stdout).toBe('http://127.0.0.1:7/api/v1\n');
    const missing = await runCli(['config', 'use', 'nope'], { configDir });
    expect(missing.code).toBe(4);
    const json = JSON.parse((await runCli(['config', 'profiles', '--json'], { configDir })).stdout);
    expect(json).toContainEqual({
      name: 'sandbox',
      current: true,
      baseUrl: 'http://127.0.0.1:7/api/v1',
      loggedIn: true,
    });
  });

  it('an invalid config file is a clear error (exit 1) naming it', async () => {
    const configDir = tempDir();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(configDir, 'config.json'), '{broken', { mode: 0o600 });
    const r = await runCli(['config', 'list'], { configDir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`the config file ${join(configDir, 'config.json')} is not valid JSON (CONFIG_INVALID)`);
  });
});
