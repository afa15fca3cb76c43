// uploadFile and readLibraryText: streamed bodies, type by content, text
// extraction, limits, duplicates, credits, and chunked reading of the text.
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { makeDocx, makeGif, makeJpeg, makePdf, makePng, makeWebp, makeZip } from '../helpers/files.js';
import { accountId, key, t, useAccountPerTest } from '../helpers/account-per-test.js';

// A fresh account per test: lists start empty.
useAccountPerTest();

function upload(
  data: Buffer | string,
  name: string | undefined,
  options: { query?: Record<string, string>; headers?: Record<string, string>; apiKey?: string } = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/octet-stream', ...options.headers };
  if (name !== undefined) headers['x-file-name'] = encodeURIComponent(name);
  return t.call('POST', '/library/files', { key: options.apiKey ?? key, raw: data, headers, query: options.query });
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const me = async () => (await t.call('GET', '/me', { key })).body;
const incomingFiles = () => {
  try {
    return readdirSync(join(t.sandbox.world.blobDir, 'files')).filter((f) => f.startsWith('incoming-'));
  } catch {
    return [];
  }
};

describe('uploadFile: accepted types, decided by content', () => {
  it('stores plain text: 201 FileSaved with name, size, SHA-256 and extracted text', async () => {
    const data = 'Quarterly notes.\n\nThe harbour expansion is ahead of schedule. Costs are within budget.\n';
    const res = await upload(data, 'notes 2026 – draft.txt');
    expect(res.status).toBe(201);
    expect(res.body.duplicate).toBe(false);
    expect(res.body.item).toMatchObject({
      kind: 'file',
      fileName: 'notes 2026 – draft.txt',
      mime: 'text/plain',
      size: Buffer.byteLength(data),
      sha256: sha256(data),
      status: 'ready',
      url: null,
    });
    expect(res.body.item.summary).toContain('harbour');
    expect(res.body.item.keyPoints.length).toBeGreaterThan(0);
    const text = await t.call('GET', `/library/${res.body.item.id}/text`, { key });
    expect(text.status).toBe(200);
    expect(text.body).toEqual({
      id: res.body.item.id,
      offset: 0,
      limit: 8000,
      total: data.length,
      text: data,
      nextOffset: null,
    });
  });

  it('calls UTF-8 text Markdown when the name ends in .md or .markdown', async () => {
    expect((await upload('# Plan\n\nShip it.', 'plan.md')).body.item.mime).toBe('text/markdown');
    expect((await upload('# Plan\n\nShip it again.', 'plan.markdown')).body.item.mime).toBe('text/markdown');
    expect((await upload('# Plan\n\nShip it once more.', 'plan.txt')).body.item.mime).toBe('text/plain');
  });

  it('extracts the text of a PDF', async () => {
    const res = await upload(
      makePdf(['Annual report of the lighthouse society', 'Membership grew by a third.']),
      'report.pdf',
    );
    expect(res.status).toBe(201);
    expect(res.body.item.mime).toBe('application/pdf');
    const text = await t.call('GET', `/library/${res.body.item.id}/text`, { key });
    expect(text.body.text).toContain('Annual report of the lighthouse society');
    expect(text.body.text).toContain('Membership grew by a third.');
  });

  it('extracts the text of a Word .docx', async () => {
    const res = await upload(
      makeDocx(['Minutes of the orchard committee.', 'Pruning starts in March.']),
      'minutes.docx',
    );
    expect(res.status).toBe(201);
    expect(res.body.item.mime).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    const text = await t.call('GET', `/library/${res.body.item.id}/text`, { key });
    expect(text.body.text).toContain('Minutes of the orchard committee.');
    expect(text.body.text).toContain('Pruning starts in March.');
  });

  it.each([
    ['png', makePng(800, 600), 'image/png', '800×600'],
    ['jpg', makeJpeg(1024, 768), 'image/jpeg', '1024×768'],
    ['gif', makeGif(32, 64), 'image/gif', '32×64'],
    ['webp', makeWebp(300, 300), 'image/webp', '300×300'],
  ])('gives a %s image a generated text description', async (ext, data, mime, size) => {
    const res = await upload(data, `picture.${ext}`);
    expect(res.status).toBe(201);
    expect(res.body.item.mime).toBe(mime);
    const text = await t.call('GET', `/library/${res.body.item.id}/text`, { key });
    expect(text.status).toBe(200);
    expect(text.body.text).toContain(size);
  });

  it('ignores the name when sniffing: a PDF called .txt is a PDF', async () => {
    const res = await upload(makePdf(['Disguised']), 'not-really.txt');
    expect(res.body.item.mime).toBe('application/pdf');
  });

  it.each([
    ['a ZIP without word/document.xml', makeZip({ 'readme.txt': 'hello' }), 'archive.docx'],
    ['binary with NUL bytes', Buffer.from([0x00, 0x01, 0x02, 0x03, 0xfe, 0xff]), 'data.bin'],
    ['text with a NUL byte', Buffer.from('hello\u0000world'), 'nul.txt'],
    ['invalid UTF-8', Buffer.from([0x68, 0x69, 0xc3, 0x28, 0x20, 0x61]), 'latin.txt'],
    ['an old .doc (OLE2)', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0]), 'old.doc'],
  ])('refuses %s with 415 UNSUPPORTED_TYPE and stores nothing', async (_what, data, name) => {
    const before = (await me()).usage.storageBytes;
    const res = await upload(data, name);
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('UNSUPPORTED_TYPE');
    expect((await me()).usage.storageBytes).toBe(before);
    expect((await t.call('GET', '/library', { key })).body.items).toEqual([]);
    expect(incomingFiles()).toEqual([]);
  });
});

