// Tolerant reading at the boundary: how an answer differs from its assumed shape,
// for each kind of difference a service written independently might show.
import { describe, expect, it } from 'vitest';
import { compare, verdictFor } from '../../src/api/fit.js';
import { describeDifferences, misfitNote } from '../../src/api/misfit.js';
import * as S from '../../src/api/shapes.js';

const space = {
  id: 'sp_1',
  name: 'Work',
  icon: null,
  description: '',
  isDefault: false,
  position: 0,
  createdAt: '2026-01-15T09:00:00.000Z',
};
const agent = { name: 'Ada', memory: 'likes tea', memoryMax: 20000, address: 'ada@agent.example' };

describe('compare: each kind of difference', () => {
  it('an answer that fits has none', () => {
    expect(compare(S.Space, space)).toEqual([]);
    expect(verdictFor('listSpaces', { items: [space, space] })).toMatchObject({
      fits: true,
      notAList: false,
      differences: [],
      shape: 'list of Space',
    });
  });

  it('a field removed: missing', () => {
    const { name: _name, ...rest } = space;
    expect(compare(S.Space, rest)).toEqual([{ kind: 'missing', path: 'name' }]);
  });

  it('a field renamed: the old name missing, the new one extra', () => {
    const { name, ...rest } = space;
    expect(compare(S.Space, { ...rest, title: name })).toEqual([
      { kind: 'missing', path: 'name' },
      { kind: 'extra', path: 'title' },
    ]);
  });

  it('retyped: string ↔ number ↔ null', () => {
    expect(compare(S.Agent, { ...agent, name: 42 })).toEqual([
      { kind: 'retyped', path: 'name', expected: 'string', got: 'integer' },
    ]);
    expect(compare(S.Agent, { ...agent, memoryMax: '20000' })).toEqual([
      { kind: 'retyped', path: 'memoryMax', expected: 'number', got: 'string' },
    ]);
    expect(compare(S.Agent, { ...agent, memory: null })).toEqual([
      { kind: 'retyped', path: 'memory', expected: 'string', got: 'null' },
    ]);
    // A null where kagent allows one is no difference.
    expect(compare(S.Space, { ...space, icon: null })).toEqual([]);
  });

  it('timestamps as Unix milliseconds where kagent expects ISO text (and the other way)', () => {
    expect(compare(S.Space, { ...space, createdAt: 1768467600000 })).toEqual([
      { kind: 'retyped', path: 'createdAt', expected: 'string', got: 'integer' },
    ]);
    const inbox = verdictFor('listInbox', { items: [], nextCursor: null, unread: '2026-01-15T09:00:00Z' });
    expect(inbox?.differences).toEqual([{ kind: 'retyped', path: 'unread', expected: 'integer', got: 'string' }]);
  });

  it('nested one level deeper, or flattened', () => {
    expect(compare(S.Agent, { ...agent, name: { value: 'Ada' } })).toEqual([
      { kind: 'retyped', path: 'name', expected: 'string', got: 'object' },
    ]);
    const me = verdictFor('getMe', { plan_id: 'free', plan_name: 'Free' });
    expect(me?.differences).toEqual(
      expect.arrayContaining([
        { kind: 'missing', path: 'plan' },
        { kind: 'extra', path: 'plan_id' },
        { kind: 'extra', path: 'plan_name' },
      ]),
    );
  });

  it('fields kagent does not know: extra only, and the answer still fits', () => {
    const verdict = verdictFor('getAgent', { ...agent, slug: 'ada', title: 'Ada' });
    expect(verdict).toMatchObject({
      fits: true,
      differences: [
        { kind: 'extra', path: 'slug' },
        { kind: 'extra', path: 'title' },
      ],
    });
  });

  it('differences inside list items are reported once per path', () => {
    const { name: _name, ...rest } = space;
    expect(verdictFor('listSpaces', { items: [rest, rest, rest] })?.differences).toEqual([
      { kind: 'missing', path: 'items[].name' },
    ]);
  });

  it('a list that is not a list', () => {
    expect(verdictFor('listTasks', { items: { a: 1 }, nextCursor: null })).toMatchObject({
      notAList: true,
      fits: false,
    });
    expect(verdictFor('listSpaces', { data: [space] })).toMatchObject({
      notAList: true,
      differences: [
        { kind: 'missing', path: 'items' },
        { kind: 'extra', path: 'data' },
      ],
    });
    expect(verdictFor('listSpaces', [space])).toMatchObject({
      notAList: true,
      differences: [{ kind: 'retyped', path: '(answer)', expected: 'object', got: 'array' }],
    });
  });

  it('unknown enum values and unknown chat part types are displayable text, not differences', () => {
    const task = {
      id: 'tk_1',
      kind: 'deep_research',
      title: 't',
      status: 'paused',
      spaceId: null,
      progress: null,
      createdAt: '2026-01-15T09:00:00Z',
      updatedAt: '2026-01-15T09:00:00Z',
      finishedAt: null,
    };
    expect(compare(S.Task, task)).toEqual([]);
    expect(compare(S.ChatPart, { type: 'hologram', data: 1 })).toEqual([]);
  });

  it('an empty answer where one was expected', () => {
    expect(verdictFor('getAgent', undefined)).toMatchObject({
      fits: false,
      differences: [{ kind: 'missing', path: '(answer)' }],
    });
    expect(verdictFor('deleteSpace', undefined)).toBeUndefined();
  });
});

describe('the note', () => {
  it('names the shape and what differed, as users read it', () => {
    const verdict = verdictFor('getWatch', { brief: null, slug: 'x', title: 'X', archive: [], method: {} });
    expect(verdict).toBeDefined();
    const differences = verdict!.differences.filter((d) => d.path === 'watch' || d.kind === 'extra');
    expect(misfitNote({ ...verdict!, differences, body: {} }, (m) => describeDifferences(m.differences))).toBe(
      "note: the service's WatchPage differs from what kagent knows (missing: watch; extra: slug, title): shown as it came",
    );
  });

  it('lists at most six paths a kind, then how many more', () => {
    const many = Array.from({ length: 9 }, (_, i) => ({ kind: 'missing' as const, path: `f${i}` }));
    expect(describeDifferences(many)).toBe('missing: f0, f1, f2, f3, f4, f5, … 3 more');
    expect(describeDifferences([{ kind: 'retyped', path: 'a', expected: 'string', got: 'null' }])).toBe(
      'retyped: a (string → null)',
    );
  });
});
