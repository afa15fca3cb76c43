// The task progress view draws the pages it is given and nothing else: piped
// (or in CI) it is an append-only log of status and milestone changes, each
// said once, with the commands that decide an action the task waits on. The
// context it gets has no API client (the loop that reads the task is src/follow/task.ts).
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { TaskDetail } from '../../src/api/shapes.js';
import { createProgressView, type ProgressContext } from '../../src/views/task.js';

function pipedContext(): { ctx: ProgressContext; text: () => string } {
  const stderr = new PassThrough();
  let written = '';
  stderr.on('data', (chunk: Buffer) => (written += chunk.toString('utf8')));
  const io = {
    stderr,
    stderrIsTTY: false,
    stdoutIsTTY: false,
    color: false,
    colorStderr: false,
    columns: 80,
    env: {},
  };
  const ctx = { io, flags: {}, clock: { now: () => 0, sleep: async () => {} } } as unknown as ProgressContext;
  return { ctx, text: () => written };
}

const task = (status: string, milestones: Array<[string, string]>, waitingOn: string[] = []): TaskDetail =>
  ({
    id: 'tk_1',
    title: 'Set up the watch',
    status,
    milestones: milestones.map(([title, state], i) => ({ id: `m${i}`, title, status: state })),
    waitingOn: waitingOn.map((id) => ({ id, title: `Publish ${id}`, status: 'pending' })),
  }) as unknown as TaskDetail;

describe('task progress view (piped)', () => {
  it('logs each change once, from the pages alone, and ends with the final status', async () => {
    const { ctx, text } = pipedContext();
    expect('api' in ctx).toBe(false);
    const view = await createProgressView(ctx, 'tk_1', undefined);
    view.update(
      task('running', [
        ['Find sources', 'running'],
        ['Read them', 'pending'],
      ]),
    );
    view.update(
      task('running', [
        ['Find sources', 'running'],
        ['Read them', 'pending'],
      ]),
    );
    view.update(
      task(
        'waiting',
        [
          ['Find sources', 'done'],
          ['Read them', 'pending'],
        ],
        ['ac_9'],
      ),
    );
    await view.finish(
      task('done', [
        ['Find sources', 'done'],
        ['Read them', 'done'],
      ]),
    );
    expect(text().split('\n')).toEqual([
      'task tk_1: Set up the watch',
      'task tk_1: running',
      '[1/2] ● running: Find sources',
      'task tk_1: waiting',
      '[1/2] ✓ done: Find sources',
      'waiting for your approval: Publish ac_9 — kagent actions approve ac_9 (or kagent actions reject ac_9)',
      '[2/2] ✓ done: Read them',
      'task tk_1: done',
      '',
    ]);
  });

  it('--quiet draws nothing', async () => {
    const { ctx, text } = pipedContext();
    const view = await createProgressView({ ...ctx, flags: { quiet: true } } as ProgressContext, 'tk_1', undefined);
    view.update(task('running', [['Find sources', 'running']]));
    await view.finish(task('done', [['Find sources', 'done']]));
    expect(text()).toBe('');
  });
});
