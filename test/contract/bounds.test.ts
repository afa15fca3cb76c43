// Every bound of the library and docs endpoints, at the limit and one over:
// at the limit the input passes validation (whatever else the answer says),
// one over it is 400 INVALID_INPUT with an issue naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type CallOptions, type TestSandbox } from '../helpers/sandbox.js';

let t: TestSandbox;
let docId: string;
/** Edited by the editDoc rows only, so that other rows' at-the-limit bodies do not push it over the size limit. */
let editDocId: string;
let fileId: string;
let linkId: string;

beforeAll(async () => {
  t = await startTestSandbox();
  docId = (await t.call('POST', '/docs', { body: { title: 'Bounds', markdown: 'start' } })).body.id;
  editDocId = (await t.call('POST', '/docs', { body: { title: 'Edits', markdown: 'start' } })).body.id;
  fileId = (await t.call('POST', '/library/files', { raw: 'x'.repeat(300), headers: { 'x-file-name': 'bounds.txt' } }))
    .body.item.id;
  linkId = (await t.call('POST', '/library', { body: { url: 'https://example.com/bounds' } })).body.item.id;
});
afterAll(() => t.close());

interface Bound {
  name: string;
  /** The field the issue must name when over the bound. */
  path: string;
  request: (value: 'at' | 'over') => [method: string, path: string, options: CallOptions];
}

