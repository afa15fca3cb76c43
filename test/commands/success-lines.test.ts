// Success lines ("✓ …") and footers are for the person at a terminal: they go to
// stderr only when stderr is one. Piped (or logged) runs of every command that
// writes one keep stderr free of them; on a terminal they are shown — in-process
// and, for the built binary, in a real pseudo-terminal at 40, 80 and 200 columns.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, plain, runInPty } from '../helpers/binary.js';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';

let s: LoggedIn;
let entryId: string;
let foreign: string;
let docId: string;

beforeAll(async () => {
  ensureBuilt();
  s = await loggedInSandbox();
  const mine = await s.t.call('POST', '/watches', { body: { intent: 'Battery recycling in Europe' } });
  const other = await s.t.newAccount();
  const theirs = await s.t.call('POST', '/watches', {
    key: other.apiKey,
    body: { intent: 'Rust compiler releases', type: 'sources', urls: ['https://blog.rust-lang.org/'] },
  });
  foreign = theirs.body.slug;
  await s.t.advance(61_000);
  entryId = (await s.t.call('GET', `/watches/${mine.body.slug}`)).body.brief.entries[0].id;
  docId = (await s.t.call('POST', '/docs', { body: { title: 'Plan', markdown: '# Plan\n\nDraft.\n' } })).body.id;
});
afterAll(() => s.close());

/** Each command that says "✓ …" when done, and the ✓ line it shows on a terminal. */
function commands(): Array<{ argv: string[]; shown: RegExp }> {
  return [
    { argv: ['entry', 'feedback', entryId, 'up'], shown: /✓ Rated en_\w+ up/ },
    { argv: ['lib', 'save', 'https://example.com/articles/success-lines'], shown: /✓ Saved .* \(li_\w+\)/ },
    { argv: ['watch', 'follow', foreign], shown: /✓ Following / },
    { argv: ['doc', 'edit', docId, '--append', 'More.'], shown: /✓ Applied 1 edit: doc dc?\w+ is now at revision/ },
    { argv: ['agent', 'memory', '--append', '- likes tea'], shown: /✓ Memory updated: \+1 line/ },
    { argv: ['config', 'set', 'lang', 'en'], shown: /✓ Set lang for profile "default"/ },
  ];
}

describe('✓ lines and footers: terminal stderr only', () => {
  it('piped (stderr not a terminal): entry feedback, lib save, watch follow, doc edit, agent memory, config set, chat leave no ✓ line', async () => {
    const runs = [...commands().map((c) => c.argv), ['chat', 'hello there'], ['chat', '--no-wait', 'hello again']];
    for (const argv of runs) {
      const r = await s.kagent(argv);
      expect(r.code, argv.join(' ')).toBe(0);
      expect(r.stderr, argv.join(' ')).not.toContain('✓');
      // chat's footers ("conversation … · continue: …", "read the reply: …") are for a terminal too.
      expect(r.stderr, argv.join(' ')).not.toMatch(/continue:|read the reply/);
    }
  });

  it('on a terminal (in-process): each shows its ✓ line, chat its footer', async () => {
    for (const { argv, shown } of commands()) {
      const r = await s.kagent(argv, { tty: true, columns: 200 });
      expect(r.code, argv.join(' ')).toBe(0);
      expect(plain(r.stderr), argv.join(' ')).toMatch(shown);
    }
    const chat = await s.kagent(['chat', 'hello there'], { tty: true, columns: 200 });
    expect(plain(chat.stderr)).toMatch(/conversation cv_\w+ .*· continue: kagent chat --conversation cv_\w+ MESSAGE/);
  });

  it('--quiet silences them on a terminal too', async () => {
    const r = await s.kagent(['entry', 'feedback', entryId, 'down', '--quiet'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });

  describe.each([40, 80, 200])('the built binary in a pseudo-terminal at %i columns', (cols) => {
    const env = () => {
      const home = mkdtempSync(join(tmpdir(), 'kagent-ok-'));
      return {
        HOME: home,
        KAGENT_CONFIG_DIR: s.configDir,
        KAGENT_CACHE_DIR: join(home, 'cache'),
      };
    };

    it('stderr a terminal: the ✓ line is shown', async () => {
      const run = await runInPty(['entry', 'feedback', entryId, 'up'], { env: env(), cols });
      expect(run.code).toBe(0);
      expect(plain(run.output)).toContain(`✓ Rated ${entryId} up`);
    });

    it('stderr a pipe: no ✓ line', async () => {
      const run = await runInPty([], {
        env: env(),
        cols,
        shell: `eval "$KAGENT entry feedback ${entryId} up" 2>&1 | cat; eval "$KAGENT config set lang en" 2>&1 | cat`,
      });
      expect(run.code).toBe(0);
      expect(plain(run.output)).toContain(`${entryId}\tup`);
      expect(plain(run.output)).not.toContain('✓');
    });
  });
});
