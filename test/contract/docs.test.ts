// Docs: revisions that count every save, REVISION_CONFLICT with `latest`,
// exact-match edits, search, listing order and every bound of the bodies.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let t: TestSandbox;
let key: string;

beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());
beforeEach(async () => {
  ({ apiKey: key } = await t.newAccount());
});

const create = (body: Record<string, unknown> = {}) => t.call('POST', '/docs', { key, body });
const get = (id: string) => t.call('GET', `/docs/${id}`, { key });
const edit = (id: string, body: Record<string, unknown>) => t.call('POST', `/docs/${id}/edits`, { key, body });
const update = (id: string, body: Record<string, unknown>) => t.call('PATCH', `/docs/${id}`, { key, body });

async function newDoc(markdown: string, title = 'A doc'): Promise<string> {
  const res = await create({ title, markdown });
  expect(res.status).toBe(201);
  return res.body.id;
}

describe('createDoc and getDoc', () => {
  it('creates a doc at revision 1 and reads it back', async () => {
    const res = await create({ title: 'Trip plan', markdown: '# Day one\n\nTrain to Lyon.' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), revision: 1 });
    const doc = await get(res.body.id);
    expect(doc.status).toBe(200);
    expect(doc.body).toMatchObject({
      id: res.body.id,
      title: 'Trip plan',
      body: '# Day one\n\nTrain to Lyon.',
      revision: 1,
      folderId: null,
      publication: null,
    });
    expect(typeof doc.body.origin).toBe('string');
    expect(Date.parse(doc.body.updatedAt)).not.toBeNaN();
  });

  it('defaults title and markdown to empty, and puts the doc in the default space', async () => {
    const res = await create({});
    expect(res.status).toBe(201);
    const doc = (await get(res.body.id)).body;
    expect(doc.title).toBe('');
    expect(doc.body).toBe('');
    expect(doc.space).toMatchObject({ isDefault: true });
    expect(Object.keys(doc.space).sort()).toEqual(['icon', 'id', 'isDefault', 'name']);
  });

  it('creates the doc in the given space and folder; 404 for an unknown space', async () => {
    const space = (await t.call('POST', '/spaces', { key, body: { name: 'Writing', icon: '✍️' } })).body;
    const res = await create({ title: 'In a space', spaceId: space.id, folderId: 'fld_1' });
    const doc = (await get(res.body.id)).body;
    expect(doc.space).toEqual({ id: space.id, name: 'Writing', icon: '✍️', isDefault: false });
    expect(doc.folderId).toBe('fld_1');
    const missing = await create({ spaceId: 'sp_missing' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('SPACE_NOT_FOUND');
  });

  it('refuses front matter with 400 INVALID_INPUT', async () => {
    for (const markdown of ['---\ntitle: x\n---\nBody', '+++\ntitle = "x"\n+++\nBody', '---\r\na: 1\r\n---\r\n']) {
      const res = await create({ markdown });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_INPUT');
      expect(res.body.error.issues[0].path).toBe('markdown');
    }
    // A thematic break later in the text is not front matter.
    expect((await create({ markdown: 'Intro\n\n---\n\nMore' })).status).toBe(201);
  });

  it('bounds title to 200 and markdown to 500000 characters', async () => {
    expect((await create({ title: 't'.repeat(200) })).status).toBe(201);
    expect((await create({ title: 't'.repeat(201) })).status).toBe(400);
    expect((await create({ markdown: 'm'.repeat(500_000) })).status).toBe(201);
    const over = await create({ markdown: 'm'.repeat(500_001) });
    expect(over.status).toBe(400);
    expect(over.body.error.issues[0].path).toBe('markdown');
  });

  it('bounds spaceId and folderId to 1..80 characters, and checks types', async () => {
    expect((await create({ spaceId: '' })).status).toBe(400);
    expect((await create({ spaceId: 's'.repeat(81) })).status).toBe(400);
    expect((await create({ folderId: 'f'.repeat(80) })).status).toBe(201);
    expect((await create({ folderId: 'f'.repeat(81) })).status).toBe(400);
    expect((await create({ title: 42 })).status).toBe(400);
    expect((await create({ spaceId: null })).status).toBe(201);
  });

  it('answers 404 DOC_NOT_FOUND for an unknown doc and for another account’s doc', async () => {
    const res = await get('doc_missing');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('DOC_NOT_FOUND');
    const theirs = await newDoc('private');
    expect((await t.call('GET', `/docs/${theirs}`)).status).toBe(404);
  });
});

describe('updateDoc', () => {
  it('replaces title and/or body and increments the revision on every save', async () => {
    const id = await newDoc('one');
    const first = await update(id, { body: 'two', baseRevision: 1 });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ id, revision: 2, updatedAt: expect.any(String) });
    const second = await update(id, { title: 'Renamed', baseRevision: 2 });
    expect(second.body.revision).toBe(3);
    const doc = (await get(id)).body;
    expect(doc).toMatchObject({ title: 'Renamed', body: 'two', revision: 3 });
    // Without baseRevision the save still counts.
    expect((await update(id, { body: 'three' })).body.revision).toBe(4);
  });

  it('answers 409 REVISION_CONFLICT with `latest` for a stale baseRevision, and changes nothing', async () => {
    const id = await newDoc('original', 'Title');
    await update(id, { body: 'newer', baseRevision: 1 });
    const res = await update(id, { body: 'stale write', baseRevision: 1 });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('REVISION_CONFLICT');
    expect(res.body.latest).toEqual({ revision: 2, title: 'Title', body: 'newer', updatedAt: expect.any(String) });
    expect((await get(id)).body).toMatchObject({ body: 'newer', revision: 2 });
    // A baseRevision from the future is just as stale.
    expect((await update(id, { body: 'x', baseRevision: 3 })).status).toBe(409);
  });

  it('refuses an empty change, front matter, and values out of bounds', async () => {
    const id = await newDoc('x');
    expect((await update(id, {})).status).toBe(400);
    expect((await update(id, { baseRevision: 1 })).status).toBe(400);
    expect((await update(id, { body: '---\na: 1\n---\n' })).status).toBe(400);
    expect((await update(id, { title: 't'.repeat(201) })).status).toBe(400);
    expect((await update(id, { body: 'b'.repeat(500_001) })).status).toBe(400);
    expect((await update(id, { body: 'b', baseRevision: 0 })).status).toBe(400);
    expect((await update(id, { title: 't'.repeat(200), body: 'b'.repeat(500_000) })).status).toBe(200);
    expect((await get(id)).body.revision).toBe(2);
  });

  it('answers 404 for an unknown doc', async () => {
    expect((await update('doc_missing', { body: 'x' })).status).toBe(404);
  });
});

