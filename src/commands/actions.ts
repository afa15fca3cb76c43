// `kagent actions`: changes the agent wants to make that need your approval,
// and changes already made that can be undone.
//   list     the inbox's approval filter: the actions waiting for a decision
//   approve  decideAction {approve: true, remember?}; a high-risk action (or
//            one of a risk this version does not know) is confirmed first on a
//            terminal and needs --yes elsewhere
//   reject   decideAction {approve: false}
//   undo     undoAction, for each id in the order given (a change's actionIds)
// There is no "get action" operation: an action is found among the inbox's
// approvals (then the home overview) before deciding, and among the action
// parts of your recent conversations to explain ACTION_DECIDED and
// ACTION_NOT_UNDOABLE with its current status.
import type { Context } from '../context.js';
import type { Action, InboxItem } from '../api/shapes.js';
import { ApiError, CliError, InterruptedError, UsageError } from '../errors.js';
import { defineCommand, defineGroup } from './define.js';

/** Conversations searched (most recent first) for an action's current status. */
const RECENT_CONVERSATIONS = 5;

async function command(ctx: Pick<Context, 'flags'>, words: string): Promise<string> {
  const { kagentCommand } = await import('../io/task-follow.js');
  return kagentCommand(ctx, words);
}

function iso(ms: unknown): string {
  return typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString() : ms === undefined || ms === null ? '' : String(ms);
}

/** Risks that need no confirmation; `high` and any value this version does not know do. */
export function needsConfirmation(risk: unknown): boolean {
  return risk !== 'low' && risk !== 'medium';
}

/** The pending actions, in inbox order, as the approval filter lists them. */
async function* pendingActions(ctx: Context, options: { limit?: number; all?: boolean }): AsyncIterable<Action> {
  const api = await ctx.api();
  const items = api.paginate('listInbox', { query: { filter: 'approval' }, signal: ctx.signal }, { all: options.all || options.limit !== undefined });
  let count = 0;
  for await (const item of items as AsyncIterable<InboxItem>) {
    const action = item.action;
    if (!action || (action.status !== undefined && action.status !== 'pending')) continue;
    yield action;
    if (options.limit !== undefined && ++count >= options.limit) return;
  }
}

/** A pending action by id: among the inbox's approvals, then the home overview's actions waiting. */
async function findPending(ctx: Context, id: string): Promise<Action | undefined> {
  for await (const action of pendingActions(ctx, { all: true })) if (action.id === id) return action;
  const home = await (await ctx.api()).call('getHome', { signal: ctx.signal });
  return (home.actions ?? []).find((action) => action.id === id);
}

/** An action's current state from the action parts of recent conversations (best effort, for explaining errors). */
async function locateAction(ctx: Context, id: string, conversationId?: string | null): Promise<Action | undefined> {
  const api = await ctx.api();
  try {
    const ids: string[] = conversationId ? [conversationId] : [];
    const recent = await api.call('listConversations', { query: { limit: RECENT_CONVERSATIONS }, signal: ctx.signal });
    for (const c of recent.items) if (!ids.includes(c.id)) ids.push(c.id);
    for (const cid of ids) {
      const page = await api.call('getConversationMessages', { params: { id: cid }, signal: ctx.signal });
      for (const message of [...(page.messages ?? [])].reverse()) {
        for (const part of message.parts ?? []) {
          if (part?.type === 'action' && part.action?.id === id) return part.action;
        }
      }
    }
  } catch (error) {
    if (ctx.signal.aborted) throw new InterruptedError();
    void error;
  }
  return undefined;
}

async function notFoundHint(ctx: Context, error: unknown, id: string): Promise<unknown> {
  if (error instanceof ApiError && error.status === 404 && !error.hint) {
    error.hint = `no action "${id}": \`${await command(ctx, 'actions list')}\` shows the ones waiting for you`;
  }
  return error;
}

