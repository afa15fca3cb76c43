// Following background work under --timeout: when the deadline comes while a
// look at the work is stuck (the service trickles its answer), the command
// still ends as "still running" (exit 8, with how to resume), not as a network
// failure, and on time.
import { afterEach, describe, expect, it } from 'vitest';
import { hostileServer, type HostileServer } from '../helpers/hostile-server.js';
import { runCli } from '../helpers/run.js';

let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('task show --follow --timeout 1', () => {
  it('ends with exit 8 and the resume hint when the task’s answer trickles past the deadline', async () => {
    server = await hostileServer(() => ({ kind: 'trickle', everyMs: 200 }));
    const started = Date.now();
    const r = await runCli(['task', 'show', 't_1', '--follow', '--timeout', '1', '--base-url', server.baseUrl], {
      env: { KAGENT_API_KEY: 'ka_test_follow' },
    });
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(/still running after 1 s; the work goes on \(STILL_RUNNING\)/);
    expect(r.stderr).toMatch(/task show t_1 --follow/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

describe('task show --follow, a task that ends in a status kagent does not know', () => {
  it.each([
    ['"paused"', 'paused', '"paused"'],
    ['a number', 5, '"5"'],
    ['null', null, '"null"'],
  ])('%s is not done: exit 1, TASK_STATUS_UNKNOWN', async (_name, status, shown) => {
    server = await hostileServer(() => ({
      kind: 'answer',
      status: 200,
      body: { id: 't_1', title: 'Set up', status, milestones: [], createdAt: '2026-11-27T00:00:00Z' },
    }));
    const r = await runCli(['task', 'show', 't_1', '--follow', '--quiet', '--base-url', server.baseUrl], {
      env: { KAGENT_API_KEY: 'ka_test_follow' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: task t_1 ended as ${shown}, which kagent does not know as done: Set up (TASK_STATUS_UNKNOWN)\n` +
        `hint: \`kagent --base-url ${server.baseUrl} task show t_1 --json\` shows it as the service sent it\n`,
    );
    expect(server.requests).toHaveLength(1);
  });
});
