// `kagent actions list/approve/reject/undo` against the sandbox, time driven
// by the sandbox clock: terminal, piped and --json modes; approve → executed →
// undo (and the document really comes and goes); a high-risk action confirmed
// on a terminal and refused without --yes elsewhere; --remember; the
// service's refusals explained with the action's current status:
// ACTION_DECIDED → 5, ACTION_NOT_UNDOABLE → 5 (after the undo window, by
// advancing the sandbox clock), 404 → 4.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedInSandbox, type LoggedIn } from '../helpers/logged-in.js';
import { runCli, type RunCliOptions } from '../helpers/run.js';
import { sandboxClock, type SandboxClock } from '../helpers/sandbox-clock.js';

let s: LoggedIn;
let clock: SandboxClock;

const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');
const MINUTE = 60_000;

function kagent(argv: string[], options: RunCliOptions = {}) {
  return s.kagent(argv, { clock, ...options });
}

/** Sends a message and lets the turn end; returns the conversation and the action its reply proposes. */
async function propose(text: string, key?: string): Promise<{ conversationId: string; action: any }> {
  const res = await s.t.call('POST', '/conversations/messages', { body: { text }, ...(key ? { key } : {}) });
  expect(res.status).toBe(202);
  await s.t.advance(5_000);
  const page = (await s.t.call('GET', `/conversations/${res.body.conversationId}/messages`, key ? { key } : {})).body;
  const part = page.messages.at(-1).parts.find((p: any) => p.type === 'action');
  expect(part).toBeDefined();
  return { conversationId: res.body.conversationId, action: part.action };
}

async function docs(): Promise<string[]> {
  return (await s.t.call('GET', '/docs')).body.items.map((d: any) => d.title);
}

async function actionNow(conversationId: string, id: string): Promise<any> {
  const page = (await s.t.call('GET', `/conversations/${conversationId}/messages`)).body;
  for (const m of page.messages)
    for (const p of m.parts) if (p.type === 'action' && p.action.id === id) return p.action;
  return undefined;
}

beforeAll(async () => {
  s = await loggedInSandbox();
  clock = sandboxClock(s.t);
  await s.t.patchAccount(s.t.sandbox.accountId, { limits: { watchesPerMonth: 1000 } });
  await s.t.call('POST', '/docs', {
    body: { title: 'Sourdough starter', markdown: 'Feed the sourdough starter daily with flour and water.' },
  });
});
afterAll(() => s.close());

describe('actions list', () => {
  it('the actions waiting, newest first: terminal table, piped rows, --json; empty says so', async () => {
    const fresh = await s.t.newAccount();
    const env = { KAGENT_BASE_URL: s.t.baseUrl, KAGENT_API_KEY: fresh.apiKey };
    const empty = await runCli(['actions', 'list'], { tty: true, env });
    expect(empty.code).toBe(0);
    expect(empty.stderr).toContain('No actions are waiting for your decision.');
    expect((await runCli(['actions', 'list', '--json'], { env })).stdout).toBe('[]\n');

    const a = await propose('Create a doc about bread baking');
    const b = await propose('Please watch sourdough prices');
    const json = JSON.parse((await kagent(['actions', 'list', '--json'])).stdout);
    expect(json.map((x: any) => x.id)).toEqual([b.action.id, a.action.id]);
    expect(json[0]).toEqual({ ...b.action, status: 'pending' });

    const piped = await kagent(['actions', 'list']);
    const rows = piped.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows[1]).toEqual([
      a.action.id,
      'low',
      'create_doc',
      a.action.title,
      a.conversationId,
      '',
      new Date(a.action.createdAt).toISOString(),
      'docs.create',
    ]);

    // Wide enough for every column (narrower, a CREATED the same in every row goes first).
    const tty = await kagent(['actions', 'list'], { tty: true, columns: 200 });
    const out = plain(tty.stdout);
    expect(out).toMatch(/ID\s+RISK\s+TOOL\s+TITLE\s+FOR\s+CREATED/);
    expect(out).toMatch(new RegExp(`${b.action.id}\\s+medium\\s+create_watch\\s+Set up a watch`));
    expect(plain(tty.stderr)).toContain('decide: kagent actions approve ID or kagent actions reject ID');
    expect((await kagent(['actions', 'list', '--limit', '1', '--json'])).stdout).toContain(b.action.id);
    expect(JSON.parse((await kagent(['actions', 'list', '--limit', '1', '--json'])).stdout)).toHaveLength(1);
    expect((await kagent(['actions', 'list', '--limit', '1', '--all'])).code).toBe(2);

    // Clean up: decide both so later tests start from nothing waiting.
    await s.t.call('POST', `/actions/${a.action.id}/decide`, { body: { approve: false } });
    await s.t.call('POST', `/actions/${b.action.id}/decide`, { body: { approve: false } });
  });
});

