// Media: quotes (deterministic duration and price), credits charged per minute up
// front, transcription as a task whose segments arrive over revisions on the
// sandbox clock (`after`), then summary and chapters; transcripts only when ready.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let t: TestSandbox;
beforeAll(async () => {
  // speed 0: the clock moves only when a test advances it, so timings are exact.
  t = await startTestSandbox({ speed: 0 });
});
afterAll(() => t.close());

const VIDEO = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';
const PODCAST = 'https://cdn.example.com/shows/episode-42-open-source-economics.mp3';

async function fresh(credits = 10_000) {
  return t.newAccount({ credits });
}

async function credits(key: string): Promise<number> {
  return (await t.call('GET', '/me', { key })).body.credits.total;
}

describe('quoteMedia', () => {
  it('quotes a video: duration, whole minutes and one price per minute, the same every time', async () => {
    const res = await t.call('POST', '/media/quote', { body: { url: VIDEO } });
    expect(res.status).toBe(200);
    const q = res.body;
    expect(q.url).toBe(VIDEO);
    expect(q.kind).toBe('video');
    expect(q.durationSec).toBeGreaterThanOrEqual(180);
    expect(q.durationSec).toBeLessThanOrEqual(5400);
    expect(q.minutes).toBe(Math.ceil(q.durationSec / 60));
    expect(q.pricePerMinute).toBe(1);
    expect(q.credits).toBe(q.minutes * q.pricePerMinute);
    expect(q.title.length).toBeGreaterThan(0);
    expect((await t.call('POST', '/media/quote', { body: { url: VIDEO } })).body).toEqual(q);
  });

  it('knows podcasts and audio files', async () => {
    for (const url of [
      PODCAST,
      'https://podcasts.apple.com/us/podcast/x/id1?i=2',
      'https://open.spotify.com/episode/abc123',
      'https://vimeo.com/123456',
    ]) {
      const res = await t.call('POST', '/media/quote', { body: { url } });
      expect(res.status, url).toBe(200);
      expect(res.body.kind).toBe(url.includes('vimeo') ? 'video' : 'podcast');
    }
    const titled = await t.call('POST', '/media/quote', { body: { url: PODCAST } });
    expect(titled.body.title).toBe('Episode open source economics');
  });

  it('answers 400 UNSUPPORTED_MEDIA for a link that is not a video or podcast', async () => {
    for (const url of ['https://example.com/article.html', 'https://example.com/', 'ftp://example.com/a.mp3']) {
      const res = await t.call('POST', '/media/quote', { body: { url } });
      expect(res.status, url).toBe(400);
      expect(res.body.error.code).toBe('UNSUPPORTED_MEDIA');
      expect(res.body.error.message.length).toBeGreaterThan(0);
    }
  });

  it('answers 503 MEDIA_UNAVAILABLE for a link containing "unavailable"', async () => {
    const res = await t.call('POST', '/media/quote', { body: { url: 'https://www.youtube.com/watch?v=unavailable1' } });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('MEDIA_UNAVAILABLE');
    expect(res.headers['retry-after']).toBe('30');
  });

  it('bounds the url: required, a URI, at most 2048 characters', async () => {
    expect((await t.call('POST', '/media/quote', { body: {} })).status).toBe(400);
    expect((await t.call('POST', '/media/quote', { body: { url: 'youtube dot com' } })).status).toBe(400);
    const base = 'https://www.youtube.com/watch?v=abc&x=';
    const at = base + 'a'.repeat(2048 - base.length);
    expect(at.length).toBe(2048);
    expect((await t.call('POST', '/media/quote', { body: { url: at } })).status).toBe(200);
    const over = await t.call('POST', '/media/quote', { body: { url: `${at}a` } });
    expect(over.status).toBe(400);
    expect(over.body.error.issues[0].path).toBe('url');
  });
});

