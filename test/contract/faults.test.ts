// Fault injection: for the next N requests (admin route) or by probability
// (`faults` option / --faults): 5xx answers, injected 429, connection resets,
// slow answers and truncated bodies — for trying clients against a flaky service.
import { afterEach, describe, expect, it } from 'vitest';
import { parseFaultSpec } from '../../src/sandbox/faults.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let t: TestSandbox | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('queued faults (admin route)', () => {
  it('fails the next N requests with the given status, then answers normally', async () => {
    t = await startTestSandbox();
    await t.inject({ kind: '503', count: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await t.call('GET', '/spaces');
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
    }
    expect((await t.call('GET', '/spaces')).status).toBe(200);
  });

  it.each([
    ['500', 'INTERNAL'],
    ['502', 'BAD_GATEWAY'],
    ['504', 'GATEWAY_TIMEOUT'],
  ])('injects %s %s', async (kind, code) => {
    t = await startTestSandbox();
    await t.inject({ kind });
    const res = await t.call('GET', '/me');
    expect(res.status).toBe(Number(kind));
    expect(res.body.error.code).toBe(code);
  });

  it('injects 429 RATE_LIMITED with Retry-After', async () => {
    t = await startTestSandbox();
    await t.inject({ kind: '429' });
    const res = await t.call('GET', '/me');
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe('RATE_LIMITED');
    expect(res.headers['retry-after']).toBe('1');
  });

  it('only hits requests of the given method and path prefix', async () => {
    t = await startTestSandbox();
    await t.inject({ kind: '503', method: 'POST', path: '/api/v1/docs' });
    expect((await t.call('GET', '/docs')).status).toBe(200);
    expect((await t.call('POST', '/spaces', { body: { name: 'Fine' } })).status).toBe(201);
    expect((await t.call('POST', '/docs', { body: {} })).status).toBe(503);
    expect((await t.call('POST', '/docs', { body: {} })).status).toBe(201);
  });

  it('does no work for a request failed before the handler', async () => {
    t = await startTestSandbox();
    await t.inject({ kind: '503' });
    await t.call('POST', '/spaces', { body: { name: 'Never made' } });
    expect((await t.call('GET', '/spaces')).body.items.map((s: any) => s.name)).not.toContain('Never made');
  });

  it('resets the connection without an answer', async () => {
    t = await startTestSandbox();
    await t.inject({ kind: 'reset' });
    await expect(t.call('GET', '/me')).rejects.toThrow();
    expect((await t.call('GET', '/me')).status).toBe(200);
  });

  it('reset-after does the work, then drops the connection before the answer', async () => {
    t = await startTestSandbox();
    await t.inject({ kind: 'reset-after' });
    await expect(t.call('POST', '/spaces', { body: { name: 'Made anyway' } })).rejects.toThrow();
    expect((await t.call('GET', '/spaces')).body.items.map((s: any) => s.name)).toContain('Made anyway');
  });

  it('truncate does the work and cuts the answer short', async () => {
    t = await startTestSandbox();
    await t.inject({ kind: 'truncate' });
    const outcome = await t.call('POST', '/spaces', { body: { name: 'Half answered' }, validate: false }).then(
      (res) => ({ complete: res.body !== undefined }),
      () => ({ complete: false }),
    );
    expect(outcome.complete).toBe(false);
    expect((await t.call('GET', '/spaces')).body.items.map((s: any) => s.name)).toContain('Half answered');
  });

  it('slow delays the answer by the given time', async () => {
    t = await startTestSandbox();
    await t.inject({ kind: 'slow', ms: 300 });
    const started = performance.now();
    expect((await t.call('GET', '/me')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(280);
  });

  it('clears queued faults with DELETE /_sandbox/faults', async () => {
    t = await startTestSandbox();
    await t.inject({ kind: '503', count: 5 });
    expect((await t.call('DELETE', '/_sandbox/faults', { key: null })).status).toBe(204);
    expect((await t.call('GET', '/me')).status).toBe(200);
  });

  it('refuses an unknown fault kind', async () => {
    t = await startTestSandbox();
    const res = await t.call('POST', '/_sandbox/faults', { key: null, body: { kind: 'explode' } });
    expect(res.status).toBe(400);
  });
});

describe('faults by probability (--faults SPEC)', () => {
  it('parses KIND=PROBABILITY[:MS] lists', () => {
    expect(parseFaultSpec('503=0.1, reset=0.05,slow=0.2:1500,truncate=0')).toEqual([
      { kind: '503', p: 0.1, ms: undefined },
      { kind: 'reset', p: 0.05, ms: undefined },
      { kind: 'slow', p: 0.2, ms: 1500 },
      { kind: 'truncate', p: 0, ms: undefined },
    ]);
    expect(parseFaultSpec('slow=1')[0]?.ms).toBe(2000);
    for (const bad of ['503', '503=2', 'boom=0.1', '503=-0.1', '503=x'])
      expect(() => parseFaultSpec(bad)).toThrow(/bad fault/);
  });

  it('refuses to start with a bad spec', async () => {
    await expect(startSandbox({ faults: 'nope=0.5', quiet: true })).rejects.toThrow(/bad fault/);
  });

  it('fails every request with probability 1', async () => {
    t = await startTestSandbox({ faults: '503=1' });
    for (let i = 0; i < 5; i++) expect((await t.call('GET', '/me')).status).toBe(503);
  });

  it('fails some requests with the same pattern for the same seed', async () => {
    const pattern = async (seed: number) => {
      const sandbox = await startTestSandbox({ faults: '503=0.5', seed });
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) statuses.push((await sandbox.call('GET', '/me')).status);
      await sandbox.close();
      return statuses;
    };
    const first = await pattern(7);
    expect(first).toContain(503);
    expect(first).toContain(200);
    expect(await pattern(7)).toEqual(first);
  });
});
