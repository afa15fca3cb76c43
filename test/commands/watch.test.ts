// `kagent watch ...` in-process against the sandbox (real HTTP on loopback):
// every command in terminal, piped and --json modes, every bound of
// CreateWatchRequest (at the limit and one over), the create → follow → first
// brief flow driven by the sandbox clock (no real sleeping), --timeout (exit 8)
// and Ctrl-C (exit 130) with the resume command, and the error paths
// (404, FOLLOW_LIMIT, NOT_OWNER, EMAIL_NOT_VERIFIED, monthly watch limit).
import { displayWidth } from '../../src/io/width.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';
import { hasForeignEscapes, type RunCliOptions } from '../helpers/run.js';
import { sandboxClock, type SandboxClock } from '../helpers/sandbox-clock.js';
import { pipedKeysOf } from '../helpers/piped-help.js';
import watchShow from '../../commands/watch/show.js';
import watchCreate from '../../commands/watch/create.js';

let s: LoggedIn;
let clock: SandboxClock;
/** A watch of the default account with three daily briefs. */
let slug: string;
/** A public watch owned by another account. */
let foreign: string;
let otherKey: string;

const DAY = 86_400_000;

/** Without our own colour codes. */
function plain(text: string): string {
  return text.replace(/\x1b\[[0-9;]*m/g, '');
}

/**
 * Whether `shown` (what follows an arrow, or a line of its own) is `url`: whole, or
 * shortened to fit — without scheme and `www.`, its middle left out with `…`.
 */
function showsUrl(shown: string, url: string): boolean {
  const text = shown.trim();
  if (text === url) return true;
  const bare = url.replace(/^https?:\/\//, '').replace(/^www\./, '');
  const [head = '', tail, more] = text.split('…');
  return (
    more === undefined &&
    head.length > 0 &&
    bare.startsWith(head) &&
    (tail === undefined ? text === bare : bare.endsWith(tail))
  );
}

function kagent(argv: string[], options: RunCliOptions = {}) {
  return s.kagent(argv, { clock, ...options });
}

async function stats(): Promise<Record<string, number>> {
  return (await s.t.call('GET', '/_sandbox/stats', { key: null })).body.requests;
}

beforeAll(async () => {
  s = await loggedInSandbox();
  clock = sandboxClock(s.t);
  await s.t.patchAccount(s.t.sandbox.accountId, { limits: { watchesPerMonth: 1000, follows: 1000 } });
  const created = await s.t.call('POST', '/watches', {
    body: { intent: 'Battery recycling in Europe', alerts: ['lithium'], cadence: 'daily' },
  });
  slug = created.body.slug;
  await s.t.advance(61_000);
  await s.t.advance(DAY);
  await s.t.advance(DAY);
  const other = await s.t.newAccount();
  otherKey = other.apiKey;
  const theirs = await s.t.call('POST', '/watches', {
    key: otherKey,
    body: { intent: 'Rust compiler releases', type: 'sources', urls: ['https://blog.rust-lang.org/'] },
  });
  foreign = theirs.body.slug;
  await s.t.advance(61_000);
});
afterAll(() => s.close());

// ---------------------------------------------------------------- create

describe('watch create', () => {
  it('follows the set-up task to the end and shows the first brief (piped: one line per milestone, TSV brief)', async () => {
    const before = await stats();
    const sleepsBefore = clock.sleeps.length;
    const r = await kagent([
      'watch',
      'create',
      '--visibility',
      'public',
      'EU rules on AI chips export',
      '--alert',
      'export ban',
    ]);
    expect(r.code).toBe(0);
    // stderr: an append-only log, one line per milestone event, nothing redrawn
    expect(r.stderr).not.toContain('\x1b');
    expect(r.stderr).toMatch(/^task tk_\w+: Set up watch: EU rules on AI chips export$/m);
    expect(r.stderr).toMatch(/^\[1\/5\] ✓ done: Plan how to follow .*— Type topic, cadence daily$/m);
    expect(r.stderr).toMatch(/^\[2\/5\] ✓ done: Finding sources — Found 5 sources/m);
    expect(r.stderr).toMatch(
      /^\[5\/5\] ✓ done: Write the first brief \(last 7 days\) — Brief of 2026-01-1\d, \d entries$/m,
    );
    expect(r.stderr).toMatch(/^task tk_\w+: done$/m);
    // each milestone's "done" line appears exactly once
    expect(r.stderr.match(/✓ done: Finding sources/g)).toHaveLength(1);
    // stdout: the watch and its first brief, tab-separated
    const [head, rows] = r.stdout.split('\n--\n');
    expect(head).toMatch(/^slug\teu-rules-on-ai-chips-export(-\d+)?$/m);
    expect(head).toMatch(/^status\tactive$/m);
    expect(head).toMatch(/^brief\tbr_\w+$/m);
    const entries = rows!.trim().split('\n');
    expect(entries.length).toBeGreaterThanOrEqual(4);
    expect(entries[0]).toMatch(/^1\t[\d.]+\t[^\t]*\t[^\t]+\thttps?:\/\/\S+\ten_\w+$/);
    // driven by the sandbox clock: the follower slept about the task's 60 s, and polled sparingly
    const slept = clock.sleeps.slice(sleepsBefore).reduce((a, b) => a + b, 0);
    expect(slept).toBeGreaterThanOrEqual(60_000);
    expect(slept).toBeLessThan(75_000);
    const after = await stats();
    expect((after.getTask ?? 0) - (before.getTask ?? 0)).toBeLessThanOrEqual(20);
    expect((after.createWatch ?? 0) - (before.createWatch ?? 0)).toBe(1);
  });

  it('on a terminal redraws the milestones in place, then renders the brief', async () => {
    const r = await kagent(
      [
        'watch',
        'create',
        '--visibility',
        'public',
        'Solid state batteries',
        '--cadence',
        'weekly',
        '--visibility',
        'public',
      ],
      {
        tty: true,
      },
    );
    expect(r.code).toBe(0);
    // redrawn in place: cursor up + clear line, never a plain log line
    expect(r.stderr).toMatch(/\x1b\[\d+A\r\x1b\[2K/);
    expect(r.stderr).toContain('Finding sources');
    expect(r.stderr).not.toMatch(/\[\d\/5\]/);
    // the last frame shows every milestone done
    const lastFrame = r.stderr.slice(r.stderr.lastIndexOf('Set up watch: Solid state batteries'));
    expect(lastFrame.match(/✓/g)!.length).toBeGreaterThanOrEqual(5);
    expect(lastFrame).toContain('done');
    expect(plain(r.stderr)).toContain('✓ Watch solid-state-batteries is set up: first brief with');
    // the brief, rendered for reading
    expect(r.stdout).toContain('Solid state batteries');
    expect(r.stdout).toContain('Why it matters:');
    expect(r.stdout).toContain('Evidence:');
    expect(plain(r.stdout)).toMatch(/^ 1 {2}●*○* {2}[A-Z]+$/m); // position, importance meter (dots only), category
    expect(r.stdout).toContain('Method');
    expect(r.stdout).toContain('Archive');
    expect(hasForeignEscapes(r.stdout)).toBe(false);
  });

  it('importance: one form, dots only (no number beside them), never red; at 40, 80 and 200 columns', async () => {
    for (const columns of [40, 80, 200]) {
      const r = await kagent(['watch', 'show', slug], { tty: true, columns, env: { FORCE_COLOR: '1' } });
      expect(r.code).toBe(0);
      const meters = plain(r.stdout).match(/^ ?\d+ {2}[●○]{5}.*$/gm) ?? [];
      expect(meters.length, `${columns} columns`).toBeGreaterThan(0);
      for (const line of meters) expect(line, `${columns} columns`).not.toMatch(/[●○] +(0\.\d\d|1)\b/);
      expect(r.stdout).not.toMatch(/\x1b\[31m●/);
      expect(r.stdout).toMatch(/\x1b\[1m●/); // an important entry's dots are bold
    }
  });

  it('without hyperlinks the arrow stays beside its whole URL (to follow or copy), never alone on its line, at 40, 80 and 200 columns', async () => {
    const entries = JSON.parse((await kagent(['watch', 'show', slug, '--json'])).stdout).brief.entries;
    for (const columns of [40, 80, 200]) {
      const r = await kagent(['watch', 'show', slug], { tty: true, columns, env: { FORCE_HYPERLINK: '0' } });
      expect(r.code).toBe(0);
      const lines = plain(r.stdout).split('\n');
      const arrows = lines.filter((line) => line.includes('→'));
      expect(arrows).toHaveLength(entries.length);
      arrows.forEach((line, i) => {
        expect(line, `${columns} columns`).toBe(`    →\u00a0${entries[i].primaryUrl}`);
      });
      // evidence of another page: its URL whole on the line under its title
      for (const entry of entries)
        for (const evidence of entry.evidence)
          if (evidence.url !== entry.primaryUrl) expect(lines).toContain(`        ${evidence.url}`);
    }
  });

  it('--json prints the final WatchPage', async () => {
    const r = await kagent([
      'watch',
      'create',
      '--visibility',
      'public',
      'Heat pumps in Germany',
      '--json',
      '--visibility',
      'unlisted',
    ]);
    expect(r.code).toBe(0);
    const page = JSON.parse(r.stdout);
    expect(page.watch.slug).toBe('heat-pumps-in-germany');
    expect(page.watch.status).toBe('active');
    expect(page.watch.visibility).toBe('unlisted');
    expect(page.brief.entries.length).toBeGreaterThan(0);
    expect(Array.isArray(page.archive)).toBe(true);
    expect(typeof page.method.summary).toBe('string');
  });

  it('--no-wait returns at once with the slug and task id (piped, --json, terminal)', async () => {
    const before = await stats();
    const piped = await kagent(['watch', 'create', '--visibility', 'public', 'Wind farms offshore', '--no-wait']);
    expect(piped.code).toBe(0);
    // no ✓ line piped: the answer is on stdout
    expect(piped.stderr).not.toContain('✓');
    expect(piped.stdout).toMatch(/^wind-farms-offshore\ttk_\w+\n$/);
    // The help names the row's columns (one field table gives both).
    expect(pipedKeysOf(watchCreate.description)).toEqual(['slug', 'task']);
    const json = await kagent(['watch', 'create', '--visibility', 'public', 'Tidal energy', '--no-wait', '--json']);
    const created = JSON.parse(json.stdout);
    expect(created).toMatchObject({
      slug: 'tidal-energy',
      taskId: expect.stringMatching(/^tk_/),
      watch: { status: 'setting_up' },
    });
    const tty = await kagent(['watch', 'create', 'Geothermal plants', '--no-wait'], {
      tty: true,
      answers: ['private'],
    });
    expect(tty.prompts).toEqual(['Who can see this watch?']);
    expect(plain(tty.stderr)).toContain('✓ Created private watch geothermal-plants; it is being set up by task tk_');
    expect(tty.stdout).toMatch(/Slug.*geothermal-plants/);
    expect(tty.stdout).toMatch(/Task.*tk_\w+/);
    expect(tty.stderr).toMatch(/follow the set-up: kagent task show tk_\w+ --follow/);
    const after = await stats();
    expect((after.getTask ?? 0) - (before.getTask ?? 0)).toBe(0);
  });

  it('--timeout exits 8 with the command that resumes; the set-up goes on', async () => {
    const r = await kagent(['watch', 'create', '--visibility', 'public', 'Hydrogen trains', '--timeout', '10']);
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(/error: still running after 10 s; the work goes on \(STILL_RUNNING\)/);
    const hint = /hint: .*`kagent task show (tk_\w+) --follow`.*`kagent watch show hydrogen-trains`/.exec(r.stderr);
    expect(hint).not.toBeNull();
    // the task is still running, and `task show --follow` picks it up
    const resumed = await kagent(['task', 'show', hint![1]!, '--follow', '--json']);
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout).status).toBe('done');
  });

  it('--timeout with --json prints the error envelope with the resume hint on stderr', async () => {
    const r = await kagent(['watch', 'create', '--visibility', 'public', 'Hydrogen buses', '--timeout', '5', '--json']);
    expect(r.code).toBe(8);
    expect(r.stdout).toBe('');
    const envelope = JSON.parse(r.stderr.trim().split('\n').pop()!);
    expect(envelope.error.code).toBe('STILL_RUNNING');
    expect(envelope.error.hint).toMatch(/kagent task show tk_\w+ --follow/);
  });

  it('Ctrl-C stops following (exit 130) and prints `kagent task show <id> --follow`; the work goes on', async () => {
    const controller = new AbortController();
    const local = sandboxClock(s.t);
    local.onSleep = (_ms, count) => {
      if (count === 2) controller.abort();
    };
    const r = await s.kagent(['watch', 'create', '--visibility', 'public', 'Carbon capture'], {
      clock: local,
      signal: controller.signal,
    });
    expect(r.code).toBe(130);
    expect(r.stderr).not.toContain('error');
    const id =
      /^the set-up goes on; follow it with `kagent task show (tk_\w+) --follow`, then read the watch with `kagent watch show carbon-capture`$/m.exec(
        r.stderr,
      )?.[1];
    expect(id).toBeDefined();
    const task = await s.t.call('GET', `/tasks/${id}`);
    expect(['queued', 'running']).toContain(task.body.status);
  });

  it('a set-up that ends cancelled is exit 1 (TASK_CANCELLED), with no brief printed', async () => {
    const local = sandboxClock(s.t);
    local.onSleep = (_ms, count) => {
      if (count !== 2) return;
      // someone cancels the set-up from elsewhere while we follow it
      void s.t
        .call('GET', '/tasks', { query: { active: 'true', kind: 'watch_setup' } })
        .then((res) =>
          Promise.all(
            res.body.items
              .filter((task: any) => task.title.includes('Doomed watch'))
              .map((task: any) => s.t.call('POST', `/tasks/${task.id}/cancel`)),
          ),
        );
    };
    const r = await s.kagent(['watch', 'create', '--visibility', 'public', 'Doomed watch'], { clock: local });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^task tk_\w+: cancelled$/m);
    expect(r.stderr).toMatch(/error: task tk_\w+ was cancelled: Set up watch: Doomed watch \(TASK_CANCELLED\)/);
  });

  it('the resume command keeps -p when the profile came from a flag', async () => {
    const r = await kagent([
      '-p',
      'default',
      'watch',
      'create',
      '--visibility',
      'public',
      'Nuclear fusion startups',
      '--timeout',
      '3',
    ]);
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(/`kagent -p default task show tk_\w+ --follow`/);
  });

  it('files the watch in --space, by name', async () => {
    const space = await s.t.call('POST', '/spaces', { body: { name: 'Energy' } });
    const r = await kagent([
      'watch',
      'create',
      '--visibility',
      'public',
      'Grid storage',
      '--space',
      'energy',
      '--no-wait',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const { slug: created } = JSON.parse(r.stdout);
    const followed = await s.t.call('GET', '/watches');
    expect(followed.body.items.find((w: any) => w.slug === created).spaceId).toBe(space.body.id);
    const missing = await kagent([
      'watch',
      'create',
      '--visibility',
      'public',
      'Grid storage',
      '--space',
      'Nowhere',
      '--no-wait',
    ]);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('no space with id or name "Nowhere"');
  });

  it("without --space, files the watch in the profile's space", async () => {
    const space = await s.t.call('POST', '/spaces', { body: { name: 'Profile space' } });
    expect((await kagent(['config', 'set', 'space', 'Profile space'])).code).toBe(0);
    try {
      const r = await kagent(['watch', 'create', '--visibility', 'public', 'Pumped storage', '--no-wait', '--json']);
      expect(r.code).toBe(0);
      const followed = await s.t.call('GET', '/watches');
      expect(followed.body.items.find((w: any) => w.slug === JSON.parse(r.stdout).slug).spaceId).toBe(space.body.id);
      const flag = await kagent([
        'watch',
        'create',
        '--visibility',
        'public',
        'Pumped storage two',
        '--space',
        'Energy',
        '--no-wait',
        '--json',
      ]);
      const again = await s.t.call('GET', '/watches');
      expect(again.body.items.find((w: any) => w.slug === JSON.parse(flag.stdout).slug).spaceId).not.toBe(
        space.body.id,
      );
    } finally {
      await kagent(['config', 'unset', 'space']);
    }
  });

  it('--url takes http and https links only (exit 2, names the flag, nothing sent)', async () => {
    const before = await stats();
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'ftp://example.com/feed', 'mailto:a@b.test']) {
      const r = await kagent([
        'watch',
        'create',
        'Odd links',
        '--type',
        'sources',
        '--url',
        url,
        '--visibility',
        'private',
      ]);
      expect(r.code, url).toBe(2);
      expect(r.stderr, url).toContain(`error: --url must be an http or https link (got "${url}")`);
    }
    const after = await stats();
    expect(after.createWatch ?? 0).toBe(before.createWatch ?? 0);
  });

  it('--type sources and pages need --url', async () => {
    const r = await kagent(['watch', 'create', '--visibility', 'public', 'Rust releases', '--type', 'sources']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: --type sources needs at least one --url (USAGE)');
  });

  it('asks for the intent on a terminal, and names it when it cannot ask', async () => {
    const asked = await kagent(['watch', 'create', '--no-wait', '--json'], {
      tty: true,
      answers: ['Quantum networking', 'unlisted'],
    });
    expect(asked.code).toBe(0);
    expect(asked.prompts[0]).toMatch(/What should the watch follow/);
    expect(asked.prompts[1]).toBe('Who can see this watch?');
    expect(JSON.parse(asked.stdout).watch.visibility).toBe('unlisted');
    expect(JSON.parse(asked.stdout).slug).toBe('quantum-networking');
    const piped = await kagent(['watch', 'create', '--no-wait']);
    expect(piped.code).toBe(2);
    expect(piped.stderr).toMatch(/INTENT/);
  });

  it('cannot ask who may see it (piped, --json, --yes on a terminal): exit 2 naming --visibility, nothing created', async () => {
    const before = await stats();
    for (const [argv, tty] of [
      [['Wind farms inland', '--no-wait'], false],
      [['Wind farms inland', '--json'], false],
      [['Wind farms inland', '--yes'], true],
    ] as Array<[string[], boolean]>) {
      const r = await kagent(['watch', 'create', ...argv], { tty });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      const said = argv.includes('--json') ? JSON.parse(r.stderr).error : { message: plain(r.stderr) };
      expect(JSON.stringify(said), argv.join(' ')).toMatch(/--visibility/);
      if (!argv.includes('--json'))
        expect(plain(r.stderr)).toMatch(/hint: e\.g\. kagent watch create 'Wind farms inland' --visibility private/);
    }
    const after = await stats();
    expect(after.createWatch ?? 0).toBe(before.createWatch ?? 0);
  });

  it('EMAIL_NOT_VERIFIED is explained (exit 6)', async () => {
    const account = await s.t.newAccount({ emailVerified: false });
    const r = await kagent(['watch', 'create', '--visibility', 'public', 'Anything at all', '--no-wait'], {
      env: { KAGENT_API_KEY: account.apiKey },
    });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(
      /error: your email address \(.+@.+\) is not verified yet; creating a watch needs a verified address \(EMAIL_NOT_VERIFIED\)/,
    );
    expect(r.stderr).toMatch(/hint: open the verification link/);
    const json = await kagent(['watch', 'create', '--visibility', 'public', 'Anything at all', '--no-wait', '--json'], {
      env: { KAGENT_API_KEY: account.apiKey },
    });
    expect(JSON.parse(json.stderr).error.code).toBe('EMAIL_NOT_VERIFIED');
  });

  it('the monthly watch limit is explained with the plan and the count (exit 6)', async () => {
    const account = await s.t.newAccount({ limits: { watchesPerMonth: 1 } });
    await s.t.patchAccount(account.accountId, { watchesThisMonth: 1 });
    const r = await kagent(['watch', 'create', '--visibility', 'public', 'One too many', '--no-wait'], {
      env: { KAGENT_API_KEY: account.apiKey },
    });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(
      /error: monthly watch limit reached: your plan \(.+\) creates at most 1 watch a month, and 1 was created this month/,
    );
    expect(r.stderr).toMatch(/hint: the count starts again next month .*kagent watch search TOPIC/);
  });
});

// ---------------------------------------------------------------- bounds

describe('watch create: every bound, checked before any request', () => {
  const x = (n: number) => 'x'.repeat(n);
  const url = (n: number) => `https://example.com/${'p'.repeat(n - 'https://example.com/'.length)}`;
  const urls = (n: number) => Array.from({ length: n }, (_, i) => ['--url', `https://example.com/${i}`]).flat();
  const alerts = (n: number) => Array.from({ length: n }, (_, i) => ['--alert', `phrase ${i}`]).flat();

  const over: Array<[string, string[], RegExp]> = [
    ['intent one short', ['x'], /INTENT must be 2 to 200 characters \(got 1\)/],
    ['intent one over', [x(201)], /INTENT must be 2 to 200 characters \(got 201\)/],
    ['21 urls', ['Twenty one', '--type', 'sources', ...urls(21)], /--url must have at most 20 items \(got 21\)/],
    [
      'a url of 2049 characters',
      ['Long url', '--type', 'pages', '--url', url(2049)],
      /--url must be at most 2048 characters \(got 2049\)/,
    ],
    [
      'a url that is not a URL',
      ['Bad url', '--type', 'pages', '--url', 'example.com'],
      /--url must be an absolute URL/,
    ],
    ['a url with a space', ['Bad url', '--type', 'pages', '--url', 'https://example.com/a b'], /--url must be a URI/],
    ['a url with < and >', ['Bad url', '--type', 'pages', '--url', 'https://example.com/<x>'], /--url must be a URI/],
    ['6 alerts', ['Six alerts', ...alerts(6)], /--alert must have at most 5 items \(got 6\)/],
    ['an alert of 1 character', ['Short alert', '--alert', 'x'], /--alert must be 2 to 200 characters \(got 1\)/],
    [
      'an alert of 201 characters',
      ['Long alert', '--alert', x(201)],
      /--alert must be 2 to 200 characters \(got 201\)/,
    ],
    ['an unknown type', ['Bad type', '--type', 'feeds'], /--type must be one of: topic, sources, pages/],
    ['an unknown cadence', ['Bad cadence', '--cadence', 'hourly'], /--cadence must be one of: daily, weekly, off/],
    [
      'an unknown visibility',
      ['Bad visibility', '--visibility', 'secret'],
      /--visibility must be one of: public, unlisted, private/,
    ],
    ['a space of 81 characters', ['Bad space', '--space', x(81)], /--space must be 1 to 80 characters \(got 81\)/],
    [
      'an idempotency key of 201 characters',
      ['Bad key', '--idempotency-key', x(201)],
      /--idempotency-key must be 1 to 200 characters \(got 201\)/,
    ],
  ];
  for (const [name, argv, message] of over) {
    it(`refuses ${name} (exit 2, names the flag and the bound, sends nothing)`, async () => {
      const before = await stats();
      const r = await kagent(['watch', 'create', '--visibility', 'public', ...argv, '--no-wait']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toContain('(INVALID_INPUT)');
      const after = await stats();
      expect(after.createWatch ?? 0).toBe(before.createWatch ?? 0);
      expect(after.listSpaces ?? 0).toBe(before.listSpaces ?? 0);
    });
  }

  it('refuses --lang outside zh/en (a global flag) with exit 2', async () => {
    const r = await kagent(['watch', 'create', '--visibility', 'public', 'Lang check', '--lang', 'fr', '--no-wait']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--lang/);
  });

  const atLimit: Array<[string, string[], (body: any) => void]> = [
    ['an intent of 2 characters', ['ab'], (w) => expect(w.intent).toBe('ab')],
    ['an intent of 200 characters', [x(200)], (w) => expect(w.intent).toHaveLength(200)],
    ['20 urls', ['Twenty sources', '--type', 'sources', ...urls(20)], (w) => expect(w.urls).toHaveLength(20)],
    [
      'a url of 2048 characters',
      ['Long page', '--type', 'pages', '--url', url(2048)],
      (w) => expect(w.urls[0]).toHaveLength(2048),
    ],
    ['5 alerts', ['Five alerts', ...alerts(5)], (w) => expect(w.alerts).toHaveLength(5)],
    [
      'alerts of 2 and 200 characters',
      ['Alert lengths', '--alert', 'ab', '--alert', x(200)],
      (w) => expect(w.alerts.map((a: string) => a.length)).toEqual([2, 200]),
    ],
    [
      'every field at once',
      [
        'All fields',
        '--type',
        'pages',
        '--url',
        'https://example.com/pricing',
        '--cadence',
        'off',
        '--visibility',
        'private',
        '--lang',
        'zh',
      ],
      (w) =>
        expect(w).toMatchObject({
          type: 'pages',
          cadence: 'off',
          visibility: 'private',
          lang: 'zh',
          urls: ['https://example.com/pricing'],
        }),
    ],
  ];
  for (const [name, argv, check] of atLimit) {
    it(`accepts ${name}`, async () => {
      const r = await kagent(['watch', 'create', '--visibility', 'public', ...argv, '--no-wait', '--json']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      check(JSON.parse(r.stdout).watch);
    });
  }

  it('--idempotency-key makes a rerun return the first watch instead of a second one', async () => {
    const first = await kagent([
      'watch',
      'create',
      '--visibility',
      'public',
      'Rerun safe',
      '--no-wait',
      '--json',
      '--idempotency-key',
      'ci-run-42',
    ]);
    const second = await kagent([
      'watch',
      'create',
      '--visibility',
      'public',
      'Rerun safe',
      '--no-wait',
      '--json',
      '--idempotency-key',
      'ci-run-42',
    ]);
    expect(JSON.parse(second.stdout).slug).toBe(JSON.parse(first.stdout).slug);
    expect(second.stderr).toContain('this key already created watch rerun-safe');
  });
});

// ---------------------------------------------------------------- show

describe('watch show', () => {
  it('terminal: entries by position with importance, category, headline, rendered summary, why, link and evidence', async () => {
    const json = JSON.parse((await kagent(['watch', 'show', slug, '--json'])).stdout);
    const entries = json.brief.entries;
    const r = await kagent(['watch', 'show', slug], { tty: true });
    expect(r.code).toBe(0);
    const out = r.stdout;
    expect(out).toContain(json.watch.title);
    // the sandbox's first evidence is often the primary link itself: it is not printed twice
    expect(entries.some((e: any) => e.evidence.some((v: any) => v.url === e.primaryUrl))).toBe(true);
    let at = 0;
    const lines = plain(out).split('\n');
    for (const entry of entries) {
      const headline = out.indexOf(entry.headline, at);
      expect(headline).toBeGreaterThan(at); // in position order
      at = headline;
      // its URL whole on its arrow line (no links here), and under no evidence again
      expect(lines).toContain(`    →\u00a0${entry.primaryUrl}`);
      expect(out).toContain(entry.id);
      if (entry.category) expect(out).toContain(entry.category.toUpperCase());
      for (const evidence of entry.evidence)
        expect(lines.filter((line) => showsUrl(line, evidence.url))).toHaveLength(
          evidence.url === entry.primaryUrl ? 0 : 1,
        );
    }
    expect(out.match(/Why it matters:/g)).toHaveLength(entries.length);
    // Markdown in summaries is rendered: the source's ** markers are gone, bold is there
    expect(entries.some((e: any) => e.summary.includes('**'))).toBe(true);
    expect(out).not.toContain('**');
    expect(out).toContain('\x1b[1m');
    // the archive and the method
    expect(out).toMatch(/Archive.*2026-01-1\d/);
    expect(out).toContain('Method');
    expect(out).toContain(json.method.summary.split(' ').slice(0, 3).join(' '));
    // no hyperlinks unless the terminal supports them
    expect(out).not.toContain('\x1b]8;');
    expect(hasForeignEscapes(out)).toBe(false);
  });

  it('terminal with hyperlink support: headlines, links and evidence are OSC 8 links', async () => {
    const json = JSON.parse((await kagent(['watch', 'show', slug, '--json'])).stdout);
    const entry = json.brief.entries[0];
    const r = await kagent(['watch', 'show', slug], {
      tty: true,
      env: { TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.5.0' },
    });
    expect(r.stdout).toContain(`\x1b]8;;${entry.primaryUrl}\x1b\\${entry.headline}\x1b]8;;\x1b\\`);
    expect(r.stdout).toContain(`\x1b]8;;${entry.evidence[0].url}\x1b\\`);
    // never when piped, even when forced
    const piped = await kagent(['watch', 'show', slug], { env: { FORCE_HYPERLINK: '1' } });
    expect(piped.stdout).not.toContain('\x1b');
  });

  it('terminal with hyperlink support: a long URL is shortened to fit its arrow line and linked to the whole address', async () => {
    const entries = JSON.parse((await kagent(['watch', 'show', slug, '--json'])).stdout).brief.entries;
    for (const columns of [40, 80, 200]) {
      const r = await kagent(['watch', 'show', slug], { tty: true, columns, env: { FORCE_HYPERLINK: '1' } });
      const arrows = r.stdout.split('\n').filter((line) => line.includes('→'));
      expect(arrows).toHaveLength(entries.length);
      arrows.forEach((line, i) => {
        const url = entries[i].primaryUrl;
        expect(line, `${columns} columns`).toContain(`\x1b]8;;${url}\x1b\\`);
        const shown = plain(line).replace(/\x1b\]8;;[^\x1b]*\x1b\\/g, '');
        expect(displayWidth(shown), `${columns} columns: ${shown}`).toBeLessThanOrEqual(columns);
        expect(showsUrl(shown.split('→')[1]!, url), shown).toBe(true);
      });
      // no URL printed as text: every one is a link
      expect(r.stdout.replace(/\x1b\]8;;[^\x1b]*\x1b\\/g, '')).not.toMatch(/https?:\/\//);
      expect(r.stdout).not.toContain('Links are shortened');
    }
  });

  it('piped: label/value lines, `--`, one TSV row per entry by position', async () => {
    const json = JSON.parse((await kagent(['watch', 'show', slug, '--json'])).stdout);
    const r = await kagent(['watch', 'show', slug]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('\x1b');
    const [head, body] = r.stdout.split('\n--\n');
    // The help names every key of the head, in that order (one field table gives both).
    expect(pipedKeysOf(watchShow.description)).toEqual(head!.split('\n').map((line) => line.split('\t')[0]));
    expect(head).toContain(`slug\t${slug}`);
    expect(head).toContain(`brief\t${json.brief.id}`);
    expect(head).toContain(`date\t${json.brief.date}`);
    const rows = body!
      .trim()
      .split('\n')
      .map((line) => line.split('\t'));
    expect(rows).toHaveLength(json.brief.entries.length);
    rows.forEach((row, i) => {
      const entry = json.brief.entries[i];
      expect(row).toEqual([
        String(entry.position),
        String(entry.importance),
        entry.category ?? '',
        entry.headline,
        entry.primaryUrl,
        entry.id,
      ]);
    });
  });

  it('--json is the WatchPage; --date picks a brief from the archive; --lang translates', async () => {
    const latest = JSON.parse((await kagent(['watch', 'show', slug, '--json'])).stdout);
    expect(latest.archive.length).toBe(3);
    const oldest = latest.archive[latest.archive.length - 1];
    const dated = JSON.parse((await kagent(['watch', 'show', slug, '--date', oldest.date, '--json'])).stdout);
    expect(dated.brief.id).toBe(oldest.id);
    expect(dated.brief.id).not.toBe(latest.brief.id);
    const zh = JSON.parse((await kagent(['watch', 'show', slug, '--lang', 'zh', '--json'])).stdout);
    expect(zh.brief.lang).toBe('zh');
    expect(zh.brief.entries[0].id).toBe(latest.brief.entries[0].id);
  });

  it('--date must be a YYYY-MM-DD that exists (exit 2, before any request); a date without a brief is exit 4', async () => {
    const before = await stats();
    const bad = await kagent(['watch', 'show', slug, '--date', '15/01/2026']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--date must match YYYY-MM-DD');
    expect((await stats()).getWatch ?? 0).toBe(before.getWatch ?? 0);
    // The form alone is not enough: a month 13, a 30 February, a 29 February outside a leap year are refused too.
    for (const date of ['2026-13-01', '2026-02-30', '2026-02-29', '2026-04-31', '2026-00-10', '2026-01-00']) {
      const impossible = await kagent(['watch', 'show', slug, '--date', date]);
      expect(impossible.code).toBe(2);
      expect(impossible.stderr).toContain(`--date must be a date that exists, YYYY-MM-DD (got ${date})`);
    }
    expect((await stats()).getWatch ?? 0).toBe(before.getWatch ?? 0);
    const none = await kagent(['watch', 'show', slug, '--date', '2020-01-01']);
    expect(none.code).toBe(4);
    expect(none.stderr).toMatch(/hint: no brief of 2020-01-01: `kagent watch issues/);
  });

  it('a watch that does not exist: exit 4 with a hint', async () => {
    const r = await kagent(['watch', 'show', 'no-such-watch']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/error: .*no-such-watch.* \(WATCH_NOT_FOUND\)/);
    expect(r.stderr).toMatch(/hint: no watch "no-such-watch" that you can see: `kagent watch list`/);
    const json = await kagent(['watch', 'show', 'no-such-watch', '--json']);
    expect(json.code).toBe(4);
    expect(JSON.parse(json.stderr).error.code).toBe('WATCH_NOT_FOUND');
  });

  it('a watch still being set up says so', async () => {
    const created = await kagent(['watch', 'create', '--visibility', 'public', 'Fresh watch', '--no-wait', '--json']);
    const r = await kagent(['watch', 'show', JSON.parse(created.stdout).slug], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('No brief yet.');
    expect(r.stdout).toContain('still being set up');
  });

  it('removes escape sequences from server text', async () => {
    const evil = 'Evil \x1b]0;pwned\x07title \x1b[2J here';
    const created = await kagent(['watch', 'create', '--visibility', 'public', evil, '--json']);
    expect(created.code).toBe(0);
    const page = JSON.parse(created.stdout);
    expect(page.watch.intent).toContain('\x1b'); // the service stored it as given
    for (const tty of [true, false]) {
      const r = await kagent(['watch', 'show', page.watch.slug], { tty });
      expect(r.code).toBe(0);
      expect(hasForeignEscapes(r.stdout)).toBe(false);
      expect(r.stdout).not.toContain('pwned\x07');
      if (!tty) expect(r.stdout).not.toContain('\x1b');
    }
    const list = await kagent(['watch', 'list'], { tty: true });
    expect(hasForeignEscapes(list.stdout)).toBe(false);
  });
});

// ---------------------------------------------------------------- knowledge, issues, search, list

describe('watch knowledge', () => {
  it('terminal: the report rendered and the timeline; piped: Markdown source, --, rows; --json: Knowledge', async () => {
    const json = await kagent(['watch', 'knowledge', slug, '--json']);
    expect(json.code).toBe(0);
    const k = JSON.parse(json.stdout);
    expect(k.slug).toBe(slug);
    expect(k.report.markdown).toMatch(/^# /);
    expect(k.timeline.length).toBeGreaterThan(0);

    const tty = await kagent(['watch', 'knowledge', slug], { tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toContain(`week ${k.report.week}`);
    expect(tty.stdout).not.toMatch(/^# /m); // heading rendered, not shown as source
    expect(tty.stdout).toContain('Timeline');
    expect(tty.stdout).toContain(k.timeline[0].headline);

    const piped = await kagent(['watch', 'knowledge', slug]);
    const [report, rows] = piped.stdout.split('\n--\n');
    expect(report).toBe(k.report.markdown.replace(/\n+$/, ''));
    const first = rows!.split('\n')[0]!.split('\t');
    expect(first).toEqual([
      k.timeline[0].date,
      String(k.timeline[0].importance),
      k.timeline[0].entryId,
      k.timeline[0].headline,
      k.timeline[0].url,
    ]);
  });

  it('404 for an unknown watch', async () => {
    const r = await kagent(['watch', 'knowledge', 'nope-nope']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('WATCH_NOT_FOUND');
  });
});

describe('watch issues', () => {
  it('lists briefs newest first in every mode; --limit and --all', async () => {
    const json = JSON.parse((await kagent(['watch', 'issues', slug, '--json'])).stdout);
    expect(json).toHaveLength(3);
    const dates = json.map((i: any) => i.date);
    expect([...dates].sort().reverse()).toEqual(dates);

    const piped = await kagent(['watch', 'issues', slug]);
    const rows = piped.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows.map((r) => r[0])).toEqual(dates);
    expect(rows[0]).toEqual([json[0].date, json[0].id, String(json[0].entryCount), json[0].title, json[0].createdAt]);

    const tty = await kagent(['watch', 'issues', slug], { tty: true });
    expect(plain(tty.stdout)).toMatch(/DATE\s+ID\s+ENTRIES\s+TITLE\s+TOP HEADLINE/);
    expect(tty.stdout).toContain(json[0].headlines[0].slice(0, 20));

    const limited = await kagent(['watch', 'issues', slug, '--limit', '2']);
    expect(limited.stdout.trim().split('\n')).toHaveLength(2);
    const all = JSON.parse((await kagent(['watch', 'issues', slug, '--all', '--json'])).stdout);
    expect(all).toHaveLength(3);
  });

  it('--limit 0 is refused (exit 2); --limit with --all too; unknown watch is 404', async () => {
    const zero = await kagent(['watch', 'issues', slug, '--limit', '0']);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toMatch(/--limit/);
    const both = await kagent(['watch', 'issues', slug, '--limit', '1', '--all']);
    expect(both.code).toBe(2);
    const missing = await kagent(['watch', 'issues', 'nope-nope']);
    expect(missing.code).toBe(4);
  });
});

describe('watch search', () => {
  it('finds public watches in every mode', async () => {
    const json = JSON.parse((await kagent(['watch', 'search', 'rust compiler', '--json'])).stdout);
    expect(json.map((w: any) => w.slug)).toContain(foreign);
    const piped = await kagent(['watch', 'search', 'rust compiler']);
    expect(piped.stdout.split('\n')[0]!.split('\t')[0]).toBe(json[0].slug);
    const tty = await kagent(['watch', 'search', 'rust compiler'], { tty: true, columns: 200 });
    expect(plain(tty.stdout)).toMatch(/SLUG\s+TITLE\s+TYPE\s+CADENCE\s+FOLLOWERS\s+LAST BRIEF/);
    expect(tty.stdout).toContain(foreign);
  });

  it('says when nothing matches; the query is bounded (1 to 200)', async () => {
    const none = await kagent(['watch', 'search', 'zzzqqq'], { tty: true });
    expect(none.code).toBe(0);
    expect(none.stderr).toMatch(/No public watch matches "zzzqqq"/);
    expect(JSON.parse((await kagent(['watch', 'search', 'zzzqqq', '--json'])).stdout)).toEqual([]);
    const long = await kagent(['watch', 'search', 'q'.repeat(201)]);
    expect(long.code).toBe(2);
    expect(long.stderr).toContain('QUERY must be 1 to 200 characters (got 201)');
    const atLimit = await kagent(['watch', 'search', 'q'.repeat(200), '--json']);
    expect(atLimit.code).toBe(0);
    const empty = await kagent(['watch', 'search', '']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('QUERY must be 1 to 200 characters (got 0)');
  });
});

describe('watch list', () => {
  it('lists followed watches with their latest brief in every mode', async () => {
    const json = JSON.parse((await kagent(['watch', 'list', '--json'])).stdout);
    const mine = json.find((w: any) => w.slug === slug);
    expect(mine.latestBrief.entryCount).toBeGreaterThan(0);
    const piped = await kagent(['watch', 'list']);
    const row = piped.stdout
      .split('\n')
      .find((l) => l.startsWith(`${slug}\t`))!
      .split('\t');
    expect(row).toEqual([
      slug,
      mine.title,
      mine.type,
      mine.cadence,
      'true',
      mine.spaceId,
      mine.latestBrief.date,
      mine.latestBrief.id,
      String(mine.latestBrief.entryCount),
      mine.latestBrief.title,
    ]);
    // Wide enough for every column (narrower, columns the same in every row — OWNER here — drop first, then the type and cadence).
    const tty = await kagent(['watch', 'list'], { tty: true, columns: 240 });
    expect(plain(tty.stdout)).toMatch(/SLUG\s+TITLE\s+TYPE\s+CADENCE\s+OWNER\s+SPACE\s+LATEST BRIEF/);
    const narrow = plain((await kagent(['watch', 'list'], { tty: true, columns: 80 })).stdout);
    expect(narrow.split('\n')[0]).toMatch(/^SLUG\s+TITLE\s.*LATEST BRIEF$/);
    for (const line of narrow.trimEnd().split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(80);
    expect(tty.stdout).toContain(`${mine.latestBrief.date}`);
    expect(tty.stdout).toContain('Personal'); // the space by name on a terminal
  });

  it('says how to start when nothing is followed', async () => {
    const account = await s.t.newAccount();
    const r = await kagent(['watch', 'list'], { tty: true, env: { KAGENT_API_KEY: account.apiKey } });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/You follow no watches yet: find one with `kagent watch search TOPIC`/);
    expect((await kagent(['watch', 'list', '--json'], { env: { KAGENT_API_KEY: account.apiKey } })).stdout).toBe(
      '[]\n',
    );
  });
});

// ---------------------------------------------------------------- follow, unfollow, settings

describe('watch follow / unfollow', () => {
  it('follows, moves to another space, and unfollows (piped, terminal, --json)', async () => {
    const space = await s.t.call('POST', '/spaces', { body: { name: 'Rust things' } });
    const piped = await kagent(['watch', 'follow', foreign]);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toMatch(new RegExp(`^${foreign}\ttrue\tsp_\\w+\t\\d+\n$`));
    const moved = await kagent(['watch', 'follow', foreign, '--space', 'Rust things', '--json']);
    expect(moved.code).toBe(0);
    expect(JSON.parse(moved.stdout)).toMatchObject({ slug: foreign, following: true, spaceId: space.body.id });
    const tty = await kagent(['watch', 'follow', foreign], { tty: true });
    expect(tty.stdout).toBe('');
    expect(tty.stderr).toMatch(new RegExp(`✓.*Following ${foreign}`));

    const un = await kagent(['watch', 'unfollow', foreign, '--json']);
    expect(un.code).toBe(0);
    expect(JSON.parse(un.stdout)).toEqual({ slug: foreign, following: false });
    const followed = await s.t.call('GET', '/watches');
    expect(followed.body.items.map((w: any) => w.slug)).not.toContain(foreign);
    await kagent(['watch', 'follow', foreign]);
    const unPiped = await kagent(['watch', 'unfollow', foreign]);
    expect(unPiped.stdout).toBe(`${foreign}\tfalse\n`);
    await kagent(['watch', 'follow', foreign]);
    const unTty = await kagent(['watch', 'unfollow', foreign], { tty: true });
    expect(unTty.stdout).toBe('');
    expect(unTty.stderr).toContain(`No longer following ${foreign}`);
  });

  it("FOLLOW_LIMIT says the plan's limit from GET /me (exit 6)", async () => {
    const account = await s.t.newAccount({ limits: { follows: 1 } });
    const env = { KAGENT_API_KEY: account.apiKey };
    expect((await kagent(['watch', 'follow', foreign], { env })).code).toBe(0);
    const r = await kagent(['watch', 'follow', slug], { env });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/error: your plan \(.+\) follows at most 1 watch, and you follow 1 \(FOLLOW_LIMIT\)/);
    expect(r.stderr).toMatch(/hint: unfollow one first/);
    const json = await kagent(['watch', 'follow', slug, '--json'], { env });
    expect(JSON.parse(json.stderr).error).toMatchObject({
      code: 'FOLLOW_LIMIT',
      message: expect.stringContaining('at most 1 watch'),
    });
  });

  it('404 for an unknown watch; --space is bounded', async () => {
    expect((await kagent(['watch', 'follow', 'nope-nope'])).code).toBe(4);
    expect((await kagent(['watch', 'unfollow', 'nope-nope'])).code).toBe(4);
    const long = await kagent(['watch', 'follow', foreign, '--space', 'x'.repeat(81)]);
    expect(long.code).toBe(2);
    expect(long.stderr).toContain('--space must be 1 to 80 characters (got 81)');
  });
});

describe('watch settings', () => {
  it('changes cadence and alerts of an owned watch (terminal, piped, --json)', async () => {
    const json = await kagent([
      'watch',
      'settings',
      slug,
      '--cadence',
      'weekly',
      '--alert',
      'cobalt',
      '--alert',
      'sodium ion',
      '--json',
    ]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ slug, cadence: 'weekly', alerts: ['cobalt', 'sodium ion'] });
    const page = (await s.t.call('GET', `/watches/${slug}`)).body;
    expect(page.watch).toMatchObject({ cadence: 'weekly', alerts: ['cobalt', 'sodium ion'] });
    const piped = await kagent(['watch', 'settings', slug, '--clear-alerts']);
    expect(piped.stdout).toBe(`${slug}\t\t\n`);
    expect((await s.t.call('GET', `/watches/${slug}`)).body.watch.alerts).toEqual([]);
    const tty = await kagent(['watch', 'settings', slug, '--cadence', 'daily'], { tty: true });
    expect(tty.stdout).toBe('');
    expect(tty.stderr).toContain(`Updated ${slug}: cadence daily`);
  });

  it('owner only: the 404 the contract gives anyone else is explained', async () => {
    const r = await kagent(['watch', 'settings', foreign, '--cadence', 'weekly']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(
      /error: only the owner of a watch can change its settings, and .* was created by someone else \(WATCH_NOT_FOUND\)/,
    );
    expect(r.stderr).toMatch(/hint: you can still follow or unfollow it/);
  });

  it('bounds and usage: nothing to change, 6 alerts, a 1-character alert, an unknown cadence, both --alert and --clear-alerts', async () => {
    const before = await stats();
    const cases: Array<[string[], RegExp]> = [
      [[], /nothing to change: pass --cadence, --alert or --clear-alerts/],
      [
        Array.from({ length: 6 }, (_, i) => ['--alert', `alert ${i}`]).flat(),
        /--alert must have at most 5 items \(got 6\)/,
      ],
      [['--alert', 'x'], /--alert must be 2 to 200 characters \(got 1\)/],
      [['--alert', 'y'.repeat(201)], /--alert must be 2 to 200 characters \(got 201\)/],
      [['--cadence', 'hourly'], /--cadence must be one of: daily, weekly, off/],
      [['--alert', 'ok alert', '--clear-alerts'], /use --alert or --clear-alerts, not both/],
    ];
    for (const [flags, message] of cases) {
      const r = await kagent(['watch', 'settings', slug, ...flags]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect((await stats()).updateWatchSettings ?? 0).toBe(before.updateWatchSettings ?? 0);
    const five = await kagent([
      'watch',
      'settings',
      slug,
      ...Array.from({ length: 5 }, (_, i) => ['--alert', `alert ${i}`]).flat(),
      '--json',
    ]);
    expect(five.code).toBe(0);
    expect(JSON.parse(five.stdout).alerts).toHaveLength(5);
    const lengths = await kagent(['watch', 'settings', slug, '--alert', 'ab', '--alert', 'y'.repeat(200), '--json']);
    expect(lengths.code).toBe(0);
    expect((await s.t.call('GET', `/watches/${slug}`)).body.watch.alerts.map((a: string) => a.length)).toEqual([
      2, 200,
    ]);
  });

  it('404 for an unknown watch', async () => {
    const r = await kagent(['watch', 'settings', 'nope-nope', '--cadence', 'off']);
    expect(r.code).toBe(4);
  });
});

describe('watch --help', () => {
  it('every subcommand has examples', async () => {
    for (const sub of ['list', 'create', 'search', 'show', 'knowledge', 'issues', 'follow', 'unfollow', 'settings']) {
      const r = await kagent(['watch', sub, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/Examples:\n\s+\$ kagent watch/);
    }
  });
});