describe('startMedia', () => {
  it('charges the quoted credits up front and answers 202 MediaStarted', async () => {
    const acc = await fresh();
    const q = (await t.call('POST', '/media/quote', { key: acc.apiKey, body: { url: VIDEO } })).body;
    const res = await t.call('POST', '/media', { key: acc.apiKey, body: { url: VIDEO } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      mediaId: expect.stringMatching(/^md_/),
      taskId: expect.stringMatching(/^tk_/),
      credits: q.credits,
    });
    expect(await credits(acc.apiKey)).toBe(10_000 - q.credits);
    const task = (await t.call('GET', `/tasks/${res.body.taskId}`, { key: acc.apiKey })).body;
    expect(task.kind).toBe('transcription');
    expect(task.status).toBe('queued');
  });

  it('answers 402 CREDITS_EXHAUSTED when the credits do not cover the length, and creates nothing', async () => {
    const probe = (await t.call('POST', '/media/quote', { body: { url: PODCAST } })).body;
    const short = await fresh(probe.credits - 1);
    const res = await t.call('POST', '/media', { key: short.apiKey, body: { url: PODCAST } });
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe('CREDITS_EXHAUSTED');
    expect(await credits(short.apiKey)).toBe(probe.credits - 1);
    expect((await t.call('GET', '/media', { key: short.apiKey })).body.items).toEqual([]);
    expect((await t.call('GET', '/tasks', { key: short.apiKey })).body.items).toEqual([]);
    const exact = await fresh(probe.credits);
    expect((await t.call('POST', '/media', { key: exact.apiKey, body: { url: PODCAST } })).status).toBe(202);
    expect(await credits(exact.apiKey)).toBe(0);
    const none = await fresh(0);
    expect((await t.call('POST', '/media', { key: none.apiKey, body: { url: PODCAST } })).status).toBe(402);
  });

  it('answers 400 UNSUPPORTED_MEDIA, 503 MEDIA_UNAVAILABLE and 404 for an unknown space without charging', async () => {
    const acc = await fresh(500);
    expect(
      (await t.call('POST', '/media', { key: acc.apiKey, body: { url: 'https://example.com/page' } })).body.error.code,
    ).toBe('UNSUPPORTED_MEDIA');
    const down = await t.call('POST', '/media', {
      key: acc.apiKey,
      body: { url: 'https://vimeo.com/999?unavailable=1' },
    });
    expect(down.status).toBe(503);
    expect(down.body.error.code).toBe('MEDIA_UNAVAILABLE');
    const space = await t.call('POST', '/media', { key: acc.apiKey, body: { url: VIDEO, spaceId: 'sp_missing' } });
    expect(space.status).toBe(404);
    expect(space.body.error.code).toBe('SPACE_NOT_FOUND');
    expect(await credits(acc.apiKey)).toBe(500);
    expect((await t.call('POST', '/media', { key: acc.apiKey, body: { url: VIDEO, lang: 'fr' } })).status).toBe(400);
  });

  it('replays with the same Idempotency-Key and charges once', async () => {
    const acc = await fresh();
    const headers = { 'idempotency-key': 'media-once-1' };
    const first = await t.call('POST', '/media', { key: acc.apiKey, body: { url: VIDEO }, headers });
    const again = await t.call('POST', '/media', { key: acc.apiKey, body: { url: VIDEO }, headers });
    expect(again.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await credits(acc.apiKey)).toBe(10_000 - first.body.credits);
    expect((await t.call('GET', '/media', { key: acc.apiKey })).body.items).toHaveLength(1);
  });
});

