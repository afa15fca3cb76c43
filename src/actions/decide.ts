// Deciding and undoing the agent's actions, as `kagent actions approve/reject/undo`
// and the chat REPL (inline, and /approve, /reject, /undo) both do: the pending
// actions, an action's current state, the confirmation of high-risk ones, and
// errors that say what became of the action.
import type { Context } from '../context.js';
import type { Action, InboxItem } from '../api/shapes.js';
import { ApiError, CliError, throwIfAborted } from '../errors.js';
import { kagentCommand } from '../io/command-line.js';
import { notFoundHint } from '../io/not-found.js';
import { getFormatter, note, success, warn } from '../io/output.js';
import { sanitizeLine, sanitizeDeep } from '../io/sanitize.js';
import { confirmOrYes } from '../io/prompt.js';
import { listing, type Listing, type ListingState } from '../http/paginate.js';
import { renderAction } from '../views/chat.js';
import { replayNote } from '../api/replay.js';
import { serviceNow } from '../http/service-clock.js';
import { printDone } from '../io/outcome.js';

/** Conversations searched (most recent first) for an action's current status. */
const RECENT_CONVERSATIONS = 5;

/** Risks that need no confirmation; `high` and any value this version does not know do. */
function needsConfirmation(risk: unknown): boolean {
  return risk !== 'low' && risk !== 'medium';
}

/** The pending actions, in inbox order, as the approval filter lists them. */
export function pendingActions(ctx: Context, options: { limit?: number; all?: boolean }): Listing<Action> {
  const state = { cut: false, onePage: !options.all && options.limit === undefined };
  return listing(pending(ctx, options, state), state);
}

/** The pending actions; `state.cut` once more are known to wait (the first page's cursor, or one past --limit). */
async function* pending(
  ctx: Context,
  options: { limit?: number; all?: boolean },
  state: ListingState,
): AsyncGenerator<Action> {
  const api = await ctx.api();
  const items = api.paginate(
    'listInbox',
    { query: { filter: 'approval' }, signal: ctx.signal },
    { all: options.all || options.limit !== undefined },
  );
  let count = 0;
  for await (const item of items as AsyncIterable<InboxItem>) {
    const action = item.action;
    if (!action || (action.status !== undefined && action.status !== 'pending')) continue;
    if (options.limit !== undefined && count >= options.limit) {
      state.cut = true;
      return;
    }
    yield action;
    count++;
  }
  state.cut = items.cut;
}

/** A pending action by id: among the inbox's approvals, then the home overview's actions waiting. */
async function findPending(ctx: Context, id: string): Promise<Action | undefined> {
  for await (const action of pendingActions(ctx, { all: true })) if (action.id === id) return action;
  const home = await (await ctx.api()).call('getHome', { signal: ctx.signal });
  return (home.actions ?? []).find((action) => action.id === id);
}

/** An action's current state from the action parts of recent conversations (best effort, for explaining errors). */
export async function locateAction(
  ctx: Context,
  id: string,
  conversationId?: string | null,
): Promise<Action | undefined> {
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
    throwIfAborted(ctx.signal);
    void error;
  }
  return undefined;
}

/** ACTION_DECIDED with the action's current status and what can still be done about it. */
async function explainDecideError(ctx: Context, error: unknown, id: string): Promise<unknown> {
  if (!(error instanceof ApiError) || error.code !== 'ACTION_DECIDED') return notFoundHint(ctx, error, 'action', id);
  const current = await locateAction(ctx, id);
  const f = await getFormatter(ctx, 'stderr');
  const status = current?.status;
  const undoUntil = typeof current?.undoUntil === 'number' ? current.undoUntil : null;
  let hint: string;
  switch (status) {
    case 'executed':
      hint =
        undoUntil !== null && undoUntil >= serviceNow(ctx)
          ? `it has run; undo it with \`${kagentCommand(ctx, 'actions undo', id)}\` (until ${f.time(undoUntil)})`
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
      hint = `the service says: ${sanitizeLine(error.message)}; \`${kagentCommand(ctx, 'actions list')}\` shows the actions still waiting`;
  }
  return new CliError(`action ${id} was already decided${status ? `: it is ${sanitizeLine(status)}` : ''}`, {
    exitCode: error.exitCode,
    code: error.code,
    hint,
    cause: error,
  });
}

