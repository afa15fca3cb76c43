// `kagent/sandbox` ships declarations (types/sandbox.d.ts) of the sandbox's
// public surface, generated from src/sandbox/public.ts by the build; the committed
// file must be what the generator makes. The implementation must satisfy them:
// these assignments are checked by `npm run typecheck` (tsc over test/), and the
// test runs the declared surface, as docs/sandbox.md shows it, against the real
// sandbox.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sandboxTypes, TYPES_FILE } from '../../scripts/sandbox-types.mjs';
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
  it('are generated: types/sandbox.d.ts is what scripts/sandbox-types.mjs makes of src/sandbox/public.ts', async () => {
    const committed = readFileSync(TYPES_FILE, 'utf8');
    expect(committed).toBe(await sandboxTypes());
    expect(committed).toMatch(/^\/\/ Generated from src\/sandbox\/public\.ts/);
    // The comparison can fail: a change to the source is a change to the declarations.
    const source = readFileSync(new URL('../../src/sandbox/public.ts', import.meta.url), 'utf8');
    const changed = source.replace('port?: number;', 'port?: string;');
    expect(changed).not.toBe(source);
    expect(await sandboxTypes(changed)).not.toBe(committed);
  });

  it('refuses a source the emitter cannot declare on its own (a type left to inference)', async () => {
    await expect(sandboxTypes('export const inferred = [1, 2].map((n) => n * 2);\n')).rejects.toThrow(
      /cannot declare it on its own/,
    );
  });

  it('describe the surface docs/sandbox.md shows, and it works as declared', async () => {
    // The page's example: this import, this call, and these members, each used below.
    const page = readFileSync(new URL('../../docs/sandbox.md', import.meta.url), 'utf8');
    expect(page).toContain("import { startSandbox } from 'kagent/sandbox';");
    expect(page).toContain('await startSandbox({ port: 0, autoAdvance: false, rateLimit: 0, seed: 7 });');
    expect(page).toContain(
      '// sandbox.baseUrl, sandbox.apiKey, sandbox.world.advance(ms), sandbox.faults.inject({...}), sandbox.close()',
    );
    expect(declaredKinds.map(realKinds)).toEqual([...FAULT_KINDS]);
    const sandbox: Public.Sandbox = await declared({ port: 0, autoAdvance: false, rateLimit: 0, seed: 7, quiet: true });
    try {
      expect(sandbox.baseUrl).toBe(`${sandbox.origin}/api/v1`);
      expect(sandbox.apiKey).toMatch(/^kak_/);
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