describe('transcription over time', () => {
  it('goes queued → transcribing (segments over revisions) → summarizing → ready, with `after` returning only newer segments', async () => {
    const acc = await fresh();
    const started = (await t.call('POST', '/media', { key: acc.apiKey, body: { url: VIDEO } })).body;
    const get = async (query: Record<string, string | number> = {}) =>
      (await t.call('GET', `/media/${started.mediaId}`, { key: acc.apiKey, query })).body;
    let page = await get();
    expect(page).toMatchObject({
      status: 'queued',
      revision: 0,
      segments: [],
      summary: null,
      chapters: [],
      taskId: started.taskId,
      lang: 'en',
      kind: 'video',
      url: VIDEO,
    });

    await t.advance(2_000);
    page = await get();
    expect(page.status).toBe('transcribing');
    expect(page.segments).toEqual([]);

    await t.advance(5_000);
    page = await get();
    expect(page.status).toBe('transcribing');
    expect(page.revision).toBe(1);
    expect(page.segments.length).toBeGreaterThan(0);
    expect(page.segments.every((s: any) => s.revision === 1)).toBe(true);
    expect(page.segments[0].start).toBe(0);
    const firstBatch = page.segments.length;

    await t.advance(5_000);
    page = await get({ after: 1 });
    expect(page.revision).toBe(2);
    expect(page.segments.length).toBeGreaterThan(0);
    expect(page.segments.every((s: any) => s.revision === 2)).toBe(true);
    expect(page.segments[0].start).toBe(firstBatch * 30);
    expect((await get({ after: 2 })).segments).toEqual([]);
    expect((await get({ after: 0 })).segments.length).toBe(firstBatch + page.segments.length);

    const task = (await t.call('GET', `/tasks/${started.taskId}`, { key: acc.apiKey })).body;
    expect(task.status).toBe('running');
    expect(task.milestones.map((m: any) => m.status)).toEqual(['done', 'running', 'pending', 'pending']);
    expect(task.milestones[1].detail).toMatch(/transcribed$/);

    // Step until summarizing, then ready.
    let sawSummarizing = false;
    for (let i = 0; i < 30 && page.status !== 'ready'; i++) {
      await t.advance(5_000);
      page = await get();
      if (page.status === 'summarizing') {
        sawSummarizing = true;
        expect(page.summary).toBeNull();
      }
    }
    expect(sawSummarizing).toBe(true);
    expect(page.status).toBe('ready');
    expect(page.summary).toContain(page.title);
    expect(page.chapters.length).toBeGreaterThanOrEqual(3);
    expect(page.chapters[0].start).toBe(0);
    const segs = page.segments;
    expect(segs[segs.length - 1].end).toBe(page.durationSec);
    for (let i = 1; i < segs.length; i++) {
      expect(segs[i].start).toBe(segs[i - 1].end);
      expect(segs[i].revision).toBeGreaterThanOrEqual(segs[i - 1].revision);
    }
    expect(page.revision).toBe(segs[segs.length - 1].revision);
    expect(page.revision).toBeGreaterThanOrEqual(3);
    expect(page.revision).toBeLessThanOrEqual(8);

    const done = (await t.call('GET', `/tasks/${started.taskId}`, { key: acc.apiKey })).body;
    expect(done.status).toBe('done');
    expect(done.milestones.every((m: any) => m.status === 'done')).toBe(true);
    expect(done.result).toEqual({ kind: 'media', id: started.mediaId, href: `/media/${started.mediaId}` });
    const box = (await t.call('GET', '/inbox', { key: acc.apiKey, query: { filter: 'task' } })).body.items;
    expect(box.some((i: any) => i.taskId === started.taskId)).toBe(true);
    const lib = (await t.call('GET', '/library', { key: acc.apiKey, query: { kind: 'media' } })).body.items;
    expect(lib).toHaveLength(1);
    expect(lib[0]).toMatchObject({ mediaId: started.mediaId, status: 'ready', url: VIDEO });
  });

  it('is ready at most 47 s after it was started, whatever the length', async () => {
    const acc = await fresh(100_000);
    const urls = [VIDEO, PODCAST, 'https://vimeo.com/1', 'https://vimeo.com/2', 'https://soundcloud.com/a/b'];
    const ids: string[] = [];
    for (const url of urls) ids.push((await t.call('POST', '/media', { key: acc.apiKey, body: { url } })).body.mediaId);
    await t.advance(21_000);
    for (const id of ids)
      expect((await t.call('GET', `/media/${id}`, { key: acc.apiKey })).body.status).not.toBe('ready');
    await t.advance(26_000);
    for (const id of ids) expect((await t.call('GET', `/media/${id}`, { key: acc.apiKey })).body.status).toBe('ready');
  });

  it('serves the transcript only when ready (400 MEDIA_NOT_READY before), as Markdown with timestamp links and a time range', async () => {
    const acc = await fresh();
    const started = (await t.call('POST', '/media', { key: acc.apiKey, body: { url: VIDEO } })).body;
    const early = await t.call('GET', `/media/${started.mediaId}/transcript`, { key: acc.apiKey });
    expect(early.status).toBe(400);
    expect(early.body.error.code).toBe('MEDIA_NOT_READY');
    await t.advance(15_000);
    expect((await t.call('GET', `/media/${started.mediaId}/transcript`, { key: acc.apiKey })).body.error.code).toBe(
      'MEDIA_NOT_READY',
    );
    await t.advance(50_000);
    const full = await t.call('GET', `/media/${started.mediaId}/transcript`, { key: acc.apiKey });
    expect(full.status).toBe(200);
    const page = (await t.call('GET', `/media/${started.mediaId}`, { key: acc.apiKey })).body;
    expect(full.body).toMatchObject({
      id: started.mediaId,
      title: page.title,
      lang: 'en',
      from: 0,
      to: page.durationSec,
    });
    expect(full.body.markdown).toContain(`# ${page.title}`);
    expect(full.body.markdown).toContain('## Summary');
    expect(full.body.markdown).toContain('## Transcript');
    expect(full.body.markdown).toContain('[00:00](https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=0s)');
    expect(full.body.markdown).toContain('[01:30](https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=90s)');
    const stamps = full.body.markdown.match(/^\[\d/gm) ?? [];
    expect(stamps).toHaveLength(page.segments.length);

    const part = await t.call('GET', `/media/${started.mediaId}/transcript`, {
      key: acc.apiKey,
      query: { from: 60, to: 120 },
    });
    expect(part.status).toBe(200);
    expect(part.body).toMatchObject({ from: 60, to: 120 });
    const partStamps = part.body.markdown.match(/^\[[\d:]+\]/gm);
    expect(partStamps).toEqual(['[01:00]', '[01:30]']);
    expect(
      (await t.call('GET', `/media/${started.mediaId}/transcript`, { key: acc.apiKey, query: { from: 120, to: 60 } }))
        .status,
    ).toBe(400);
    expect(
      (await t.call('GET', `/media/${started.mediaId}/transcript`, { key: acc.apiKey, query: { from: -1 } })).status,
    ).toBe(400);
    expect(
      (await t.call('GET', `/media/${started.mediaId}/transcript`, { key: acc.apiKey, query: { to: 'end' } })).status,
    ).toBe(400);
    const zh = await t.call('GET', `/media/${started.mediaId}/transcript`, { key: acc.apiKey, query: { lang: 'zh' } });
    expect(zh.body.lang).toBe('zh');
    expect(zh.body.markdown).toContain('## 文字稿');
    const missing = await t.call('GET', '/media/md_nope/transcript', { key: acc.apiKey });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('MEDIA_NOT_FOUND');
  });

  it('reads query numbers in every form of the JSON number grammar (exponents too); `.5`, `5.`, `+5`, `0x10` and leading zeros are not JSON numbers', async () => {
    const acc = await fresh();
    const started = (await t.call('POST', '/media', { key: acc.apiKey, body: { url: VIDEO } })).body;
    await t.advance(65_000);
    const transcript = (query: Record<string, string>) =>
      t.call('GET', `/media/${started.mediaId}/transcript`, { key: acc.apiKey, query });
    const plain = await transcript({ from: '60', to: '120' });
    expect(plain.status).toBe(200);
    for (const [from, to] of [
      ['6e1', '1.2e2'],
      ['6E+1', '12e1'],
      ['0.6e2', '120.0'],
      ['600e-1', '1200E-1'],
    ]) {
      const res = await transcript({ from: from!, to: to! });
      expect(res.status, `from=${from} to=${to}`).toBe(200);
      expect(res.body).toMatchObject({ from: 60, to: 120, markdown: plain.body.markdown });
    }
    expect((await transcript({ from: '1e-7' })).body.from).toBe(1e-7);
    expect((await transcript({ from: '-0' })).status).toBe(200);
    for (const bad of ['.5', '5.', '+5', '0x10', '007', '1e', 'e2', '1e999', 'Infinity', 'NaN', '']) {
      const res = await transcript({ from: bad });
      expect(res.status, `from=${JSON.stringify(bad)}`).toBe(400);
      expect(res.body.error.code).toBe('INVALID_INPUT');
    }
    // An integer query in exponent form is still an integer.
    const lib = await t.call('GET', '/library', { key: acc.apiKey, query: { limit: '1e1' } });
    expect(lib.status).toBe(200);
    expect((await t.call('GET', '/library', { key: acc.apiKey, query: { limit: '1.5e0' } })).status).toBe(400);
    expect((await t.call('GET', '/library', { key: acc.apiKey, query: { limit: '2e2' } })).status).toBe(200);
    expect((await t.call('GET', '/library', { key: acc.apiKey, query: { limit: '2.01e2' } })).status).toBe(400);
  });

  it('translates segments, title and summary with `lang`, keeping times and revisions', async () => {
    const acc = await fresh();
    const started = (await t.call('POST', '/media', { key: acc.apiKey, body: { url: PODCAST } })).body;
    await t.advance(50_000);
    const en = (await t.call('GET', `/media/${started.mediaId}`, { key: acc.apiKey })).body;
    const zh = (await t.call('GET', `/media/${started.mediaId}`, { key: acc.apiKey, query: { lang: 'zh' } })).body;
    expect(zh.lang).toBe('zh');
    expect(zh.segments.map((s: any) => [s.start, s.end, s.revision])).toEqual(
      en.segments.map((s: any) => [s.start, s.end, s.revision]),
    );
    expect(zh.segments[0].text).toMatch(/[\u4e00-\u9fff]/);
    expect(en.segments[0].text).not.toMatch(/[\u4e00-\u9fff]/);
    expect(zh.summary).toMatch(/[\u4e00-\u9fff]/);
    expect(zh.chapters.map((c: any) => c.start)).toEqual(en.chapters.map((c: any) => c.start));
    expect((await t.call('GET', `/media/${started.mediaId}`, { key: acc.apiKey, query: { after: -1 } })).status).toBe(
      400,
    );
    expect((await t.call('GET', `/media/${started.mediaId}`, { key: acc.apiKey, query: { after: 'x' } })).status).toBe(
      400,
    );
    const missing = await t.call('GET', '/media/md_nope', { key: acc.apiKey });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('MEDIA_NOT_FOUND');
  });

  it('keeps what was transcribed when cancelled, refunds the rest, and then answers 409 TASK_NOT_ACTIVE', async () => {
    const acc = await fresh();
    const started = (await t.call('POST', '/media', { key: acc.apiKey, body: { url: VIDEO } })).body;
    await t.advance(12_500);
    const cancelled = await t.call('POST', `/tasks/${started.taskId}/cancel`, { key: acc.apiKey });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    const page = (await t.call('GET', `/media/${started.mediaId}`, { key: acc.apiKey })).body;
    expect(page.status).toBe('failed');
    expect(page.revision).toBe(2);
    const kept = page.segments.length;
    expect(kept).toBeGreaterThan(0);
    const minutesDone = Math.ceil(page.segments[kept - 1].end / 60);
    expect(await credits(acc.apiKey)).toBe(10_000 - minutesDone);
    await t.advance(120_000);
    expect((await t.call('GET', `/media/${started.mediaId}`, { key: acc.apiKey })).body.segments).toHaveLength(kept);
    const again = await t.call('POST', `/tasks/${started.taskId}/cancel`, { key: acc.apiKey });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('TASK_NOT_ACTIVE');
  });

  it('fails a link containing "broken" after its first revision and refunds the minutes not transcribed', async () => {
    const acc = await fresh();
    const url = 'https://www.youtube.com/watch?v=broken42';
    const started = (await t.call('POST', '/media', { key: acc.apiKey, body: { url } })).body;
    await t.advance(60_000);
    const page = (await t.call('GET', `/media/${started.mediaId}`, { key: acc.apiKey })).body;
    expect(page.status).toBe('failed');
    expect(page.revision).toBe(1);
    const task = (await t.call('GET', `/tasks/${started.taskId}`, { key: acc.apiKey })).body;
    expect(task.status).toBe('failed');
    // The milestone under way failed; the ones not reached were skipped.
    expect(task.milestones.map((m: any) => m.status)).toEqual(['done', 'failed', 'skipped', 'skipped']);
    const minutesDone = Math.ceil(page.segments[page.segments.length - 1].end / 60);
    expect(await credits(acc.apiKey)).toBe(10_000 - minutesDone);
    expect((await t.call('GET', `/media/${started.mediaId}/transcript`, { key: acc.apiKey })).body.error.code).toBe(
      'MEDIA_NOT_READY',
    );
    const box = (await t.call('GET', '/inbox', { key: acc.apiKey, query: { filter: 'task' } })).body.items;
    expect(box[0].title).toMatch(/^Failed: /);
  });
});

describe('listMedia', () => {
  it('lists most recently saved first, pages with cursors, filters by space, bounds limit to 1..200 (default 50)', async () => {
    const acc = await fresh(100_000);
    const space = (await t.call('POST', '/spaces', { key: acc.apiKey, body: { name: 'Talks' } })).body;
    const ids: string[] = [];
    for (let i = 0; i < 53; i++) {
      const res = await t.call('POST', '/media', {
        key: acc.apiKey,
        body: { url: `https://vimeo.com/${1000 + i}`, ...(i % 10 === 0 ? { spaceId: space.id } : {}) },
      });
      expect(res.status).toBe(202);
      ids.push(res.body.mediaId);
    }
    const first = await t.call('GET', '/media', { key: acc.apiKey });
    expect(first.body.items).toHaveLength(50);
    expect(first.body.items[0].id).toBe(ids[52]);
    expect(first.body.items[0]).toMatchObject({ kind: 'video', status: 'queued', url: 'https://vimeo.com/1052' });
    const second = await t.call('GET', '/media', { key: acc.apiKey, query: { cursor: first.body.nextCursor } });
    expect(second.body.items.map((m: any) => m.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(second.body.nextCursor).toBeNull();
    const inSpace = await t.call('GET', '/media', { key: acc.apiKey, query: { space: space.id } });
    expect(inSpace.body.items.map((m: any) => m.id)).toEqual([ids[50], ids[40], ids[30], ids[20], ids[10], ids[0]]);
    expect((await t.call('GET', '/media', { key: acc.apiKey, query: { limit: 1 } })).body.items).toHaveLength(1);
    expect((await t.call('GET', '/media', { key: acc.apiKey, query: { limit: 200 } })).body.items).toHaveLength(53);
    for (const limit of [0, 201])
      expect((await t.call('GET', '/media', { key: acc.apiKey, query: { limit } })).status).toBe(400);
    expect((await t.call('GET', '/media', { key: acc.apiKey, query: { space: '' } })).status).toBe(400);
    expect((await t.call('GET', '/media', { key: acc.apiKey, query: { space: 's'.repeat(81) } })).status).toBe(400);
  });
});

describe('determinism', () => {
  it('produces identical transcripts in two sandboxes with the same seed', async () => {
    const run = async () => {
      const sb = await startTestSandbox({ seed: 9, speed: 0 });
      try {
        const started = (await sb.call('POST', '/media', { body: { url: PODCAST } })).body;
        await sb.advance(60_000);
        return (await sb.call('GET', `/media/${started.mediaId}`)).body;
      } finally {
        await sb.close();
      }
    };
    expect(await run()).toEqual(await run());
  });
});
