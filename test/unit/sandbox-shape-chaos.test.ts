// The sandbox's shape chaos: seeded and deterministic, every kind of change
// happens, the input is left alone, and non-objects pass through.
import { describe, expect, it } from 'vitest';
import { parseFaultSpec } from '../../src/sandbox/faults.js';
import { mangle, SHAPE_CHANGES } from '../../src/sandbox/shape-chaos.js';

/** mulberry32: a small seeded generator for the test. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const answer = {
  id: 'tk_1',
  title: 'Research',
  status: 'running',
  progress: 0.5,
  done: false,
  createdAt: '2026-01-15T09:00:00.000Z',
  startedMs: 1768467600000,
  milestones: [{ id: 'm1', title: 'Find sources', at: '2026-01-15T09:01:00.000Z' }],
  owner: { id: 'acc_1', name: 'Ada' },
};

describe('shape chaos', () => {
  it('is deterministic for a seed, and differs between seeds', () => {
    const a = mangle(answer, seeded(7));
    const b = mangle(answer, seeded(7));
    expect(a).toEqual(b);
    const others = [1, 2, 3, 4, 5].map((seed) => JSON.stringify(mangle(answer, seeded(seed)).body));
    expect(new Set(others).size).toBeGreaterThan(1);
  });

  it('changes a copy: the answer given is left as it was', () => {
    const before = JSON.stringify(answer);
    for (let seed = 0; seed < 50; seed++) mangle(answer, seeded(seed));
    expect(JSON.stringify(answer)).toBe(before);
  });

  it('every kind of change happens, and each answer is changed', () => {
    const seen = new Set<string>();
    for (let seed = 0; seed < 200; seed++) {
      const { body, changes } = mangle(answer, seeded(seed));
      expect(changes.length).toBeGreaterThan(0);
      for (const c of changes) seen.add(c.change);
      expect(JSON.stringify(body)).not.toBe(JSON.stringify(answer));
    }
    expect([...seen].sort()).toEqual([...SHAPE_CHANGES].sort());
  });

  it('retypes timestamps between ISO text and Unix milliseconds', () => {
    let isoToMs = false;
    let msToIso = false;
    for (let seed = 0; seed < 400 && !(isoToMs && msToIso); seed++) {
      const { body, changes } = mangle(
        { createdAt: '2026-01-15T09:00:00.000Z', startedMs: 1768467600000 },
        seeded(seed),
      );
      const b = body as Record<string, unknown>;
      if (changes.some((c) => c.change === 'retype' && c.path === 'createdAt'))
        isoToMs ||= b.createdAt === 1768467600000;
      if (changes.some((c) => c.change === 'retype' && c.path === 'startedMs'))
        msToIso ||= b.startedMs === '2026-01-15T09:00:00.000Z';
    }
    expect(isoToMs).toBe(true);
    expect(msToIso).toBe(true);
  });

  /** The body of the first seed whose only change is `change` at `path`. */
  function onlyChange(body: object, change: string, path: string): Record<string, unknown> {
    for (let seed = 0; seed < 5000; seed++) {
      const result = mangle(body, seeded(seed));
      if (result.changes.length === 1 && result.changes[0]?.change === change && result.changes[0].path === path)
        return result.body as Record<string, unknown>;
    }
    throw new Error(`no seed under 5000 gives only ${change} at ${path}`);
  }

  it('renames a field to its synonym, else its snake_case, else <key>_v2', () => {
    expect(onlyChange({ createdAt: 'x' }, 'rename', 'createdAt')).toEqual({ created: 'x' });
    expect(onlyChange({ startedMs: 1 }, 'rename', 'startedMs')).toEqual({ started_ms: 1 });
    // title's synonym (name) is taken and title has no capital: title_v2.
    expect(onlyChange({ title: 't', name: 'n' }, 'rename', 'title')).toEqual({ name: 'n', title_v2: 't' });
  });

  it('retypes a boolean as text or as 1/0', () => {
    const seen = new Set<unknown>();
    for (let seed = 0; seed < 400; seed++) {
      for (const done of [true, false]) {
        const { body, changes } = mangle({ done }, seeded(seed));
        if (changes.length === 1 && changes[0]?.change === 'retype') seen.add((body as { done: unknown }).done);
      }
    }
    expect([...seen].sort()).toEqual([0, 1, 'false', 'true']);
  });

  it('leaves answers with no object in them alone', () => {
    expect(mangle('text', seeded(1))).toEqual({ body: 'text', changes: [] });
    expect(mangle([1, 2], seeded(1))).toEqual({ body: [1, 2], changes: [] });
  });

  it('is a fault kind of --faults: shape=P', () => {
    expect(parseFaultSpec('shape=0.3,503=0.1')).toEqual([
      { kind: 'shape', p: 0.3, ms: undefined },
      { kind: '503', p: 0.1, ms: undefined },
    ]);
  });
});
