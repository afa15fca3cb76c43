// --state FILE: everything survives a restart — accounts, keys, content,
// uploaded files' text, idempotency keys and the clock.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadState } from '../../src/sandbox/journal.js';
import { startTestSandbox } from '../helpers/sandbox.js';

const dir = mkdtempSync(join(tmpdir(), 'kagent-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('persistence', () => {
  it('reloads accounts, keys, content, text and the clock from the state file', async () => {
    const stateFile = join(dir, 'sandbox.json');
    const first = await startTestSandbox({ stateFile });
    const other = await first.newAccount({ credits: 33 });
    const space = (await first.call('POST', '/spaces', { body: { name: 'Kept' } })).body;
    const doc = (
      await first.call('POST', '/docs', { body: { title: 'Kept doc', markdown: 'kept body', spaceId: space.id } })
    ).body;
    await first.advance(3 * 86_400_000);
    const file = (
      await first.call('POST', '/library/files', {
        raw: 'Kept file text.',
        headers: { 'x-file-name': 'kept.txt', 'idempotency-key': 'upload-kept' },
      })
    ).body.item;
    const clockBefore = (await first.call('GET', '/_sandbox/clock', { key: null })).body.now;
    await first.close();
    expect(existsSync(stateFile)).toBe(true);

    const second = await startTestSandbox({ stateFile });
    try {
      expect(second.apiKey).toBe(first.apiKey);
      const spaces = (await second.call('GET', '/spaces')).body.items;
      expect(spaces.map((s: any) => s.id)).toContain(space.id);
      expect((await second.call('GET', `/docs/${doc.id}`)).body).toMatchObject({
        title: 'Kept doc',
        body: 'kept body',
        revision: 1,
      });
      expect((await second.call('GET', `/library/${file.id}/text`)).body.text).toBe('Kept file text.');
      expect((await second.call('GET', '/me', { key: other.apiKey })).body.credits.total).toBe(33);
      const replay = await second.call('POST', '/library/files', {
        raw: 'Kept file text.',
        headers: { 'x-file-name': 'kept.txt', 'idempotency-key': 'upload-kept' },
      });
      expect(replay.headers['idempotent-replayed']).toBe('true');
      const clockAfter = (await second.call('GET', '/_sandbox/clock', { key: null })).body.now;
      expect(clockAfter).toBeGreaterThanOrEqual(clockBefore);
      expect(clockAfter - clockBefore).toBeLessThan(60_000);
    } finally {
      await second.close();
    }
  });

  it('keeps a given API key for the default account', async () => {
    const stateFile = join(dir, 'keyed.json');
    const first = await startTestSandbox({ stateFile, apiKey: 'kak_fixed_key_for_tests' });
    expect(first.apiKey).toBe('kak_fixed_key_for_tests');
    await first.close();
    const second = await startTestSandbox({ stateFile, apiKey: 'kak_fixed_key_for_tests' });
    expect((await second.call('GET', '/me')).status).toBe(200);
    await second.close();
  });

  it('refuses a state file it cannot read', async () => {
    const { writeFileSync } = await import('node:fs');
    const stateFile = join(dir, 'broken.json');
    writeFileSync(stateFile, '{broken');
    await expect(startTestSandbox({ stateFile })).rejects.toThrow(/cannot read sandbox state/);
  });

  it('a state file of an unknown version is refused and left as it is', async () => {
    const { writeFileSync } = await import('node:fs');
    const stateFile = join(dir, 'future.json');
    const text = '{"version":7,"accounts":{}}';
    writeFileSync(stateFile, text);
    await expect(startTestSandbox({ stateFile })).rejects.toMatchObject({
      stateError: 'STATE_VERSION',
      message: expect.stringContaining('has version 7'),
    });
    expect(readFileSync(stateFile, 'utf8')).toBe(text);
    expect(existsSync(`${stateFile}.journal`)).toBe(false);
    expect(existsSync(`${stateFile}.lock`)).toBe(false);
  });
});

