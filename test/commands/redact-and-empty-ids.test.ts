// A base URL may carry a user and password (https://user:pass@host/api/v1):
// they are never printed — not by --debug, not in error messages, not by
// `auth status` or `config get/profiles`. And an empty id or slug is a usage
// error (exit 2) that sends nothing, not a crash.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeProfile } from '../../src/config/store.js';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';
import { runCli, tempDir } from '../helpers/run.js';

let s: LoggedIn;
beforeAll(async () => {
  s = await loggedInSandbox();
});
afterAll(() => s.close());

const SECRET = 'pa55-w0rd-xyz';
const withCredentials = () => s.t.baseUrl.replace('http://', `http://alice:${SECRET}@`);

describe('credentials in the base URL', () => {
  it('--debug traces every request with the user and password masked', async () => {
    const r = await s.kagent(['me', '--debug', '--base-url', withCredentials()]);
    expect(r.stderr).toContain('debug: → GET http://***@127.0.0.1:');
    expect(r.stderr).not.toContain(SECRET);
    expect(r.stderr).not.toContain('alice');
  });

  it('an error that quotes the URL masks them, in text and in the --json envelope', async () => {
    const r = await s.kagent(['me', '--base-url', `ftp://bob:${SECRET}@files.example.com/api/v1`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('ftp://***@files.example.com/api/v1');
    expect(r.stderr).not.toContain(SECRET);
    const json = await s.kagent(['me', '--json', '--base-url', `ftp://bob:${SECRET}@files.example.com/api/v1`]);
    expect(JSON.parse(json.stderr).error.message).toContain('ftp://***@files.example.com/api/v1');
  });

  it('auth login and config set echo the base URL masked', async () => {
    const configDir = tempDir('kagent-config-');
    const login = await runCli(['auth', 'login', '--with-key', '--base-url', withCredentials(), '--json'], {
      configDir,
      stdin: `${s.t.apiKey}\n`,
    });
    expect(login.code).toBe(0);
    expect(JSON.parse(login.stdout).baseUrl).toMatch(/^http:\/\/\*\*\*@127\.0\.0\.1:\d+\/api\/v1$/);
    const set = await runCli(['config', 'set', 'base-url', withCredentials(), '--json'], { configDir });
    expect(set.code).toBe(0);
    expect(`${set.stdout}${set.stderr}`).not.toContain(SECRET);
    expect(JSON.parse(set.stdout).value).toContain('http://***@127.0.0.1:');
  });

  it('auth status, config get base-url and config profiles show them masked, piped and with --json', async () => {
    const configDir = tempDir('kagent-config-');
    await writeProfile(configDir, 'default', { baseUrl: withCredentials(), apiKey: s.t.apiKey }, { makeCurrent: true });
    for (const argv of [
      ['auth', 'status'],
      ['auth', 'status', '--json'],
      ['config', 'get', 'base-url'],
      ['config', 'list'],
      ['config', 'profiles'],
      ['config', 'profiles', '--json'],
    ]) {
      for (const tty of [false, true]) {
        const r = await runCli(argv, { configDir, tty });
        expect(`${r.stdout}${r.stderr}`, argv.join(' ')).not.toContain(SECRET);
        expect(`${r.stdout}${r.stderr}`, argv.join(' ')).toContain('http://***@127.0.0.1:');
      }
    }
  });
});

describe('an empty id', () => {
  it.each([
    [['doc', 'show', '']],
    [['lib', 'show', '']],
    [['task', 'show', ' ']],
    [['media', 'show', '']],
    [['conversation', 'show', '']],
    [['watch', 'show', '']],
  ])('%j is a usage error (exit 2) naming what is empty, and sends nothing', async (argv) => {
    await s.t.call('DELETE', '/_sandbox/stats', { key: null });
    const r = await s.kagent(argv);
    expect(r.stderr).toMatch(/^error: the (id|slug) is empty \(USAGE\)$/m);
    expect(r.code).toBe(2);
    const stats = (await s.t.call('GET', '/_sandbox/stats', { key: null })).body;
    expect(Object.values(stats.requests as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(0);
  });
});
