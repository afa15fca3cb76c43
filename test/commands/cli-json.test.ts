// --json on every command of the foundation's groups: stdout parses as JSON
// (pretty on a terminal, compact when piped) and nothing else is printed there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';

let s: LoggedIn;
beforeAll(async () => {
  s = await loggedInSandbox();
});
afterAll(async () => {
  await s?.close();
});

const commands: string[][] = [
  ['me'],
  ['auth', 'status'],
  ['auth', 'token'],
  ['config', 'get', 'base-url'],
  ['config', 'set', 'lang', 'en'],
  ['config', 'unset', 'lang'],
  ['config', 'list'],
  ['config', 'profiles'],
  ['config', 'use', 'default'],
  ['space', 'list'],
  ['space', 'create', 'Json test'],
  ['space', 'edit', 'Json test', '--description', 'edited'],
  ['space', 'delete', 'Json test', '--yes'],
  ['help', 'exit-codes'],
  ['help', 'environment'],
];

describe('--json parses for every command', () => {
  it.each(commands.map((argv) => [argv.join(' '), argv]))('%s', async (_name, argv) => {
    for (const tty of [false, true]) {
      const r = await s.kagent([...(argv as string[]), '--json'], { tty });
      expect(r.code, r.stderr).toBe(0);
      expect(() => JSON.parse(r.stdout)).not.toThrow();
      expect(r.stdout.trimEnd().includes('\n')).toBe(tty && r.stdout.trim().length > 2);
      // Create again for the terminal round of the write commands.
      if (argv[1] === 'delete' && !tty) await s.kagent(['space', 'create', 'Json test']);
      if (argv[1] === 'create' && !tty) await s.kagent(['space', 'delete', 'Json test', '--yes']);
    }
  });

  it('auth logout and auth login too', async () => {
    const out = await s.kagent(['auth', 'logout', '--json']);
    expect(JSON.parse(out.stdout)).toEqual({ profile: 'default', loggedOut: true });
    const back = await s.kagent(['auth', 'login', '--base-url', s.t.baseUrl, '--with-key', '--json'], { stdin: s.t.apiKey });
    expect(JSON.parse(back.stdout)).toMatchObject({ authenticated: true });
  });
});
