// A list cut at a page (or at --limit) says so on a terminal, as gh does:
// "Showing 50 of more: …" on stderr, after the table. Cut at the service's page
// (neither --all nor --limit), it says so piped and with --json too, one line on
// stderr (a script's `lib list | xargs …` would miss items unwarned); never
// with -q, --all, or when nothing was left out. The built binary in a real
// pseudo-terminal at 40, 80 and 200 columns, and in-process for every list command.
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/io/width.js';
import { ensureBuilt, plain, runInPty, unwrap } from '../helpers/binary.js';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';
import { runCli } from '../helpers/run.js';

let s: LoggedIn;
let env: Record<string, string>;
const CUT = /Showing (\d+) of more: --all lists every one, --limit N up to N/;

beforeAll(async () => {
  ensureBuilt();
  s = await loggedInSandbox();
  const before = (await s.t.call('GET', '/library', { query: { limit: 100 } })).body.items.length;
  for (let n = before; n < 54; n++)
    expect((await s.t.call('POST', '/library', { body: { url: `https://example.com/cut/${n}` } })).status).toBe(201);
  for (let n = 0; n < 3; n++) await s.t.call('POST', '/docs', { body: { title: `Doc ${n}`, markdown: 'x' } });
  const home = mkdtempSync(join(tmpdir(), 'kagent-cut-'));
  env = { HOME: home, KAGENT_CONFIG_DIR: s.configDir, KAGENT_CACHE_DIR: join(home, 'cache'), KAGENT_PAGER: 'cat' };
});
afterAll(() => s.close());

describe.each([40, 80, 200])('lib list of 54 items in a pseudo-terminal at %i columns', (cols) => {
  it('one page: the 50 rows, then "Showing 50 of more" on stderr', async () => {
    const run = await runInPty(['lib', 'list'], { env, cols, rows: 100 });
    expect(run.code).toBe(0);
    // The footer wraps at 40 columns like any note: no line wider than the terminal, read back as one.
    expect(
      plain(run.output)
        .split('\n')
        .filter((line) => displayWidth(line) > cols),
    ).toEqual([]);
    const text = unwrap(plain(run.output));
    expect(text.match(/^li_\w+/gm)).toHaveLength(50);
    expect(text.match(CUT)?.[1]).toBe('50');
    expect(text.trimEnd().split('\n').at(-1)).toMatch(CUT);
  });

  it('--limit 10 says so too; --all and a --limit past the end do not', async () => {
    const ten = unwrap(plain((await runInPty(['lib', 'list', '--limit', '10'], { env, cols, rows: 100 })).output));
    expect(ten.match(CUT)?.[1]).toBe('10');
    for (const args of [['--all'], ['--limit', '54'], ['--limit', '60']]) {
      const run = await runInPty(['lib', 'list', ...args], { env, cols, rows: 100 });
      expect(run.code, args.join(' ')).toBe(0);
      expect(plain(run.output).match(/^li_\w+/gm), args.join(' ')).toHaveLength(54);
      expect(plain(run.output), args.join(' ')).not.toMatch(/Showing/);
    }
  });

  it('piped (stdout and stderr pipes): the 50 rows on stdout, one line saying so on stderr', async () => {
    const run = await runInPty([], {
      env,
      cols,
      shell: 'eval "$KAGENT lib list" 2>/dev/null | cat; echo ---; eval "$KAGENT lib list" 2>&1 >/dev/null | cat',
    });
    expect(run.code).toBe(0);
    const [stdout = '', stderr = ''] = plain(run.output).split('---');
    expect(stdout.match(/^li_\w+\t/gm)).toHaveLength(50);
    expect(stdout).not.toMatch(/Showing/);
    expect(stderr.trim()).toMatch(new RegExp(`^${CUT.source.replace('(\\d+)', '50')}$`));
  });
});

describe('every paged list, through the shared list output', () => {
  it('doc list --limit 2 on a terminal says so; --json and piped do not (the cut was chosen)', async () => {
    const tty = await s.kagent(['doc', 'list', '--limit', '2'], { tty: true, columns: 80 });
    expect(tty.code).toBe(0);
    expect(plain(tty.stderr)).toMatch(/^Showing 2 of more: /m);
    for (const argv of [
      ['doc', 'list', '--limit', '2'],
      ['doc', 'list', '--limit', '2', '--json'],
    ]) {
      const r = await s.kagent(argv);
      expect(r.stderr, argv.join(' ')).not.toMatch(/Showing/);
    }
    const count = (await s.t.call('GET', '/docs', { query: { limit: 100 } })).body.items.length;
    const all = await s.kagent(['doc', 'list', '--limit', String(count)], { tty: true, columns: 80 });
    expect(all.code).toBe(0);
    expect(plain(all.stderr)).not.toMatch(/Showing/);
  });
});

describe("every list command cut at the service's page, piped", () => {
  // A service whose every list has one item on its first page and one more behind a cursor.
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      const url = new URL(req.url ?? '/', 'http://x');
      const n = url.searchParams.get('cursor') === 'p2' ? 2 : 1;
      const item = { id: `x_${n}`, title: `Item ${n}`, action: { id: `ac_${n}`, status: 'pending', risk: 'low' } };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ items: [item], nextCursor: n === 1 ? 'p2' : null }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  const kagent = (argv: string[]) =>
    runCli(argv, { env: { KAGENT_BASE_URL: baseUrl, KAGENT_API_KEY: 'kak_testtesttesttest' } });

  const lists = [
    ['lib', 'list'],
    ['doc', 'list'],
    ['task', 'list'],
    ['media', 'list'],
    ['conversation', 'list'],
    ['inbox', 'list'],
    ['actions', 'list'],
    ['watch', 'issues', 'some-watch'],
  ];
  for (const list of lists) {
    it(`kagent ${list.join(' ')}: one line on stderr, plain, --json and --jq; none with -q, --all or --limit`, async () => {
      for (const extra of [[], ['--json'], ['--jq', '.[].id']]) {
        const r = await kagent([...list, ...extra]);
        const argv = [...list, ...extra].join(' ');
        expect(r.code, `${argv}: ${r.stderr}`).toBe(0);
        expect(r.stdout, argv).toMatch(/x_1|ac_1/);
        expect(r.stdout, argv).not.toMatch(/x_2|ac_2/);
        expect(r.stderr.match(/Showing/g), argv).toHaveLength(1);
        expect(r.stderr.trimEnd().split('\n').at(-1), argv).toMatch(
          /^Showing 1 of more: --all lists every one, --limit N up to N$/,
        );
      }
      for (const extra of [['-q'], ['--all'], ['--limit', '1']]) {
        const r = await kagent([...list, ...extra]);
        expect(r.code, `${extra.join(' ')}: ${r.stderr}`).toBe(0);
        expect(r.stderr, extra.join(' ')).not.toMatch(/Showing/);
      }
    });
  }
});
