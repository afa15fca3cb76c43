// Watches, briefs and entries: creation as a task whose milestones move on the
// sandbox clock, the first brief over the last 7 days, later briefs by cadence,
// alerts, search, follow, owner-only settings, feedback and saving, every bound.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const DAY = 86_400_000;
let t: TestSandbox;
/** An account that may create many watches (bounds tests create a lot). */
let big: { accountId: string; apiKey: string };

beforeAll(async () => {
  // speed 0: the clock moves only when a test advances it, so timings are exact.
  t = await startTestSandbox({ speed: 0 });
  big = await t.newAccount({ limits: { watchesPerMonth: 1000, follows: 1000 } });
});
afterAll(() => t.close());

async function create(body: Record<string, unknown>, key = big.apiKey) {
  return t.call('POST', '/watches', { body, key });
}

async function createReady(body: Record<string, unknown>, key = big.apiKey) {
  const res = await create(body, key);
  expect(res.status).toBe(202);
  await t.advance(61_000);
  return res.body as { slug: string; taskId: string; watch: any };
}

async function inbox(key: string, filter = 'all') {
  const res = await t.call('GET', '/inbox', { key, query: { filter } });
  expect(res.status).toBe(200);
  return res.body as { items: any[]; unread: number; nextCursor: string | null };
}

