// kagent config get / set / unset / list / profiles / use / delete: settings per profile,
// the value in effect and its source, the key masked, bad values refused.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeProfile } from '../../src/config/store.js';
import { runCli, tempDir } from '../helpers/run.js';
import { loggedInSandbox } from '../helpers/logged-in.js';

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
      // piped: no ✓ line; a space that cannot be checked (a.test is no service) is saved with a warning
      if (key === 'space')
        expect(set.stderr).toMatch(/^warning: could not check that space "Research" exists \(.+\): saved unchecked\n$/);
      else expect(set.stderr).toBe('');
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
    expect(gone.stderr).toContain('hint: set it with `kagent config set space <value>`');
  });

  it('an unset API key points at auth login, never at `config set api-key` (which refuses it)', async () => {
    const configDir = tempDir();
    await writeProfile(configDir, 'work', { baseUrl: 'https://a.test/api/v1' });
    const r = await runCli(['config', 'get', 'api-key', '-p', 'work'], {
      configDir,
      env: { KAGENT_API_KEY: undefined },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('api-key is not set for profile "work" (NOT_SET)');
    expect(r.stderr).toContain('hint: log in with `kagent auth login -p work`, or set KAGENT_API_KEY');
    expect(r.stderr).not.toContain('config set');
    // the hint for a setting that can be set keeps the profile too
    const lang = await runCli(['config', 'get', 'lang', '-p', 'work'], { configDir });
    expect(lang.stderr).toContain('hint: set it with `kagent config set lang <value> -p work`');
    const refused = await runCli(['config', 'set', 'api-key', 'kak_x', '-p', 'work'], { configDir });
    expect(refused.code).toBe(2);
  });

  it('-q keeps stderr quiet on success', async () => {
    const configDir = await setup();
    const r = await runCli(['config', 'set', 'lang', 'zh', '-q'], { configDir, tty: true });
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('works on another profile with -p, creating it with --create', async () => {
    const configDir = await setup();
    expect((await runCli(['config', 'set', 'lang', 'en', '-p', 'work', '--create'], { configDir })).code).toBe(0);
    expect(saved(configDir).profiles.work).toEqual({ lang: 'en' });
    expect(saved(configDir).currentProfile).toBe('default');
    expect((await runCli(['config', 'set', 'lang', 'zh', '-p', 'work'], { configDir })).code).toBe(0);
    expect(saved(configDir).profiles.work).toEqual({ lang: 'zh' });
  });

  it('refuses a profile that is not saved without --create (exit 2, did you mean), and saves nothing', async () => {
    const configDir = await setup();
    await writeProfile(configDir, 'sandbox', { baseUrl: 'http://127.0.0.1:7/api/v1' });
    const before = readFileSync(join(configDir, 'config.json'), 'utf8');
    const set = await runCli(['-p', 'sandbx', 'config', 'set', 'lang', 'zh'], { configDir });
    expect(set.code).toBe(2);
    expect(set.stderr).toContain('error: no profile "sandbx": did you mean "sandbox"? (PROFILE_NOT_FOUND)');
    expect(set.stderr).toContain('create one with `kagent config set lang zh -p sandbx --create`');
    const fromEnv = await runCli(['config', 'set', 'lang', 'zh'], { configDir, env: { KAGENT_PROFILE: 'sandbx' } });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain('no profile "sandbx" (from KAGENT_PROFILE): did you mean "sandbox"?');
    const unset = await runCli(['config', 'unset', 'lang', '-p', 'sandbx'], { configDir });
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain('did you mean "sandbox"?');
    expect(readFileSync(join(configDir, 'config.json'), 'utf8')).toBe(before);
  });

  it('with nothing saved yet, the first setting creates the default profile', async () => {
    const configDir = tempDir();
    expect((await runCli(['config', 'set', 'lang', 'zh'], { configDir })).code).toBe(0);
    expect(saved(configDir).profiles.default).toEqual({ lang: 'zh' });
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
    expect(missing.code).toBe(2);
    const typo = await runCli(['config', 'use', 'sandbx'], { configDir });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('error: no profile "sandbx": did you mean "sandbox"? (PROFILE_NOT_FOUND)');
    expect(typo.stderr).toContain('hint: saved profiles: default, sandbox (`kagent config profiles`)');
    // a name no profile can have: no command to create it is offered
    const odd = await runCli(['config', 'use', 'a b; rm'], { configDir });
    expect(odd.code).toBe(2);
    expect(odd.stderr).toContain('hint: profile names are letters, digits, ".", "_" and "-"');
    expect(odd.stderr).not.toContain('auth login');
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

describe('config delete', () => {
  it('without a terminal: refused without --yes (exit 2), nothing deleted; with --yes deleted', async () => {
    const configDir = await setup();
    await writeProfile(configDir, 'sandbox', { baseUrl: 'http://127.0.0.1:7/api/v1', apiKey: 'kak_x' });
    const refused = await runCli(['config', 'delete', 'sandbox'], { configDir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('refusing to delete profile "sandbox" without confirmation: pass --yes');
    expect(Object.keys(saved(configDir).profiles)).toEqual(['default', 'sandbox']);
    const deleted = await runCli(['config', 'delete', 'sandbox', '--yes', '--json'], { configDir });
    expect(deleted.code).toBe(0);
    expect(JSON.parse(deleted.stdout)).toEqual({ deleted: 'sandbox', wasCurrent: false });
    expect(saved(configDir)).toEqual({ currentProfile: 'default', profiles: { default: expect.any(Object) } });
    const typo = await runCli(['config', 'delete', 'defualt', '--yes'], { configDir });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('did you mean "default"?');
  });

  it('on a terminal: asks (no keeps it); deleting the current profile leaves no current one', async () => {
    const configDir = await setup();
    await writeProfile(configDir, 'sandbox', { baseUrl: 'http://127.0.0.1:7/api/v1' });
    const no = await runCli(['config', 'delete', 'default'], { configDir, tty: true, answers: [false] });
    expect(no.prompts).toEqual([
      'Delete profile "default" (https://a.test/api/v1) and its API key; it is the current profile?',
    ]);
    expect(no.code).toBe(1);
    expect(saved(configDir).currentProfile).toBe('default');
    const yes = await runCli(['config', 'delete', 'default'], { configDir, tty: true, answers: [true] });
    expect(yes.code).toBe(0);
    expect(yes.stderr).toContain('Deleted profile "default"; no profile is current now');
    expect(saved(configDir)).toEqual({ profiles: { sandbox: { baseUrl: 'http://127.0.0.1:7/api/v1' } } });
    const me = await runCli(['me'], { configDir, env: { KAGENT_API_KEY: undefined, KAGENT_BASE_URL: undefined } });
    expect(me.stderr).toContain('`kagent config use sandbox`');
  });
});

describe('config set space', () => {
  it('checks the space exists: a typo is refused (exit 4, nothing saved); a real name or id is saved', async () => {
    const s = await loggedInSandbox();
    try {
      await s.t.call('POST', '/spaces', { body: { name: 'Research' } });
      const typo = await s.kagent(['config', 'set', 'space', 'Researh']);
      expect(typo.code).toBe(4);
      expect(typo.stderr).toContain('no space with id or name "Researh" (SPACE_NOT_FOUND)');
      expect(saved(s.configDir).profiles.default.space).toBeUndefined();
      const ok = await s.kagent(['config', 'set', 'space', 'Research']);
      expect(ok).toMatchObject({ code: 0, stderr: '' });
      expect(saved(s.configDir).profiles.default.space).toBe('Research');
    } finally {
      await s.close();
    }
  });

  it("a profile's space that is gone: the failure says the name came from the profile", async () => {
    const s = await loggedInSandbox();
    try {
      await writeProfile(s.configDir, 'default', { space: 'Researh' });
      const r = await s.kagent(['doc', 'create', '--title', 'Notes', '--body', 'x']);
      expect(r.code).toBe(4);
      expect(r.stderr).toContain('no space with id or name "Researh" (the default space of profile "default")');
      expect(r.stderr).toContain('`kagent config set space NAME`');
      // Named on the command line, the same failure does not blame the profile.
      const flag = await s.kagent(['doc', 'create', '--title', 'Notes', '--body', 'x', '--space', 'Nowhere']);
      expect(flag.stderr).toContain('no space with id or name "Nowhere" (SPACE_NOT_FOUND)');
    } finally {
      await s.close();
    }
  });
});
