// Setting up a watch: createWatch's checks, the record, the follow, the monthly
// count and a `watch_setup` task whose milestones move on the sandbox clock
// (about 60 s in all); its output is the first brief, covering the last 7 days,
// after which briefs follow the cadence (brief.ts); and its owner changing its
// settings (alerts, cadence) later.
import type * as S from '../../api/shapes.js';
import { foundSources, hostOf, int } from './content.js';
import {
  cancelHooks,
  completeMilestone,
  createTask,
  findTask,
  finishTask,
  isActive,
  startMilestone,
} from '../tasks/model.js';
import { HttpFail, type Account, type ScheduledEvent } from '../types.js';
import { monthKey, type World } from '../world.js';
import { notifyBrief, scheduleNextBrief, writeBrief } from './brief.js';
import { addWatchRecord, DAY_MS, SETUP_MS, watches, watchView, type WatchRec } from './model.js';

function setupMilestones(lang: S.Locale, w: WatchRec): Array<{ kind: 'plan' | 'step' | 'output'; title: string }> {
  const zh = lang === 'zh';
  const plan = { kind: 'plan' as const, title: zh ? `计划：如何跟踪“${w.title}”` : `Plan how to follow “${w.title}”` };
  const output = {
    kind: 'output' as const,
    title: zh ? '撰写第一期简报（过去 7 天）' : 'Write the first brief (last 7 days)',
  };
  if (w.type === 'topic') {
    return [
      plan,
      { kind: 'step', title: zh ? '寻找来源' : 'Finding sources' },
      { kind: 'step', title: zh ? '阅读' : 'Reading' },
      { kind: 'step', title: zh ? '挑选重要内容' : 'Picking what matters' },
      output,
    ];
  }
  const register = w.urls.map((url) => ({
    kind: 'step' as const,
    title: zh ? `登记 ${hostOf(url)}` : `Registering ${hostOf(url)}`,
  }));
  let readTitle = zh ? '阅读' : 'Reading';
  if (w.type === 'pages') readTitle = zh ? '保存页面快照' : 'Taking a first snapshot';
  const read = { kind: 'step' as const, title: readTitle };
  return [plan, ...register, read, output];
}

/** Milestone boundaries (ms after creation): milestone i runs from b[i] to b[i+1]; the last boundary is SETUP_MS. */
function setupBoundaries(count: number, type: S.Watch['type']): number[] {
  if (type === 'topic' && count === 5) return [1000, 5000, 20_000, 40_000, 50_000, SETUP_MS];
  const b = [1000, 5000];
  const middle = count - 3; // register steps
  for (let i = 1; i <= middle; i++) b.push(5000 + Math.round((35_000 * i) / middle));
  b.push(50_000, SETUP_MS);
  return b;
}

/**
 * createWatch's work, shared with the agent: checks, the record, the follow, the
 * monthly count and the set-up task. Throws HttpFail for 403/404.
 */
export function createWatchFor(world: World, account: Account, input: S.CreateWatchRequest): S.WatchCreated {
  if (!account.emailVerified)
    throw new HttpFail(403, 'EMAIL_NOT_VERIFIED', 'Verify your email address before creating a watch');
  const space = input.spaceId ? world.space(account, input.spaceId) : world.defaultSpace(account);
  const month = monthKey(world.now());
  const used = account.watchesByMonth[month] ?? 0;
  if (used >= account.limits.watchesPerMonth) {
    throw new HttpFail(
      403,
      'WATCH_LIMIT',
      `Your plan creates at most ${account.limits.watchesPerMonth} watches a month; ${used} created in ${month}`,
    );
  }
  const type = input.type ?? 'topic';
  const urls = input.urls ?? [];
  if (type !== 'topic' && urls.length === 0) {
    throw new HttpFail(400, 'INVALID_INPUT', `Invalid input: urls must have at least 1 item for type ${type}`, {
      issues: [{ path: 'urls', message: `must have at least 1 item when type is ${type}` }],
    });
  }
  const lang = input.lang ?? account.lang;
  const w = addWatchRecord(world, {
    intent: input.intent.trim() || input.intent,
    lang,
    visibility: input.visibility ?? 'public',
    type,
    cadence: input.cadence ?? 'daily',
    urls,
    alerts: input.alerts ?? [],
    ownerId: account.id,
    createdAt: world.now(),
  });
  account.watchesByMonth[month] = used + 1;
  account.follows[w.slug] = { spaceId: space.id, followedAt: world.iso() };
  const zh = lang === 'zh';
  const task = createTask(world, account, {
    kind: 'watch_setup',
    title: zh ? `设置关注：${w.title}` : `Set up watch: ${w.title}`,
    spaceId: space.id,
    milestones: setupMilestones(lang, w),
  });
  const bounds = setupBoundaries(task.milestones.length, type);
  task._milestonePlan = bounds;
  w._taskId = task.id;
  const start = world.now();
  world.schedule(start + (bounds[0] ?? 1000), 'watch.setup', account.id, {
    taskId: task.id,
    slug: w.slug,
    step: 0,
    start,
  });
  return { slug: w.slug, taskId: task.id, watch: watchView(world, account, w) };
}