describe('uploadFile: required parts', () => {
  it('answers 400 INVALID_INPUT without X-File-Name', async () => {
    const res = await upload('some text', undefined);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_INPUT');
    expect(res.body.error.issues[0].path).toBe('X-File-Name');
  });

  it('URL-decodes X-File-Name', async () => {
    const res = await t.call('POST', '/library/files', {
      key,
      raw: 'text of a report',
      headers: { 'x-file-name': '%E6%8A%A5%E5%91%8A%202026.txt' },
    });
    expect(res.body.item.fileName).toBe('报告 2026.txt');
  });

  it('takes a name that is not URL-encoded as it is, and raw UTF-8 as UTF-8', async () => {
    const percent = await t.call('POST', '/library/files', {
      key,
      raw: 'one hundred percent',
      headers: { 'x-file-name': '100% done.txt' },
    });
    expect(percent.body.item.fileName).toBe('100% done.txt');
    const raw = await t.call('POST', '/library/files', {
      key,
      raw: 'raw utf-8 name',
      headers: { 'x-file-name': Buffer.from('报告.txt', 'utf8').toString('latin1') },
    });
    expect(raw.body.item.fileName).toBe('报告.txt');
  });

  it('keeps only the last segment of a name with a path', async () => {
    const res = await t.call('POST', '/library/files', {
      key,
      raw: 'path name',
      headers: { 'x-file-name': encodeURIComponent('../../etc/notes.txt') },
    });
    expect(res.body.item.fileName).toBe('notes.txt');
  });

  it('answers 400 EMPTY_FILE for an empty body (Content-Length: 0)', async () => {
    const res = await upload('', 'empty.txt');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('EMPTY_FILE');
    expect(res.body.error.message).toMatch(/empty/);
  });

  it('answers 400 EMPTY_FILE without Content-Length (chunked body), saying a Content-Length is required', async () => {
    // node:http, so that nothing computes a length for us.
    const answer = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = httpRequest(`${t.baseUrl}/library/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'x-file-name': 'chunked.txt', 'transfer-encoding': 'chunked' },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.end('some words');
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('EMPTY_FILE');
    expect(answer.body.error.message).toMatch(/Content-Length is required/);
    expect(answer.body.error.message).not.toMatch(/no body/);
  });

  it('bounds note to 2000 characters and space to 1..80', async () => {
    expect((await upload('note ok', 'a.txt', { query: { note: 'n'.repeat(2000) } })).body.item.note).toBe(
      'n'.repeat(2000),
    );
    const over = await upload('note too long', 'b.txt', { query: { note: 'n'.repeat(2001) } });
    expect(over.status).toBe(400);
    expect(over.body.error.issues[0].path).toBe('note');
    expect((await upload('space too long', 'c.txt', { query: { space: 's'.repeat(81) } })).status).toBe(400);
    expect((await upload('bad lang', 'd.txt', { query: { lang: 'fr' } })).status).toBe(400);
  });
});

describe('uploadFile: placement, language and credits', () => {
  it('files into the given space; 404 for an unknown one', async () => {
    const space = (await t.call('POST', '/spaces', { key, body: { name: 'Research' } })).body;
    expect((await upload('in research', 'r.txt', { query: { space: space.id } })).body.item.spaceId).toBe(space.id);
    const res = await upload('nowhere', 'n.txt', { query: { space: 'sp_missing' } });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('SPACE_NOT_FOUND');
  });

  it('lets the agent pick the space from the content when none is given', async () => {
    const space = (
      await t.call('POST', '/spaces', { key, body: { name: 'Beekeeping', description: 'hives and honey' } })
    ).body;
    const res = await upload('Notes on our hives: the honey harvest was good this year.', 'notes.txt');
    expect(res.body.item.spaceId).toBe(space.id);
  });

  it('keeps the note and writes the summary in the requested language', async () => {
    const res = await upload('The committee approved the new library opening hours.', 'hours.txt', {
      query: { note: 'from the board', lang: 'zh' },
    });
    expect(res.body.item.note).toBe('from the board');
    expect(res.body.item.summary).toMatch(/\p{Script=Han}/u);
  });

  it('spends credits on the summary; 402 CREDITS_EXHAUSTED when none are left, storing nothing', async () => {
    const before = (await me()).credits.total;
    await upload('first file text', 'one.txt');
    expect((await me()).credits.total).toBeLessThan(before);
    await t.patchAccount(accountId, { credits: 0 });
    const res = await upload('second file text', 'two.txt');
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe('CREDITS_EXHAUSTED');
    expect((await t.call('GET', '/library', { key })).body.items).toHaveLength(1);
    expect(incomingFiles()).toEqual([]);
  });
});

describe('uploadFile: the same file only once', () => {
  it('answers 201 with duplicate=true and the existing item; nothing is stored or spent twice', async () => {
    const data = 'Exactly the same bytes twice.';
    const first = await upload(data, 'first-name.txt');
    const usage = (await me()).usage.storageBytes;
    const credits = (await me()).credits.total;
    const second = await upload(data, 'other-name.txt', { query: { note: 'again' } });
    expect(second.status).toBe(201);
    expect(second.body.duplicate).toBe(true);
    expect(second.body.item).toEqual(first.body.item);
    expect((await me()).usage.storageBytes).toBe(usage);
    expect((await me()).credits.total).toBe(credits);
    expect((await t.call('GET', '/library', { key, query: { kind: 'file' } })).body.items).toHaveLength(1);
  });

  it('stores the same bytes once even when two uploads of them run at the same time', async () => {
    const data = 'Two uploads racing with the same bytes. '.repeat(1000);
    const [a, b] = await Promise.all([upload(data, 'one.txt'), upload(data, 'two.txt')]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect([a.body.duplicate, b.body.duplicate].sort()).toEqual([false, true]);
    expect(a.body.item.id).toBe(b.body.item.id);
    expect((await t.call('GET', '/library', { key, query: { kind: 'file' } })).body.items).toHaveLength(1);
    expect((await me()).usage.storageBytes).toBe(Buffer.byteLength(data));
  });

  it('compares bytes per account: another account stores its own copy', async () => {
    const data = 'Shared between two accounts.';
    await upload(data, 'a.txt');
    const other = await t.newAccount();
    const res = await upload(data, 'a.txt', { apiKey: other.apiKey });
    expect(res.body.duplicate).toBe(false);
  });

  it('stores the file again after it was deleted', async () => {
    const data = 'Deleted and uploaded again.';
    const first = await upload(data, 'a.txt');
    await t.call('DELETE', `/library/${first.body.item.id}`, { key });
    const again = await upload(data, 'a.txt');
    expect(again.body.duplicate).toBe(false);
    expect(again.body.item.id).not.toBe(first.body.item.id);
  });
});

describe('uploadFile: plan limits', () => {
  it('answers 413 FILE_TOO_LARGE over the per-file limit, and accepts a file exactly at it', async () => {
    await t.patchAccount(accountId, { limits: { fileBytes: 1000 } });
    const res = await upload('x'.repeat(1001), 'big.txt');
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('FILE_TOO_LARGE');
    expect((await upload('y'.repeat(1000), 'exact.txt')).status).toBe(201);
  });

  it('refuses an oversized body from its Content-Length before reading it, and the connection stays usable', async () => {
    await t.patchAccount(accountId, { limits: { fileBytes: 10 } });
    const big = Buffer.alloc(8 * 1024 * 1024, 0x61);
    const res = await upload(big, 'huge.txt');
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('FILE_TOO_LARGE');
    expect((await t.call('GET', '/me', { key })).status).toBe(200);
  });

  it('answers 413 STORAGE_FULL when the file does not fit, and accepts one that exactly fills it', async () => {
    await t.patchAccount(accountId, { limits: { storageBytes: 100 } });
    expect((await upload('a'.repeat(60), 'a.txt')).status).toBe(201);
    const full = await upload('b'.repeat(41), 'b.txt');
    expect(full.status).toBe(413);
    expect(full.body.error.code).toBe('STORAGE_FULL');
    expect((await upload('c'.repeat(40), 'c.txt')).status).toBe(201);
    expect((await me()).usage.storageBytes).toBe(100);
  });

  it('still recognises a duplicate when storage is full', async () => {
    await t.patchAccount(accountId, { limits: { storageBytes: 50 } });
    const first = await upload('d'.repeat(50), 'd.txt');
    const again = await upload('d'.repeat(50), 'd.txt');
    expect(again.status).toBe(201);
    expect(again.body).toEqual({ item: first.body.item, duplicate: true });
  });

  it('gives the storage back when a file is deleted', async () => {
    const res = await upload('e'.repeat(500), 'e.txt');
    expect((await me()).usage.storageBytes).toBe(500);
    await t.call('DELETE', `/library/${res.body.item.id}`, { key });
    expect((await me()).usage.storageBytes).toBe(0);
  });
});

describe('uploadFile: Expect: 100-continue (as curl -T sends it)', () => {
  /** Sends headers only, and the body once the server says "100 Continue". */
  function expectContinue(headers: Record<string, string>, body: Buffer) {
    return new Promise<{ status: number; body: any; headers: Record<string, unknown>; continued: boolean }>(
      (resolve, reject) => {
        let continued = false;
        const req = httpRequest(`${t.baseUrl}/library/files`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${key}`,
            'content-length': String(body.length),
            expect: '100-continue',
            ...headers,
          },
        });
        req.on('continue', () => {
          continued = true;
          req.end(body);
        });
        req.on('response', (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk));
          res.on('end', () => {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), headers: res.headers, continued });
            // Refused before the body: nothing left to send.
            if (!continued) req.destroy();
          });
        });
        req.on('error', (error) => (continued ? reject(error) : undefined));
        req.flushHeaders();
      },
    );
  }

  it('asks for the body and stores it', async () => {
    const res = await expectContinue({ 'x-file-name': 'continued.txt' }, Buffer.from('Sent after 100 Continue.'));
    expect(res.continued).toBe(true);
    expect(res.status).toBe(201);
    expect(res.body.item.fileName).toBe('continued.txt');
  });

  it('refuses a file over the limit before any of it is sent, closing the connection', async () => {
    await t.patchAccount(accountId, { limits: { fileBytes: 10 } });
    const res = await expectContinue({ 'x-file-name': 'big.txt' }, Buffer.alloc(1000, 0x61));
    expect(res.continued).toBe(false);
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('FILE_TOO_LARGE');
    expect(res.headers.connection).toBe('close');
  });
});

