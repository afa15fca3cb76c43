// A group named without a verb: its list where it has one (`kagent space` is
// `kagent space list`), else its help on stdout; exit 0 either way. A word that
// is no verb stays an unknown command (exit 2, with a suggestion).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bareGroupVerb } from '../../src/kit/define.js';
import { loadGroup } from '../../src/cli/groups.js';
import { groups } from '../../src/cli/manifest.js';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';

let s: LoggedIn;
beforeAll(async () => {
  s = await loggedInSandbox();
});
afterAll(async () => {
  await s?.close();
});

describe('a group without a verb', () => {
  it('every group with verbs: its list (the same output as `GROUP list`) or its help on stdout, exit 0', async () => {
    let lists = 0;
    for (const entry of groups) {
      const group = await loadGroup(entry.name);
      if (!group.commands?.length || group.run) continue;
      const alone = await s.kagent([entry.name]);
      expect(alone.code, `kagent ${entry.name}: ${alone.stderr}`).toBe(0);
      if (bareGroupVerb(group)) {
        lists++;
        const list = await s.kagent([entry.name, 'list']);
        expect(alone.stdout, `kagent ${entry.name}`).toBe(list.stdout);
        expect(group.description).toContain(`With no subcommand, runs \`kagent ${entry.name} list\`.`);
      } else {
        expect(alone.stdout, `kagent ${entry.name}`).toMatch(new RegExp(`^Usage: kagent ${entry.name} `));
        expect(alone.stderr).toBe('');
      }
    }
    expect(lists).toBeGreaterThanOrEqual(8);
  });

  it('kagent space and kagent actions list; kagent auth prints its help on stdout', async () => {
    const space = await s.kagent(['space'], { tty: true });
    expect(space.stdout.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(/^ID\s+NAME\s+DESCRIPTION/);
    expect((await s.kagent(['actions', '--json'])).stdout).toMatch(/^\[/);
    const auth = await s.kagent(['auth']);
    expect(auth).toMatchObject({ code: 0, stderr: '' });
    expect(auth.stdout).toContain('login');
  });

  it('a word that is no verb: unknown command with a suggestion, exit 2 (a group with a list and one without)', async () => {
    for (const [argv, suggestion] of [
      [['space', 'lsit'], 'list'],
      [['auth', 'lgoin'], 'login'],
    ] as const) {
      const r = await s.kagent([...argv]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`error: unknown command "${argv[1]}": did you mean "${suggestion}"?`);
    }
  });

  it('flags after the group go to its list: kagent task --all --json', async () => {
    const r = await s.kagent(['task', '--all', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(Array.isArray(JSON.parse(r.stdout))).toBe(true);
  });
});