describe('the journal', () => {
  // What the snapshot plus the journal give back must be the state in memory, whatever the
  // routes changed: records in lists (added, edited, moved, removed), maps, counters, events.
  const comparable = (state: unknown) => {
    const copy = JSON.parse(JSON.stringify(state));
    delete copy.clockSavedAt;
    delete copy.clockAdvancedMs;
    return copy;
  };

  it('replays to exactly the state in memory after writes across the API, without a new snapshot', async () => {
    const stateFile = join(dir, 'journal.json');
    const t = await startTestSandbox({ stateFile });
    try {
      const snapshot = readFileSync(stateFile, 'utf8');
      const acc = await t.newAccount({ credits: 500 });
      const as = (key: string) => ({ key, validate: false });
      const space = (await t.call('POST', '/spaces', { body: { name: 'Journal' } })).body;
      await t.call('PATCH', `/spaces/${space.id}`, { body: { name: 'Journal 2' } });
      const docs = [];
      for (let i = 0; i < 5; i++)
        docs.push((await t.call('POST', '/docs', { body: { title: `Doc ${i}`, markdown: `body ${i}` } })).body);
      await t.call('PATCH', `/docs/${docs[1].id}`, { body: { title: 'Doc one, renamed' } });
      await t.call('POST', `/docs/${docs[2].id}/edits`, {
        ...as(t.apiKey),
        body: { ops: [{ op: 'replace', find: 'body', replace: 'text' }] },
      });
      await t.call('DELETE', `/docs/${docs[0].id}`);
      await t.call('DELETE', `/docs/${docs[3].id}`);
      await t.call('POST', '/library/files', {
        raw: 'A file kept in the journal.',
        headers: { 'x-file-name': 'journal.txt', 'idempotency-key': 'journal-upload' },
      });
      const watch = (
        await t.call('POST', '/watches', {
          ...as(acc.apiKey),
          body: { intent: 'Grid-scale batteries and storage policy' },
        })
      ).body;
      await t.call('PUT', '/watches/ai-chips/follow', { ...as(acc.apiKey), body: {} });
      await t.call('POST', '/conversations/messages', {
        ...as(acc.apiKey),
        body: { text: 'What did I save about batteries?' },
      });
      await t.call('POST', '/media', {
        ...as(acc.apiKey),
        body: { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },
      });
      await t.call('PATCH', '/agent', { ...as(acc.apiKey), body: { name: 'Hermes' } });
      await t.advance(2 * 86_400_000);
      await t.patchAccount(acc.accountId, { credits: 77, limits: { follows: 3 } });
      await t.call('DELETE', `/spaces/${space.id}`, as(t.apiKey));
      expect(watch.slug).toBeTruthy();

      await t.sandbox.world.commit();
      // Nothing rewrote the snapshot: every change went to the journal.
      expect(readFileSync(stateFile, 'utf8')).toBe(snapshot);
      const loaded = loadState(stateFile)!;
      expect(loaded.replayed).toBeGreaterThan(10);
      expect(comparable(loaded.state)).toEqual(comparable(t.sandbox.world.state));
    } finally {
      await t.close();
    }
  });

  it('a failed journal write fails that answer (500), and the next write makes the files whole again', async () => {
    const stateFile = join(dir, 'broken-write.json');
    const t = await startTestSandbox({ stateFile });
    try {
      // The journal's file goes away under it, as on a failing disk.
      await (t.sandbox.world as any).journal.handle.close();
      const failed = await t.call('POST', '/spaces', { body: { name: 'Not saved' }, validate: false });
      expect(failed.status).toBe(500);
      expect(failed.body.error).toMatchObject({
        code: 'STATE_NOT_SAVED',
        message: expect.stringContaining('could not save this change to its state file'),
      });
      const saved = await t.call('POST', '/spaces', { body: { name: 'Saved after' } });
      expect(saved.status).toBe(201);
      const loaded = loadState(stateFile)!;
      expect(comparable(loaded.state)).toEqual(comparable(t.sandbox.world.state));
      expect(loaded.state.accounts[t.sandbox.accountId]!.spaces.map((s) => s.name)).toEqual(
        expect.arrayContaining(['Not saved', 'Saved after']),
      );
    } finally {
      await t.close();
    }
  });
});
