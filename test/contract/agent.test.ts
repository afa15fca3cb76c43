// The agent: name, memory (Markdown, bounded by memoryMax) and email address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '../../src/api/shapes.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let t: TestSandbox;
beforeAll(async () => {
  // speed 0: the clock moves only when a test advances it, so timings are exact.
  t = await startTestSandbox({ speed: 0 });
});
afterAll(() => t.close());

describe('getAgent / updateAgent', () => {
  it('shows the name, memory, memoryMax and address', async () => {
    const res = await t.call('GET', '/agent');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      name: 'Ada',
      memory: '',
      memoryMax: limits.memoryMax,
      address: expect.stringMatching(/^[^@\s]+@[^@\s]+$/),
    });
    expect(Object.keys(res.body).sort()).toEqual(['address', 'memory', 'memoryMax', 'name']);
    const other = await t.newAccount();
    expect((await t.call('GET', '/agent', { key: other.apiKey })).body.address).not.toBe(res.body.address);
  });

  it('renames the agent and edits its memory (204), each on its own or together', async () => {
    const acc = await t.newAccount();
    expect((await t.call('PATCH', '/agent', { key: acc.apiKey, body: { name: 'Hermes' } })).status).toBe(204);
    expect((await t.call('GET', '/agent', { key: acc.apiKey })).body).toMatchObject({ name: 'Hermes', memory: '' });
    const memory = '# About me\n\n- I read on Sundays\n- 我喜欢简短的回答';
    const res = await t.call('PATCH', '/agent', { key: acc.apiKey, body: { memory } });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await t.call('GET', '/agent', { key: acc.apiKey })).body).toMatchObject({ name: 'Hermes', memory });
    await t.call('PATCH', '/agent', { key: acc.apiKey, body: { name: 'Ada', memory: '' } });
    expect((await t.call('GET', '/agent', { key: acc.apiKey })).body).toMatchObject({ name: 'Ada', memory: '' });
    expect((await t.call('GET', '/home', { key: acc.apiKey })).body.agent.name).toBe('Ada');
  });

  it('bounds memory to memoryMax characters and the name to 1..60', async () => {
    const acc = await t.newAccount();
    const at = await t.call('PATCH', '/agent', { key: acc.apiKey, body: { memory: 'm'.repeat(limits.memoryMax) } });
    expect(at.status).toBe(204);
    const over = await t.call('PATCH', '/agent', {
      key: acc.apiKey,
      body: { memory: 'm'.repeat(limits.memoryMax + 1) },
    });
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe('INVALID_INPUT');
    expect(over.body.error.issues[0].path).toBe('memory');
    expect((await t.call('GET', '/agent', { key: acc.apiKey })).body.memory).toHaveLength(limits.memoryMax);
    const cases: Array<[unknown, number]> = [
      [{}, 400],
      [{ name: '' }, 400],
      [{ name: 'n'.repeat(60) }, 204],
      [{ name: 'n'.repeat(61) }, 400],
      [{ name: 7 }, 400],
      [{ memory: null }, 400],
    ];
    for (const [body, status] of cases)
      expect(
        (await t.call('PATCH', '/agent', { key: acc.apiKey, body })).status,
        JSON.stringify(body).slice(0, 40),
      ).toBe(status);
  });

  it('refuses a remembered line that would overflow memoryMax (the memory stays as it was)', async () => {
    const acc = await t.newAccount();
    const full = 'm'.repeat(limits.memoryMax - 5);
    await t.call('PATCH', '/agent', { key: acc.apiKey, body: { memory: full } });
    const res = await t.call('POST', '/conversations/messages', {
      key: acc.apiKey,
      body: { text: 'Remember that my birthday is in June' },
    });
    await t.advance(10_000);
    const reply = (await t.call('GET', `/conversations/${res.body.conversationId}/messages`, { key: acc.apiKey })).body
      .messages[1];
    expect(reply.parts.find((p: any) => p.name === 'update_memory').status).toBe('error');
    expect(reply.parts.some((p: any) => p.type === 'memory')).toBe(false);
    expect((await t.call('GET', '/agent', { key: acc.apiKey })).body.memory).toBe(full);
  });
});
