// The sandbox journal's file format: a snapshot with a generation, a journal
// whose header names the generation it applies to, one JSON line of
// operations per commit. A torn last line (killed while writing it, never
// acknowledged) is dropped; damage anywhere else is an error, never a guess.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyOp, ChangeTracker } from '../../src/sandbox/changes.js';
import { journalPath, loadState, writeSnapshot } from '../../src/sandbox/journal.js';
import type { State } from '../../src/sandbox/types.js';

const dir = mkdtempSync(join(tmpdir(), 'kagent-journal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function baseState(): State {
  return {
    version: 1,
    seed: 1,
    seq: 0,
    accounts: {},
    keys: {},
    watches: {},
    briefs: {},
    events: [],
    idempotency: {},
    clockAdvancedMs: 0,
  };
}

let n = 0;
function stateWith(lines: string[], generation = 3): string {
  const file = join(dir, `s${n++}.json`);
  writeSnapshot(file, baseState(), generation);
  for (const line of lines) appendFileSync(journalPath(file), line);
  return file;
}

describe('loading a journal', () => {
  it('replays its lines on the snapshot and drops a torn last line', () => {
    const file = stateWith(['[["s",["seq"],5]]\n', '[["s",["keys","k1"],"acc_1"]]\n', '[["s",["seq"],9],["s",["ke']);
    const loaded = loadState(file)!;
    expect(loaded.replayed).toBe(2);
    expect(loaded.state.seq).toBe(5);
    expect(loaded.state.keys).toEqual({ k1: 'acc_1' });
    expect(loaded.generation).toBe(3);
  });

  it('refuses a journal damaged before its last line', () => {
    const file = stateWith(['[["s",["seq"],5]]\n', 'garbage\n', '[["s",["seq"],6]]\n']);
    expect(() => loadState(file)).toThrow(
      expect.objectContaining({
        stateError: 'STATE_UNREADABLE',
        message: expect.stringContaining('line 3 is damaged'),
      }),
    );
  });

  it('skips a journal of an older generation (already folded into the snapshot)', () => {
    const file = stateWith([]);
    writeFileSync(journalPath(file), '{"magic":"kagent-sandbox-journal","generation":2}\n[["s",["seq"],99]]\n');
    expect(loadState(file)!.state.seq).toBe(0);
  });

  it('forgets idempotency keys of calls that never finished', () => {
    const file = stateWith([
      '[["s",["idempotency","a"],{"fingerprint":"x","status":"running","at":1}],["s",["idempotency","b"],{"fingerprint":"y","status":"done","at":1}]]\n',
    ]);
    expect(Object.keys(loadState(file)!.state.idempotency)).toEqual(['b']);
  });

  it('writes the snapshot and journal readable by their owner only', () => {
    const file = stateWith([]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(journalPath(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).generation).toBe(3);
  });
});

describe('tracking changes', () => {
  it('turns changes made through the tracking view into operations that rebuild them', () => {
    const state = baseState();
    state.accounts.a = {
      id: 'a',
      docs: [
        { id: 'd1', title: 'one' },
        { id: 'd2', title: 'two' },
        { id: 'd3', title: 'three' },
      ],
      credits: [{ pool: 'm', remaining: 5 }],
    } as never;
    const copy = JSON.parse(JSON.stringify(state));
    const tracker = new ChangeTracker(state);
    const view = tracker.proxy as any;
    view.seq = 4;
    view.accounts.a.docs[1].title = 'two, edited';
    view.accounts.a.docs.push({ id: 'd4', title: 'four' });
    view.accounts.a.docs.splice(0, 1);
    view.accounts.a.credits[0].remaining = 2;
    view.keys.k = 'a';
    delete view.keys.k;
    view.events.push({ id: 'ev1', at: 1, kind: 'x', accountId: null, data: {} });
    const ops = tracker.collect();
    // A record edited in a long list is written alone, not the list.
    expect(ops).toContainEqual(['u', ['accounts', 'a', 'docs'], { id: 'd2', title: 'two, edited' }]);
    expect(ops).toContainEqual(['o', ['accounts', 'a', 'docs'], ['d2', 'd3', 'd4']]);
    for (const op of ops) applyOp(copy, op);
    expect(copy).toEqual(JSON.parse(JSON.stringify(state)));
    expect(tracker.collect()).toEqual([]);
  });

  it('handles lists replaced, records replaced in place, and lists of plain values', () => {
    const state = baseState();
    state.accounts.a = {
      id: 'a',
      docs: [
        { id: 'd1', title: 'one' },
        { id: 'd2', title: 'two' },
      ],
      rules: ['x'],
    } as never;
    const copy = JSON.parse(JSON.stringify(state));
    const tracker = new ChangeTracker(state);
    const view = tracker.proxy as any;
    view.accounts.a.docs[0] = { ...view.accounts.a.docs[0], title: 'one, replaced' };
    view.accounts.a.docs = view.accounts.a.docs.filter((d: { id: string }) => d.id !== 'd2');
    view.accounts.a.rules.push('y');
    view.accounts.b = { id: 'b', docs: [] };
    view.accounts.b.docs.push({ id: 'd9', title: 'nine' });
    for (const op of tracker.collect()) applyOp(copy, op);
    expect(copy).toEqual(JSON.parse(JSON.stringify(state)));
    expect(copy.accounts.a.docs).toEqual([{ id: 'd1', title: 'one, replaced' }]);
  });
});
