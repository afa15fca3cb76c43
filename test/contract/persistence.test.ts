// --state FILE: everything survives a restart — accounts, keys, content,
// uploaded files' text, idempotency keys and the clock.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestSandbox } from '../helpers/sandbox.js';

const dir = mkdtempSync(join(tmpdir(), 'kagent-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('persistence', () => {
  it('reloads accounts, keys, content, text and the clock from the state file', async () => {
    const stateFile = join(dir, 'sandbox.json');
    const first = await startTestSandbox({ stateFile });
    const other = await first.newAccount({ credits: 33 });
    const space = (await first.call('POST', '/spaces', { body: { name: 'Kept' } })).body;
    const doc = (await first.call('POST', '/docs', { body: { title: 'Kept doc', markdown: 'kept body', spaceId: space.id } })).body;
    await first.advance(3 * 86_400_000);
    const file = (await first.call('POST', '/library/files', { raw: 'Kept file text.', headers: { 'x-file-name': 'kept.txt', 'idempotency-key': 'upload-kept' } })).body.item;
    const clockBefore = (await first.call('GET', '/_sandbox/clock', { key: null })).body.now;
    await first.close();
    expect(existsSync(stateFile)).toBe(true);

    const second = await startTestSandbox({ stateFile });
    try {
      expect(second.apiKey).toBe(first.apiKey);
      const spaces = (await second.call('GET', '/spaces')).body.items;
      expect(spaces.map((s: any) => s.id)).toContain(space.id);
      expect((await second.call('GET', `/docs/${doc.id}`)).body).toMatchObject({ title: 'Kept doc', body: 'kept body', revision: 1 });
      expect((await second.call('GET', `/library/${file.id}/text`)).body.text).toBe('Kept file text.');
      expect((await second.call('GET', '/me', { key: other.apiKey })).body.credits.total).toBe(33);
      const replay = await second.call('POST', '/library/files', { raw: 'Kept file text.', headers: { 'x-file-name': 'kept.txt', 'idempotency-key': 'upload-kept' } });
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
});