/** ACTION_DECIDED with the action's current status and what can still be done about it. */
async function explainDecideError(ctx: Context, error: unknown, id: string): Promise<unknown> {
  if (!(error instanceof ApiError) || error.code !== 'ACTION_DECIDED') return notFoundHint(ctx, error, id);
  const current = await locateAction(ctx, id);
  const { getFormatter } = await import('../io/output.js');
  const { sanitizeLine } = await import('../io/sanitize.js');
  const f = await getFormatter(ctx, 'stderr');
  const status = current?.status;
  const undoUntil = typeof current?.undoUntil === 'number' ? current.undoUntil : null;
  let hint: string;
  switch (status) {
    case 'executed':
      hint =
        undoUntil !== null && undoUntil >= ctx.clock.now()
          ? `it has run; undo it with \`${await command(ctx, `actions undo ${id}`)}\` (until ${f.time(undoUntil)})`
          : 'it has run, and its undo window has closed';
      break;
    case 'approved':
      hint = 'it was approved and is running now';
      break;
    case 'rejected':
      hint = 'it was rejected and nothing was done: ask the agent again if you changed your mind';
      break;
    case 'expired':
      hint = 'it waited too long for a decision and expired: ask the agent again';
      break;
    case 'failed':
      hint = 'it was approved but failed when it ran';
      break;
    case 'undone':
      hint = 'it ran and was undone';
      break;
    default:
      hint = `the service says: ${sanitizeLine(error.message)}; \`${await command(ctx, 'actions list')}\` shows the actions still waiting`;
  }
  return new CliError(`action ${id} was already decided${status ? `: it is ${sanitizeLine(status)}` : ''}`, { exitCode: error.exitCode, code: error.code, hint, cause: error });
}

/** ACTION_NOT_UNDOABLE: the window passed, or the action never ran. */
async function explainUndoError(ctx: Context, error: unknown, id: string): Promise<unknown> {
  if (!(error instanceof ApiError) || error.code !== 'ACTION_NOT_UNDOABLE') return notFoundHint(ctx, error, id);
  const current = await locateAction(ctx, id);
  const { getFormatter } = await import('../io/output.js');
  const { sanitizeLine } = await import('../io/sanitize.js');
  const f = await getFormatter(ctx, 'stderr');
  const undoUntil = typeof current?.undoUntil === 'number' ? current.undoUntil : null;
  let message: string;
  if (current?.status === 'executed' && undoUntil !== null && undoUntil < ctx.clock.now()) {
    message = `action ${id} can no longer be undone: its undo window closed ${f.time(undoUntil)}`;
  } else if (current && current.status !== 'executed') {
    message = `action ${id} cannot be undone: it is ${sanitizeLine(current.status)}, and only an action that has run can be undone`;
  } else {
    message = `action ${id} cannot be undone: its undo window has passed or it has not run (the service says: ${sanitizeLine(error.message)})`;
  }
  return new CliError(message, {
    exitCode: error.exitCode,
    code: error.code,
    hint: 'undo is possible only for a short while after an action runs; to reverse it now, ask the agent (`kagent chat`) or change it yourself',
    cause: error,
  });
}

// ---------------------------------------------------------------- list

