// Library: saving links, listing (newest first, filters, cursors), searching,
// reading items, changing and deleting them. Uploads have their own file.
import { describe, expect, it } from 'vitest';
import { accountId, key, t, useAccountPerTest } from '../helpers/account-per-test.js';
import { startTestSandbox } from '../helpers/sandbox.js';

// A fresh account per test: lists start empty.
useAccountPerTest();

const save = (body: Record<string, unknown>, apiKey = key) => t.call('POST', '/library', { body, key: apiKey });
const credits = async () => (await t.call('GET', '/me', { key })).body.credits.total as number;
const defaultSpaceId = async () =>
  (await t.call('GET', '/spaces', { key })).body.items.find((s: any) => s.isDefault).id as string;

describe('saveLink', () => {
  it('reads the page and writes a summary and key points', async () => {
    const res = await save({ url: 'https://example.com/blog/rust-async-patterns', note: 'for the team' });
    expect(res.status).toBe(201);
    expect(res.body.media).toBe(false);
    const item = res.body.item;
    expect(item).toMatchObject({
      kind: 'link',
      url: 'https://example.com/blog/rust-async-patterns',
      note: 'for the team',
      status: 'ready',
    });
    expect(item.id).toMatch(/\S/);
    expect(item.title.toLowerCase()).toContain('rust async patterns');
    expect(item.summary.length).toBeGreaterThan(20);
    expect(item.keyPoints.length).toBeGreaterThanOrEqual(2);
    expect(Date.parse(item.createdAt)).not.toBeNaN();
  });

  it('spends credits on the summary', async () => {
    const before = await credits();
    await save({ url: 'https://example.com/a' });
    expect(await credits()).toBeLessThan(before);
  });

  it('answers 402 CREDITS_EXHAUSTED when no credits are left, and saves nothing', async () => {
    await t.patchAccount(accountId, { credits: 0 });
    const res = await save({ url: 'https://example.com/a' });
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe('CREDITS_EXHAUSTED');
    expect((await t.call('GET', '/library', { key })).body.items).toEqual([]);
  });

  it.each([
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    'https://youtu.be/dQw4w9WgXcQ',
    'https://vimeo.com/76979871',
    'https://podcasts.apple.com/us/podcast/the-daily/id1200361736',
    'https://open.spotify.com/episode/4rOoJ6Egrf8K2IrywzwOMk',
    'https://cdn.example.com/shows/episode-12.mp3',
    'https://media.example.org/talk.m4a',
  ])('answers media=true for the video or podcast link %s and saves nothing', async (url) => {
    const before = await credits();
    const res = await save({ url });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ media: true, item: null });
    expect((await t.call('GET', '/library', { key })).body.items).toEqual([]);
    expect(await credits()).toBe(before);
    // The link it points to POST /media is one that /media accepts.
    expect((await t.call('POST', '/media/quote', { key, body: { url } })).status).toBe(200);
  });

  it('writes the summary in the requested language, one language only', async () => {
    const zh = await save({ url: 'https://example.com/guides/solar-power', lang: 'zh' });
    expect(zh.body.item.summary).toMatch(/\p{Script=Han}/u);
    const en = await save({ url: 'https://example.com/guides/solar-power', lang: 'en' });
    expect(en.body.item.summary).not.toMatch(/\p{Script=Han}/u);
  });

  it("uses the account's content language when lang is left out", async () => {
    const zhAccount = await t.newAccount({ lang: 'zh' });
    const res = await save({ url: 'https://example.com/guides/solar-power' }, zhAccount.apiKey);
    expect(res.body.item.summary).toMatch(/\p{Script=Han}/u);
  });

  it('is deterministic: the same link reads the same in a sandbox with the same seed', async () => {
    const other = await startTestSandbox({ seed: 1 });
    try {
      const url = 'https://news.example.net/2026/01/ocean-shipping-rates';
      const a = await save({ url });
      const b = await other.call('POST', '/library', { body: { url } });
      expect(b.body.item.title).toBe(a.body.item.title);
      expect(b.body.item.summary).toBe(a.body.item.summary);
      expect(b.body.item.keyPoints).toEqual(a.body.item.keyPoints);
    } finally {
      await other.close();
    }
  });

  it('files the link in the given space', async () => {
    const space = (await t.call('POST', '/spaces', { key, body: { name: 'Reading' } })).body;
    const res = await save({ url: 'https://example.com/x', spaceId: space.id });
    expect(res.body.item.spaceId).toBe(space.id);
  });

  it('answers 404 for a space that does not exist', async () => {
    const res = await save({ url: 'https://example.com/x', spaceId: 'sp_nope' });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('SPACE_NOT_FOUND');
  });

  it('lets the agent pick a space when none is given: the one whose name fits, else the default', async () => {
    const gardening = (
      await t.call('POST', '/spaces', { key, body: { name: 'Gardening', description: 'tomatoes, roses and compost' } })
    ).body;
    await t.call('POST', '/spaces', { key, body: { name: 'Finance' } });
    const fits = await save({ url: 'https://example.com/tips/compost-for-roses' });
    expect(fits.body.item.spaceId).toBe(gardening.id);
    const nothingFits = await save({ url: 'https://example.com/quantum-computing-primer' });
    expect(nothingFits.body.item.spaceId).toBe(await defaultSpaceId());
  });

  it('refuses links that are not http(s)', async () => {
    const res = await save({ url: 'ftp://example.com/file.txt' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_INPUT');
    expect(res.body.error.issues[0].path).toBe('url');
  });

  it('validates the body: url required, a URI, note at most 2000 characters', async () => {
    for (const body of [
      {},
      { url: 'not a url' },
      { url: 'https://example.com', note: 'n'.repeat(2001) },
      { url: `https://example.com/${'a'.repeat(2048)}` },
    ]) {
      const res = await save(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_INPUT');
      expect(res.body.error.issues.length).toBeGreaterThan(0);
    }
    expect((await save({ url: 'https://example.com/n', note: 'n'.repeat(2000) })).status).toBe(201);
  });
});

describe('listLibrary', () => {
  async function saveMany(n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      ids.push((await save({ url: `https://example.com/post-${i}/topic-${i}` })).body.item.id);
      await t.advance(1000);
    }
    return ids;
  }

  it('lists items newest first', async () => {
    const ids = await saveMany(3);
    const res = await t.call('GET', '/library', { key });
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: any) => i.id)).toEqual([...ids].reverse());
    expect(res.body.nextCursor).toBeNull();
  });

  it('pages with opaque cursors until nextCursor is null, without repeats', async () => {
    const ids = await saveMany(5);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await t.call('GET', '/library', { key, query: { limit: 2, cursor } });
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.items.map((i: any) => i.id));
      cursor = res.body.nextCursor ?? undefined;
      if (cursor) expect(cursor).not.toMatch(/^\d+$/);
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
  });

  it('answers 400 for a cursor it did not issue, or one from another list', async () => {
    await saveMany(3);
    expect((await t.call('GET', '/library', { key, query: { cursor: 'garbage' } })).status).toBe(400);
    const first = await t.call('GET', '/library', { key, query: { limit: 1 } });
    const otherList = await t.call('GET', '/library', { key, query: { kind: 'link', cursor: first.body.nextCursor } });
    expect(otherList.status).toBe(400);
    expect(otherList.body.error.code).toBe('INVALID_INPUT');
  });

  it('uses 50 items per page by default', async () => {
    for (let i = 0; i < 51; i++) await save({ url: `https://example.com/p/${i}` });
    const res = await t.call('GET', '/library', { key });
    expect(res.body.items).toHaveLength(50);
    expect(typeof res.body.nextCursor).toBe('string');
  });

  it('bounds limit to 1..200 and cursor to 200 characters', async () => {
    for (const limit of [1, 200]) expect((await t.call('GET', '/library', { key, query: { limit } })).status).toBe(200);
    for (const limit of [0, 201, -1, 1.5, 'ten']) {
      const res = await t.call('GET', '/library', { key, query: { limit } });
      expect(res.status, String(limit)).toBe(400);
      expect(res.body.error.issues[0].path).toBe('limit');
    }
    expect((await t.call('GET', '/library', { key, query: { cursor: 'c'.repeat(201) } })).status).toBe(400);
  });

  it('filters by kind', async () => {
    await save({ url: 'https://example.com/a' });
    await t.call('POST', '/library/files', { key, raw: 'plain words in a file', headers: { 'x-file-name': 'a.txt' } });
    const links = await t.call('GET', '/library', { key, query: { kind: 'link' } });
    expect(links.body.items.map((i: any) => i.kind)).toEqual(['link']);
    const files = await t.call('GET', '/library', { key, query: { kind: 'file' } });
    expect(files.body.items.map((i: any) => i.kind)).toEqual(['file']);
    expect((await t.call('GET', '/library', { key, query: { kind: 'entry' } })).body.items).toEqual([]);
    expect((await t.call('GET', '/library', { key, query: { kind: 'video' } })).status).toBe(400);
  });

  it('filters by space id; an unknown space lists nothing', async () => {
    const space = (await t.call('POST', '/spaces', { key, body: { name: 'Work' } })).body;
    const inSpace = (await save({ url: 'https://example.com/a', spaceId: space.id })).body.item;
    await save({ url: 'https://example.com/b', spaceId: await defaultSpaceId() });
    const res = await t.call('GET', '/library', { key, query: { space: space.id } });
    expect(res.body.items.map((i: any) => i.id)).toEqual([inSpace.id]);
    expect((await t.call('GET', '/library', { key, query: { space: 'sp_unknown' } })).body.items).toEqual([]);
  });

  it('bounds the space filter to 1..80 characters', async () => {
    expect((await t.call('GET', '/library', { key, query: { space: 's'.repeat(80) } })).status).toBe(200);
    expect((await t.call('GET', '/library', { key, query: { space: 's'.repeat(81) } })).status).toBe(400);
    expect((await t.call('GET', '/library', { key, query: { space: '' } })).status).toBe(400);
  });
});

