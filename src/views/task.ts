// How a background task reads: its milestones and status in colour, the
// commands that decide an action it waits on, and its progress on stderr while
// it is followed (src/follow/task.ts polls; this file only draws).
//
// What the person sees, on stderr (stdout stays the result):
//   terminal  a live block of the task's milestones, redrawn in place
//   piped     one line per milestone event (started, done, failed, skipped)
//             and per task status change: an append-only log for CI
//   --quiet   nothing
import type { Context } from '../context.js';
import type { Action, Milestone, TaskDetail } from '../api/shapes.js';
import { ACTIVE_TASK_STATUSES } from '../api/shapes.js';
import { displayWidth, type Formatter, formatter } from '../io/format.js';
import { sanitizeLine } from '../io/sanitize.js';
import { truncate } from '../io/width.js';
import { kagentCommand } from '../io/command-line.js';
import { emit } from '../io/streams.js';
import { envFlag } from '../io/terminal.js';
import { fitLive, liveWidth } from '../io/live-line.js';

/** What drawing the progress needs: the terminal, the flags and the clock (never the API). */
export type ProgressContext = Pick<Context, 'io' | 'flags' | 'clock' | 'serviceClock'>;

/** A task still at work: queued, running or waiting. */
export function isActiveStatus(status: string): boolean {
  return (ACTIVE_TASK_STATUSES as readonly string[]).includes(status);
}

// ---------------------------------------------------------------- how milestones read

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** ✓ done, ✗ failed, – skipped, ○ pending, a spinner frame (or ●) running; unknown statuses as text. */
export function milestoneIcon(status: string, f: Formatter, frame = '●'): string {
  switch (status) {
    case 'done':
      return f.green('✓');
    case 'failed':
      return f.red('✗');
    case 'skipped':
      return f.dim('–');
    case 'pending':
      return f.dim('○');
    case 'running':
      return f.cyan(frame);
    default:
      return f.yellow('?');
  }
}

/** Task status in colour: running cyan, waiting yellow, done green, failed red, cancelled dim. */
export function taskStatus(status: string, f: Formatter): string {
  const text = sanitizeLine(status);
  switch (status) {
    case 'done':
      return f.green(text);
    case 'failed':
      return f.red(text);
    case 'waiting':
      return f.yellow(text);
    case 'running':
    case 'queued':
      return f.cyan(text);
    case 'cancelled':
      return f.dim(text);
    default:
      return text;
  }
}

/** Cuts plain text to `width` terminal columns, with an ellipsis. */
export function fit(text: string, width: number): string {
  return truncate(text, width);
}

