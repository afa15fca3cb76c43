// Tasks: background work (watch setup, research, transcription) with milestones
// (plan, steps, output) that move on the sandbox clock. Each domain schedules its
// own jobs with `data.taskId`, so cancelling a task drops its future events; a
// per-kind hook undoes nothing already done but stops what the work would have
// produced. Status: queued → running (→ waiting on an action) → done | failed | cancelled.
import type * as S from '../../api/shapes.js';
import { ACTIVE_TASK_STATUSES } from '../../api/shapes.js';
import type { Account, TaskRecord } from '../types.js';
import { publicView, type World } from '../world.js';
import { addInbox } from '../inbox/model.js';

export type TaskKind = S.Task['kind'];
export type MilestoneKind = S.Milestone['kind'];

/** What happens to a task's product when it is cancelled (by kind); registered by the domains. */
export const cancelHooks: Partial<Record<TaskKind, (world: World, account: Account, task: TaskRecord) => void>> = {};

export function createTask(
  world: World,
  account: Account,
  init: {
    kind: TaskKind;
    title: string;
    spaceId: string | null;
    milestones: Array<{ kind: MilestoneKind; title: string }>;
  },
): TaskRecord {
  const now = world.iso();
  const task: TaskRecord = {
    id: world.id('tk'),
    kind: init.kind,
    title: init.title,
    status: 'queued',
    spaceId: init.spaceId,
    progress: 0,
    createdAt: now,
    updatedAt: now,
    finishedAt: null,
    milestones: init.milestones.map((m) => ({
      id: world.id('ms'),
      kind: m.kind,
      title: m.title,
      status: 'pending',
      detail: null,
      at: null,
    })),
    waitingOn: [],
    result: null,
  };
  account.tasks.push(task);
  return task;
}

export function findTask(account: Account, id: string): TaskRecord | undefined {
  return account.tasks.find((t) => t.id === id);
}

export function isActive(task: S.Task): boolean {
  return (ACTIVE_TASK_STATUSES as readonly string[]).includes(task.status);
}

function touch(world: World, task: TaskRecord): void {
  task.updatedAt = world.iso();
  const total = task.milestones.length;
  const done = task.milestones.filter((m) => m.status === 'done').length;
  task.progress = total === 0 ? null : Math.round((done / total) * 100) / 100;
}

/** Marks milestone `index` running (the task with it) and may rename it or add a detail. */
export function startMilestone(
  world: World,
  task: TaskRecord,
  index: number,
  patch: { title?: string; detail?: string | null } = {},
): void {
  const m = task.milestones[index];
  if (!m || !isActive(task)) return;
  m.status = 'running';
  m.at = world.iso();
  if (patch.title !== undefined) m.title = patch.title;
  if (patch.detail !== undefined) m.detail = patch.detail;
  task.status = 'running';
  touch(world, task);
}

export function completeMilestone(
  world: World,
  task: TaskRecord,
  index: number,
  patch: { title?: string; detail?: string | null; status?: 'done' | 'failed' | 'skipped' } = {},
): void {
  const m = task.milestones[index];
  if (!m || !isActive(task)) return;
  m.status = patch.status ?? 'done';
  m.at = world.iso();
  if (patch.title !== undefined) m.title = patch.title;
  if (patch.detail !== undefined) m.detail = patch.detail;
  touch(world, task);
}

export function setWaiting(world: World, task: TaskRecord): void {
  if (!isActive(task)) return;
  task.status = 'waiting';
  touch(world, task);
}

/** The inbox title's first word for a task that ended. */
const ENDED = { done: { zh: '已完成', en: 'Done' }, failed: { zh: '失败', en: 'Failed' } };

/**
 * Ends a task: done or failed. Milestones not reached are skipped. An inbox item
 * says so (kind `task`), unless `quiet`.
 */
export function finishTask(
  world: World,
  account: Account,
  task: TaskRecord,
  status: 'done' | 'failed',
  options: { result?: S.TaskDetail['result']; body?: string; quiet?: boolean } = {},
): void {
  if (!isActive(task)) return;
  // The milestone under way fails with a failed task; the others not reached are skipped.
  for (const m of task.milestones) {
    if (m.status === 'pending') m.status = 'skipped';
    else if (m.status === 'running') m.status = status === 'failed' ? 'failed' : 'skipped';
  }
  task.status = status;
  task.result = options.result ?? task.result;
  task.finishedAt = world.iso();
  touch(world, task);
  world.cancelEvents((e) => e.data.taskId === task.id);
  if (!options.quiet) {
    const zh = account.lang === 'zh';
    addInbox(world, account, {
      kind: 'task',
      title: zh ? `${ENDED[status].zh}：${task.title}` : `${ENDED[status].en}: ${task.title}`,
      body: options.body ?? '',
      taskId: task.id,
    });
  }
}

export function taskView(task: TaskRecord): S.Task {
  return {
    id: task.id,
    kind: task.kind,
    title: task.title,
    status: task.status,
    spaceId: task.spaceId,
    progress: task.progress,
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
    finishedAt: task.finishedAt,
  };
}

export function taskDetailView(account: Account, task: TaskRecord): S.TaskDetail {
  const waitingOn = account.actions
    .filter((a) => a.taskId === task.id && a.status === 'pending')
    .map((a) => publicView(a));
  return {
    ...taskView(task),
    milestones: task.milestones.map((m) => ({ ...m })),
    waitingOn,
    result: task.result ? { ...task.result } : null,
  };
}

/** Cancels an active task: done milestones stay done, the rest are skipped, its future work is dropped. */
export function cancelTask(world: World, account: Account, task: TaskRecord): void {
  if (!isActive(task)) return;
  world.cancelEvents((e) => e.data.taskId === task.id);
  for (const m of task.milestones) if (m.status === 'pending' || m.status === 'running') m.status = 'skipped';
  task.status = 'cancelled';
  task.finishedAt = world.iso();
  touch(world, task);
  cancelHooks[task.kind]?.(world, account, task);
}