/** One step of a watch's set-up: completes milestone step-1, starts milestone step, or writes the first brief. */
export function setupStep(world: World, event: ScheduledEvent): void {
  const account = world.state.accounts[event.accountId ?? ''];
  const { taskId, slug, step, start } = event.data as { taskId: string; slug: string; step: number; start: number };
  const task = account ? findTask(account, taskId) : undefined;
  const w = watches(world)[slug];
  if (!account || !task || !w || !isActive(task)) return;
  const bounds = task._milestonePlan as number[];
  const zh = w.lang === 'zh';
  const last = task.milestones.length - 1;
  const prev = task.milestones[step - 1];
  if (prev) {
    let detail: string | null = null;
    if (w.type === 'topic' && prev.kind === 'step' && step - 1 === 1) {
      w._sources = foundSources(world.rng(`sources:${slug}`), 5);
      detail = zh
        ? `找到 ${w._sources.length} 个来源：${w._sources.map((s) => s.title).join('、')}`
        : `Found ${w._sources.length} sources: ${w._sources.map((s) => s.title).join(', ')}`;
    } else if (w.type !== 'topic' && step - 1 >= 1 && step - 1 <= w.urls.length) {
      const url = w.urls[step - 2] as string;
      w._sources.push({ url, title: hostOf(url) });
      detail = zh ? `已登记 ${url}` : `Registered ${url}`;
    } else if (prev.kind === 'plan') {
      detail = zh ? `类型：${w.type}，频率：${w.cadence}` : `Type ${w.type}, cadence ${w.cadence}`;
    } else if (prev.title === 'Reading' || prev.title === '阅读') {
      const n = int(world.rng(`reading:${slug}`), 24, 90);
      detail = zh ? `阅读了 ${n} 篇文章` : `Read ${n} articles`;
    }
    completeMilestone(world, task, step - 1, { detail });
  }
  if (step <= last) {
    startMilestone(world, task, step);
    world.schedule(start + (bounds[step + 1] ?? SETUP_MS), 'watch.setup', account.id, {
      taskId,
      slug,
      step: step + 1,
      start,
    });
    return;
  }
  // Output: the first brief, covering the last 7 days.
  const now = world.now();
  w.status = 'active';
  const brief = writeBrief(world, w, { from: now - 7 * DAY_MS, to: now, at: now, notify: false });
  const output = task.milestones[last];
  if (output)
    output.detail = zh
      ? `简报 ${brief.date}，${brief.entries.length} 条`
      : `Brief of ${brief.date}, ${brief.entries.length} entries`;
  finishTask(world, account, task, 'done', {
    result: { kind: 'watch', id: w.slug, href: `/watches/${w.slug}` },
    body: brief.summary,
  });
  notifyBrief(world, w, brief);
  scheduleNextBrief(world, w);
}

cancelHooks.watch_setup = (world, _account, task) => {
  const w = Object.values(watches(world)).find((x) => x._taskId === task.id);
  if (w && w.status === 'setting_up') w.status = 'failed';
};

/**
 * Changes a watch's alerts or cadence (a new cadence schedules the next brief anew).
 * The contract lists only 404 for updateWatchSettings ("owner only"): to anyone but the
 * owner, a watch they may read or follow is still not one whose settings exist for them.
 */
export function updateWatchSettings(world: World, account: Account, w: WatchRec, input: S.WatchSettingsRequest): void {
  if (w._ownerId !== account.id)
    throw new HttpFail(
      404,
      'WATCH_NOT_FOUND',
      `No watch of yours has the slug ${w.slug}: only its owner can change its settings`,
    );
  if (input.alerts !== undefined) w.alerts = [...input.alerts];
  if (input.cadence !== undefined && input.cadence !== w.cadence) {
    w.cadence = input.cadence;
    scheduleNextBrief(world, w);
  }
}
