// `kagent task list/show (--follow)/watch/cancel` against the sandbox, time driven by the
// sandbox clock: terminal, piped and --json modes; the actions a task waits on
// with the commands that decide them; following to done, to a timeout (exit 8)
// and through Ctrl-C (exit 130); cancelling (work done is kept) and
// TASK_NOT_ACTIVE (exit 5); every filter and bound of listTasks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import show from '../../commands/task/show.js';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';
import { hasForeignEscapes, type RunCliOptions } from '../helpers/run.js';
import { sandboxClock, type SandboxClock } from '../helpers/sandbox-clock.js';
import { pipedKeysOf } from '../helpers/piped-help.js';

let s: LoggedIn;
let clock: SandboxClock;
/** A finished watch set-up. */
let doneTask: string;
let doneSlug: string;
/** A research task waiting on the save_report action. */
let waitingTask: string;
let actionId: string;

function plain(text: string): string {
  return text.replace(/\x1b\[[0-9;]*m/g, '');
}

function kagent(argv: string[], options: RunCliOptions = {}) {
  return s.kagent(argv, { clock, ...options });
}

/** A watch whose set-up task is still running. */
async function activeTask(intent: string): Promise<string> {
  const created = await s.t.call('POST', '/watches', { body: { intent } });
  return created.body.taskId;
}

beforeAll(async () => {
  s = await loggedInSandbox();
  clock = sandboxClock(s.t);
  await s.t.patchAccount(s.t.sandbox.accountId, { limits: { watchesPerMonth: 1000 } });
  const created = await s.t.call('POST', '/watches', { body: { intent: 'Battery recycling in Europe' } });
  doneTask = created.body.taskId;
  doneSlug = created.body.slug;
  await s.t.advance(61_000);
  await s.t.call('POST', '/conversations/messages', { body: { text: 'Please research sodium ion batteries' } });
  await s.t.advance(40_000);
  const research = (await s.t.call('GET', '/tasks', { query: { kind: 'research' } })).body.items[0];
  waitingTask = research.id;
  const detail = (await s.t.call('GET', `/tasks/${waitingTask}`)).body;
  expect(detail.status).toBe('waiting');
  actionId = detail.waitingOn[0].id;
});
afterAll(() => s.close());

describe('task list', () => {
  it('lists tasks newest first (piped, terminal, --json)', async () => {
    const active = await activeTask('Tidal energy');
    const json = JSON.parse((await kagent(['task', 'list', '--json'])).stdout);
    expect(json[0].id).toBe(active);
    expect(json.map((t: any) => t.id)).toEqual(expect.arrayContaining([doneTask, waitingTask, active]));
    const times = json.map((t: any) => t.createdAt);
    expect([...times].sort().reverse()).toEqual(times);

    const piped = await kagent(['task', 'list']);
    const row = piped.stdout
      .split('\n')
      .find((l) => l.startsWith(`${doneTask}\t`))!
      .split('\t');
    const done = json.find((t: any) => t.id === doneTask);
    expect(row).toEqual([
      done.id,
      'watch_setup',
      'done',
      '1',
      done.title,
      done.updatedAt,
      done.createdAt,
      done.finishedAt,
      done.spaceId,
    ]);

    const tty = await kagent(['task', 'list'], { tty: true });
    expect(plain(tty.stdout)).toMatch(/ID\s+KIND\s+STATUS\s+PROGRESS\s+TITLE\s+UPDATED/);
    expect(plain(tty.stdout)).toMatch(new RegExp(`${doneTask}\\s+watch_setup\\s+done\\s+100%`));
    // At 40 columns STATUS (what the task is doing) stays over KIND.
    const narrow = plain((await kagent(['task', 'list'], { tty: true, columns: 40 })).stdout);
    expect(narrow.split('\n')[0]).toMatch(/^ID\s+STATUS\b/);
    expect(narrow.split('\n')[0]).not.toContain('KIND');
    expect(narrow).toMatch(new RegExp(`${doneTask}\\s+done\\b`));
    for (const line of narrow.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(40);
  });

  it('filters: --active, --kind, --space (by name), --limit, --all', async () => {
    const active = JSON.parse((await kagent(['task', 'list', '--active', '--json'])).stdout);
    expect(active.length).toBeGreaterThan(0);
    expect(active.every((t: any) => ['queued', 'running', 'waiting'].includes(t.status))).toBe(true);
    expect(active.map((t: any) => t.id)).toContain(waitingTask);
    expect(active.map((t: any) => t.id)).not.toContain(doneTask);

    const finished = JSON.parse((await kagent(['task', 'list', '--no-active', '--json'])).stdout);
    expect(finished.map((t: any) => t.id)).toContain(doneTask);
    expect(finished.map((t: any) => t.id)).not.toContain(waitingTask);
    expect(finished.every((t: any) => !['queued', 'running', 'waiting'].includes(t.status))).toBe(true);
    const noneDone = await kagent(['task', 'list', '--no-active', '--kind', 'transcription'], { tty: true });
    expect(noneDone.stderr).toContain('No finished tasks.');

    const research = JSON.parse((await kagent(['task', 'list', '--kind', 'research', '--json'])).stdout);
    expect(research.map((t: any) => t.id)).toEqual([waitingTask]);
    const none = await kagent(['task', 'list', '--kind', 'transcription'], { tty: true });
    expect(none.stdout).toBe('');
    expect(none.stderr).toContain('No tasks.');

    const spaces = (await s.t.call('GET', '/spaces')).body.items;
    const personal = spaces.find((sp: any) => sp.isDefault);
    const inSpace = JSON.parse((await kagent(['task', 'list', '--space', personal.name, '--json'])).stdout);
    expect(inSpace.length).toBeGreaterThan(0);
    expect(inSpace.every((t: any) => t.spaceId === personal.id)).toBe(true);
    const missing = await kagent(['task', 'list', '--space', 'Nowhere']);
    expect(missing.code).toBe(4);

    expect((await kagent(['task', 'list', '--limit', '1'])).stdout.trim().split('\n')).toHaveLength(1);
    for (let i = 0; i < 3; i++) await activeTask(`Paging test ${i}`);
    const all = JSON.parse((await kagent(['task', 'list', '--all', '--json'])).stdout);
    const first = JSON.parse((await kagent(['task', 'list', '--json'])).stdout);
    expect(all.length).toBeGreaterThanOrEqual(first.length);
    expect(new Set(all.map((t: any) => t.id)).size).toBe(all.length);
  });

  it('bounds: --kind 1 to 40 characters, --space 1 to 80, --limit at least 1; nothing sent', async () => {
    const before = (await s.t.call('GET', '/_sandbox/stats', { key: null })).body.requests.listTasks ?? 0;
    const kind = await kagent(['task', 'list', '--kind', 'k'.repeat(41)]);
    expect(kind.code).toBe(2);
    expect(kind.stderr).toContain('--kind must be 1 to 40 characters (got 41)');
    const space = await kagent(['task', 'list', '--space', 's'.repeat(81)]);
    expect(space.code).toBe(2);
    expect(space.stderr).toContain('--space must be 1 to 80 characters (got 81)');
    const limit = await kagent(['task', 'list', '--limit', '0']);
    expect(limit.code).toBe(2);
    const both = await kagent(['task', 'list', '--limit', '1', '--all']);
    expect(both.code).toBe(2);
    expect((await s.t.call('GET', '/_sandbox/stats', { key: null })).body.requests.listTasks ?? 0).toBe(before);
    const atLimit = await kagent(['task', 'list', '--kind', 'k'.repeat(40), '--json']);
    expect(atLimit.code).toBe(0);
    expect(JSON.parse(atLimit.stdout)).toEqual([]);
  });
});

describe('task show', () => {
  it('a finished task: milestones, and the command that opens its result', async () => {
    const tty = await kagent(['task', 'show', doneTask], { tty: true });
    expect(tty.code).toBe(0);
    const out = plain(tty.stdout);
    expect(out).toContain('Set up watch: Battery recycling in Europe');
    expect(out).toMatch(new RegExp(`${doneTask} · watch_setup · done · 100%`));
    expect(out.match(/^ {2}✓ /gm)).toHaveLength(5);
    expect(out).toMatch(/✓ Finding sources\s+Found 5 sources/);
    expect(out).toContain(`Result  watch ${doneSlug}  → kagent watch show ${doneSlug}`);

    const json = JSON.parse((await kagent(['task', 'show', doneTask, '--json'])).stdout);
    expect(json).toMatchObject({ id: doneTask, status: 'done', result: { kind: 'watch', id: doneSlug } });
    expect(json.milestones).toHaveLength(5);

    const piped = await kagent(['task', 'show', doneTask]);
    const [head, rows] = piped.stdout.split('\n--\n');
    expect(head).toContain(`id\t${doneTask}`);
    expect(head).toContain('status\tdone');
    expect(head).toContain(`result\twatch ${doneSlug}`);
    const lines = rows!
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(lines).toHaveLength(5);
    expect(lines[0]).toEqual([
      'plan',
      'done',
      json.milestones[0].title,
      json.milestones[0].detail,
      json.milestones[0].at,
    ]);
  });

  it('a waiting task: the actions it waits on and the commands that decide them', async () => {
    const tty = await kagent(['task', 'show', waitingTask], { tty: true });
    const out = plain(tty.stdout);
    expect(out).toContain('Waiting for your decision');
    expect(out).toContain(`approve: kagent actions approve ${actionId}`);
    expect(out).toContain(`reject:  kagent actions reject ${actionId}`);
    expect(out).toMatch(/Save the report .* as a doc \(save_report, risk low, ac_\w+\)/);
    const piped = await kagent(['task', 'show', waitingTask]);
    expect(piped.stdout).toContain(`waiting-on\t${actionId}`);
    expect(piped.stdout).toContain('status\twaiting');
    const json = JSON.parse((await kagent(['task', 'show', waitingTask, '--json'])).stdout);
    expect(json.waitingOn[0].id).toBe(actionId);
  });

  it('the help names every key of the head it prints piped (one field table gives both)', async () => {
    const head = (await kagent(['task', 'show', doneTask])).stdout.split('\n--\n')[0]!;
    const keys = head.split('\n').map((line) => line.split('\t')[0]!);
    expect(keys).toEqual([
      'id',
      'kind',
      'status',
      'title',
      'progress',
      'space',
      'created',
      'updated',
      'finished',
      'waiting-on',
      'result',
    ]);
    const helpKeys = pipedKeysOf(show.description);
    for (const key of keys) expect(helpKeys).toContain(key);
  });

  it('an unknown task is exit 4 with a hint', async () => {
    const r = await kagent(['task', 'show', 'tk_nope']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/\(TASK_NOT_FOUND\)/);
    expect(r.stderr).toContain('hint: no task "tk_nope": `kagent task list` shows your tasks');
  });
});

describe('task show --follow', () => {
  it('piped: one stderr line per milestone, the outcome as a TSV row', async () => {
    const id = await activeTask('Heat pumps in Germany');
    const r = await kagent(['task', 'show', '--follow', id]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^${id}\\tdone\\twatch heat-pumps-in-germany\\n$`));
    expect(r.stderr).toMatch(/^\[3\/5\] ✓ done: Reading — Read \d+ articles$/m);
    expect(r.stderr).toMatch(new RegExp(`^task ${id}: done$`, 'm'));
    expect(r.stderr).toContain('see the result: `kagent watch show heat-pumps-in-germany`');
  });

  it('terminal: the live view, then done', async () => {
    const id = await activeTask('Wind farms offshore');
    const r = await kagent(['task', 'show', '--follow', id], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/\x1b\[\d+A\r\x1b\[2K/);
    expect(plain(r.stderr)).toContain('✓ Done: Set up watch: Wind farms offshore');
  });

  it('--json: the task as it ended', async () => {
    const id = await activeTask('Geothermal plants');
    const r = await kagent(['task', 'show', '--follow', id, '--json']);
    expect(r.code).toBe(0);
    const task = JSON.parse(r.stdout);
    expect(task).toMatchObject({ id, status: 'done', kind: 'watch_setup' });
    expect(task.milestones.every((m: any) => m.status === 'done')).toBe(true);
  });

  it('an already finished task returns at once', async () => {
    const before = clock.sleeps.length;
    const r = await kagent(['task', 'show', '--follow', doneTask, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).status).toBe('done');
    expect(clock.sleeps.length).toBe(before);
  });

  it('a task waiting on an action says how to approve it; --timeout exits 8 with the resume command', async () => {
    const r = await kagent(['task', 'show', '--follow', waitingTask, '--timeout', '20']);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain(`waiting for your approval: `);
    expect(r.stderr).toContain(`kagent actions approve ${actionId} (or kagent actions reject ${actionId})`);
    expect(r.stderr).toMatch(/error: still running after 20 s; the work goes on \(STILL_RUNNING\)/);
    expect(r.stderr).toContain(`hint: follow it again with \`kagent task show ${waitingTask} --follow\``);
    const tty = await kagent(['task', 'show', '--follow', waitingTask, '--timeout', '5'], { tty: true });
    expect(tty.code).toBe(8);
    expect(plain(tty.stderr)).toContain(`approve: kagent actions approve ${actionId}`);
  });

  it('Ctrl-C stops following: exit 130 with `kagent task show <id> --follow`; the task goes on', async () => {
    const id = await activeTask('Carbon capture');
    const controller = new AbortController();
    const local = sandboxClock(s.t);
    local.onSleep = (_ms, count) => {
      if (count === 3) controller.abort();
    };
    const r = await s.kagent(['task', 'show', '--follow', id], { clock: local, signal: controller.signal, tty: true });
    expect(r.code).toBe(130);
    // Not an error: the row cleared, the cursor shown, one quiet line saying what goes on and how to follow it again.
    expect(plain(r.stderr)).not.toContain('error');
    expect(plain(r.stderr)).toMatch(
      new RegExp(
        `\r\x1b\\[2K\x1b\\[\\?25hthe task goes on; follow it again with \`kagent task show ${id} --follow\`\n$`,
      ),
    );
    expect((await s.t.call('GET', `/tasks/${id}`)).body.status).toBe('running');
  });

  it('a cancelled task ends with exit 1 and says the work done is kept; unknown task is 404', async () => {
    const id = await activeTask('Hydrogen trains');
    await s.t.advance(25_000);
    await s.t.call('POST', `/tasks/${id}/cancel`);
    const r = await kagent(['task', 'show', '--follow', id]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`${id}\tcancelled\t\n`);
    expect(r.stderr).toMatch(/error: task tk_\w+ was cancelled: Set up watch: Hydrogen trains \(TASK_CANCELLED\)/);
    expect(r.stderr).toMatch(/hint: work done before it was cancelled is kept/);
    const missing = await kagent(['task', 'show', '--follow', 'tk_nope']);
    expect(missing.code).toBe(4);
  });

  it('a failed task ends with exit 1 (TASK_FAILED); -f is --follow', async () => {
    const started = await s.t.call('POST', '/media', { body: { url: 'https://www.youtube.com/watch?v=broken' } });
    const r = await kagent(['task', 'show', started.body.taskId, '-f']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`^${started.body.taskId}\tfailed\tmedia md_\\w+\n$`));
    expect(r.stderr).toMatch(/error: task tk_\w+ failed at "[^"]+": .* \(TASK_FAILED\)/);
  });
});

describe('task watch: the older name of task show --follow, hidden', () => {
  it('still follows a task to its end (and `task follow` too), with the same output', async () => {
    const id = await activeTask('Tidal power');
    const r = await kagent(['task', 'watch', id]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^${id}\\tdone\\twatch tidal-power\\n$`));
    const again = await kagent(['task', 'follow', id, '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ id, status: 'done' });
  });

  it('is absent from the help of `task` and from completion; `task show --help` lists --follow', async () => {
    const help = await kagent(['task', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^ {2}show\b/m);
    expect(help.stdout).not.toMatch(/^ {2}(watch|follow)\b/m);
    expect(help.stdout).not.toContain('task watch');
    const show = await kagent(['task', 'show', '--help']);
    expect(show.stdout).toMatch(/^ {2}-f, --follow +follow the task until it ends/m);
    expect(show.stdout).toContain('kagent task show tk_3k9x8q2m7d --follow');
    for (const shell of ['bash', 'zsh', 'fish']) {
      const script = await kagent(['completion', shell]);
      expect(script.code).toBe(0);
      expect(script.stdout).toContain('task/show');
      expect(script.stdout).not.toMatch(/task\/(watch|follow)|Follow a task/);
    }
  });
});

describe('server text is sanitised', () => {
  it('task list, show and watch print no escape sequences from a task title', async () => {
    const id = await activeTask('Evil \x1b]0;pwned\x07title \x1b[2J here \x9b31m');
    for (const tty of [true, false]) {
      for (const argv of [
        ['task', 'list'],
        ['task', 'show', id],
      ]) {
        const r = await kagent(argv, { tty });
        expect(r.code).toBe(0);
        expect(r.stdout).toContain('Evil');
        expect(hasForeignEscapes(r.stdout)).toBe(false);
      }
    }
    const live = await kagent(['task', 'show', id, '--follow'], { tty: true });
    expect(live.code).toBe(0);
    // only our own cursor movements, line clearing and colours
    const ours = live.stderr.replace(/\x1b\[\d*[AJK]/g, '').replace(/\r/g, '');
    expect(hasForeignEscapes(ours)).toBe(false);
    expect(live.stderr).not.toContain('pwned\x07');
    const id2 = await activeTask('Evil \x1b]0;pwned\x07title two');
    const piped = await kagent(['task', 'show', id2, '--follow']);
    expect(piped.stderr).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
  });
});

describe('task cancel', () => {
  it('--yes cancels (piped); work already done is kept', async () => {
    const id = await activeTask('Solid state batteries');
    await s.t.advance(25_000);
    const before = (await s.t.call('GET', `/tasks/${id}`)).body;
    const doneBefore = before.milestones.filter((m: any) => m.status === 'done').map((m: any) => m.id);
    expect(doneBefore.length).toBeGreaterThan(0);
    const r = await kagent(['task', 'cancel', id, '--yes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${id}\tcancelled\n`);
    expect(r.stderr).not.toContain('✓'); // the ✓ line is for a terminal
    const after = (await s.t.call('GET', `/tasks/${id}`)).body;
    expect(after.status).toBe('cancelled');
    expect(after.milestones.filter((m: any) => m.status === 'done').map((m: any) => m.id)).toEqual(doneBefore);
  });

  it('--json prints the cancelled Task', async () => {
    const id = await activeTask('Tidal lagoons');
    const r = await kagent(['task', 'cancel', id, '--yes', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id, status: 'cancelled', kind: 'watch_setup' });
  });

  it('asks first on a terminal, naming the task; no cancels nothing', async () => {
    const id = await activeTask('Offshore grids');
    const no = await kagent(['task', 'cancel', id], { tty: true, answers: [false] });
    expect(no.code).toBe(1);
    expect(no.prompts[0]).toMatch(
      /Cancel task "Set up watch: Offshore grids" \(tk_\w+, (queued|running)\)\? Work already done is kept\./,
    );
    // declining is a choice, not an error: one word on stderr, exit 1
    expect(no.stderr.trimEnd().split('\n').at(-1)).toBe('Cancelled.');
    expect(no.stderr).not.toContain('error:');
    expect((await s.t.call('GET', `/tasks/${id}`)).body.status).not.toBe('cancelled');
    const yes = await kagent(['task', 'cancel', id], { tty: true, answers: [true] });
    expect(yes.code).toBe(0);
    expect(yes.stdout).toBe('');
    expect(plain(yes.stderr)).toMatch(
      new RegExp(`✓ Cancelled ${id}: Set up watch: Offshore grids; work already done is kept`),
    );
  });

  it('refuses without --yes when it cannot ask (exit 2), sending nothing', async () => {
    const id = await activeTask('Pumped hydro');
    const r = await kagent(['task', 'cancel', id]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`refusing to cancel task ${id} without confirmation: pass --yes`);
    expect((await s.t.call('GET', `/tasks/${id}`)).body.status).not.toBe('cancelled');
  });

  it('TASK_NOT_ACTIVE is explained (exit 5); an unknown task is 404', async () => {
    const r = await kagent(['task', 'cancel', doneTask, '--yes']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain(
      `error: task ${doneTask} is no longer active (it is done): only queued, running or waiting tasks can be cancelled (TASK_NOT_ACTIVE)`,
    );
    expect(r.stderr).toContain(
      `hint: nothing to cancel, and whatever it finished is kept: \`kagent task show ${doneTask}\``,
    );
    const json = await kagent(['task', 'cancel', doneTask, '--yes', '--json']);
    expect(json.code).toBe(5);
    expect(JSON.parse(json.stderr).error.code).toBe('TASK_NOT_ACTIVE');
    expect((await kagent(['task', 'cancel', 'tk_nope', '--yes'])).code).toBe(4);
  });

  it('every subcommand has examples in --help', async () => {
    for (const sub of ['list', 'show', 'watch', 'cancel']) {
      const r = await kagent(['task', sub, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/Examples:\n\s+\$ kagent task/);
    }
  });
});