describe('editDoc', () => {
  it('applies replace, insert_after, append and prepend in order, as one save', async () => {
    const id = await newDoc('# Plan\n\nBuy milk.\n');
    const res = await edit(id, {
      revision: 1,
      edits: [
        { op: 'replace', find: 'Buy milk.', replace: 'Buy oat milk.' },
        { op: 'insert_after', after: '# Plan\n', content: '\nShopping first.\n' },
        { op: 'append', content: 'Then cook.' },
        { op: 'prepend', content: 'Draft' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id, revision: 2, updatedAt: expect.any(String) });
    expect((await get(id)).body.body).toBe('Draft\n# Plan\n\nShopping first.\n\nBuy oat milk.\nThen cook.');
  });

  it('rewrites the whole body with `rewrite`', async () => {
    const id = await newDoc('old text');
    expect((await edit(id, { edits: [{ op: 'rewrite', content: 'all new' }] })).status).toBe(200);
    expect((await get(id)).body.body).toBe('all new');
  });

  it('later edits see the result of earlier ones', async () => {
    const id = await newDoc('alpha');
    await edit(id, {
      edits: [
        { op: 'replace', find: 'alpha', replace: 'beta' },
        { op: 'replace', find: 'beta', replace: 'gamma' },
      ],
    });
    expect((await get(id)).body.body).toBe('gamma');
  });

  it('answers 400 EDIT_NOT_APPLICABLE naming the edit that did not match, and saves nothing', async () => {
    const id = await newDoc('one two three');
    const res = await edit(id, {
      edits: [
        { op: 'replace', find: 'one', replace: '1' },
        { op: 'replace', find: 'four', replace: '4' },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('EDIT_NOT_APPLICABLE');
    expect(res.body.error.message).toContain('edits[1]');
    expect(res.body.edit).toMatchObject({ index: 1, op: 'replace' });
    expect((await get(id)).body).toMatchObject({ body: 'one two three', revision: 1 });
    const after = await edit(id, { edits: [{ op: 'insert_after', after: 'missing anchor', content: 'x' }] });
    expect(after.status).toBe(400);
    expect(after.body.error.code).toBe('EDIT_NOT_APPLICABLE');
  });

  it('refuses a find or anchor that matches more than one place (ambiguous)', async () => {
    const id = await newDoc('same and same');
    const res = await edit(id, { edits: [{ op: 'replace', find: 'same', replace: 'other' }] });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('EDIT_NOT_APPLICABLE');
    expect(res.body.error.message).toMatch(/2 places/);
    expect((await edit(id, { edits: [{ op: 'replace', find: 'same and', replace: 'one and' }] })).status).toBe(200);
  });

  it('answers 409 REVISION_CONFLICT when `revision` is not the latest', async () => {
    const id = await newDoc('text');
    await edit(id, { edits: [{ op: 'append', content: 'more' }] });
    const res = await edit(id, { revision: 1, edits: [{ op: 'append', content: 'stale' }] });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('REVISION_CONFLICT');
    expect(res.body.latest.revision).toBe(2);
    expect((await edit(id, { revision: 2, edits: [{ op: 'append', content: 'fresh' }] })).body.revision).toBe(3);
  });

  it('checks the 500000-character limit on the edited result', async () => {
    const id = await newDoc('m'.repeat(499_990));
    const over = await edit(id, { edits: [{ op: 'append', content: 'x'.repeat(20) }] });
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe('INVALID_INPUT');
    expect(
      (await edit(id, { edits: [{ op: 'replace', find: 'mmmmmmmmmm', replace: 'mmmmmmmmmmmmmmmmmmm' }] })).status,
    ).toBe(400); // ambiguous
    const atLimit = await edit(id, { edits: [{ op: 'append', content: 'x'.repeat(9) }] }); // 499990 + "\n" + 9
    expect(atLimit.status).toBe(200);
    expect([...(await get(id)).body.body].length).toBe(500_000);
  });

  it('refuses edits that would add front matter', async () => {
    const id = await newDoc('Body');
    const res = await edit(id, { edits: [{ op: 'prepend', content: '---\ntitle: x\n---' }] });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_INPUT');
  });

  it('bounds edits to 1..20 and every op field', async () => {
    const id = await newDoc('x');
    const append = { op: 'append', content: 'y' };
    expect((await edit(id, { edits: [] })).status).toBe(400);
    expect((await edit(id, { edits: Array(21).fill(append) })).status).toBe(400);
    expect((await edit(id, { edits: Array(20).fill(append) })).status).toBe(200);
    const bad = [
      { op: 'replace', find: '', replace: 'x' },
      { op: 'replace', find: 'f'.repeat(20001), replace: 'x' },
      { op: 'replace', find: 'x', replace: 'r'.repeat(40001) },
      { op: 'insert_after', after: '', content: 'x' },
      { op: 'insert_after', after: 'a'.repeat(4001), content: 'x' },
      { op: 'insert_after', after: 'x', content: '' },
      { op: 'append', content: '' },
      { op: 'append', content: 'c'.repeat(40001) },
      { op: 'prepend', content: 'c'.repeat(40001) },
      { op: 'delete', find: 'x' },
      { op: 'replace', find: 'x' },
    ];
    for (const op of bad) {
      const res = await edit(id, { edits: [op] });
      expect(res.status, JSON.stringify(op).slice(0, 60)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_INPUT');
    }
    expect((await edit(id, { revision: 0, edits: [append] })).status).toBe(400);
    expect((await edit(id, {})).status).toBe(400);
    // At the bounds.
    const doc = await newDoc('f'.repeat(20000) + '|' + 'a'.repeat(4000));
    expect(
      (await edit(doc, { edits: [{ op: 'replace', find: `${'f'.repeat(19999)}|`, replace: 'r'.repeat(40000) }] }))
        .status,
    ).toBe(200);
    expect(
      (await edit(doc, { edits: [{ op: 'insert_after', after: 'a'.repeat(4000), content: 'c'.repeat(40000) }] }))
        .status,
    ).toBe(200);
  });

  it('answers 404 for an unknown doc', async () => {
    expect((await edit('doc_missing', { edits: [{ op: 'append', content: 'x' }] })).status).toBe(404);
  });
});

describe('deleteDoc', () => {
  it('deletes: 204, then 404 for every operation on it', async () => {
    const id = await newDoc('bye');
    expect((await t.call('DELETE', `/docs/${id}`, { key })).status).toBe(204);
    expect((await get(id)).status).toBe(404);
    expect((await update(id, { body: 'x' })).status).toBe(404);
    expect((await edit(id, { edits: [{ op: 'append', content: 'x' }] })).status).toBe(404);
    expect((await t.call('DELETE', `/docs/${id}`, { key })).status).toBe(404);
    expect((await t.call('GET', '/docs', { key })).body.items).toEqual([]);
  });
});

describe('listDocs', () => {
  it('lists most recently updated first, without bodies', async () => {
    const a = await newDoc('a', 'A');
    await t.advance(1000);
    const b = await newDoc('b', 'B');
    await t.advance(1000);
    await update(a, { body: 'a2' });
    const res = await t.call('GET', '/docs', { key });
    expect(res.status).toBe(200);
    expect(res.body.items.map((d: any) => d.id)).toEqual([a, b]);
    expect(res.body.nextCursor).toBeNull();
    expect(res.body.items[0]).toEqual({
      id: a,
      title: 'A',
      spaceId: expect.any(String),
      folderId: null,
      revision: 2,
      updatedAt: expect.any(String),
    });
    expect(res.body.items[0].body).toBeUndefined();
  });

  it('pages with cursors; 100 by default; limit 1..500', async () => {
    for (let i = 0; i < 101; i++) await create({ title: `Doc ${i}` });
    const first = await t.call('GET', '/docs', { key });
    expect(first.body.items).toHaveLength(100);
    const second = await t.call('GET', '/docs', { key, query: { cursor: first.body.nextCursor } });
    expect(second.body.items).toHaveLength(1);
    expect(second.body.nextCursor).toBeNull();
    expect(new Set([...first.body.items, ...second.body.items].map((d: any) => d.id)).size).toBe(101);
    expect((await t.call('GET', '/docs', { key, query: { limit: 500 } })).body.items).toHaveLength(101);
    expect((await t.call('GET', '/docs', { key, query: { limit: 1 } })).body.items).toHaveLength(1);
    expect((await t.call('GET', '/docs', { key, query: { limit: 0 } })).status).toBe(400);
    expect((await t.call('GET', '/docs', { key, query: { limit: 501 } })).status).toBe(400);
    expect((await t.call('GET', '/docs', { key, query: { cursor: 'x'.repeat(201) } })).status).toBe(400);
  });

  it('filters by space', async () => {
    const space = (await t.call('POST', '/spaces', { key, body: { name: 'Work' } })).body;
    const inSpace = (await create({ title: 'Work doc', spaceId: space.id })).body.id;
    await create({ title: 'Home doc' });
    expect(
      (await t.call('GET', '/docs', { key, query: { space: space.id } })).body.items.map((d: any) => d.id),
    ).toEqual([inSpace]);
    expect((await t.call('GET', '/docs', { key, query: { space: 'sp_none' } })).body.items).toEqual([]);
    expect((await t.call('GET', '/docs', { key, query: { space: 's'.repeat(81) } })).status).toBe(400);
  });
});

describe('searchDocs', () => {
  it('finds docs by keywords, with an excerpt, answering only items', async () => {
    const hit = await newDoc('We agreed to repaint the boathouse before the regatta.', 'Club meeting');
    await newDoc('Recipes for winter soups.', 'Soups');
    const res = await t.call('GET', '/docs/search', { key, query: { q: 'boathouse' } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['items']);
    expect(res.body.items).toHaveLength(1);
    expect(res.body.items[0]).toEqual({
      id: hit,
      title: 'Club meeting',
      spaceId: expect.any(String),
      excerpt: expect.stringContaining('boathouse'),
      updatedAt: expect.any(String),
    });
  });

  it('matches word forms and related words (a crude sense of meaning), title matches first', async () => {
    const body = await newDoc('Notes: the quarterly budgets are tight.', 'Finance');
    const title = await newDoc('Nothing relevant here.', 'Budget review');
    const related = await newDoc('Travel expenses must be filed by Friday.', 'Travel');
    const res = await t.call('GET', '/docs/search', { key, query: { q: 'budget' } });
    expect(res.body.items.map((d: any) => d.id)).toEqual([title, body, related]);
  });

  it('answers an empty list when nothing matches', async () => {
    await newDoc('Something', 'Else');
    expect((await t.call('GET', '/docs/search', { key, query: { q: 'zanzibar' } })).body).toEqual({ items: [] });
  });

  it('requires q of 1..200 characters', async () => {
    expect((await t.call('GET', '/docs/search', { key })).status).toBe(400);
    expect((await t.call('GET', '/docs/search', { key, query: { q: '' } })).status).toBe(400);
    expect((await t.call('GET', '/docs/search', { key, query: { q: 'q'.repeat(200) } })).status).toBe(200);
    expect((await t.call('GET', '/docs/search', { key, query: { q: 'q'.repeat(201) } })).status).toBe(400);
  });
});