const list = defineCommand<{ limit?: number; all?: boolean }>({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the actions waiting for your decision',
  description: 'Piped, each row is: id, risk, tool, title, conversation id, task id, created (ISO 8601), rule scope. --json prints the Actions.',
  options: [
    { flags: '-L, --limit <n>', description: 'at most this many (default: the first page)', type: 'integer', min: 1 },
    { flags: '--all', description: 'every action waiting, following every page' },
  ],
  examples: ['kagent actions list', 'kagent actions list --json | jq -r ".[] | select(.risk == \\"low\\") | .id"', 'kagent actions list | cut -f1'],
  async run(ctx, opts) {
    if (opts.all && opts.limit !== undefined) throw new UsageError('use --limit or --all, not both');
    const { printList, note } = await import('../io/output.js');
    const { riskText } = await import('../io/chat.js');
    const count = await printList<Action>(ctx, pendingActions(ctx, opts), {
      empty: 'No actions are waiting for your decision.',
      columns: [
        { header: 'Id', value: (a) => a.id },
        { header: 'Risk', value: (a) => a.risk, display: (a, f) => riskText(a.risk, f) },
        { header: 'Tool', value: (a) => a.tool },
        { header: 'Title', value: (a) => a.title, flex: true },
        { header: 'For', value: (a) => (a.taskId ? `task ${a.taskId}` : (a.conversationId ?? '')), only: 'tty' },
        { header: 'Conversation', value: (a) => a.conversationId, only: 'plain' },
        { header: 'Task', value: (a) => a.taskId, only: 'plain' },
        { header: 'Created', value: (a) => iso(a.createdAt), kind: 'time' },
        { header: 'Rule scope', value: (a) => a.ruleScope, only: 'plain' },
      ],
    });
    if (count > 0 && ctx.io.stdoutIsTTY && !ctx.flags.json && ctx.flags.jq === undefined) {
      const approveCmd = await command(ctx, 'actions approve ID');
      const rejectCmd = await command(ctx, 'actions reject ID');
      await note(ctx, (f) => f.dim(`decide: ${approveCmd} or ${rejectCmd} (--remember allows that kind from now on)`));
    }
  },
});

// ---------------------------------------------------------------- approve / reject

async function decide(ctx: Context, id: string, approve: boolean, remember: boolean): Promise<void> {
  const api = await ctx.api();
  const { note, printItem, success, warn } = await import('../io/output.js');
  const { sanitizeLine } = await import('../io/sanitize.js');
  const known = approve ? await findPending(ctx, id) : undefined;
  if (approve && known && needsConfirmation(known.risk) && !ctx.flags.yes) {
    if (ctx.io.canPrompt) {
      const { renderAction } = await import('../io/chat.js');
      const { getFormatter } = await import('../io/output.js');
      const { sanitizeDeep } = await import('../io/sanitize.js');
      const f = await getFormatter(ctx, 'stderr');
      await note(ctx, () => renderAction(ctx, sanitizeDeep(known) as unknown as Record<string, unknown>, f, { commands: false }));
    }
    const { confirmOrYes } = await import('../io/prompt.js');
    await confirmOrYes(ctx, {
      message: `Approve this ${known.risk === 'high' ? 'high-risk' : `${sanitizeLine(String(known.risk))}-risk`} action: ${sanitizeLine(known.title)}?`,
      action: `approve the ${known.risk === 'high' ? 'high-risk' : 'unknown-risk'} action ${id}`,
    });
  }
  if (approve && remember && known && !known.ruleScope) {
    await warn(ctx, `--remember has no effect here: "${sanitizeLine(known.title)}" is not a kind of action that can be allowed from now on`);
  }
  let decided: Action;
  try {
    decided = await api.call('decideAction', { params: { id }, body: { approve, ...(remember ? { remember: true } : {}) }, signal: ctx.signal });
  } catch (error) {
    throw await explainDecideError(ctx, error, id);
  }
  await printItem(ctx, decided, (a, f) => (f.tty ? '' : `${a.id}\t${a.status}`));
  const title = sanitizeLine(decided.title ?? id);
  if (!approve) {
    await success(ctx, `Rejected: ${title} (${id}); nothing was done`);
    return;
  }
  await success(ctx, `Approved: ${title} (${id}); it runs in the background`);
  if (remember && decided.ruleScope) await note(ctx, `from now on, actions of this kind (${sanitizeLine(decided.ruleScope)}) are approved without asking`);
  if (decided.taskId) await note(ctx, `its task goes on: ${await command(ctx, `task watch ${decided.taskId}`)}`);
  else if (decided.conversationId) await note(ctx, `the agent carries on in the conversation: ${await command(ctx, `conversation show ${decided.conversationId} --follow`)}`);
}

