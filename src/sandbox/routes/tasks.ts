// Task routes: list, detail and cancel. The task model (milestones, finishing,
// cancelling and the per-kind cancel hooks) is in ../tasks/model.ts.
import { newestFirst } from '../order.js';
import { cancelTask, findTask, isActive, taskDetailView, taskView } from '../tasks/model.js';
import { HttpFail, type Account, type Jobs, type Routes } from '../types.js';
import { notFound, page } from '../world.js';

function spaceMatches(account: Account, spaceId: string | null, ref: string): boolean {
  if (spaceId === ref) return true;
  const named = account.spaces.find((s) => s.name === ref);
  return named !== undefined && named.id === spaceId;
}

export const routes: Routes = {
  listTasks: ({ account, query }) => {
    let tasks = newestFirst(account.tasks);
    if (query.space !== undefined) tasks = tasks.filter((t) => spaceMatches(account, t.spaceId, query.space));
    if (query.active === 'true') tasks = tasks.filter(isActive);
    if (query.active === 'false') tasks = tasks.filter((t) => !isActive(t));
    if (query.kind !== undefined) tasks = tasks.filter((t) => t.kind === query.kind);
    const key = `tasks:${account.id}:${query.space ?? ''}:${query.active ?? ''}:${query.kind ?? ''}`;
    const result = page(tasks, query, key, 30);
    return { body: { items: result.items.map(taskView), nextCursor: result.nextCursor } };
  },

  getTask: ({ account, params }) => {
    const task = findTask(account, params.id ?? '');
    if (!task) throw notFound('TASK_NOT_FOUND', `Task ${params.id}`);
    return { body: taskDetailView(account, task) };
  },

  cancelTask: ({ world, account, params }) => {
    const task = findTask(account, params.id ?? '');
    if (!task) throw notFound('TASK_NOT_FOUND', `Task ${params.id}`);
    if (!isActive(task))
      throw new HttpFail(
        409,
        'TASK_NOT_ACTIVE',
        `Task ${task.id} is ${task.status}; only queued, running or waiting tasks can be cancelled`,
      );
    cancelTask(world, account, task);
    return { body: taskView(task) };
  },
};

export const jobs: Jobs = {};
