// Chat messages for reading (src/views/chat.ts), piped: any field as text, who wrote a
// message, and the `changes` part (each change with its sign and state, the command
// that opens it or where, and how it is undone).
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { formatter } from '../../src/io/format.js';
import { createIO } from '../../src/io/terminal.js';
import { messageHeader, renderParts } from '../../src/views/chat.js';
import { valueText } from '../../src/io/sanitize.js';

const now = Date.parse('2026-11-25T10:00:00Z');

function piped() {
  const io = createIO(
    {
      stdin: new PassThrough(),
      stdout: Object.assign(new PassThrough(), { isTTY: false, columns: 80 }),
      stderr: new PassThrough(),
    },
    {},
    { color: false, input: true },
  );
  const ctx = { io, flags: {}, clock: { now: () => now, sleep: async () => {} } };
  return { ctx, f: formatter(ctx) };
}

describe('the changes part', () => {
  it('tells each change, where it stands, what opens it and what undoes it', async () => {
    const { ctx, f } = piped();
    const items = [
      { kind: 'doc', id: 'd1', title: 'Notes', action: 'updated', undone: true, actionIds: ['ac_1'] },
      { kind: 'task', id: 't1', action: 'updated', outcome: 'failed', actionIds: ['ac_2'], undoUntil: now - 60_000 },
      { kind: 'note', action: 'created', outcome: 'done', note: 'from the call', href: '/notes/n1' },
      { kind: 'watch', id: 'w1', title: 'Rates', pending: true, actionIds: [] },
      { kind: 'clip', id: 'c1', title: 'A clip', action: 'created', actionIds: ['ac_3', '', 'ac_4'] },
      { kind: 'media', id: 'm1', title: 'Talk', action: 'created', actionIds: ['ac_5'], undoUntil: now + 60_000 },
    ];
    const out = await renderParts(ctx as any, [{ type: 'changes', items }], f, { conversationId: 'cv_1' });
    expect(out.split('\n')).toEqual([
      'Changes',
      '  ↺ updated doc “Notes” (d1) undone',
      '  ~ updated task “t1” (t1) failed',
      '      open: kagent task show t1',
      '      undo window closed 2026-11-25T09:59:00.000Z',
      '  + created note “” — from the call done',
      '      in the web app: /notes/n1',
      '  ~ changed watch “Rates” (w1) in progress',
      '      open: kagent watch show w1',
      '  + created clip “A clip” (c1)',
      '      open: kagent lib show c1',
      '      undo: kagent actions undo ac_3 ac_4',
      '  + created media “Talk” (m1)',
      '      open: kagent media show m1',
      '      undo (until 2026-11-25T10:01:00.000Z): kagent actions undo ac_5',
    ]);
  });
});

describe('fields as text', () => {
  it('keeps strings, writes objects as JSON, other values as they print, and nothing as empty', () => {
    expect([
      valueText('a'),
      valueText({ b: 1 }),
      valueText(2),
      valueText(false),
      valueText(null),
      valueText(undefined),
    ]).toEqual(['a', '{"b":1}', '2', 'false', '', '']);
  });

  it('names who wrote a message: you, the agent by its name, or the role as given', () => {
    const { f } = piped();
    const head = (role: unknown) =>
      messageHeader({ role, createdAt: '2026-11-25T09:00:00.000Z' } as any, f, 'Ada').split(' · ')[0];
    expect([head('user'), head('assistant'), head('system'), head('')]).toEqual(['You', 'Ada', 'system', 'unknown']);
  });
});
