// Action state: changes the agent wants to make that need approval, and changes
// already made that can be undone.
//   pending --approve--> approved --(2 s)--> executed | failed
//   pending --reject--> rejected;  pending --(24 h undecided)--> expired
//   executed --undo within 10 min of execution--> undone
// Deciding a decided action is 409 ACTION_DECIDED; undoing anything but an
// executed action inside its window is 409 ACTION_NOT_UNDOABLE. Approving with
// `remember: true` records the action's ruleScope: later actions of that scope
// are approved (and executed) at once. What an action does is in executors.ts;
// after it runs, the agent adds a short follow-up message to the conversation
// (which is `running` until then). The routes are in routes/actions.ts.
import type * as S from '../../api/shapes.js';
import { appendAssistantMessage, endRunning, findConversation } from '../conversations/model.js';
import { addInbox, closeApproval } from '../inbox/model.js';
import { HttpFail, type Account, type ActionRecord, type ScheduledEvent } from '../types.js';
import type { World } from '../world.js';
import { executors } from './executors.js';
import { EXECUTE_MS, EXPIRE_MS, UNDO_WINDOW_MS } from './times.js';

export { EXECUTE_MS, EXPIRE_MS, UNDO_WINDOW_MS };

export interface NewAction {
  tool: string;
  risk: S.Action['risk'];
  title: string;
  preview: Record<string, unknown> | null;
  ruleScope: string | null;
  conversationId: string | null;
  taskId: string | null;
  /** What the executor needs. */
  execute: Record<string, unknown>;
}

export function findAction(account: Account, id: string): ActionRecord | undefined {
  return account.actions.find((a) => a.id === id);
}

/**
 * Proposes an action. When the account has a rule for its scope it is approved
 * and executed at once (the result says so); otherwise it waits, with an inbox
 * item, and expires after EXPIRE_MS.
 */
export function proposeAction(
  world: World,
  account: Account,
  init: NewAction,
): { action: ActionRecord; change: S.ArtifactChange | null; text: string | null } {
  const action: ActionRecord = {
    id: world.id('ac'),
    tool: init.tool,
    risk: init.risk,
    title: init.title,
    status: 'pending',
    preview: init.preview,
    ruleScope: init.ruleScope,
    undoUntil: null,
    conversationId: init.conversationId,
    taskId: init.taskId,
    createdAt: world.now(),
    _execute: init.execute,
  };
  account.actions.push(action);
  if (init.ruleScope && account.rules.includes(init.ruleScope)) {
    action.status = 'approved';
    const { change, text } = runAction(world, account, action);
    return { action, change, text };
  }
  addInbox(world, account, {
    kind: 'approval',
    title: init.title,
    body: previewText(init.preview),
    action,
    taskId: init.taskId,
  });
  world.schedule(world.now() + EXPIRE_MS, 'action.expire', account.id, { actionId: action.id });
  return { action, change: null, text: null };
}

/** An action already done by the agent on its own (e.g. a memory update): executed, undoable for the window. */
export function recordExecuted(
  world: World,
  account: Account,
  init: Omit<NewAction, 'execute'> & { undo: Record<string, unknown> },
): ActionRecord {
  const now = world.now();
  const action: ActionRecord = {
    id: world.id('ac'),
    tool: init.tool,
    risk: init.risk,
    title: init.title,
    status: 'executed',
    preview: init.preview,
    ruleScope: init.ruleScope,
    undoUntil: now + UNDO_WINDOW_MS,
    conversationId: init.conversationId,
    taskId: init.taskId,
    createdAt: now,
    _undo: init.undo,
  };
  account.actions.push(action);
  return action;
}

function previewText(preview: Record<string, unknown> | null): string {
  if (!preview) return '';
  return Object.entries(preview)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join('\n');
}

