// `kagent/sandbox` ships hand-written declarations (types/sandbox.d.ts) of the
// sandbox's public surface. The implementation must satisfy them: these
// assignments are checked by `npm run typecheck` (tsc over test/), and the
// test runs the declared surface against the real sandbox.
import { describe, expect, it } from 'vitest';
import { FAULT_KINDS } from '../../src/sandbox/faults.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type * as Public from '../../types/sandbox.js';

// The real function has the declared type (its options accept every declared option,
// its result has every declared member with a compatible type).
const declared: typeof Public.startSandbox = startSandbox;
// Every real fault kind is declared, and every declared one is real.
const declaredKinds: readonly Public.FaultKind[] = FAULT_KINDS;
const realKinds = (kind: Public.FaultKind): (typeof FAULT_KINDS)[number] => kind;

describe('kagent/sandbox declarations', () => {
  it('describe the surface the README shows, and it works as declared', async () => {
    expect(declaredKinds.map(realKinds)).toEqual([...FAULT_KINDS]);
    const sandbox: Public.Sandbox = await declared({ port: 0, autoAdvance: false, rateLimit: 0, seed: 7, quiet: true });
    try {
      expect(sandbox.baseUrl).toBe(`${sandbox.origin}/api/v1`);
      const before = sandbox.world.now();
      sandbox.world.advance(60_000);
      expect(sandbox.world.now() - before).toBeGreaterThanOrEqual(60_000);
      sandbox.faults.inject({ kind: '503', count: 1, path: '/api/v1/me' });
      const failed = await fetch(`${sandbox.baseUrl}/me`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } });
      expect(failed.status).toBe(503);
      const ok = await fetch(`${sandbox.baseUrl}/me`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } });
      expect(ok.status).toBe(200);
      expect(sandbox.stats.statuses).toMatchObject({ 503: 1, 200: 1 });
    } finally {
      await sandbox.close();
    }
  });
});