describe('uploadFile: streaming', () => {
  it('streams a large body to disk (20 MiB of text) and hashes it on the way', async () => {
    await t.patchAccount(accountId, { limits: { fileBytes: 64 * 1024 * 1024 } });
    const line = 'The quick brown fox jumps over the lazy dog near the riverbank.\n';
    const data = Buffer.from(line.repeat(Math.ceil((20 * 1024 * 1024) / line.length)));
    const res = await upload(data, 'big.txt');
    expect(res.status).toBe(201);
    expect(res.body.item.size).toBe(data.length);
    expect(res.body.item.sha256).toBe(sha256(data));
    // Stored text is capped; the item says how much there is.
    const text = await t.call('GET', `/library/${res.body.item.id}/text`, { key, query: { limit: 100 } });
    expect(text.body.total).toBe(2_000_000);
  });

  it('keeps every byte of a text body that arrives in tiny pieces', async () => {
    const body = new PassThrough();
    const text = 'ab' + 'cdefghij klmnop. '.repeat(10);
    const pending = t.call('POST', '/library/files', {
      key,
      raw: body,
      headers: { 'x-file-name': 'tiny.txt', 'content-length': String(Buffer.byteLength(text)) },
    });
    for (const piece of [text.slice(0, 2), text.slice(2, 5), text.slice(5)]) {
      body.write(piece);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    body.end();
    const res = await pending;
    expect(res.status).toBe(201);
    expect((await t.call('GET', `/library/${res.body.item.id}/text`, { key })).body.text).toBe(text);
  });

  it('drops a body cut short by the client: no item, no leftover temporary file', async () => {
    const body = new PassThrough();
    const pending = t
      .call('POST', '/library/files', {
        key,
        raw: body,
        headers: { 'x-file-name': 'cut.txt', 'content-length': '100000' },
      })
      .catch((error: Error) => error);
    body.write('x'.repeat(1000));
    await new Promise((resolve) => setTimeout(resolve, 50));
    body.destroy(new Error('client gave up'));
    await pending;
    // The server notices the broken connection on its own schedule: wait until it has cleaned up.
    for (let i = 0; i < 100 && incomingFiles().length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(incomingFiles()).toEqual([]);
    expect((await t.call('GET', '/library', { key })).body.items).toEqual([]);
  });
});

describe('readLibraryText: chunks', () => {
  const text = Array.from({ length: 400 }, (_, i) => `Line ${i}: ünïcödé 🚀 text.`).join('\n');

  it('serves the text in chunks with total and nextOffset, which together give back the whole text', async () => {
    const item = (await upload(text, 'long.txt')).body.item;
    const chars = [...text];
    let offset = 0;
    const pieces: string[] = [];
    for (;;) {
      const res = await t.call('GET', `/library/${item.id}/text`, { key, query: { offset, limit: 1000 } });
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(chars.length);
      expect(res.body.offset).toBe(offset);
      expect([...res.body.text].length).toBeLessThanOrEqual(1000);
      pieces.push(res.body.text);
      if (res.body.nextOffset === null) break;
      expect(res.body.nextOffset).toBe(offset + 1000);
      offset = res.body.nextOffset;
    }
    expect(pieces.join('')).toBe(text);
  });

  it('uses 8000 characters by default and answers an empty chunk past the end', async () => {
    const item = (await upload(text, 'long.txt')).body.item;
    const first = await t.call('GET', `/library/${item.id}/text`, { key });
    expect([...first.body.text].length).toBe(8000);
    expect(first.body.nextOffset).toBe(8000);
    const past = await t.call('GET', `/library/${item.id}/text`, { key, query: { offset: 10_000_000 } });
    expect(past.status).toBe(200);
    expect(past.body.text).toBe('');
    expect(past.body.nextOffset).toBeNull();
  });

  it('bounds limit to 100..50000 and offset to at least 0', async () => {
    const item = (await upload(text, 'long.txt')).body.item;
    for (const limit of [100, 50000])
      expect((await t.call('GET', `/library/${item.id}/text`, { key, query: { limit } })).status).toBe(200);
    for (const query of [{ limit: 99 }, { limit: 50001 }, { offset: -1 }, { offset: 'start' }]) {
      const res = await t.call('GET', `/library/${item.id}/text`, { key, query });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_INPUT');
    }
  });

  it('answers 400 NO_TEXT for an uploaded file from which no text came', async () => {
    const item = (await upload(makePdf([]), 'blank.pdf')).body.item;
    const res = await t.call('GET', `/library/${item.id}/text`, { key });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('NO_TEXT');
  });
});
