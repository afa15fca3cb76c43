// `kagent chat "…" > answer.md`, as `llm "…" > out.md`: the file holds the answer
// and nothing else; what a person reads besides it (the tools used, the sources,
// the files and the commands that open them) is on stderr, here a terminal. The
// built binary in a pseudo-terminal (`script` from util-linux), stdout redirected.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, plain, runInPty } from '../helpers/binary.js';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';

let s: LoggedIn;
let home: string;
let env: Record<string, string>;

beforeAll(async () => {
  ensureBuilt();
  // At 60× a turn of 3 s of service time takes 50 ms.
  s = await loggedInSandbox({ speed: 60 });
  await s.t.call('POST', '/docs', {
    body: { title: 'Vector search notes', markdown: '# Vector search notes\n\nHNSW graphs make vector search fast.' },
  });
  await s.t.call('POST', '/library', { body: { url: 'https://blog.example.com/posts/vector-search-at-scale' } });
  home = mkdtempSync(join(tmpdir(), 'kagent-chat-piped-'));
  env = { HOME: home, KAGENT_CONFIG_DIR: s.configDir, KAGENT_CACHE_DIR: join(home, 'cache'), NO_COLOR: '1' };
});
afterAll(async () => {
  await s.close();
  rmSync(home, { recursive: true, force: true });
});

describe('chat MESSAGE with stdout redirected, stderr a terminal', () => {
  for (const quiet of [false, true]) {
    it(`the file holds the answer only; tools and sources are on the terminal${quiet ? ' (not with -q)' : ''}`, async () => {
      const out = join(home, quiet ? 'quiet.md' : 'answer.md');
      const run = await runInPty([], {
        env,
        shell: `eval "$KAGENT chat ${quiet ? '-q ' : ''}'what did I save about vector search?'" > ${out}`,
        timeoutMs: 30_000,
      });
      expect(run.code, plain(run.output)).toBe(0);
      const answer = readFileSync(out, 'utf8');
      expect(answer).toContain('Here is what I found in your library and docs');
      expect(answer).toMatch(/\[\d\]/);
      for (const rest of ['Searching your library', 'Sources', 'https://blog.example.com/', 'kagent ', '✓'])
        expect(answer, rest).not.toContain(rest);
      const screen = plain(run.output);
      expect(screen).not.toContain('Here is what I found');
      if (quiet) expect(screen).not.toMatch(/Searching your library|Sources/);
      else {
        expect(screen).toMatch(/✓ Searching your library/);
        expect(screen).toMatch(/^Sources$/m);
        expect(screen).toContain('https://blog.example.com/posts/vector-search-at-scale');
      }
    });
  }
});
