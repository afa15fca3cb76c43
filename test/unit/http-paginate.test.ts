// Cursor pagination against a service with 250 documents.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/api/client.js';
import { paginate } from '../../src/http/paginate.js';
import type { Pacer } from '../../src/http/pacer.js';
import { startFaultServer, type FaultServer } from '../helpers/fault-server.js';

const unpaced: Pacer = { take: async () => 0, pause: () => undefined };
let server: FaultServer;
let api: ApiClient;

beforeAll(async () => {
  server = await startFaultServer({ docs: 250 });
  api = createApiClient({ baseUrl: server.baseUrl, apiKey: 'sk_pages', pacer: unpaced });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const queries = () => server.requests.map((r) => Object.fromEntries(new URL(r.url, 'http://x').searchParams));

describe('paginate', () => {
  it('--all follows every cursor with the largest page the operation allows', async () => {
    const docs = await collect(api.paginate('listDocs', {}, { all: true }));
    expect(docs).toHaveLength(250);
    expect(docs.map((d) => d.id)).toEqual(Array.from({ length: 250 }, (_, i) => `d_${i + 1}`));
    // listDocs takes limit 1..500: one request is enough.
    expect(queries()).toEqual([{ limit: '500' }]);
  });

  it('--limit caps the items and asks for pages no bigger than needed', async () => {
    const docs = await collect(api.paginate('listDocs', { query: { space: 'work' } }, { limit: 7 }));
    expect(docs.map((d) => d.id)).toEqual(['d_1', 'd_2', 'd_3', 'd_4', 'd_5', 'd_6', 'd_7']);
    expect(queries()).toEqual([{ space: 'work', limit: '7' }]);
  });

  it('follows cursors across several pages when the page size bound is smaller than the limit', async () => {
    // Pages of 100 (the service's cap here via its own paging), limit 230.
    const small = createApiClient({ baseUrl: server.baseUrl, apiKey: 'sk_pages', pacer: unpaced });
    const items = await collect(
      paginate((cursor, pageSize) => small.call('listDocs', { query: { cursor, limit: pageSize } }), {
        limit: 230,
        maxPageSize: 100,
      }),
    );
    expect(items).toHaveLength(230);
    expect(items.at(-1)!.id).toBe('d_230');
    expect(queries()).toEqual([{ limit: '100' }, { limit: '100', cursor: 'c100' }, { limit: '30', cursor: 'c200' }]);
  });

  it('without --all or --limit reads the first page only, at the service default', async () => {
    const docs = await collect(api.paginate('listDocs'));
    expect(docs).toHaveLength(100);
    expect(queries()).toEqual([{}]);
  });

  it('stops asking as soon as the consumer stops reading (constant memory)', async () => {
    let seen = 0;
    for await (const _doc of api.paginate('listDocs', {}, { all: true })) {
      if (++seen === 3) break;
    }
    expect(server.requests).toHaveLength(1);
  });

  it('--limit 0 asks nothing; an empty list ends at once', async () => {
    expect(await collect(api.paginate('listDocs', {}, { limit: 0 }))).toEqual([]);
    expect(server.requests).toHaveLength(0);
    const empty = await collect(paginate(async () => ({ items: [] as number[], nextCursor: null }), { all: true }));
    expect(empty).toEqual([]);
  });

  it('operations without a page size parameter get no limit sent', async () => {
    const fetched: Array<number | undefined> = [];
    const items = await collect(
      paginate(
        async (cursor, pageSize) => {
          fetched.push(pageSize);
          return cursor ? { items: [3], nextCursor: null } : { items: [1, 2], nextCursor: 'next' };
        },
        { all: true, maxPageSize: undefined },
      ),
    );
    expect(items).toEqual([1, 2, 3]);
    expect(fetched).toEqual([undefined, undefined]);
  });

  it('--limit reached, or one page asked for: a cursor that could not be followed is no error (it is not followed)', async () => {
    const pages = paginate(async () => ({ items: [1, 2], nextCursor: { a: 1 } as unknown as string }), { limit: 2 });
    expect(await collect(pages)).toEqual([1, 2]);
    expect(pages.cut).toBe(true);
    // The cut was chosen (--limit): not one page left to the service's size.
    expect(pages.onePage).toBe(false);
    const onePage = paginate(async () => ({ items: [1, 2], nextCursor: { a: 1 } as unknown as string }));
    expect(await collect(onePage)).toEqual([1, 2]);
    expect(onePage.cut).toBe(true);
    expect(onePage.onePage).toBe(true);
    const more = paginate(async () => ({ items: [1, 2], nextCursor: { a: 1 } as unknown as string }), { all: true });
    await expect(collect(more)).rejects.toMatchObject({ code: 'CURSOR_INVALID' });
  });

  it('refuses to loop on a cursor the service hands back unchanged', async () => {
    const pages = paginate(async () => ({ items: [1], nextCursor: 'same' }), { all: true });
    await expect(collect(pages)).rejects.toMatchObject({ code: 'CURSOR_LOOP' });
  });
});