/** "1m 05s", "12s". */
export function elapsed(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

/** The commands that decide an action the task waits on. */
export function approvalCommands(
  ctx: Pick<Context, 'flags'>,
  action: Pick<Action, 'id'>,
): { approve: string; reject: string } {
  return {
    approve: kagentCommand(ctx, 'actions approve', action.id),
    reject: kagentCommand(ctx, 'actions reject', action.id),
  };
}

/** Lines of the live block (also what `task show` prints for milestones): plain widths, colour added. */
export function milestoneLines(task: TaskDetail, f: Formatter, width: number, frame = '●'): string[] {
  const milestones: Milestone[] = task.milestones ?? [];
  const titleWidth = Math.min(
    Math.max(20, Math.floor((width - 4) * 0.55)),
    Math.max(12, ...milestones.map((m) => displayWidth(sanitizeLine(m.title)))),
  );
  return milestones.map((m) => {
    const title = sanitizeLine(m.title);
    const detail = m.detail ? sanitizeLine(m.detail) : '';
    const room = width - 4; // "  ✓ "
    const shownTitle = fit(title, Math.min(room, titleWidth));
    const pad = ' '.repeat(Math.max(0, Math.min(room, titleWidth) - displayWidth(shownTitle)));
    const detailRoom = room - displayWidth(shownTitle) - pad.length - 2;
    const shownDetail = detail && detailRoom > 3 ? `  ${f.dim(fit(detail, detailRoom))}` : '';
    const paint = m.status === 'pending' || m.status === 'skipped' ? f.dim : (s: string) => s;
    return `  ${milestoneIcon(m.status, f, frame)} ${paint(shownTitle)}${shownDetail ? pad + shownDetail : ''}`;
  });
}

// ---------------------------------------------------------------- progress on stderr

export interface ProgressView {
  update(task: TaskDetail): void;
  finish(task: TaskDetail): Promise<void>;
  /** Stops drawing (timeout, Ctrl-C, an error), leaving what is on screen. */
  abandon(): Promise<void>;
}

export async function createProgressView(
  ctx: ProgressContext,
  taskId: string,
  label: string | undefined,
): Promise<ProgressView> {
  if (ctx.flags.quiet) return { update() {}, async finish() {}, async abandon() {} };
  const f = formatter(ctx, 'stderr');
  const live = ctx.io.stderrIsTTY && !envFlag(ctx.io.env, 'CI') && ctx.io.env.TERM !== 'dumb';
  return live ? new LiveView(ctx, f, taskId, label) : new LogView(ctx, f, taskId);
}

/**
 * The terminal view: a header and one line per milestone, redrawn in place
 * (cursor up, clear line) whenever something changes, with a spinner on the
 * running milestone. Lines are cut to the terminal width so that none wraps
 * and the redraw always moves up by the right count.
 */
class LiveView implements ProgressView {
  private drawn = 0;
  private task: TaskDetail | undefined;
  private frame = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly started: number;
  private shownElapsed = '';
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: ProgressContext,
    private readonly f: Formatter,
    private readonly taskId: string,
    private readonly label: string | undefined,
  ) {
    this.started = ctx.clock.now();
    this.draw();
    // Between polls: animate the running milestone, and keep the elapsed time ticking.
    this.timer = setInterval(() => {
      this.frame = (this.frame + 1) % FRAMES.length;
      const running = (this.task?.milestones ?? []).some((m) => m.status === 'running');
      if (running || this.elapsedText() !== this.shownElapsed) this.draw();
    }, 120);
    this.timer.unref?.();
  }

  private elapsedText(): string {
    return elapsed(this.ctx.clock.now() - this.started);
  }

  private width(): number {
    return liveWidth(this.ctx.io);
  }

  private lines(final: boolean): string[] {
    const f = this.f;
    const width = this.width();
    const task = this.task;
    const title = sanitizeLine(task?.title ?? this.label ?? `task ${this.taskId}`);
    const status = task?.status ?? 'starting';
    const took = this.elapsedText();
    this.shownElapsed = took;
    const tail = ` · ${status} · ${took}`;
    const head = `${f.bold(fit(title, width - displayWidth(tail)))}${f.dim(' · ')}${taskStatus(status, f)}${f.dim(` · ${took}`)}`;
    const lines = [head];
    if (task) lines.push(...milestoneLines(task, f, width, final ? '●' : (FRAMES[this.frame] ?? '●')));
    for (const action of task?.waitingOn ?? []) {
      const { approve } = approvalCommands(this.ctx, action);
      lines.push(`  ${f.yellow('⏸')} ${fit(`waiting for you: ${sanitizeLine(action.title)}`, width - 4)}`);
      lines.push(`    ${f.dim(fit(`approve: ${approve}`, width - 4))}`);
    }
    return lines;
  }

  private draw(final = false): void {
    const lines = this.lines(final);
    let out = this.drawn > 0 ? `\x1b[${this.drawn}A\r` : '';
    // Each row fits (src/io/live-line.ts): a wrapped one would throw off the count of rows to redraw.
    for (const line of lines) out += `\x1b[2K${fitLive(this.ctx.io, line)}\n`;
    out += '\x1b[J';
    this.drawn = lines.length;
    this.writing = this.writing.then(() => emit(this.ctx.io.stderr, out)).catch(() => {});
  }

  update(task: TaskDetail): void {
    this.task = task;
    this.draw();
  }

  async finish(task: TaskDetail): Promise<void> {
    this.stop();
    this.task = task;
    this.draw(true);
    await this.writing;
  }

  async abandon(): Promise<void> {
    this.stop();
    if (this.task) this.draw(true);
    await this.writing;
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** Piped or in CI: an append-only log, one line per event, nothing redrawn. */
class LogView implements ProgressView {
  private readonly seen = new Map<string, string>();
  private status: string | undefined;
  private readonly waiting = new Set<string>();
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: ProgressContext,
    private readonly f: Formatter,
    private readonly taskId: string,
  ) {}

  private say(line: string): void {
    this.writing = this.writing.then(() => emit(this.ctx.io.stderr, `${line}\n`)).catch(() => {});
  }

  update(task: TaskDetail): void {
    const f = this.f;
    if (this.status === undefined) this.say(`task ${this.taskId}: ${sanitizeLine(task.title)}`);
    // Status first while the task goes on ("running", then its milestones); last once it has ended.
    const statusChanged = task.status !== this.status;
    if (statusChanged && isActiveStatus(task.status)) this.say(`task ${this.taskId}: ${taskStatus(task.status, f)}`);
    const milestones = task.milestones ?? [];
    milestones.forEach((m, i) => {
      const before = this.seen.get(m.id) ?? 'pending';
      if (m.status === before) return;
      this.seen.set(m.id, m.status);
      // A milestone first seen already finished gets one line, not a "running" one too.
      const detail = m.detail && m.status !== 'running' ? ` — ${sanitizeLine(m.detail)}` : '';
      this.say(
        `[${i + 1}/${milestones.length}] ${milestoneIcon(m.status, f)} ${sanitizeLine(m.status)}: ${sanitizeLine(m.title)}${detail}`,
      );
    });
    for (const action of task.waitingOn ?? []) {
      if (this.waiting.has(action.id)) continue;
      this.waiting.add(action.id);
      const { approve, reject } = approvalCommands(this.ctx, action);
      this.say(`waiting for your approval: ${sanitizeLine(action.title)} — ${approve} (or ${reject})`);
    }
    if (statusChanged && !isActiveStatus(task.status)) this.say(`task ${this.taskId}: ${taskStatus(task.status, f)}`);
    this.status = task.status;
  }

  async finish(task: TaskDetail): Promise<void> {
    this.update(task);
    await this.writing;
  }

  async abandon(): Promise<void> {
    await this.writing;
  }
}
