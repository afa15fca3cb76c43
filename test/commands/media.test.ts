// `kagent media` against the sandbox, in-process, with time driven by the
// sandbox clock (sleeping advances it; nothing really waits): quote, start
// (cost, confirmation, following segments to ready), list, show (--follow) and
// transcript (--from/--to) — terminal, piped and --json — and the error paths:
// no --yes without a terminal → 2, CREDITS_EXHAUSTED → 6, MEDIA_UNAVAILABLE → 7,
// a link that cannot be transcribed → 2, MEDIA_NOT_READY → 2, bad --from → 2,
// 404 → 4, --timeout → 8 and Ctrl-C → 130 with `kagent media show ID --follow`.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';
import type { RunCliOptions } from '../helpers/run.js';
import { pipedKeysOf } from '../helpers/piped-help.js';
import quote from '../../commands/media/quote.js';
import { sandboxClock, type SandboxClock } from '../helpers/sandbox-clock.js';

let s: LoggedIn;
let clock: SandboxClock;
let key: string;

const VIDEO = 'https://www.youtube.com/watch?v=kagent-test-1';
const PODCAST = 'https://example.com/episodes/42.mp3';

beforeAll(async () => {
  s = await loggedInSandbox();
  clock = sandboxClock(s.t);
});
afterAll(() => s.close());

async function freshAccount(credits = 1000): Promise<void> {
  ({ apiKey: key } = await s.t.newAccount({ credits }));
}

const kagent = (argv: string[], options: RunCliOptions = {}) =>
  s.kagent(argv, { clock, ...options, env: { KAGENT_API_KEY: key, ...options.env } });
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

async function requests(): Promise<Record<string, number>> {
  return (await s.t.call('GET', '/_sandbox/stats', { key: null })).body.requests;
}
async function resetStats(): Promise<void> {
  await s.t.call('DELETE', '/_sandbox/stats', { key: null });
}

async function quoteOf(url: string): Promise<any> {
  return (await s.t.call('POST', '/media/quote', { key, body: { url } })).body;
}

/** Starts transcribing through the API; with `ready`, advances the clock until it is done. */
async function started(url: string, ready = false): Promise<string> {
  const res = await s.t.call('POST', '/media', { key, body: { url } });
  expect(res.status).toBe(202);
  if (ready) await s.t.advance(60_000);
  return res.body.mediaId;
}

async function fullPage(id: string): Promise<any> {
  return (await s.t.call('GET', `/media/${id}`, { key })).body;
}

const timecode = (seconds: number) => {
  const t = Math.floor(seconds);
  return `${Math.floor(t / 3600)}:${String(Math.floor((t % 3600) / 60)).padStart(2, '0')}:${String(t % 60).padStart(2, '0')}`;
};

/** What the piped reading of a ready media item is, from its MediaPage. */
function pipedReading(page: any): string {
  return [
    `# ${page.title}`,
    '',
    ...page.segments.map((seg: any) => `[${timecode(seg.start)}] ${seg.text}`),
    '',
    '## Summary',
    '',
    page.summary.trim(),
    '',
    '## Chapters',
    '',
    ...page.chapters.map((c: any) => `- [${timecode(c.start)}] ${c.title}`),
    '',
  ].join('\n');
}