const s = (n: number) => 's'.repeat(n);
const get = (path: string, query: CallOptions['query']): [string, string, CallOptions] => ['GET', path, { query }];
const post = (path: string, body: unknown): [string, string, CallOptions] => ['POST', path, { body }];
const patch = (path: string, body: unknown): [string, string, CallOptions] => ['PATCH', path, { body }];
const upload = (query: Record<string, string>, headers: Record<string, string> = {}): [string, string, CallOptions] => [
  'POST',
  '/library/files',
  {
    raw: `bounds upload ${JSON.stringify(query)} ${JSON.stringify(headers).length}`,
    query,
    headers: { 'x-file-name': 'b.txt', ...headers },
  },
];
const edit = (op: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  post(`/docs/${editDocId}/edits`, { edits: [op], ...extra });

const bounds: Bound[] = [
  // listLibrary
  {
    name: 'listLibrary limit max 200',
    path: 'limit',
    request: (v) => get('/library', { limit: v === 'at' ? 200 : 201 }),
  },
  { name: 'listLibrary limit min 1', path: 'limit', request: (v) => get('/library', { limit: v === 'at' ? 1 : 0 }) },
  { name: 'listLibrary q max 200', path: 'q', request: (v) => get('/library', { q: s(v === 'at' ? 200 : 201) }) },
  {
    name: 'listLibrary space max 80',
    path: 'space',
    request: (v) => get('/library', { space: s(v === 'at' ? 80 : 81) }),
  },
  { name: 'listLibrary space min 1', path: 'space', request: (v) => get('/library', { space: v === 'at' ? 's' : '' }) },
  {
    name: 'listLibrary cursor max 200',
    path: 'cursor',
    request: (v) => get('/library', { cursor: s(v === 'at' ? 200 : 201) }),
  },
  {
    name: 'listLibrary kind enum',
    path: 'kind',
    request: (v) => get('/library', { kind: v === 'at' ? 'media' : 'video' }),
  },
  // saveLink
  {
    name: 'saveLink note max 2000',
    path: 'note',
    request: (v) => post('/library', { url: 'https://example.com/n', note: s(v === 'at' ? 2000 : 2001) }),
  },
  {
    name: 'saveLink url max 2048',
    path: 'url',
    request: (v) => post('/library', { url: `https://example.com/${s(v === 'at' ? 2028 : 2029)}` }),
  },
  {
    name: 'saveLink spaceId max 80',
    path: 'spaceId',
    request: (v) => post('/library', { url: 'https://example.com/s', spaceId: s(v === 'at' ? 80 : 81) }),
  },
  {
    name: 'saveLink lang enum',
    path: 'lang',
    request: (v) => post('/library', { url: 'https://example.com/l', lang: v === 'at' ? 'zh' : 'fr' }),
  },
  // updateLibraryItem
  {
    name: 'updateLibraryItem note max 2000',
    path: 'note',
    request: (v) => patch(`/library/${linkId}`, { note: s(v === 'at' ? 2000 : 2001) }),
  },
  {
    name: 'updateLibraryItem spaceId max 80',
    path: 'spaceId',
    request: (v) => patch(`/library/${linkId}`, { spaceId: s(v === 'at' ? 80 : 81) }),
  },
  {
    name: 'updateLibraryItem spaceId min 1',
    path: 'spaceId',
    request: (v) => patch(`/library/${linkId}`, { spaceId: v === 'at' ? 's' : '' }),
  },
  // readLibraryText
  {
    name: 'readLibraryText limit min 100',
    path: 'limit',
    request: (v) => get(`/library/${fileId}/text`, { limit: v === 'at' ? 100 : 99 }),
  },
  {
    name: 'readLibraryText limit max 50000',
    path: 'limit',
    request: (v) => get(`/library/${fileId}/text`, { limit: v === 'at' ? 50000 : 50001 }),
  },
  {
    name: 'readLibraryText offset min 0',
    path: 'offset',
    request: (v) => get(`/library/${fileId}/text`, { offset: v === 'at' ? 0 : -1 }),
  },
  // uploadFile
  { name: 'uploadFile note max 2000', path: 'note', request: (v) => upload({ note: s(v === 'at' ? 2000 : 2001) }) },
  { name: 'uploadFile space max 80', path: 'space', request: (v) => upload({ space: s(v === 'at' ? 80 : 81) }) },
  { name: 'uploadFile lang enum', path: 'lang', request: (v) => upload({ lang: v === 'at' ? 'en' : 'de' }) },
  {
    name: 'uploadFile X-File-Name max 255',
    path: 'X-File-Name',
    request: (v) => upload({}, { 'x-file-name': `${s(v === 'at' ? 251 : 252)}.txt` }),
  },
  // listDocs, searchDocs
  { name: 'listDocs limit max 500', path: 'limit', request: (v) => get('/docs', { limit: v === 'at' ? 500 : 501 }) },
  { name: 'listDocs limit min 1', path: 'limit', request: (v) => get('/docs', { limit: v === 'at' ? 1 : 0 }) },
  { name: 'listDocs space max 80', path: 'space', request: (v) => get('/docs', { space: s(v === 'at' ? 80 : 81) }) },
  {
    name: 'listDocs cursor max 200',
    path: 'cursor',
    request: (v) => get('/docs', { cursor: s(v === 'at' ? 200 : 201) }),
  },
  { name: 'searchDocs q max 200', path: 'q', request: (v) => get('/docs/search', { q: s(v === 'at' ? 200 : 201) }) },
  { name: 'searchDocs q min 1', path: 'q', request: (v) => get('/docs/search', { q: v === 'at' ? 's' : '' }) },
  // createDoc
  {
    name: 'createDoc title max 200',
    path: 'title',
    request: (v) => post('/docs', { title: s(v === 'at' ? 200 : 201) }),
  },
  {
    name: 'createDoc markdown max 500000',
    path: 'markdown',
    request: (v) => post('/docs', { markdown: s(v === 'at' ? 500_000 : 500_001) }),
  },
  {
    name: 'createDoc spaceId max 80',
    path: 'spaceId',
    request: (v) => post('/docs', { spaceId: s(v === 'at' ? 80 : 81) }),
  },
  {
    name: 'createDoc folderId max 80',
    path: 'folderId',
    request: (v) => post('/docs', { folderId: s(v === 'at' ? 80 : 81) }),
  },
  {
    name: 'createDoc folderId min 1',
    path: 'folderId',
    request: (v) => post('/docs', { folderId: v === 'at' ? 'f' : '' }),
  },
  // updateDoc
  {
    name: 'updateDoc title max 200',
    path: 'title',
    request: (v) => patch(`/docs/${docId}`, { title: s(v === 'at' ? 200 : 201) }),
  },
  {
    name: 'updateDoc body max 500000',
    path: 'body',
    request: (v) => patch(`/docs/${docId}`, { body: s(v === 'at' ? 500_000 : 500_001) }),
  },
  {
    name: 'updateDoc baseRevision min 1',
    path: 'baseRevision',
    request: (v) => patch(`/docs/${docId}`, { title: 'x', baseRevision: v === 'at' ? 1 : 0 }),
  },
  // editDoc
  {
    name: 'editDoc edits max 20',
    path: 'edits',
    request: (v) =>
      post(`/docs/${editDocId}/edits`, { edits: Array(v === 'at' ? 20 : 21).fill({ op: 'append', content: 'a' }) }),
  },
  {
    name: 'editDoc edits min 1',
    path: 'edits',
    request: (v) => post(`/docs/${editDocId}/edits`, { edits: v === 'at' ? [{ op: 'append', content: 'a' }] : [] }),
  },
  {
    name: 'editDoc revision min 1',
    path: 'revision',
    request: (v) => edit({ op: 'append', content: 'a' }, { revision: v === 'at' ? 1 : 0 }),
  },
  {
    name: 'replace find max 20000',
    path: 'edits.0.find',
    request: (v) => edit({ op: 'replace', find: s(v === 'at' ? 20000 : 20001), replace: '' }),
  },
  {
    name: 'replace find min 1',
    path: 'edits.0.find',
    request: (v) => edit({ op: 'replace', find: v === 'at' ? 's' : '', replace: '' }),
  },
  {
    name: 'replace replace max 40000',
    path: 'edits.0.replace',
    request: (v) => edit({ op: 'replace', find: 'zz', replace: s(v === 'at' ? 40000 : 40001) }),
  },
  {
    name: 'insert_after after max 4000',
    path: 'edits.0.after',
    request: (v) => edit({ op: 'insert_after', after: s(v === 'at' ? 4000 : 4001), content: 'c' }),
  },
  {
    name: 'insert_after content max 40000',
    path: 'edits.0.content',
    request: (v) => edit({ op: 'insert_after', after: 'zz', content: s(v === 'at' ? 40000 : 40001) }),
  },
  {
    name: 'insert_after content min 1',
    path: 'edits.0.content',
    request: (v) => edit({ op: 'insert_after', after: 'zz', content: v === 'at' ? 'c' : '' }),
  },
  {
    name: 'append content max 40000',
    path: 'edits.0.content',
    request: (v) => edit({ op: 'append', content: s(v === 'at' ? 40000 : 40001) }),
  },
  {
    name: 'prepend content max 40000',
    path: 'edits.0.content',
    request: (v) => edit({ op: 'prepend', content: s(v === 'at' ? 40000 : 40001) }),
  },
  {
    name: 'prepend content min 1',
    path: 'edits.0.content',
    request: (v) => edit({ op: 'prepend', content: v === 'at' ? 'c' : '' }),
  },
  {
    name: 'edit op enum',
    path: 'edits.0.op',
    request: (v) => edit({ op: v === 'at' ? 'append' : 'delete', content: 'c' }),
  },
  // Last: at the bound it fills the doc to the size limit.
  {
    name: 'rewrite content max 500000',
    path: 'edits.0.content',
    request: (v) => edit({ op: 'rewrite', content: s(v === 'at' ? 500_000 : 500_001) }),
  },
];

describe.each(bounds)('$name', ({ path, request }) => {
  it('passes validation at the bound', async () => {
    const [method, url, options] = request('at');
    const res = await t.call(method, url, options);
    const issues: Array<{ path: string }> = res.body?.error?.issues ?? [];
    expect(
      issues.filter((issue) => issue.path === path && !/not a cursor/.test((issue as any).message)),
      res.text.slice(0, 300),
    ).toEqual([]);
  });

  it('is 400 INVALID_INPUT naming the field one over the bound', async () => {
    const [method, url, options] = request('over');
    const res = await t.call(method, url, options);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_INPUT');
    expect(res.body.error.issues.map((issue: { path: string }) => issue.path)).toContain(path);
  });
});
