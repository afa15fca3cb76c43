// kagent auth against the sandbox on loopback: login (stdin, prompts, refusals),
// status with sources, logout, token; the key never shows up anywhere else.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import status from '../../commands/auth/status.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runCli, tempDir } from '../helpers/run.js';
import { pipedKeysOf } from '../helpers/piped-help.js';

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(async () => {
  await t?.close();
});

function savedConfig(configDir: string) {
  return JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'));
}

describe('auth login', () => {
  it('--with-key reads the key from stdin, checks it with GET /me, saves it 0600 and makes the profile current', async () => {
    const configDir = tempDir();
    const r = await runCli(['auth', 'login', '--base-url', t.baseUrl, '--with-key'], {
      configDir,
      stdin: `${t.apiKey}\n`,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(''); // piped: the ✓ line ("Logged in to … as you@…") is for a terminal
    expect(r.stdout).toBe('');
    expect(`${r.stdout}${r.stderr}`).not.toContain(t.apiKey);
    expect(savedConfig(configDir)).toEqual({
      currentProfile: 'default',
      profiles: { default: { baseUrl: t.baseUrl, apiKey: t.apiKey } },
    });
    expect(statSync(join(configDir, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('--json prints the status, with the key masked', async () => {
    const r = await runCli(['auth', 'login', '-p', 'ci', '--base-url', t.baseUrl, '--with-key', '--json'], {
      stdin: t.apiKey,
    });
    expect(r.code).toBe(0);
    const status = JSON.parse(r.stdout);
    expect(status).toMatchObject({
      profile: 'ci',
      baseUrl: t.baseUrl,
      authenticated: true,
      user: { email: 'you@sandbox.test' },
      apiKey: expect.stringMatching(/^kak_…/),
    });
    expect(r.stdout).not.toContain(t.apiKey);
  });

  it('without a terminal and without --with-key: no prompt, exit 2 naming the flag', async () => {
    const r = await runCli(['auth', 'login', '--base-url', t.baseUrl]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--with-key');
    expect(r.stderr).toContain('stdin is not a terminal');
  });

  it('on a terminal with --no-input, or KAGENT_NO_PROMPT, or CI: no prompt either', async () => {
    for (const [argv, env] of [
      [['--no-input'], {}],
      [[], { KAGENT_NO_PROMPT: '1' }],
      [[], { CI: 'true' }],
    ] as const) {
      const r = await runCli(['auth', 'login', '--base-url', t.baseUrl, ...argv], { tty: true, env, answers: [] });
      expect(r.code).toBe(2);
      expect(r.prompts).toEqual([]);
      expect(r.stderr).toContain('pass --with-key');
    }
  });

  it('without a base URL anywhere and no terminal: exit 2 naming --base-url', async () => {
    const r = await runCli(['auth', 'login', '--with-key'], { stdin: t.apiKey });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--base-url');
  });

  it('on a terminal asks for the base URL and the key (masked prompt)', async () => {
    const configDir = tempDir();
    const r = await runCli(['auth', 'login'], { configDir, tty: true, answers: [t.baseUrl, t.apiKey] });
    expect(r.code).toBe(0);
    expect(r.prompts).toEqual([
      'API base URL (e.g. https://example.com/api/v1):',
      'API key (from your account settings):',
    ]);
    expect(savedConfig(configDir).profiles.default).toEqual({ baseUrl: t.baseUrl, apiKey: t.apiKey });
    expect(`${r.stdout}${r.stderr}`).not.toContain(t.apiKey);
  });

  it('a key the service does not accept: exit 3, the key not saved, the base URL given kept for the retry', async () => {
    const configDir = tempDir();
    const r = await runCli(['auth', 'login', '--base-url', t.baseUrl, '--with-key'], {
      configDir,
      stdin: 'kak_not_a_real_key_0000',
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('did not accept this API key');
    expect(r.stderr).not.toContain('kak_not_a_real_key_0000');
    expect(r.stderr).toContain(
      'the key was not saved, the base URL was (profile "default"): `kagent auth login` asks only for the key',
    );
    expect(savedConfig(configDir)).toEqual({ profiles: { default: { baseUrl: t.baseUrl } } });
    expect(readFileSync(join(configDir, 'config.json'), 'utf8')).not.toContain('kak_not_a_real_key_0000');
  });

  it('on a terminal, a refused key keeps the URL typed: the retry asks only for the key', async () => {
    const configDir = tempDir();
    const first = await runCli(['auth', 'login', '-p', 'work'], {
      configDir,
      tty: true,
      answers: [t.baseUrl, 'kak_not_a_real_key_0000'],
    });
    expect(first.code).toBe(3);
    expect(first.stderr).toContain('`kagent auth login -p work` asks only for the key');
    const retry = await runCli(['auth', 'login', '-p', 'work'], { configDir, tty: true, answers: [t.apiKey] });
    expect(retry.code).toBe(0);
    expect(retry.prompts).toEqual(['API key (from your account settings):']);
    expect(savedConfig(configDir).profiles.work).toEqual({ baseUrl: t.baseUrl, apiKey: t.apiKey });
  });

  it('already logged in: says who and where, asks before replacing (no keeps it); piped needs --yes', async () => {
    const configDir = tempDir();
    await runCli(['auth', 'login', '--base-url', t.baseUrl, '--with-key'], { configDir, stdin: t.apiKey });
    const before = readFileSync(join(configDir, 'config.json'), 'utf8');
    const no = await runCli(['auth', 'login'], { configDir, tty: true, answers: [false] });
    expect(no.stderr).toContain(`Profile "default" is logged in to ${t.baseUrl} as you@sandbox.test (key kak_…`);
    expect(no.prompts).toEqual(['Replace the login of profile "default"?']);
    expect(no.code).toBe(1);
    const piped = await runCli(['auth', 'login', '--with-key'], { configDir, stdin: 'kak_other_key_00000000' });
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain('as you@sandbox.test');
    expect(piped.stderr).toContain(
      'refusing to replace the login of profile "default" without confirmation: pass --yes',
    );
    expect(readFileSync(join(configDir, 'config.json'), 'utf8')).toBe(before);
    const yes = await runCli(['auth', 'login', '--with-key', '--yes'], { configDir, stdin: t.apiKey });
    expect(yes.code).toBe(0);
    const asked = await runCli(['auth', 'login'], { configDir, tty: true, answers: [true, t.apiKey] });
    expect(asked.code).toBe(0);
    expect(asked.prompts).toEqual(['Replace the login of profile "default"?', 'API key (from your account settings):']);
  });

  it('a bad key in KAGENT_API_KEY: the hint names the variable, not the saved login', async () => {
    const configDir = tempDir();
    await runCli(['auth', 'login', '--base-url', t.baseUrl, '--with-key'], { configDir, stdin: t.apiKey });
    const r = await runCli(['me'], { configDir, env: { KAGENT_API_KEY: 'kak_wrong_wrong_wrong_1' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(
      'hint: the API key in KAGENT_API_KEY was not accepted (it wins over the saved key): fix it, or `unset KAGENT_API_KEY` to use the saved one',
    );
  });

  it('an empty stdin is a usage error', async () => {
    const r = await runCli(['auth', 'login', '--base-url', t.baseUrl, '--with-key'], { stdin: '\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no API key on stdin');
  });

  it('warns when KAGENT_API_KEY will override the saved key', async () => {
    const r = await runCli(['auth', 'login', '--base-url', t.baseUrl, '--with-key'], {
      stdin: t.apiKey,
      env: { KAGENT_API_KEY: t.apiKey },
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning: KAGENT_API_KEY is set');
  });
});

describe('auth status', () => {
  it('shows profile, base URL, masked key, their sources and the account; exit 0', async () => {
    const configDir = tempDir();
    await runCli(['auth', 'login', '--base-url', t.baseUrl, '--with-key'], { configDir, stdin: t.apiKey });
    const tty = await runCli(['auth', 'status'], { configDir, tty: true });
    expect(tty.code).toBe(0);
    const plain = tty.stdout.replace(/\x1b\[[0-9;]*m/g, '');
    expect(plain).toMatch(/Profile\s+default\s+\(current profile; .*config\.json\)/);
    expect(plain).toMatch(new RegExp(`Base URL\\s+${t.baseUrl.replace(/[./]/g, '\\$&')}\\s+\\(profile "default"\\)`));
    expect(plain).toMatch(/API key\s+kak_…\S{4}\s+\(profile "default"\)/);
    expect(plain).toMatch(/Account\s+you@sandbox\.test · plan Pro\s+✓ logged in/);
    expect(tty.stdout).not.toContain(t.apiKey);

    const piped = await runCli(['auth', 'status'], { configDir });
    expect(piped.stdout).toContain('base-url-source\tprofile\n');
    expect(piped.stdout).toContain('authenticated\ttrue\n');
    expect(piped.stdout).not.toContain('\x1b');
  });

  it('the help names every key it prints piped (one field table gives both)', async () => {
    const r = await runCli(['auth', 'status', '--base-url', t.baseUrl], { env: { KAGENT_API_KEY: t.apiKey } });
    const keys = r.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t')[0]!);
    expect(keys).toEqual([
      'profile',
      'profile-source',
      'base-url',
      'base-url-source',
      'api-key',
      'api-key-source',
      'email',
      'plan',
      'authenticated',
    ]);
    const helpKeys = pipedKeysOf(status.description);
    for (const key of keys) expect(helpKeys).toContain(key);
  });

  it('says which source won: env and flags over the profile', async () => {
    const configDir = tempDir();
    await runCli(['auth', 'login', '--base-url', 'http://127.0.0.1:9/api/v1', '--with-key'], {
      configDir,
      stdin: t.apiKey,
    }).catch(() => undefined);
    const r = await runCli(['auth', 'status', '--json', '--base-url', t.baseUrl], {
      configDir,
      env: { KAGENT_API_KEY: t.apiKey },
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ baseUrlSource: 'flag', apiKeySource: 'env', authenticated: true });
  });

  it('not logged in: exit 3, with the status on stdout and the reason on stderr', async () => {
    const r = await runCli(['auth', 'status', '--base-url', t.baseUrl]);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('authenticated\tfalse');
    expect(r.stderr).toContain('error: not logged in: no API key (NOT_AUTHENTICATED)');
    expect(r.stderr).toContain('hint: run `kagent auth login`');
  });

  it('a rejected key: exit 3', async () => {
    const r = await runCli(['auth', 'status', '--json', '--base-url', t.baseUrl], {
      env: { KAGENT_API_KEY: 'kak_wrong_wrong_wrong_1' },
    });
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({ authenticated: false, user: null });
    expect(JSON.parse(r.stderr)).toMatchObject({ error: { message: 'the API key was not accepted' } });
  });

  it('no base URL anywhere: exit 3 with a hint to log in or start the sandbox', async () => {
    const r = await runCli(['me'], { env: { KAGENT_API_KEY: t.apiKey } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('error: no API base URL configured (NO_BASE_URL)');
    expect(r.stderr).toContain('kagent auth login --base-url URL');
    expect(r.stderr).toContain('kagent sandbox');
  });
});

describe('auth token and logout', () => {
  it('token prints the key (the only command that does); logout removes it and keeps the base URL', async () => {
    const configDir = tempDir();
    await runCli(['auth', 'login', '--base-url', t.baseUrl, '--with-key'], { configDir, stdin: t.apiKey });
    const token = await runCli(['auth', 'token'], { configDir });
    expect(token).toMatchObject({ code: 0, stdout: `${t.apiKey}\n` });
    expect(JSON.parse((await runCli(['auth', 'token', '--json'], { configDir })).stdout)).toEqual({ token: t.apiKey });

    const out = await runCli(['auth', 'logout'], { configDir, tty: true });
    expect(out.code).toBe(0);
    expect(out.stderr).toContain('Logged out: removed the API key of profile "default"');
    expect(savedConfig(configDir).profiles.default).toEqual({ baseUrl: t.baseUrl });

    const again = await runCli(['auth', 'logout', '--json'], { configDir });
    expect(JSON.parse(again.stdout)).toEqual({ profile: 'default', loggedOut: false });
    expect((await runCli(['auth', 'token'], { configDir })).code).toBe(3);
  });
});

describe('the key stays secret', () => {
  it('--debug traces requests on stderr with the key masked', async () => {
    const configDir = tempDir();
    await runCli(['auth', 'login', '--base-url', t.baseUrl, '--with-key'], { configDir, stdin: t.apiKey });
    for (const env of [{}, { KAGENT_DEBUG: '1' }]) {
      const r = await runCli(env === undefined || Object.keys(env).length === 0 ? ['me', '--debug'] : ['me'], {
        configDir,
        env,
      });
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/GET .*\/api\/v1\/me/);
      expect(r.stderr).not.toContain(t.apiKey);
      expect(r.stdout).not.toContain(t.apiKey);
    }
  });

  it('no command but `auth token` prints it, in any mode', async () => {
    const configDir = tempDir();
    await runCli(['auth', 'login', '--base-url', t.baseUrl, '--with-key'], { configDir, stdin: t.apiKey });
    await runCli(['config', 'set', 'rate-limit', '100000'], { configDir });
    const runs = [
      ['auth', 'status'],
      ['auth', 'status', '--json'],
      ['config', 'list'],
      ['config', 'list', '--json'],
      ['config', 'get', 'api-key'],
      ['me', '--json'],
      ['space', 'list'],
    ];
    for (const argv of runs) {
      for (const tty of [false, true]) {
        const r = await runCli(argv, { configDir, tty });
        expect(r.code, argv.join(' ')).toBe(0);
        expect(`${r.stdout}${r.stderr}`, argv.join(' ')).not.toContain(t.apiKey);
      }
    }
  });
});