const approve = defineCommand<{ remember?: boolean }, { id: string }>({
  name: 'approve',
  summary: 'Approve an action: it runs in the background',
  description:
    'A high-risk action (a deletion, for instance) is shown and confirmed first on a terminal; elsewhere it needs --yes (exit 2 without). ' +
    'An action whose risk this version does not know is treated as high-risk. Low- and medium-risk actions are approved at once. ' +
    'Piped, prints the id and the new status; --json prints the Action. Deciding an action twice is exit 5 (ACTION_DECIDED), with its current status.',
  arguments: [{ name: 'id', description: 'the action' }],
  options: [{ flags: '--remember', description: 'allow this kind of action from now on (when the action has a rule scope)' }],
  examples: ['kagent actions approve ac_3k9x0q2m', 'kagent actions approve ac_3k9x0q2m --remember', 'kagent actions approve ac_7h1v2c9d --yes --json'],
  async run(ctx, opts, args) {
    await decide(ctx, args.id, true, opts.remember === true);
  },
});

const reject = defineCommand<Record<string, never>, { id: string }>({
  name: 'reject',
  summary: 'Reject an action: nothing is done',
  description: 'Piped, prints the id and the new status; --json prints the Action. Deciding an action twice is exit 5 (ACTION_DECIDED), with its current status.',
  arguments: [{ name: 'id', description: 'the action' }],
  examples: ['kagent actions reject ac_3k9x0q2m', 'kagent actions list | cut -f1 | xargs -n1 kagent actions reject'],
  async run(ctx, _opts, args) {
    await decide(ctx, args.id, false, false);
  },
});

// ---------------------------------------------------------------- undo

const undo = defineCommand<Record<string, never>, { ids: string[] }>({
  name: 'undo',
  summary: 'Undo actions that ran, within their undo window',
  description:
    'Undoes each action in the order given (a change lists its actions in the order that reverts it) and stops at the first that fails. ' +
    'Exit 5 (ACTION_NOT_UNDOABLE) when the undo window has passed or the action has not run. ' +
    'Piped, prints each id and its new status; --json prints an array of the Actions undone.',
  arguments: [{ name: 'ids', description: 'one or more actions', variadic: true }],
  examples: ['kagent actions undo ac_3k9x0q2m', 'kagent actions undo ac_2 ac_1', 'kagent actions undo ac_3k9x0q2m --json'],
  async run(ctx, _opts, args) {
    const api = await ctx.api();
    const { printJson, success, wantsJson } = await import('../io/output.js');
    const { emit } = await import('../io/streams.js');
    const { sanitizeLine } = await import('../io/sanitize.js');
    const done: Action[] = [];
    let failure: unknown;
    for (const id of args.ids) {
      if (ctx.signal.aborted) throw new InterruptedError();
      try {
        const action = await api.call('undoAction', { params: { id }, signal: ctx.signal });
        done.push(action);
        if (!wantsJson(ctx)) {
          if (!ctx.io.stdoutIsTTY) await emit(ctx.io.stdout, `${sanitizeLine(action.id)}\t${sanitizeLine(action.status)}\n`);
          await success(ctx, `Undone: ${sanitizeLine(action.title ?? id)} (${id})`);
        }
      } catch (error) {
        failure = await explainUndoError(ctx, error, id);
        break;
      }
    }
    if (wantsJson(ctx)) await printJson(ctx, done);
    if (failure) {
      const left = args.ids.slice(done.length + 1);
      if (failure instanceof CliError && left.length > 0) failure.hint = `${failure.hint ? `${failure.hint}. ` : ''}Not tried: ${left.join(' ')}`;
      throw failure;
    }
  },
});

export default defineGroup({
  name: 'actions',
  summary: "Approve, reject and undo the agent's actions",
  description: 'The agent asks before it changes things (creating a document, deleting, setting up a watch). Decide here; an action that ran can be undone for a short while.',
  examples: ['kagent actions list', 'kagent actions approve ac_3k9x0q2m', 'kagent actions undo ac_3k9x0q2m'],
  commands: [list, approve, reject, undo],
});
