// Completion shows nothing raw: `kagent completion __complete KIND PREFIX` is
// what the bash, zsh and fish scripts read, and zsh and fish show its
// descriptions in their menus. A service's names and titles carrying a bidi
// override (U+202E), escape sequences or line breaks are sanitised as all
// output is; a value that sanitising would change is not offered (the menu
// would show one thing and the shell insert another).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/run.js';
import { tinyServer, type TinyServer } from '../helpers/tiny-server.js';

const FOREIGN = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

let server: TinyServer;
beforeAll(async () => {
  server = await tinyServer((req) => {
    if (req.url?.startsWith('/api/v1/spaces')) {
      return {
        status: 200,
        body: {
          items: [
            { id: 'sp_evil', name: 'Ops\u202Egnp.exe', createdAt: '2026-01-01T00:00:00Z' },
            { id: 'sp_term', name: 'Term\x1b]0;pwned\x07\x1b[2J', createdAt: '2026-01-01T00:00:00Z' },
            { id: 'sp_line', name: 'Two\nlines\tand tab', createdAt: '2026-01-01T00:00:00Z' },
            { id: 'sp_fine', name: 'Research', createdAt: '2026-01-01T00:00:00Z' },
          ],
        },
      };
    }
    if (req.url?.startsWith('/api/v1/watches')) {
      return {
        status: 200,
        body: { items: [{ slug: 'rust', title: 'Rust\u202E releases \u2066x\u2069 \x1b[31mred\x9b2J' }] },
      };
    }
    return { status: 404, body: {} };
  });
});
afterAll(() => server.close());

const env = () => ({
  KAGENT_CACHE_DIR: tempDir('kagent-cache-'),
  KAGENT_BASE_URL: server.baseUrl,
  KAGENT_API_KEY: 'kak_complete0123456789',
  KAGENT_COMPLETE_TIMEOUT: '5000',
});

describe('completion values from a hostile service', () => {
  it('space: names with bidi or control characters are not offered; their ids are, with the names shown sanitised', async () => {
    const r = await runCli(['completion', '__complete', 'space', ''], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(FOREIGN);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.map((line) => line.split('\t')[0]).sort()).toEqual([
      'Research',
      'sp_evil',
      'sp_fine',
      'sp_line',
      'sp_term',
    ]);
    expect(lines).toContain('sp_evil\tOps<U+202E>gnp.exe');
    expect(lines).toContain('sp_term\tTerm');
    expect(lines).toContain('sp_line\tTwo lines and tab');
    expect(lines).toContain('Research\tsp_fine');
  });

  it('watch: the title beside a slug is sanitised, the bidi controls shown', async () => {
    const r = await runCli(['completion', '__complete', 'watch', ''], { env: env() });
    expect(r.stdout).toBe('rust\tRust<U+202E> releases <U+2066>x<U+2069> red\n');
  });
});