// ---------------------------------------------------------------- approve / reject

/**
 * Approves or rejects an action, as `kagent actions approve/reject` and the chat REPL do:
 * a high-risk one (or one of a risk this version does not know) is shown and confirmed
 * first (or needs --yes); with `print`, the decided Action goes to stdout (--json, piped).
 */
export async function decideAction(
  ctx: Context,
  id: string,
  approve: boolean,
  remember: boolean,
  options: { print: boolean; idempotencyKey?: string } = { print: true },
): Promise<Action> {
  const api = await ctx.api();
  const known = approve ? await findPending(ctx, id) : undefined;
  if (approve && known && needsConfirmation(known.risk) && !ctx.flags.yes) {
    if (ctx.io.canPrompt) {
      const f = await getFormatter(ctx, 'stderr');
      await note(ctx, () =>
        renderAction(ctx, sanitizeDeep(known) as unknown as Record<string, unknown>, f, { commands: false }),
      );
    }
    await confirmOrYes(ctx, {
      message: `Approve this ${known.risk === 'high' ? 'high-risk' : `${sanitizeLine(String(known.risk))}-risk`} action: ${sanitizeLine(known.title)}?`,
      action: `approve the ${known.risk === 'high' ? 'high-risk' : 'unknown-risk'} action ${id}`,
    });
  }
  if (approve && remember && known && !known.ruleScope) {
    await warn(
      ctx,
      `--remember has no effect here: "${sanitizeLine(known.title)}" is not a kind of action that can be allowed from now on`,
    );
  }
  let decided: Action;
  let answer: { replayed: boolean; unanswered: number };
  try {
    const result = await api.callFull('decideAction', {
      params: { id },
      body: { approve, ...(remember ? { remember: true } : {}) },
      idempotencyKey: options.idempotencyKey,
      signal: ctx.signal,
    });
    decided = result.body;
    answer = result;
  } catch (error) {
    throw await explainDecideError(ctx, error, id);
  }
  if (options.print) await printDone(ctx, decided, { piped: (a) => `${a.id}\t${a.status}` });
  const replay = replayNote(
    answer,
    options.idempotencyKey,
    `${approve ? 'approved' : 'rejected'} action ${id}`,
    'nothing was decided again',
  );
  if (replay) {
    await note(ctx, replay);
    return decided;
  }
  const title = sanitizeLine(decided.title ?? id);
  if (!approve) {
    await success(ctx, `Rejected: ${title} (${id}); nothing was done`);
    return decided;
  }
  await success(ctx, `Approved: ${title} (${id}); it runs in the background`);
  if (remember && decided.ruleScope)
    await note(
      ctx,
      `from now on, actions of this kind (${sanitizeLine(decided.ruleScope)}) are approved without asking`,
    );
  if (decided.taskId)
    await note(ctx, `its task goes on: \`${kagentCommand(ctx, 'task show', decided.taskId, '--follow')}\``);
  else if (decided.conversationId && options.print)
    await note(
      ctx,
      `the agent carries on in the conversation: \`${kagentCommand(ctx, 'conversation show', decided.conversationId, '--follow')}\``,
    );
  return decided;
}

/** ACTION_NOT_UNDOABLE: the window passed, or the action never ran. */
async function explainUndoError(ctx: Context, error: unknown, id: string): Promise<unknown> {
  if (!(error instanceof ApiError) || error.code !== 'ACTION_NOT_UNDOABLE')
    return notFoundHint(ctx, error, 'action', id);
  const current = await locateAction(ctx, id);
  const f = await getFormatter(ctx, 'stderr');
  const undoUntil = typeof current?.undoUntil === 'number' ? current.undoUntil : null;
  let message: string;
  if (current?.status === 'executed' && undoUntil !== null && undoUntil < serviceNow(ctx)) {
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

/** Undoes one action that ran; an error says why it cannot be (the window passed, it never ran). */
export async function undoAction(ctx: Context, id: string): Promise<Action> {
  const api = await ctx.api();
  try {
    return await api.call('undoAction', { params: { id }, signal: ctx.signal });
  } catch (error) {
    throw await explainUndoError(ctx, error, id);
  }
}