describe('media quote', () => {
  beforeAll(() => freshAccount());

  it('piped: key/value lines; --json: the MediaQuote; terminal: the cost and the credits left', async () => {
    const q = await quoteOf(VIDEO);
    const piped = await kagent(['media', 'quote', VIDEO]);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe(
      [
        `url\t${q.url}`,
        `title\t${q.title}`,
        `kind\tvideo`,
        `duration-sec\t${q.durationSec}`,
        `minutes\t${q.minutes}`,
        `price-per-minute\t${q.pricePerMinute}`,
        `credits\t${q.credits}`,
      ].join('\n') + '\n',
    );
    // The help names every key it printed, in that order (one field table gives both).
    expect(pipedKeysOf(quote.description)).toEqual(
      piped.stdout
        .trim()
        .split('\n')
        .map((line) => line.split('\t')[0]),
    );
    expect(JSON.parse((await kagent(['media', 'quote', VIDEO, '--json'])).stdout)).toEqual(q);
    const tty = await kagent(['media', 'quote', PODCAST], { tty: true, env: { NO_COLOR: '1' } });
    const pq = await quoteOf(PODCAST);
    expect(tty.stdout).toContain(pq.title);
    expect(tty.stdout).toMatch(new RegExp(`Duration\\s+${timecode(pq.durationSec)} \\(${pq.minutes} minutes\\)`));
    expect(tty.stdout).toMatch(
      new RegExp(`Cost\\s+${pq.credits} credits \\(1 per minute; summary and translation included\\)`),
    );
    expect(tty.stdout).toMatch(/Credits\s+1,000 left/);
  });

  it('a link that cannot be transcribed: exit 2 with the code and a hint', async () => {
    const r = await kagent(['media', 'quote', 'https://example.com/article']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('(UNSUPPORTED_MEDIA)');
    expect(r.stderr).toContain(
      'hint: only video pages (YouTube, Vimeo, …), podcast episodes and audio/video file links can be transcribed; to save a web page, use `kagent lib save https://example.com/article`',
    );
  });

  it('MEDIA_UNAVAILABLE is exit 7, saying when to try again', async () => {
    const r = await kagent(['media', 'quote', 'https://www.youtube.com/watch?v=unavailable']);
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('error: transcription is unavailable right now: ');
    expect(r.stderr).toContain('(MEDIA_UNAVAILABLE)');
    expect(r.stderr).toContain('try again in 30 s');
  });

  it('URL bounds before any request: a link (http/https), at most 2048 characters', async () => {
    await resetStats();
    expect((await kagent(['media', 'quote', 'not a url'])).code).toBe(2);
    expect((await kagent(['media', 'quote', 'ftp://example.com/a.mp3'])).stderr).toContain(
      'URL must be an http:// or https:// link',
    );
    const long = `https://www.youtube.com/watch?v=${'a'.repeat(2049 - 32)}`;
    expect(long).toHaveLength(2049);
    const over = await kagent(['media', 'quote', long]);
    expect(over.code).toBe(2);
    expect(over.stderr).toContain('URL must be at most 2048 characters (got 2049)');
    expect(await requests()).toEqual({});
    const atLimit = await kagent(['media', 'quote', long.slice(0, 2048), '--json']);
    expect(atLimit.code).toBe(0);
    expect(JSON.parse(atLimit.stdout).url).toBe(long.slice(0, 2048));
  });
});

describe('media start', () => {
  beforeEach(() => freshAccount());

  it('piped: needs --yes (exit 2), and nothing is asked for or spent', async () => {
    await resetStats();
    const r = await kagent(['media', 'start', VIDEO]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`refusing to spend credits transcribing ${VIDEO} without confirmation: pass --yes`);
    expect(await requests()).toEqual({});
  });

  it('--max-credits N over the quote: refused before anything is spent (exit 6), credits unchanged, no start sent', async () => {
    const q = await quoteOf(VIDEO);
    await resetStats();
    const r = await kagent(['media', 'start', VIDEO, '--max-credits', String(q.credits - 1), '--no-wait']);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain(
      `error: transcribing ${VIDEO} costs ${q.credits} credits, more than --max-credits ${q.credits - 1}; nothing was spent (OVER_MAX_CREDITS)`,
    );
    expect((await requests()).startMedia).toBeUndefined();
    expect((await s.t.call('GET', '/me', { key })).body.credits.total).toBe(1000);
  });

  it('--max-credits N above the credits left: refused from GET /me (exit 6), credits unchanged', async () => {
    await freshAccount(5);
    const q = await quoteOf(VIDEO);
    expect(q.credits).toBeGreaterThan(5);
    await resetStats();
    const r = await kagent(['media', 'start', VIDEO, '--max-credits', '100000', '--json']);
    expect(r.code).toBe(6);
    const envelope = JSON.parse(r.stderr.slice(r.stderr.indexOf('{')));
    expect(envelope.error).toMatchObject({
      code: 'CREDITS_EXHAUSTED',
      message: `transcribing ${VIDEO} costs ${q.credits} credits, and 5 are left; nothing was spent`,
    });
    const stats = await requests();
    expect(stats.getMe).toBe(1);
    expect(stats.startMedia).toBeUndefined();
    expect((await s.t.call('GET', '/me', { key })).body.credits.total).toBe(5);
  });

  it('--max-credits N within the quote and the credits: starts without --yes, piped, and spends the quote', async () => {
    const q = await quoteOf(VIDEO);
    const r = await kagent(['media', 'start', VIDEO, '--max-credits', String(q.credits), '--no-wait', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ mediaId: expect.stringMatching(/^md_/), credits: q.credits });
    expect((await s.t.call('GET', '/me', { key })).body.credits.total).toBe(1000 - q.credits);
    const bad = await kagent(['media', 'start', VIDEO, '--max-credits', '-1']);
    expect(bad.code).toBe(2);
  });

  it('piped with --yes: follows to ready; stdout is the title, one line per segment, summary and chapters', async () => {
    const q = await quoteOf(VIDEO);
    const r = await kagent(['media', 'start', VIDEO, '--yes']);
    expect(r.code).toBe(0);
    const id = /media (md_\w+): /.exec(r.stderr)![1]!;
    const page = await fullPage(id);
    expect(page.status).toBe('ready');
    expect(r.stdout).toBe(pipedReading(page));
    // every segment exactly once, in order
    const lines = r.stdout.split('\n').filter((line) => /^\[\d+:\d\d:\d\d\] /.test(line));
    expect(lines).toHaveLength(page.segments.length);
    expect(page.segments.length).toBe(Math.ceil(q.durationSec / 30));
    expect(r.stderr).toContain(
      `Transcribing "${q.title}" (video, ${timecode(q.durationSec)}, ${q.minutes} minutes) costs ${q.credits} credits (1 per minute).`,
    );
    expect(r.stderr).toMatch(new RegExp(`^media ${id}: transcribing`, 'm'));
    expect(r.stderr).toMatch(new RegExp(`^media ${id}: summarizing$`, 'm'));
    expect(r.stderr).toMatch(new RegExp(`^media ${id}: ready \\(${timecode(q.durationSec)}\\)$`, 'm'));
    // The ✓ line (and its pointer to the transcript) is for a terminal.
    expect(r.stderr).not.toContain('✓');
    const me = (await s.t.call('GET', '/me', { key })).body;
    expect(me.credits.total).toBe(1000 - q.credits);
  });

  it('--json: the finished MediaPage, whole; each look asks only for the segments `after` the revision shown', async () => {
    await resetStats();
    const r = await kagent(['media', 'start', PODCAST, '--yes', '--json', '--debug']);
    expect(r.code).toBe(0);
    const page = JSON.parse(r.stdout);
    expect(page.status).toBe('ready');
    // --json: the finished MediaPage, whole (all segments), and nothing else on stdout
    expect(page).toEqual(await fullPage(page.id));
    const stats = await requests();
    expect(stats.quoteMedia).toBe(1);
    expect(stats.startMedia).toBe(1);
    // the follower's looks (a few per revision, within the 20-a-minute budget) plus the final whole page
    expect(stats.getMedia).toBeGreaterThan(3);
    expect(stats.getMedia).toBeLessThan(25);
    const looks = r.stderr
      .split('\n')
      .filter((line) => line.includes(`→ GET `) && line.includes(`/media/${page.id}`))
      .map((line) => /after=(\d+)/.exec(line)?.[1]);
    // the first look reads everything there is; later ones only what came after, in growing revisions; the last (no after) is the whole page for --json
    expect(looks[0]).toBeUndefined();
    const afters = looks.slice(1, -1).map(Number);
    expect(afters.length).toBeGreaterThan(2);
    expect(afters.every((n, i) => i === 0 || n >= afters[i - 1]!)).toBe(true);
    expect(afters[afters.length - 1]).toBe(page.revision);
    expect(looks[looks.length - 1]).toBeUndefined();
  });

  it('terminal: confirms the cost (saying the credits left), prints segments as they arrive, then summary and chapters', async () => {
    const q = await quoteOf(PODCAST);
    const r = await kagent(['media', 'start', PODCAST], { tty: true, answers: [true], env: { FORCE_COLOR: '1' } });
    expect(r.code).toBe(0);
    expect(r.prompts).toEqual([
      `Spend ${q.credits} credits to transcribe "${q.title}" (podcast, ${timecode(q.durationSec)}, ${q.minutes} minutes)? You have 1000.`,
    ]);
    const out = plain(r.stdout);
    expect(out.split('\n')[0]).toBe(q.title);
    expect(out).toMatch(/^\[0:00:00\] \S/m);
    expect(out).toMatch(/\nSummary\n/);
    expect(out).toMatch(/\nChapters\n {2}0:00:00 {2}\S/);
    // the status line is drawn in place on stderr, and lifted before each block of segments
    expect(r.stderr).toContain('\r\x1b[2K');
    expect(plain(r.stderr)).toMatch(/transcribing \(\d:\d\d:\d\d of \d:\d\d:\d\d\) · \d+s · Ctrl-C stops following/);
  });

  it('terminal: saying no spends nothing (exit 1)', async () => {
    await resetStats();
    const r = await kagent(['media', 'start', VIDEO], { tty: true, answers: [false] });
    expect(r.code).toBe(1);
    // declining is a choice, not an error: one word on stderr, exit 1
    expect(r.stderr.trimEnd().split('\n').at(-1)).toBe('Cancelled.');
    expect(r.stderr).not.toContain('error:');
    expect((await requests()).startMedia).toBeUndefined();
    expect((await s.t.call('GET', '/media', { key })).body.items).toEqual([]);
  });

  it('--no-wait: piped "media-id<TAB>task-id"; --json MediaStarted', async () => {
    const r = await kagent(['media', 'start', VIDEO, '--yes', '--no-wait']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^md_\w+\ttk_\w+\n$/);
    expect(r.stderr).toMatch(/follow it: kagent media show md_\w+ --follow/);
    const json = await kagent(['media', 'start', PODCAST, '--yes', '--no-wait', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({
      mediaId: expect.stringMatching(/^md_/),
      taskId: expect.stringMatching(/^tk_/),
      credits: (await quoteOf(PODCAST)).credits,
    });
  });

  it('several links: the first 402 CREDITS_EXHAUSTED starts no further link; exit 6, the links not attempted and GET /me in the hint', async () => {
    const links = [PODCAST, 'https://example.com/episodes/43.mp3', 'https://example.com/episodes/44.mp3', VIDEO];
    await freshAccount(1000);
    const each = (await quoteOf(PODCAST)).credits as number;
    await freshAccount(each);
    await resetStats();
    const r = await kagent(['media', 'start', ...links, '--yes']);
    expect(r.code, r.stderr).toBe(6);
    expect((await requests()).startMedia).toBe(2);
    expect(r.stdout).toMatch(new RegExp(`^md_\\w+\ttk_\\w+\t${PODCAST.replace(/\./g, '\\.')}\n$`));
    expect(r.stderr).toMatch(/the account ran out of credits at \S+: 1 of 4 links started \(CREDITS_EXHAUSTED\)/);
    expect(r.stderr).toMatch(/hint: 2 links were not attempted; credits left: 0/);
    // With enough credits every link is started; --idempotency-key names one request and is refused with several.
    await freshAccount(1000);
    const all = await kagent(['media', 'start', ...links, '--yes', '--json']);
    expect(all.code, all.stderr).toBe(0);
    expect(JSON.parse(all.stdout)).toHaveLength(4);
    const keyed = await kagent(['media', 'start', ...links, '--yes', '--idempotency-key', 'k1']);
    expect(keyed.code).toBe(2);
  });

  it('--timeout: exit 8 with `kagent media show ID --follow`; the transcription goes on', async () => {
    const r = await kagent(['media', 'start', VIDEO, '--yes', '--timeout', '10']);
    expect(r.code).toBe(8);
    const id = /media (md_\w+): /.exec(r.stderr)![1]!;
    expect(r.stderr).toContain('error: still running after 10 s; the work goes on (STILL_RUNNING)');
    expect(r.stderr).toContain(`hint: follow it again with \`kagent media show ${id} --follow\``);
    // what arrived was printed
    expect(r.stdout).toMatch(/^\[0:00:00\] /m);
    expect(['transcribing', 'summarizing']).toContain((await fullPage(id)).status);
  });

  it('Ctrl-C: exit 130 with the same resume command; the transcription goes on', async () => {
    const controller = new AbortController();
    const local = sandboxClock(s.t);
    local.onSleep = (_ms, count) => {
      if (count === 2) controller.abort();
    };
    const r = await kagent(['media', 'start', VIDEO, '--yes'], { clock: local, signal: controller.signal, tty: true });
    expect(r.code).toBe(130);
    const id = /Started (md_\w+)/.exec(plain(r.stderr))![1]!;
    expect(plain(r.stderr)).not.toContain('error');
    expect(plain(r.stderr)).toContain(
      `the transcription goes on; follow it again with \`kagent media show ${id} --follow\`\n`,
    );
    expect((await fullPage(id)).status).not.toBe('ready');
  });

  it('CREDITS_EXHAUSTED is exit 6: what it costs and what is left', async () => {
    await freshAccount(5);
    const q = await quoteOf(VIDEO);
    const r = await kagent(['media', 'start', VIDEO, '--yes']);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain(
      `error: not enough credits to transcribe this: it costs ${q.credits} credits (${q.minutes} minutes at 1 per minute), and 5 are left (CREDITS_EXHAUSTED)`,
    );
    expect(r.stderr).toContain('hint: nothing was started; `kagent me` shows your credits by pool');
  });

  it('MEDIA_UNAVAILABLE is exit 7; a link that cannot be transcribed is exit 2; nothing started', async () => {
    expect((await kagent(['media', 'start', 'https://vimeo.com/unavailable', '--yes'])).code).toBe(7);
    expect((await kagent(['media', 'start', 'https://example.com/page', '--yes'])).code).toBe(2);
    expect((await s.t.call('GET', '/media', { key })).body.items).toEqual([]);
  });

  it('a transcription that fails ends with exit 1 and where to look', async () => {
    const r = await kagent(['media', 'start', 'https://www.youtube.com/watch?v=broken', '--yes']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error: transcribing md_\w+ failed: .* \(MEDIA_FAILED\)/);
    expect(r.stderr).toMatch(/hint: `kagent task show tk_\w+` shows how far it got/);
  });

  it('--space by name files it there; bounds of --space and --idempotency-key before any request', async () => {
    const spaceId = (await s.t.call('POST', '/spaces', { key, body: { name: 'Talks' } })).body.id;
    const r = await kagent(['media', 'start', VIDEO, '--yes', '--no-wait', '--space', 'talks', '--json']);
    const { mediaId } = JSON.parse(r.stdout);
    expect(
      (await s.t.call('GET', '/media', { key, query: { space: spaceId } })).body.items.map((m: any) => m.id),
    ).toEqual([mediaId]);
    await resetStats();
    expect((await kagent(['media', 'start', VIDEO, '--yes', '--space', 's'.repeat(81)])).stderr).toContain(
      '--space must be 1 to 80 characters (got 81)',
    );
    expect((await kagent(['media', 'start', VIDEO, '--yes', '--idempotency-key', 'k'.repeat(201)])).stderr).toContain(
      '--idempotency-key must be 1 to 200 characters (got 201)',
    );
    expect(await requests()).toEqual({});
  });

  it('--idempotency-key: a rerun is not charged twice', async () => {
    const first = await kagent(['media', 'start', PODCAST, '--yes', '--no-wait', '--idempotency-key', 'ci-7']);
    const again = await kagent(['media', 'start', PODCAST, '--yes', '--no-wait', '--idempotency-key', 'ci-7']);
    expect(again.stdout).toBe(first.stdout);
    expect(again.stderr).toContain('nothing new was charged');
    expect((await s.t.call('GET', '/me', { key })).body.credits.total).toBe(1000 - (await quoteOf(PODCAST)).credits);
  });
});

describe('media list', () => {
  let ready: string;
  let running: string;
  beforeAll(async () => {
    await freshAccount();
    ready = await started(PODCAST, true);
    running = await started(VIDEO);
  });

  it('piped rows (id, status, kind, duration seconds, title, saved, url, space); --json; terminal table', async () => {
    const items = (await s.t.call('GET', '/media', { key })).body.items;
    expect(items.map((m: any) => m.id)).toEqual([running, ready]);
    const piped = await kagent(['media', 'list']);
    expect(piped.stdout).toBe(
      items
        .map(
          (m: any) => [m.id, m.status, m.kind, m.durationSec, m.title, m.createdAt, m.url, m.spaceId].join('\t') + '\n',
        )
        .join(''),
    );
    expect(JSON.parse((await kagent(['media', 'list', '--json'])).stdout)).toEqual(items);
    const tty = await kagent(['media', 'list'], { tty: true, env: { NO_COLOR: '1' } });
    const [header, first] = tty.stdout.split('\n');
    expect(header).toMatch(/^ID\s+STATUS\s+KIND\s+DURATION\s+TITLE\s+SAVED$/);
    expect(first).toMatch(
      new RegExp(`^${running}\\s+(queued|transcribing)\\s+video\\s+${timecode(items[0].durationSec)}\\s+`),
    );
  });

  it('--limit, --all, --space; bounds; empty', async () => {
    expect((await kagent(['media', 'list', '--limit', '1'])).stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse((await kagent(['media', 'list', '--all', '--json'])).stdout)).toHaveLength(2);
    expect((await kagent(['media', 'list', '--all', '--limit', '1'])).code).toBe(2);
    expect((await kagent(['media', 'list', '--space', 'x'.repeat(81)])).code).toBe(2);
    expect((await kagent(['media', 'list', '--space', 'Nowhere'])).code).toBe(4);
    await freshAccount();
    expect((await kagent(['media', 'list'], { tty: true })).stderr).toContain('No media yet');
    expect((await kagent(['media', 'list', '--json'])).stdout).toBe('[]\n');
  });
});

describe('media show', () => {
  let ready: string;
  beforeAll(async () => {
    await freshAccount();
    ready = await started(PODCAST, true);
  });

  it('piped: the same reading as `start`; --json: the MediaPage; terminal: title, segments, summary, chapters', async () => {
    const page = await fullPage(ready);
    const piped = await kagent(['media', 'show', ready]);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe(pipedReading(page));
    expect(piped.stderr).toBe('');
    expect(JSON.parse((await kagent(['media', 'show', ready, '--json'])).stdout)).toEqual(page);
    const tty = await kagent(['media', 'show', ready], { tty: true, env: { FORCE_COLOR: '1' } });
    const out = plain(tty.stdout);
    expect(out).toMatch(
      new RegExp(
        `^${page.title}\\n${ready} · podcast · ${timecode(page.durationSec)} · ${page.url.replace(/[.]/g, '\\.')}\\n\\n\\[0:00:00\\] `,
      ),
    );
    expect(out).toContain('\nSummary\n');
    expect(out).toContain(`\nChapters\n  ${timecode(page.chapters[0].start)}  ${page.chapters[0].title}`);
  });

  it('still being transcribed: what is there, and on stderr how to follow', async () => {
    const id = await started(VIDEO);
    await s.t.advance(12_000);
    const r = await kagent(['media', 'show', id]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\[0:00:00\] /m);
    expect(r.stdout).not.toContain('## Summary');
    expect(r.stderr).toContain(`Still transcribing: follow it with \`kagent media show ${id} --follow\``);
  });

  it('--follow (-f): to ready, every segment once; already ready returns at once', async () => {
    const id = await started(VIDEO);
    await s.t.advance(12_000);
    const r = await kagent(['media', 'show', id, '--follow']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(pipedReading(await fullPage(id)));
    const before = clock.sleeps.length;
    // -f is --follow, as on `task show` and `conversation show`
    const again = await kagent(['media', 'show', ready, '-f', '--json']);
    expect(JSON.parse(again.stdout).status).toBe('ready');
    expect(clock.sleeps.length).toBe(before);
  });

  it('an unknown media item is exit 4 with a hint (also with --follow)', async () => {
    for (const argv of [
      ['media', 'show', 'md_nope'],
      ['media', 'show', 'md_nope', '--follow'],
    ]) {
      const r = await kagent(argv);
      expect(r.code).toBe(4);
      expect(r.stderr).toContain('(MEDIA_NOT_FOUND)');
      expect(r.stderr).toContain('hint: no media "md_nope": `kagent media list` shows the ids');
    }
  });
});

describe('media transcript', () => {
  let ready: string;
  beforeAll(async () => {
    await freshAccount();
    ready = await started(VIDEO, true);
  });

  it('piped: the Markdown; --json: the Transcript; terminal: rendered', async () => {
    const t = (await s.t.call('GET', `/media/${ready}/transcript`, { key })).body;
    const piped = await kagent(['media', 'transcript', ready]);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe(t.markdown.endsWith('\n') ? t.markdown : `${t.markdown}\n`);
    expect(JSON.parse((await kagent(['media', 'transcript', ready, '--json'])).stdout)).toEqual(t);
    const tty = await kagent(['media', 'transcript', ready], { tty: true, env: { FORCE_COLOR: '1' } });
    expect(plain(tty.stdout)).toContain(t.title);
    // rendered: links drawn as "label (url)", not Markdown source
    expect(piped.stdout).toContain('](https://');
    expect(plain(tty.stdout)).not.toContain('](');
    expect(plain(tty.stdout)).toMatch(/00:00 \(https:\/\/\S+\)/);
  });

  it('--from/--to as seconds, m:ss or h:mm:ss are sent as seconds', async () => {
    for (const [from, to] of [
      ['90', '300'],
      ['1:30', '5:00'],
      ['0:01:30', '0:05:00'],
    ]) {
      const r = await kagent(['media', 'transcript', ready, '--from', from!, '--to', to!, '--json']);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ from: 90, to: 300 });
    }
    const piped = await kagent(['media', 'transcript', ready, '--from', '1:30', '--to', '2:00']);
    expect(piped.stdout).toContain('(01:30–02:00)');
  });

  it('a bad time, or --from after --to, is exit 2 before any request', async () => {
    await resetStats();
    for (const value of ['abc', '1:75', '-5', '1:2', '1:60:00', '']) {
      const r = await kagent(['media', 'transcript', ready, '--from', value]);
      expect(r.code, value).toBe(2);
      expect(r.stderr).toContain(
        `--from must be a time as seconds (90), m:ss (1:30) or h:mm:ss (1:01:30) (got "${value}")`,
      );
    }
    const order = await kagent(['media', 'transcript', ready, '--from', '5:00', '--to', '1:00']);
    expect(order.code).toBe(2);
    expect(order.stderr).toContain('--from (0:05:00) must not be after --to (0:01:00)');
    expect(await requests()).toEqual({});
  });

  it('MEDIA_NOT_READY is exit 2, saying its status and the command that follows it', async () => {
    const id = await started(PODCAST);
    await s.t.advance(3_000);
    const r = await kagent(['media', 'transcript', id]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `error: the transcript of ${id} is not ready yet (it is transcribing) (MEDIA_NOT_READY)`,
    );
    expect(r.stderr).toContain(
      `hint: follow it until it is ready: \`kagent media show ${id} --follow\`, then ask again`,
    );
  });

  it('an unknown media item is exit 4', async () => {
    expect((await kagent(['media', 'transcript', 'md_nope'])).code).toBe(4);
  });
});