describe('approve → executed → undo', () => {
  it('approve (piped): the id and status; it runs; undo removes what it made; undo again is exit 5', async () => {
    const { conversationId, action } = await propose('Create a doc about rye bread');
    expect(action).toMatchObject({ tool: 'create_doc', risk: 'low', status: 'pending' });
    const r = await kagent(['actions', 'approve', action.id]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${action.id}\tapproved\n`);
    expect(r.stderr).not.toContain('Approved:'); // the ✓ line is for a terminal
    expect(r.stderr).toContain(
      `the agent carries on in the conversation: \`kagent conversation show ${conversationId} --follow\``,
    );

    await s.t.advance(3_000);
    const executed = await actionNow(conversationId, action.id);
    expect(executed.status).toBe('executed');
    const title = action.preview.title;
    expect(await docs()).toContain(title);
    // The agent's follow-up shows the change with the command that undoes it.
    const shown = plain((await kagent(['conversation', 'show', conversationId], { tty: true })).stdout);
    expect(shown).toMatch(new RegExp(`\\+ created doc “${title}” \\(doc_\\w+\\)`));
    expect(shown).toMatch(new RegExp(`undo \\(until in 10 minutes\\): kagent actions undo ${action.id}`));
    expect(shown).toMatch(new RegExp(`✓ Done: Create the document .* \\(risk low, create_doc, ${action.id}\\)`));

    const undo = await kagent(['actions', 'undo', action.id, '--json']);
    expect(undo.code).toBe(0);
    const undone = JSON.parse(undo.stdout);
    expect(undone).toHaveLength(1);
    expect(undone[0]).toMatchObject({ id: action.id, status: 'undone' });
    expect(await docs()).not.toContain(title);

    const again = await kagent(['actions', 'undo', action.id]);
    expect(again.code).toBe(5);
    expect(again.stderr).toContain(
      `error: action ${action.id} cannot be undone: it is undone, and only an action that has run can be undone (ACTION_NOT_UNDOABLE)`,
    );

    const decided = await kagent(['actions', 'approve', action.id]);
    expect(decided.code).toBe(5);
    expect(decided.stderr).toContain(`error: action ${action.id} was already decided: it is undone (ACTION_DECIDED)`);
    expect(decided.stderr).toContain('hint: it ran and was undone');
  });

  it('terminal and --json: approve prints the Action; ACTION_DECIDED while it runs and once it ran (with the undo command)', async () => {
    const { action } = await propose('Create a doc about spelt flour');
    const tty = await kagent(['actions', 'approve', action.id], { tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toBe('');
    expect(plain(tty.stderr)).toContain(`✓ Approved: ${action.title} (${action.id})`);
    const running = await kagent(['actions', 'reject', action.id]);
    expect(running.code).toBe(5);
    expect(running.stderr).toContain('it is approved (ACTION_DECIDED)');
    expect(running.stderr).toContain('hint: it was approved and is running now');
    await s.t.advance(3_000);
    const ran = await kagent(['actions', 'approve', action.id, '--json']);
    expect(ran.code).toBe(5);
    const envelope = JSON.parse(ran.stderr);
    expect(envelope.error.code).toBe('ACTION_DECIDED');
    expect(envelope.error.hint).toMatch(new RegExp(`undo it with \`kagent actions undo ${action.id}\``));

    const other = await propose('Create a doc about barley');
    const json = await kagent(['actions', 'approve', other.action.id, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ id: other.action.id, status: 'approved', tool: 'create_doc' });
  });

  it('undo after the window (sandbox clock moved past it): exit 5, the window closed', async () => {
    const { action } = await propose('Create a doc about millet');
    await kagent(['actions', 'approve', action.id]);
    await s.t.advance(3_000);
    await s.t.advance(11 * MINUTE);
    const r = await kagent(['actions', 'undo', action.id]);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(
      new RegExp(
        `error: action ${action.id} can no longer be undone: its undo window closed \\S.* \\(ACTION_NOT_UNDOABLE\\)`,
      ),
    );
    expect(r.stderr).toContain('hint: undo is possible only for a short while after an action runs');
    expect(await docs()).toContain(action.preview.title);
  });

  it('undo of several ids goes in order and stops at the first failure', async () => {
    const one = await propose('Create a doc about oats');
    const two = await propose('Create a doc about quinoa');
    await s.t.call('POST', `/actions/${one.action.id}/decide`, { body: { approve: true } });
    await s.t.call('POST', `/actions/${two.action.id}/decide`, { body: { approve: true } });
    await s.t.advance(3_000);
    const pending = await propose('Create a doc about teff');
    const r = await kagent(['actions', 'undo', two.action.id, pending.action.id, one.action.id]);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe(`${two.action.id}\tundone\n`);
    expect(r.stderr).toContain(`action ${pending.action.id} cannot be undone: it is pending`);
    expect(r.stderr).toContain(`Not tried: ${one.action.id}`);
    expect(await docs()).toContain(one.action.preview.title);
    expect(await docs()).not.toContain(two.action.preview.title);
    await s.t.call('POST', `/actions/${pending.action.id}/decide`, { body: { approve: false } });
  });

  it('an unknown action is exit 4 with a hint, for approve, reject and undo', async () => {
    for (const verb of ['approve', 'reject', 'undo']) {
      const r = await kagent(['actions', verb, 'ac_nope']);
      expect(r.code, verb).toBe(4);
      expect(r.stderr).toContain('(ACTION_NOT_FOUND)');
      expect(r.stderr).toContain('hint: no action "ac_nope": `kagent actions list` shows the ones waiting for you');
    }
  });
});

describe('reject', () => {
  it('rejects (piped and terminal); nothing is done', async () => {
    const { conversationId, action } = await propose('Create a doc about einkorn');
    const r = await kagent(['actions', 'reject', action.id]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${action.id}\trejected\n`);
    expect(r.stderr).not.toContain('Rejected:'); // the ✓ line is for a terminal
    await s.t.advance(3_000);
    expect((await actionNow(conversationId, action.id)).status).toBe('rejected');
    expect(await docs()).not.toContain(action.preview.title);
    const again = await kagent(['actions', 'reject', action.id], { tty: true });
    expect(again.code).toBe(5);
    expect(plain(again.stderr)).toContain('it is rejected (ACTION_DECIDED)');
  });
});

describe('high-risk actions', () => {
  it('piped without --yes: exit 2 and nothing decided; a terminal shows it and asks; --yes approves', async () => {
    const { conversationId, action } = await propose('Please delete the sourdough starter doc');
    expect(action).toMatchObject({ risk: 'high', tool: 'delete_doc' });

    const refused = await kagent(['actions', 'approve', action.id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `refusing to approve the high-risk action ${action.id} without confirmation: pass --yes`,
    );
    expect((await actionNow(conversationId, action.id)).status).toBe('pending');

    const no = await kagent(['actions', 'approve', action.id], { tty: true, answers: [false] });
    expect(no.code).toBe(1);
    expect(no.prompts).toEqual([`Approve this high-risk action: ${action.title}?`]);
    expect(plain(no.stderr)).toContain(
      `⏸ Waiting for your approval: ${action.title} (risk high, delete_doc, ${action.id})`,
    );
    expect(plain(no.stderr)).toContain('title: Sourdough starter');
    // Shown to be decided right here: not the commands that decide it.
    expect(plain(no.stderr)).not.toContain('approve: kagent actions approve');
    expect((await actionNow(conversationId, action.id)).status).toBe('pending');

    const yes = await kagent(['actions', 'approve', action.id], { tty: true, answers: [true] });
    expect(yes.code).toBe(0);
    await s.t.advance(3_000);
    expect((await actionNow(conversationId, action.id)).status).toBe('executed');
    expect(await docs()).not.toContain('Sourdough starter');
    // Undo brings it back.
    expect((await kagent(['actions', 'undo', action.id])).code).toBe(0);
    expect(await docs()).toContain('Sourdough starter');

    const second = await propose('Please delete the sourdough starter doc');
    const withYes = await kagent(['actions', 'approve', second.action.id, '--yes']);
    expect(withYes.code).toBe(0);
    expect(withYes.stdout).toBe(`${second.action.id}\tapproved\n`);
    await s.t.advance(3_000);
    await kagent(['actions', 'undo', second.action.id]);
  });

  it('low and medium risk need no confirmation, even piped', async () => {
    const { action } = await propose('Please watch rye prices');
    expect(action.risk).toBe('medium');
    const r = await kagent(['actions', 'approve', action.id]);
    expect(r.code).toBe(0);
    await s.t.advance(3_000);
  });
});

describe('--remember', () => {
  it('allows that kind of action from now on: the next one runs without asking', async () => {
    const other = await s.t.newAccount();
    const env = { KAGENT_BASE_URL: s.t.baseUrl, KAGENT_API_KEY: other.apiKey };
    const { action } = await propose('Create a doc about buckwheat', other.apiKey);
    const r = await runCli(['actions', 'approve', action.id, '--remember'], { env, clock });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('from now on, actions of this kind (docs.create) are approved without asking');
    await s.t.advance(3_000);
    const next = await propose('Create a doc about sorghum', other.apiKey);
    expect(next.action.status).toBe('executed');
    expect((await runCli(['actions', 'list', '--json'], { env })).stdout).toBe('[]\n');
  });

  it('on an action without a rule scope it warns that it has no effect', async () => {
    const { action } = await propose('Please delete the sourdough starter doc');
    expect(action.ruleScope).toBeNull();
    const r = await kagent(['actions', 'approve', action.id, '--remember', '--yes']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning: --remember has no effect here');
    await s.t.advance(3_000);
    await kagent(['actions', 'undo', action.id]);
  });
});