describe('listLibrary with q (search)', () => {
  it('searches title, note, summary and an upload’s text, without paging', async () => {
    const byTitle = (await save({ url: 'https://example.com/articles/volcano-eruptions' })).body.item;
    const byNote = (await save({ url: 'https://example.com/x', note: 'remember the marmalade recipe' })).body.item;
    const file = (
      await t.call('POST', '/library/files', {
        key,
        raw: 'Minutes.\n\nWe discussed the zeppelin hangar lease at length.',
        headers: { 'x-file-name': 'minutes.txt' },
      })
    ).body.item;
    await save({ url: 'https://example.com/unrelated-thing' });

    const title = await t.call('GET', '/library', { key, query: { q: 'volcano' } });
    expect(title.status).toBe(200);
    expect(title.body.items.map((i: any) => i.id)).toEqual([byTitle.id]);
    expect(title.body.nextCursor).toBeNull();
    expect(
      (await t.call('GET', '/library', { key, query: { q: 'marmalade' } })).body.items.map((i: any) => i.id),
    ).toEqual([byNote.id]);
    expect(
      (await t.call('GET', '/library', { key, query: { q: 'zeppelin hangar' } })).body.items.map((i: any) => i.id),
    ).toEqual([file.id]);
    expect((await t.call('GET', '/library', { key, query: { q: 'xylophone' } })).body).toEqual({
      items: [],
      nextCursor: null,
    });
  });

  it('combines q with the kind filter', async () => {
    await save({ url: 'https://example.com/notes/budget-review' });
    await t.call('POST', '/library/files', {
      key,
      raw: 'The budget review is next week.',
      headers: { 'x-file-name': 'budget.txt' },
    });
    const res = await t.call('GET', '/library', { key, query: { q: 'budget', kind: 'file' } });
    expect(res.body.items.map((i: any) => i.kind)).toEqual(['file']);
  });

  it('bounds q to 200 characters', async () => {
    expect((await t.call('GET', '/library', { key, query: { q: 'q'.repeat(200) } })).status).toBe(200);
    const over = await t.call('GET', '/library', { key, query: { q: 'q'.repeat(201) } });
    expect(over.status).toBe(400);
    expect(over.body.error.issues[0].path).toBe('q');
  });
});