/** Runs an approved action now: executed (with its undo window) or failed. */
function runAction(
  world: World,
  account: Account,
  action: ActionRecord,
): { change: S.ArtifactChange | null; text: string | null; parts: S.ChatPart[]; at: number } {
  const at = world.now();
  const executor = executors[action.tool];
  if (!executor) {
    action.status = 'failed';
    return { change: null, text: null, parts: [], at };
  }
  const outcome = executor.execute(world, account, action);
  if (outcome.ok) {
    action.status = 'executed';
    action.undoUntil = at + UNDO_WINDOW_MS;
  } else {
    action.status = 'failed';
    action.undoUntil = null;
  }
  const change = outcome.change
    ? { ...outcome.change, actionIds: outcome.ok ? [action.id] : [], undoUntil: action.undoUntil }
    : null;
  return { change, text: outcome.text, parts: outcome.parts ?? [], at };
}

export function executeJob(world: World, event: ScheduledEvent): void {
  const account = world.state.accounts[event.accountId ?? ''];
  const action = account ? findAction(account, String(event.data.actionId)) : undefined;
  if (!account || !action || action.status !== 'approved') return;
  const { change, text, parts: extra, at } = runAction(world, account, action);
  const conversation = action.conversationId ? findConversation(account, action.conversationId) : undefined;
  if (conversation) {
    const zh = (action._execute?.lang ?? account.lang) === 'zh';
    const parts: S.ChatPart[] = [
      {
        type: 'tool',
        id: world.id('tl'),
        name: action.tool,
        label: executors[action.tool]?.label(zh ? 'zh' : 'en') ?? action.tool,
        status: (action.status as S.Action['status']) === 'executed' ? 'done' : 'error',
      },
      { type: 'text', text: text ?? (zh ? '完成了。' : 'Done.') },
      ...extra,
    ];
    if (change) parts.push({ type: 'changes', items: [change] });
    appendAssistantMessage(world, account, conversation, parts, { at });
    endRunning(world, account, conversation);
  }
}

export function expireJob(world: World, event: ScheduledEvent): void {
  const account = world.state.accounts[event.accountId ?? ''];
  const action = account ? findAction(account, String(event.data.actionId)) : undefined;
  if (!account || !action || action.status !== 'pending') return;
  expireAction(world, account, action);
}

/** Moves a pending action to `expired` (also used when the task it belongs to is cancelled). */
export function expireAction(world: World, account: Account, action: ActionRecord, notifyExecutor = true): void {
  if (action.status !== 'pending') return;
  action.status = 'expired';
  closeApproval(account, action.id);
  world.cancelEvents((e) => e.kind === 'action.expire' && e.data.actionId === action.id);
  if (notifyExecutor) executors[action.tool]?.declined?.(world, account, action);
}

/** Approves (to execute EXECUTE_MS later, remembering its rule scope when asked) or rejects a pending action; 409 once decided. */
export function decideAction(world: World, account: Account, action: ActionRecord, input: S.DecideActionRequest): void {
  if (action.status !== 'pending')
    throw new HttpFail(409, 'ACTION_DECIDED', `Action ${action.id} is already ${action.status}`);
  closeApproval(account, action.id);
  world.cancelEvents((e) => e.kind === 'action.expire' && e.data.actionId === action.id);
  if (input.approve) {
    action.status = 'approved';
    if (input.remember && action.ruleScope && !account.rules.includes(action.ruleScope))
      account.rules.push(action.ruleScope);
    const conversation = action.conversationId ? findConversation(account, action.conversationId) : undefined;
    if (conversation) conversation.running = true;
    world.schedule(world.now() + EXECUTE_MS, 'action.execute', account.id, {
      actionId: action.id,
      conversationId: action.conversationId ?? undefined,
    });
  } else {
    action.status = 'rejected';
    executors[action.tool]?.declined?.(world, account, action);
  }
}

/** Undoes an executed action inside its window; 409 otherwise. */
export function undoAction(world: World, account: Account, action: ActionRecord): void {
  if (action.status !== 'executed')
    throw new HttpFail(
      409,
      'ACTION_NOT_UNDOABLE',
      `Action ${action.id} is ${action.status}; only executed actions can be undone`,
    );
  if (action.undoUntil === null || world.now() > action.undoUntil) {
    throw new HttpFail(409, 'ACTION_NOT_UNDOABLE', `The undo window of action ${action.id} has passed`);
  }
  executors[action.tool]?.undo(world, account, action);
  action.status = 'undone';
}