describe('createWatch', () => {
  it('answers 202 WatchCreated with the slug, the task and the watch being set up', async () => {
    const res = await create({ intent: 'Solid-state battery breakthroughs' });
    expect(res.status).toBe(202);
    expect(res.body.slug).toBe('solid-state-battery-breakthroughs');
    expect(res.body.taskId).toMatch(/^tk_/);
    const w = res.body.watch;
    expect(w).toMatchObject({
      slug: res.body.slug,
      intent: 'Solid-state battery breakthroughs',
      type: 'topic',
      cadence: 'daily',
      visibility: 'public',
      owner: true,
      following: true,
      status: 'setting_up',
    });
    const spaces = await t.call('GET', '/spaces', { key: big.apiKey });
    const def = spaces.body.items.find((s: any) => s.isDefault);
    expect(w.spaceId).toBe(def.id);
    expect(w.followers).toBe(1);
    expect(w.lang).toBe('en');
  });

  it('makes slugs unique and gives non-Latin intents a slug too', async () => {
    const a = await create({ intent: 'Lunar lander missions' });
    const b = await create({ intent: 'Lunar lander missions' });
    expect(a.body.slug).toBe('lunar-lander-missions');
    expect(b.body.slug).toBe('lunar-lander-missions-2');
    const zh = await create({ intent: '跟踪国产大飞机的订单' });
    expect(zh.status).toBe(202);
    expect(zh.body.slug).toMatch(/^watch-[a-z0-9]+$/);
    // Without lang the account's content language applies, whatever the intent's script.
    expect(zh.body.watch.lang).toBe('en');
  });

  it('runs the set-up as a watch_setup task: queued, then plan → steps → output over about 60 s, then done', async () => {
    const res = await create({ intent: 'Deep sea mining regulation' });
    const id = res.body.taskId;
    let task = (await t.call('GET', `/tasks/${id}`, { key: big.apiKey })).body;
    expect(task.kind).toBe('watch_setup');
    expect(task.status).toBe('queued');
    expect(task.milestones.map((m: any) => m.kind)).toEqual(['plan', 'step', 'step', 'step', 'output']);
    expect(task.milestones.map((m: any) => m.title)).toContain('Finding sources');
    expect(task.milestones.map((m: any) => m.title)).toContain('Reading');
    expect(task.milestones.every((m: any) => m.status === 'pending')).toBe(true);

    await t.advance(2_000);
    task = (await t.call('GET', `/tasks/${id}`, { key: big.apiKey })).body;
    expect(task.status).toBe('running');
    expect(task.milestones[0].status).toBe('running');

    await t.advance(20_000);
    task = (await t.call('GET', `/tasks/${id}`, { key: big.apiKey })).body;
    expect(task.milestones[0].status).toBe('done');
    expect(task.milestones[1].status).toBe('done');
    expect(task.milestones[1].detail).toMatch(/^Found 5 sources/);
    expect(task.milestones[2].status).toBe('running');
    expect(task.progress).toBeGreaterThan(0);
    expect(task.progress).toBeLessThan(1);
    const watch = (await t.call('GET', `/watches/${res.body.slug}`, { key: big.apiKey })).body;
    expect(watch.watch.status).toBe('setting_up');
    expect(watch.brief).toBeNull();
    expect(watch.method.sources).toHaveLength(5);

    await t.advance(39_000);
    task = (await t.call('GET', `/tasks/${id}`, { key: big.apiKey })).body;
    expect(task.status).toBe('done');
    expect(task.progress).toBe(1);
    expect(task.finishedAt).not.toBeNull();
    expect(task.milestones.every((m: any) => m.status === 'done')).toBe(true);
    expect(task.result).toEqual({ kind: 'watch', id: res.body.slug, href: `/watches/${res.body.slug}` });
  });

  it('writes a first brief covering the last 7 days with 4 to 8 entries, each with evidence', async () => {
    const created = await createReady({ intent: 'Fusion energy startups and ITER progress' });
    const page = (await t.call('GET', `/watches/${created.slug}`, { key: big.apiKey })).body;
    expect(page.watch.status).toBe('active');
    const brief = page.brief;
    expect(brief).not.toBeNull();
    expect(Date.parse(brief.coversTo) - Date.parse(brief.coversFrom)).toBe(7 * DAY);
    expect(brief.lang).toBe('en');
    expect(brief.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(brief.entries.length).toBeGreaterThanOrEqual(4);
    expect(brief.entries.length).toBeLessThanOrEqual(8);
    brief.entries.forEach((e: any, i: number) => {
      expect(e.position).toBe(i + 1);
      expect(e.importance).toBeGreaterThan(0);
      expect(e.importance).toBeLessThanOrEqual(1);
      if (i > 0) expect(e.importance).toBeLessThanOrEqual(brief.entries[i - 1].importance);
      expect(typeof e.category).toBe('string');
      expect(e.headline.length).toBeGreaterThan(0);
      expect(e.summary).toContain('**');
      expect(e.why.length).toBeGreaterThan(0);
      expect(e.primaryUrl).toMatch(/^https:\/\//);
      expect(e.feedback).toBeNull();
      expect(e.saved).toBe(false);
      expect(e.evidence.length).toBeGreaterThanOrEqual(1);
      for (const ev of e.evidence) {
        expect(ev.url).toMatch(/^https:\/\//);
        expect(ev.title.length).toBeGreaterThan(0);
        expect(ev.source.length).toBeGreaterThan(0);
        expect(Date.parse(ev.publishedAt)).toBeGreaterThanOrEqual(Date.parse(brief.coversFrom));
        expect(Date.parse(ev.publishedAt)).toBeLessThanOrEqual(Date.parse(brief.coversTo));
        expect(ev.excerpt.length).toBeGreaterThan(0);
      }
      expect(e.evidence[0].url).toBe(e.primaryUrl);
    });
    expect(page.archive).toHaveLength(1);
    expect(page.archive[0]).toMatchObject({ id: brief.id, date: brief.date, entryCount: brief.entries.length });
    expect(page.method.summary.length).toBeGreaterThan(0);
  });

  it('puts the finished task and the first brief in the inbox', async () => {
    const acc = await t.newAccount();
    const created = await createReady({ intent: 'Quantum error correction' }, acc.apiKey);
    const box = await inbox(acc.apiKey);
    const task = box.items.find((i) => i.kind === 'task' && i.taskId === created.taskId);
    const brief = box.items.find((i) => i.kind === 'brief' && i.watchSlug === created.slug);
    expect(task).toBeDefined();
    expect(task.title).toContain('Quantum error correction');
    expect(brief).toBeDefined();
    expect(brief.briefId).toBeTruthy();
    expect(brief.read).toBe(false);
  });

  it('writes the brief in the watch language (lang, else the account setting)', async () => {
    const zhAccount = await t.newAccount({ lang: 'zh' });
    const created = await createReady({ intent: 'Semiconductor fabs in Arizona' }, zhAccount.apiKey);
    expect(created.watch.lang).toBe('zh');
    const page = (await t.call('GET', `/watches/${created.slug}`, { key: zhAccount.apiKey })).body;
    expect(page.brief.lang).toBe('zh');
    expect(page.brief.entries[0].headline).toMatch(/[\u4e00-\u9fff]/);
    const en = await createReady({ intent: 'Semiconductor fabs in Texas', lang: 'en' }, zhAccount.apiKey);
    const enPage = (await t.call('GET', `/watches/${en.slug}`, { key: zhAccount.apiKey })).body;
    expect(enPage.brief.lang).toBe('en');
    expect(enPage.brief.entries[0].headline).not.toMatch(/[\u4e00-\u9fff]/);
  });

  it('registers the given URLs for type sources and pages, one milestone each', async () => {
    const urls = ['https://example.com/feed', 'https://news.example.org/'];
    const res = await create({ intent: 'Two sources I trust', type: 'sources', urls });
    const task = (await t.call('GET', `/tasks/${res.body.taskId}`, { key: big.apiKey })).body;
    expect(task.milestones.map((m: any) => m.title)).toEqual(
      expect.arrayContaining(['Registering example.com', 'Registering news.example.org']),
    );
    await t.advance(61_000);
    const page = (await t.call('GET', `/watches/${res.body.slug}`, { key: big.apiKey })).body;
    expect(page.watch.type).toBe('sources');
    expect(page.watch.urls).toEqual(urls);
    expect(page.method.sources.map((s: any) => s.url)).toEqual(urls);
    for (const e of page.brief.entries)
      expect(
        e.evidence.every(
          (ev: any) => ev.url.startsWith('https://example.com/feed/') || ev.url.startsWith('https://news.example.org/'),
        ),
      ).toBe(true);

    const pages = await createReady({
      intent: 'Pricing page changes',
      type: 'pages',
      urls: ['https://vendor.example.com/pricing'],
    });
    const pp = (await t.call('GET', `/watches/${pages.slug}`, { key: big.apiKey })).body;
    expect(pp.brief.entries[0].primaryUrl).toBe('https://vendor.example.com/pricing');
    expect(pp.brief.entries[0].headline).toMatch(/^Page changed: /);
  });

  it('needs urls for type sources or pages (400 INVALID_INPUT)', async () => {
    const res = await create({ intent: 'Nothing given', type: 'sources' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_INPUT');
    expect(res.body.error.issues[0].path).toBe('urls');
  });

  it('follows the new watch in the given space; an unknown space is 404', async () => {
    const space = await t.call('POST', '/spaces', { key: big.apiKey, body: { name: 'Energy' } });
    const res = await create({ intent: 'Grid-scale storage tenders', spaceId: space.body.id });
    expect(res.status).toBe(202);
    expect(res.body.watch.spaceId).toBe(space.body.id);
    const task = (await t.call('GET', `/tasks/${res.body.taskId}`, { key: big.apiKey })).body;
    expect(task.spaceId).toBe(space.body.id);
    const missing = await create({ intent: 'Grid-scale storage tenders', spaceId: 'sp_nope' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('SPACE_NOT_FOUND');
  });

  it('answers 403 EMAIL_NOT_VERIFIED before the email is verified', async () => {
    const acc = await t.newAccount({ emailVerified: false });
    const res = await create({ intent: 'Anything at all' }, acc.apiKey);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('EMAIL_NOT_VERIFIED');
    const me = await t.call('GET', '/me', { key: acc.apiKey });
    expect(me.body.usage.watchesThisMonth).toBe(0);
    await t.patchAccount(acc.accountId, { emailVerified: true });
    expect((await create({ intent: 'Anything at all' }, acc.apiKey)).status).toBe(202);
  });

  it('counts creations per month: at the limit is fine, one over is 403 WATCH_LIMIT, a new month starts again', async () => {
    const acc = await t.newAccount({ limits: { watchesPerMonth: 2 } });
    expect((await create({ intent: 'First watch' }, acc.apiKey)).status).toBe(202);
    expect((await create({ intent: 'Second watch' }, acc.apiKey)).status).toBe(202);
    const me = await t.call('GET', '/me', { key: acc.apiKey });
    expect(me.body.usage.watchesThisMonth).toBe(2);
    const over = await create({ intent: 'Third watch' }, acc.apiKey);
    expect(over.status).toBe(403);
    expect(over.body.error.code).toBe('WATCH_LIMIT');
    await t.advance(32 * DAY);
    expect((await create({ intent: 'Third watch' }, acc.apiKey)).status).toBe(202);
  });

  describe('bounds', () => {
    const cases: Array<[string, Record<string, unknown>, number]> = [
      ['intent of 1 character', { intent: 'a' }, 400],
      ['intent of 2 characters', { intent: 'ab' }, 202],
      ['intent of 200 characters', { intent: 'x'.repeat(200) }, 202],
      ['intent of 201 characters', { intent: 'x'.repeat(201) }, 400],
      ['no intent', {}, 400],
      ['unknown type', { intent: 'Types', type: 'feeds' }, 400],
      ['unknown cadence', { intent: 'Cadence', cadence: 'hourly' }, 400],
      ['unknown visibility', { intent: 'Visibility', visibility: 'secret' }, 400],
      ['unknown lang', { intent: 'Language', lang: 'fr' }, 400],
      [
        '20 urls',
        {
          intent: 'Many urls',
          type: 'sources',
          urls: Array.from({ length: 20 }, (_, i) => `https://s${i}.example.com/`),
        },
        202,
      ],
      [
        '21 urls',
        {
          intent: 'Many urls',
          type: 'sources',
          urls: Array.from({ length: 21 }, (_, i) => `https://s${i}.example.com/`),
        },
        400,
      ],
      [
        'a url of 2048 characters',
        { intent: 'Long url', type: 'pages', urls: [`https://example.com/${'a'.repeat(2048 - 20)}`] },
        202,
      ],
      [
        'a url of 2049 characters',
        { intent: 'Long url', type: 'pages', urls: [`https://example.com/${'a'.repeat(2049 - 20)}`] },
        400,
      ],
      ['a url that is not a URI', { intent: 'Bad url', type: 'pages', urls: ['not a url'] }, 400],
      [
        'a url with a space (not a URI: RFC 3986 has no space)',
        { intent: 'Bad url', type: 'pages', urls: ['https://example.com/a b'] },
        400,
      ],
      ['a url with < and > (not a URI)', { intent: 'Bad url', type: 'pages', urls: ['https://example.com/<x>'] }, 400],
      [
        'a url with a stray % (not a percent-encoding)',
        { intent: 'Bad url', type: 'pages', urls: ['https://example.com/100%'] },
        400,
      ],
      [
        'a url with non-ASCII letters (an IRI, not a URI)',
        { intent: 'Bad url', type: 'pages', urls: ['https://example.com/café'] },
        400,
      ],
      ['a url with a backslash', { intent: 'Bad url', type: 'pages', urls: ['https://example.com\\evil'] }, 400],
      [
        'a url percent-encoded, with query and fragment',
        { intent: 'Good url', type: 'pages', urls: ["https://example.com/a%20b/caf%C3%A9?q=1&x=[2]#top;!$'()*+,="] },
        202,
      ],
      ['5 alerts', { intent: 'Alerts', alerts: ['aa', 'bb', 'cc', 'dd', 'ee'] }, 202],
      ['6 alerts', { intent: 'Alerts', alerts: ['aa', 'bb', 'cc', 'dd', 'ee', 'ff'] }, 400],
      ['an alert of 1 character', { intent: 'Alerts', alerts: ['a'] }, 400],
      ['an alert of 2 characters', { intent: 'Alerts', alerts: ['ab'] }, 202],
      ['an alert of 200 characters', { intent: 'Alerts', alerts: ['y'.repeat(200)] }, 202],
      ['an alert of 201 characters', { intent: 'Alerts', alerts: ['y'.repeat(201)] }, 400],
      ['spaceId of 0 characters', { intent: 'Space', spaceId: '' }, 400],
      ['spaceId of 81 characters', { intent: 'Space', spaceId: 's'.repeat(81) }, 400],
    ];
    for (const [name, body, status] of cases) {
      it(`${name} → ${status}`, async () => {
        const res = await create(body);
        expect(res.status).toBe(status);
        if (status === 400) {
          expect(res.body.error.code).toBe('INVALID_INPUT');
          expect(res.body.error.issues.length).toBeGreaterThan(0);
        }
      });
    }
    it('checks the url length exactly: 2048 is the longest accepted', async () => {
      const url = `https://example.com/${'a'.repeat(2048 - 20)}`;
      expect(url.length).toBe(2048);
    });
  });
});

describe('briefs over time', () => {
  it('writes the next brief 24 h after the last for a daily watch, with an inbox item', async () => {
    const acc = await t.newAccount();
    const created = await createReady({ intent: 'Daily cadence check' }, acc.apiKey);
    const before = (await t.call('GET', `/watches/${created.slug}/issues`, { key: acc.apiKey })).body.items;
    expect(before).toHaveLength(1);
    await t.advance(23 * 3_600_000);
    expect((await t.call('GET', `/watches/${created.slug}/issues`, { key: acc.apiKey })).body.items).toHaveLength(1);
    await t.advance(3_600_000);
    const after = (await t.call('GET', `/watches/${created.slug}/issues`, { key: acc.apiKey })).body.items;
    expect(after).toHaveLength(2);
    expect(Date.parse(after[0].createdAt) - Date.parse(before[0].createdAt)).toBe(DAY);
    const page = (await t.call('GET', `/watches/${created.slug}`, { key: acc.apiKey })).body;
    expect(page.brief.id).toBe(after[0].id);
    expect(page.brief.coversFrom).toBe(new Date(Date.parse(before[0].createdAt)).toISOString());
    const briefs = (await inbox(acc.apiKey, 'brief')).items.filter(
      (i) => i.watchSlug === created.slug && i.kind === 'brief',
    );
    expect(briefs).toHaveLength(2);
    expect(briefs[0].briefId).toBe(after[0].id);
  });

  it('writes weekly briefs 7 days apart and none for cadence off', async () => {
    const weekly = await createReady({ intent: 'Weekly cadence check', cadence: 'weekly' });
    const off = await createReady({ intent: 'Cadence off check', cadence: 'off' });
    await t.advance(6 * DAY);
    expect((await t.call('GET', `/watches/${weekly.slug}/issues`, { key: big.apiKey })).body.items).toHaveLength(1);
    await t.advance(DAY);
    expect((await t.call('GET', `/watches/${weekly.slug}/issues`, { key: big.apiKey })).body.items).toHaveLength(2);
    expect((await t.call('GET', `/watches/${off.slug}/issues`, { key: big.apiKey })).body.items).toHaveLength(1);
  });

  it('sends the owner an alert when an entry matches an alert phrase, in every brief that features one', async () => {
    const acc = await t.newAccount();
    const created = await createReady(
      { intent: 'Battery recycling', alerts: ['lithium price', 'export ban'] },
      acc.apiKey,
    );
    let alerts = (await inbox(acc.apiKey)).items.filter((i) => i.kind === 'alert');
    expect(alerts.length).toBeGreaterThanOrEqual(1);
    const page = (await t.call('GET', `/watches/${created.slug}`, { key: acc.apiKey })).body;
    const matching = page.brief.entries.filter((e: any) =>
      /lithium price|export ban/i.test(`${e.headline} ${e.summary}`),
    );
    expect(alerts).toHaveLength(matching.length);
    for (const alert of alerts) {
      expect(alert.watchSlug).toBe(created.slug);
      expect(alert.briefId).toBe(page.brief.id);
      expect(alert.title).toMatch(/^Alert “(lithium price|export ban)”: /);
    }
    await t.advance(DAY);
    const next = (await t.call('GET', `/watches/${created.slug}`, { key: acc.apiKey })).body;
    expect(next.brief.id).not.toBe(page.brief.id);
    alerts = (await inbox(acc.apiKey, 'brief')).items.filter((i) => i.kind === 'alert' && i.briefId === next.brief.id);
    expect(alerts.length).toBeGreaterThanOrEqual(1);
    // Followers who are not the owner get the brief, not the alerts.
    const follower = await t.newAccount();
    expect((await t.call('PUT', `/watches/${created.slug}/follow`, { key: follower.apiKey, body: {} })).status).toBe(
      200,
    );
    await t.advance(DAY);
    const theirs = (await inbox(follower.apiKey)).items;
    expect(theirs.some((i) => i.kind === 'brief' && i.watchSlug === created.slug)).toBe(true);
    expect(theirs.some((i) => i.kind === 'alert')).toBe(false);
  });

  it('stops at cancel: done milestones stay done, the rest are skipped, no brief is written', async () => {
    const res = await create({ intent: 'Cancelled set-up' });
    await t.advance(21_000);
    const cancelled = await t.call('POST', `/tasks/${res.body.taskId}/cancel`, { key: big.apiKey });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    await t.advance(120_000);
    const task = (await t.call('GET', `/tasks/${res.body.taskId}`, { key: big.apiKey })).body;
    expect(task.milestones.slice(0, 2).map((m: any) => m.status)).toEqual(['done', 'done']);
    expect(task.milestones.slice(2).every((m: any) => m.status === 'skipped')).toBe(true);
    const page = (await t.call('GET', `/watches/${res.body.slug}`, { key: big.apiKey })).body;
    expect(page.brief).toBeNull();
    expect(page.watch.status).toBe('failed');
    expect(page.method.sources).toHaveLength(5);
  });
});

describe('listFollowedWatches', () => {
  it('lists followed watches, newest follow first, each with its latest brief (null while setting up)', async () => {
    const acc = await t.newAccount();
    expect((await t.call('GET', '/watches', { key: acc.apiKey })).body).toEqual({ items: [] });
    await t.call('PUT', '/watches/ai-chips/follow', { key: acc.apiKey, body: {} });
    const mine = await create({ intent: 'Follow list check' }, acc.apiKey);
    let list = (await t.call('GET', '/watches', { key: acc.apiKey })).body.items;
    expect(list.map((w: any) => w.slug)).toEqual([mine.body.slug, 'ai-chips']);
    expect(list[0]).toMatchObject({ owner: true, latestBrief: null, type: 'topic', cadence: 'daily' });
    expect(list[1].owner).toBe(false);
    expect(list[1].latestBrief).toMatchObject({ entryCount: expect.any(Number) });
    await t.advance(61_000);
    list = (await t.call('GET', '/watches', { key: acc.apiKey })).body.items;
    expect(list[0].latestBrief).not.toBeNull();
    expect(list[0].latestBrief.entryCount).toBeGreaterThanOrEqual(4);
  });
});

describe('searchWatches', () => {
  it('finds public watches by words of their title or intent', async () => {
    const res = await t.call('GET', '/watches/search', { query: { q: 'chips' } });
    expect(res.status).toBe(200);
    expect(res.body.items[0].slug).toBe('ai-chips');
    expect(res.body.items[0]).toMatchObject({ type: 'topic', cadence: 'daily' });
    expect(res.body.items[0].followers).toBeGreaterThan(1000);
    expect(res.body.items[0].lastBriefAt).not.toBeNull();
    expect(Object.keys(res.body)).toEqual(['items']);
    const zh = await t.call('GET', '/watches/search', { query: { q: '新能源汽车' } });
    expect(zh.body.items[0].slug).toBe('china-ev');
    const none = await t.call('GET', '/watches/search', { query: { q: 'zzzyxw' } });
    expect(none.body.items).toEqual([]);
  });

  it('never finds unlisted or private watches', async () => {
    await create({ intent: 'Hidden marmot sightings', visibility: 'unlisted' });
    await create({ intent: 'Secret marmot sightings', visibility: 'private' });
    await create({ intent: 'Public marmot sightings' });
    const res = await t.call('GET', '/watches/search', { query: { q: 'marmot' } });
    expect(res.body.items.map((w: any) => w.slug)).toEqual(['public-marmot-sightings']);
  });

  it('bounds q to 1..200 characters', async () => {
    expect((await t.call('GET', '/watches/search', {})).status).toBe(400);
    expect((await t.call('GET', '/watches/search', { query: { q: '' } })).status).toBe(400);
    expect((await t.call('GET', '/watches/search', { query: { q: 'a' } })).status).toBe(200);
    expect((await t.call('GET', '/watches/search', { query: { q: 'q'.repeat(200) } })).status).toBe(200);
    const over = await t.call('GET', '/watches/search', { query: { q: 'q'.repeat(201) } });
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe('INVALID_INPUT');
  });
});

describe('getWatch', () => {
  it('shows a seeded watch with its latest brief, archive (newest first) and method', async () => {
    const res = await t.call('GET', '/watches/ai-chips');
    expect(res.status).toBe(200);
    expect(res.body.watch).toMatchObject({
      slug: 'ai-chips',
      owner: false,
      following: false,
      spaceId: null,
      visibility: 'public',
      status: 'active',
    });
    expect(res.body.archive.length).toBeGreaterThanOrEqual(7);
    const dates = res.body.archive.map((b: any) => b.createdAt);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(res.body.brief.id).toBe(res.body.archive[0].id);
    expect(res.body.method.sources.length).toBeGreaterThan(0);
  });

  it('gives the brief of a date, 404 BRIEF_NOT_FOUND for a date without one, 400 for a bad date', async () => {
    const page = (await t.call('GET', '/watches/ai-chips')).body;
    const older = page.archive[3];
    const res = await t.call('GET', '/watches/ai-chips', { query: { date: older.date } });
    expect(res.status).toBe(200);
    expect(res.body.brief.id).toBe(older.id);
    const none = await t.call('GET', '/watches/ai-chips', { query: { date: '1999-01-01' } });
    expect(none.status).toBe(404);
    expect(none.body.error.code).toBe('BRIEF_NOT_FOUND');
    for (const date of ['2026-1-05', '20260105', 'yesterday', '2026-01-05T00:00']) {
      const bad = await t.call('GET', '/watches/ai-chips', { query: { date } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.issues[0].path).toBe('date');
    }
  });

  it('gives the brief in another language with `lang`: same entries, ids and links, other words', async () => {
    const en = (await t.call('GET', '/watches/ai-chips')).body.brief;
    const zh = (await t.call('GET', '/watches/ai-chips', { query: { lang: 'zh' } })).body.brief;
    expect(zh.lang).toBe('zh');
    expect(zh.id).toBe(en.id);
    expect(zh.entries.map((e: any) => e.id)).toEqual(en.entries.map((e: any) => e.id));
    expect(zh.entries.map((e: any) => e.primaryUrl)).toEqual(en.entries.map((e: any) => e.primaryUrl));
    expect(zh.entries.map((e: any) => e.importance)).toEqual(en.entries.map((e: any) => e.importance));
    expect(zh.entries[0].headline).toMatch(/[\u4e00-\u9fff]/);
    expect(zh.title).not.toBe(en.title);
    expect((await t.call('GET', '/watches/ai-chips', { query: { lang: 'de' } })).status).toBe(400);
  });

  it('answers 404 WATCH_NOT_FOUND for an unknown slug and for a private watch of someone else; unlisted is reachable by slug', async () => {
    const missing = await t.call('GET', '/watches/no-such-watch');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('WATCH_NOT_FOUND');
    const priv = await create({ intent: 'My private diary topics', visibility: 'private' });
    const unlisted = await create({ intent: 'My unlisted topics', visibility: 'unlisted' });
    expect((await t.call('GET', `/watches/${priv.body.slug}`, { key: big.apiKey })).status).toBe(200);
    const other = await t.call('GET', `/watches/${priv.body.slug}`);
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('WATCH_NOT_FOUND');
    expect((await t.call('GET', `/watches/${priv.body.slug}/knowledge`)).status).toBe(404);
    expect((await t.call('GET', `/watches/${priv.body.slug}/issues`)).status).toBe(404);
    expect((await t.call('PUT', `/watches/${priv.body.slug}/follow`, { body: {} })).status).toBe(404);
    expect((await t.call('GET', `/watches/${unlisted.body.slug}`)).status).toBe(200);
  });
});

describe('getWatchKnowledge', () => {
  it('gives the latest weekly report as Markdown and a timeline of important items', async () => {
    const res = await t.call('GET', '/watches/ai-chips/knowledge');
    expect(res.status).toBe(200);
    expect(res.body.slug).toBe('ai-chips');
    expect(res.body.report.week).toMatch(/^\d{4}-W\d{2}$/);
    expect(res.body.report.markdown).toContain(`week ${res.body.report.week}`);
    expect(res.body.report.markdown).toContain('## Most important');
    expect(res.body.timeline.length).toBeGreaterThan(0);
    for (const item of res.body.timeline) {
      expect(item.importance).toBeGreaterThanOrEqual(0.75);
      expect(item.entryId).toMatch(/^en_/);
      expect(item.url).toMatch(/^https:\/\//);
    }
    const dates = res.body.timeline.map((i: any) => i.date);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it('has no report before the first brief, and 404 for an unknown watch', async () => {
    const res = await create({ intent: 'Knowledge before brief' });
    const k = await t.call('GET', `/watches/${res.body.slug}/knowledge`, { key: big.apiKey });
    expect(k.body).toEqual({ slug: res.body.slug, report: null, timeline: [] });
    const missing = await t.call('GET', '/watches/nope/knowledge');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('WATCH_NOT_FOUND');
  });
});

describe('listWatchIssues', () => {
  it('lists issues newest first with a default page of 30 and cursors through all of them', async () => {
    // ai-chips has a daily brief: after 40 days it has more than 40 issues.
    const sb = await startTestSandbox({ speed: 0 });
    try {
      await sb.advance(40 * DAY);
      const first = await sb.call('GET', '/watches/ai-chips/issues');
      expect(first.status).toBe(200);
      expect(first.body.items).toHaveLength(30);
      expect(first.body.nextCursor).toEqual(expect.any(String));
      const seen = [...first.body.items];
      let cursor = first.body.nextCursor;
      while (cursor) {
        const next = await sb.call('GET', '/watches/ai-chips/issues', { query: { cursor, limit: 7 } });
        expect(next.body.items.length).toBeLessThanOrEqual(7);
        seen.push(...next.body.items);
        cursor = next.body.nextCursor;
      }
      expect(seen.length).toBeGreaterThanOrEqual(47);
      expect(new Set(seen.map((i) => i.id)).size).toBe(seen.length);
      const created = seen.map((i) => i.createdAt);
      expect([...created].sort().reverse()).toEqual(created);
      expect(seen[0].headlines.length).toBeGreaterThan(0);
      expect(seen[0].headlines.length).toBeLessThanOrEqual(3);
      expect((await sb.call('GET', '/watches/ai-chips/issues', { query: { limit: 100 } })).body.items).toHaveLength(
        Math.min(100, seen.length),
      );
      expect((await sb.call('GET', '/watches/ai-chips/issues', { query: { limit: 1 } })).body.items).toHaveLength(1);
    } finally {
      await sb.close();
    }
  });

  it('bounds limit to 1..100 and cursor to 200 characters; a foreign cursor is 400', async () => {
    for (const limit of [0, 101, -1, 'ten', 1.5]) {
      const res = await t.call('GET', '/watches/ai-chips/issues', { query: { limit } });
      expect(res.status).toBe(400);
      expect(res.body.error.issues[0].path).toBe('limit');
    }
    expect((await t.call('GET', '/watches/ai-chips/issues', { query: { cursor: 'c'.repeat(201) } })).status).toBe(400);
    expect((await t.call('GET', '/watches/ai-chips/issues', { query: { cursor: 'not-a-cursor' } })).status).toBe(400);
    const other = (await t.call('GET', '/watches/open-source-llms/issues', { query: { limit: 1 } })).body.nextCursor;
    expect((await t.call('GET', '/watches/ai-chips/issues', { query: { cursor: other } })).status).toBe(400);
    expect((await t.call('GET', '/watches/nope/issues')).status).toBe(404);
  });
});

describe('followWatch / unfollowWatch', () => {
  it('follows into the default space, moves to another space, and unfollows', async () => {
    const acc = await t.newAccount();
    const spaces = (await t.call('GET', '/spaces', { key: acc.apiKey })).body.items;
    const before = (await t.call('GET', '/watches/open-source-llms', { key: acc.apiKey })).body.watch.followers;
    const res = await t.call('PUT', '/watches/open-source-llms/follow', { key: acc.apiKey, body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      slug: 'open-source-llms',
      following: true,
      spaceId: spaces[0].id,
      followers: before + 1,
    });
    const space = (await t.call('POST', '/spaces', { key: acc.apiKey, body: { name: 'Research' } })).body;
    const moved = await t.call('PUT', '/watches/open-source-llms/follow', {
      key: acc.apiKey,
      body: { spaceId: space.id },
    });
    expect(moved.body).toMatchObject({ following: true, spaceId: space.id, followers: before + 1 });
    expect((await t.call('GET', '/watches', { key: acc.apiKey })).body.items[0].spaceId).toBe(space.id);
    const back = await t.call('PUT', '/watches/open-source-llms/follow', { key: acc.apiKey, body: { spaceId: null } });
    expect(back.body.spaceId).toBe(spaces[0].id);
    const unknown = await t.call('PUT', '/watches/open-source-llms/follow', {
      key: acc.apiKey,
      body: { spaceId: 'sp_missing' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('SPACE_NOT_FOUND');
    const gone = await t.call('DELETE', '/watches/open-source-llms/follow', { key: acc.apiKey });
    expect(gone.status).toBe(204);
    expect(gone.text).toBe('');
    expect((await t.call('GET', '/watches', { key: acc.apiKey })).body.items).toEqual([]);
    expect((await t.call('GET', '/watches/open-source-llms', { key: acc.apiKey })).body.watch).toMatchObject({
      following: false,
      followers: before,
    });
  });

  it('answers 403 FOLLOW_LIMIT beyond limits.follows; moving a followed watch is still fine at the limit', async () => {
    const acc = await t.newAccount({ limits: { follows: 2 } });
    expect((await t.call('PUT', '/watches/ai-chips/follow', { key: acc.apiKey, body: {} })).status).toBe(200);
    expect((await t.call('PUT', '/watches/china-ev/follow', { key: acc.apiKey, body: {} })).status).toBe(200);
    const over = await t.call('PUT', '/watches/rust-releases/follow', { key: acc.apiKey, body: {} });
    expect(over.status).toBe(403);
    expect(over.body.error.code).toBe('FOLLOW_LIMIT');
    expect((await t.call('PUT', '/watches/ai-chips/follow', { key: acc.apiKey, body: {} })).status).toBe(200);
    const me = (await t.call('GET', '/me', { key: acc.apiKey })).body;
    expect(me.usage.follows).toBe(2);
    await t.call('DELETE', '/watches/china-ev/follow', { key: acc.apiKey });
    expect((await t.call('PUT', '/watches/rust-releases/follow', { key: acc.apiKey, body: {} })).status).toBe(200);
  });

  it('answers 404 for unknown watches and bounds spaceId', async () => {
    const res = await t.call('PUT', '/watches/nope/follow', { body: {} });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('WATCH_NOT_FOUND');
    expect((await t.call('DELETE', '/watches/nope/follow')).status).toBe(404);
    expect((await t.call('PUT', '/watches/ai-chips/follow', { body: { spaceId: '' } })).status).toBe(400);
    expect((await t.call('PUT', '/watches/ai-chips/follow', { body: { spaceId: 's'.repeat(81) } })).status).toBe(400);
  });
});

describe('updateWatchSettings', () => {
  it('lets the owner change alerts and cadence; a cadence change reschedules the next brief', async () => {
    const acc = await t.newAccount();
    const created = await createReady({ intent: 'Settings check' }, acc.apiKey);
    const res = await t.call('PATCH', `/watches/${created.slug}/settings`, {
      key: acc.apiKey,
      body: { cadence: 'weekly', alerts: ['recall'] },
    });
    expect(res.status).toBe(204);
    const watch = (await t.call('GET', `/watches/${created.slug}`, { key: acc.apiKey })).body.watch;
    expect(watch).toMatchObject({ cadence: 'weekly', alerts: ['recall'] });
    await t.advance(2 * DAY);
    expect((await t.call('GET', `/watches/${created.slug}/issues`, { key: acc.apiKey })).body.items).toHaveLength(1);
    await t.advance(5 * DAY);
    expect((await t.call('GET', `/watches/${created.slug}/issues`, { key: acc.apiKey })).body.items).toHaveLength(2);
    expect((await inbox(acc.apiKey)).items.some((i) => i.kind === 'alert' && i.title.includes('recall'))).toBe(true);
    await t.call('PATCH', `/watches/${created.slug}/settings`, { key: acc.apiKey, body: { cadence: 'off' } });
    await t.advance(15 * DAY);
    expect((await t.call('GET', `/watches/${created.slug}/issues`, { key: acc.apiKey })).body.items).toHaveLength(2);
    await t.call('PATCH', `/watches/${created.slug}/settings`, { key: acc.apiKey, body: { cadence: 'daily' } });
    await t.advance(1000);
    expect((await t.call('GET', `/watches/${created.slug}/issues`, { key: acc.apiKey })).body.items).toHaveLength(3);
  });

  it('answers 404 to anyone but the owner, even a follower, as to unknown watches (the contract lists only 404), and changes nothing', async () => {
    const res = await t.call('PATCH', '/watches/ai-chips/settings', { body: { cadence: 'weekly' } });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('WATCH_NOT_FOUND');
    const created = await create({ intent: 'Owner only' });
    const follower = await t.newAccount();
    await t.call('PUT', `/watches/${created.body.slug}/follow`, { key: follower.apiKey, body: {} });
    const theirs = await t.call('PATCH', `/watches/${created.body.slug}/settings`, {
      key: follower.apiKey,
      body: { alerts: ['x1'] },
    });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.code).toBe('WATCH_NOT_FOUND');
    expect((await t.call('GET', `/watches/${created.body.slug}`, { key: follower.apiKey })).body.watch.alerts).toEqual(
      [],
    );
    const missing = await t.call('PATCH', '/watches/nope/settings', { body: { cadence: 'weekly' } });
    expect(missing.status).toBe(404);
  });

  it('validates the settings body', async () => {
    const created = await create({ intent: 'Settings bounds' });
    const slug = created.body.slug;
    const patch = (body: unknown) => t.call('PATCH', `/watches/${slug}/settings`, { key: big.apiKey, body });
    expect((await patch({})).status).toBe(400);
    expect((await patch({ cadence: 'hourly' })).status).toBe(400);
    expect((await patch({ alerts: ['aa', 'bb', 'cc', 'dd', 'ee', 'ff'] })).status).toBe(400);
    expect((await patch({ alerts: ['a'] })).status).toBe(400);
    expect((await patch({ alerts: ['z'.repeat(201)] })).status).toBe(400);
    expect((await patch({ alerts: ['aa', 'bb', 'cc', 'dd', 'z'.repeat(200)] })).status).toBe(204);
    expect((await patch({ alerts: [] })).status).toBe(204);
  });
});

describe('entries', () => {
  it('records feedback up, down and null per account; 404 ENTRY_NOT_FOUND; validates the value', async () => {
    const brief = (await t.call('GET', '/watches/rust-releases')).body.brief;
    const id = brief.entries[0].id;
    expect((await t.call('PUT', `/entries/${id}/feedback`, { body: { feedback: 'up' } })).status).toBe(204);
    let entry = (await t.call('GET', '/watches/rust-releases')).body.brief.entries[0];
    expect(entry.feedback).toBe('up');
    const other = await t.newAccount();
    expect(
      (await t.call('GET', '/watches/rust-releases', { key: other.apiKey })).body.brief.entries[0].feedback,
    ).toBeNull();
    await t.call('PUT', `/entries/${id}/feedback`, { body: { feedback: 'down' } });
    entry = (await t.call('GET', '/watches/rust-releases')).body.brief.entries[0];
    expect(entry.feedback).toBe('down');
    await t.call('PUT', `/entries/${id}/feedback`, { body: { feedback: null } });
    entry = (await t.call('GET', '/watches/rust-releases')).body.brief.entries[0];
    expect(entry.feedback).toBeNull();
    const bad = await t.call('PUT', `/entries/${id}/feedback`, { body: { feedback: 'meh' } });
    expect(bad.status).toBe(400);
    expect((await t.call('PUT', `/entries/${id}/feedback`, { body: {} })).status).toBe(400);
    const missing = await t.call('PUT', '/entries/en_nope/feedback', { body: { feedback: 'up' } });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('ENTRY_NOT_FOUND');
  });

  it('saves an entry to the library as kind entry and removes it when unsaved', async () => {
    const acc = await t.newAccount();
    const entry = (await t.call('GET', '/watches/china-ev', { key: acc.apiKey })).body.brief.entries[1];
    expect((await t.call('PUT', `/entries/${entry.id}/saved`, { key: acc.apiKey, body: { saved: true } })).status).toBe(
      204,
    );
    expect((await t.call('PUT', `/entries/${entry.id}/saved`, { key: acc.apiKey, body: { saved: true } })).status).toBe(
      204,
    );
    const lib = (await t.call('GET', '/library', { key: acc.apiKey, query: { kind: 'entry' } })).body.items;
    expect(lib).toHaveLength(1);
    expect(lib[0]).toMatchObject({
      kind: 'entry',
      entryId: entry.id,
      title: entry.headline,
      url: entry.primaryUrl,
      status: 'ready',
    });
    expect((await t.call('GET', '/watches/china-ev', { key: acc.apiKey })).body.brief.entries[1].saved).toBe(true);
    expect(
      (await t.call('PUT', `/entries/${entry.id}/saved`, { key: acc.apiKey, body: { saved: false } })).status,
    ).toBe(204);
    expect((await t.call('GET', '/library', { key: acc.apiKey, query: { kind: 'entry' } })).body.items).toEqual([]);
    expect((await t.call('GET', '/watches/china-ev', { key: acc.apiKey })).body.brief.entries[1].saved).toBe(false);
    expect(
      (await t.call('PUT', `/entries/${entry.id}/saved`, { key: acc.apiKey, body: { saved: 'yes' } })).status,
    ).toBe(400);
    const missing = await t.call('PUT', '/entries/en_nope/saved', { key: acc.apiKey, body: { saved: true } });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('ENTRY_NOT_FOUND');
  });

  it('hides entries of a private watch from others (404)', async () => {
    const created = await createReady({ intent: 'Private entries', visibility: 'private' });
    const entry = (await t.call('GET', `/watches/${created.slug}`, { key: big.apiKey })).body.brief.entries[0];
    const res = await t.call('PUT', `/entries/${entry.id}/feedback`, { body: { feedback: 'up' } });
    expect(res.status).toBe(404);
    expect(
      (await t.call('PUT', `/entries/${entry.id}/feedback`, { key: big.apiKey, body: { feedback: 'up' } })).status,
    ).toBe(204);
  });
});

describe('determinism', () => {
  it('writes identical briefs in two sandboxes with the same seed', async () => {
    const run = async () => {
      const sb = await startTestSandbox({ seed: 42, speed: 0 });
      try {
        const res = await sb.call('POST', '/watches', {
          body: { intent: 'Determinism of briefs', alerts: ['funding'] },
        });
        await sb.advance(61_000);
        await sb.advance(DAY);
        const page = await sb.call('GET', `/watches/${res.body.slug}`);
        const seeded = await sb.call('GET', '/watches/ai-chips');
        return { res: res.body, page: page.body, seeded: seeded.body.brief };
      } finally {
        await sb.close();
      }
    };
    const [a, b] = [await run(), await run()];
    expect(a.res.slug).toBe(b.res.slug);
    expect(a.page).toEqual(b.page);
    expect(a.seeded).toEqual(b.seeded);
    const other = await startTestSandbox({ seed: 43, speed: 0 });
    try {
      expect((await other.call('GET', '/watches/ai-chips')).body.brief.entries[0].headline).not.toBe(
        a.seeded.entries[0].headline,
      );
    } finally {
      await other.close();
    }
  });
});