describe('getLibraryItem, updateLibraryItem, deleteLibraryItem', () => {
  it('reads one item', async () => {
    const item = (await save({ url: 'https://example.com/a' })).body.item;
    const res = await t.call('GET', `/library/${item.id}`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(item);
  });

  it('answers 404 for an unknown item, and for another account’s item', async () => {
    const res = await t.call('GET', '/library/li_missing', { key });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('ITEM_NOT_FOUND');
    const theirs = (await save({ url: 'https://example.com/a' })).body.item;
    expect((await t.call('GET', `/library/${theirs.id}`)).status).toBe(404);
  });

  it('changes the note and the space (204), and clears the note with null', async () => {
    const item = (await save({ url: 'https://example.com/a', note: 'old' })).body.item;
    const space = (await t.call('POST', '/spaces', { key, body: { name: 'Later' } })).body;
    const res = await t.call('PATCH', `/library/${item.id}`, { key, body: { note: 'new note', spaceId: space.id } });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const after = (await t.call('GET', `/library/${item.id}`, { key })).body;
    expect(after).toMatchObject({ note: 'new note', spaceId: space.id });
    await t.call('PATCH', `/library/${item.id}`, { key, body: { note: null } });
    expect((await t.call('GET', `/library/${item.id}`, { key })).body.note).toBeNull();
  });

  it('accepts the space as `space` too (the contract names the field so)', async () => {
    const item = (await save({ url: 'https://example.com/a' })).body.item;
    const space = (await t.call('POST', '/spaces', { key, body: { name: 'Elsewhere' } })).body;
    expect((await t.call('PATCH', `/library/${item.id}`, { key, body: { space: space.id } })).status).toBe(204);
    expect((await t.call('GET', `/library/${item.id}`, { key })).body.spaceId).toBe(space.id);
  });

  it('answers 404 for an unknown item or space, 400 for an empty change or a note over 2000 characters', async () => {
    const item = (await save({ url: 'https://example.com/a' })).body.item;
    expect((await t.call('PATCH', '/library/li_missing', { key, body: { note: 'x' } })).status).toBe(404);
    const badSpace = await t.call('PATCH', `/library/${item.id}`, { key, body: { spaceId: 'sp_missing' } });
    expect(badSpace.status).toBe(404);
    expect(badSpace.body.error.code).toBe('SPACE_NOT_FOUND');
    expect((await t.call('PATCH', `/library/${item.id}`, { key, body: {} })).status).toBe(400);
    expect((await t.call('PATCH', `/library/${item.id}`, { key, body: { note: 'n'.repeat(2001) } })).status).toBe(400);
    expect((await t.call('PATCH', `/library/${item.id}`, { key, body: { note: 'n'.repeat(2000) } })).status).toBe(204);
  });

  it('moves items to the default space when their space is deleted', async () => {
    const space = (await t.call('POST', '/spaces', { key, body: { name: 'Temp' } })).body;
    const item = (await save({ url: 'https://example.com/a', spaceId: space.id })).body.item;
    expect((await t.call('DELETE', `/spaces/${space.id}`, { key })).status).toBe(204);
    expect((await t.call('GET', `/library/${item.id}`, { key })).body.spaceId).toBe(await defaultSpaceId());
  });

  it('deletes an item: 204, then 404', async () => {
    const item = (await save({ url: 'https://example.com/a' })).body.item;
    const res = await t.call('DELETE', `/library/${item.id}`, { key });
    expect(res.status).toBe(204);
    expect((await t.call('GET', `/library/${item.id}`, { key })).status).toBe(404);
    expect((await t.call('DELETE', `/library/${item.id}`, { key })).status).toBe(404);
    expect((await t.call('GET', '/library', { key })).body.items).toEqual([]);
  });
});

describe('readLibraryText', () => {
  it('answers 400 NO_TEXT for items that are not uploaded files', async () => {
    const link = (await save({ url: 'https://example.com/a' })).body.item;
    const res = await t.call('GET', `/library/${link.id}/text`, { key });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('NO_TEXT');
  });

  it('answers 404 for an unknown item', async () => {
    const res = await t.call('GET', '/library/li_missing/text', { key });
    expect(res.status).toBe(404);
  });
});
