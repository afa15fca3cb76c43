// What the chat REPL does besides sending messages: the actions a reply asks
// approval for are decided right there (approve, approve and remember when the
// action has a rule scope, reject, or later), and the slash commands /approve,
// /reject, /undo, /actions, /inbox and /help. Deciding and undoing go through
// src/actions/decide.ts, as `kagent actions approve/reject/undo` do.
import type { ChatMessage } from '../api/shapes.js';
import type { Context } from '../context.js';
import { sanitizeLine } from '../io/sanitize.js';
import { warn, success, getFormatter, note } from '../io/output.js';
import { decideAction, undoAction, pendingActions } from '../actions/decide.js';
import { reportError } from '../io/report.js';
import { riskText } from '../views/chat.js';

/** What the REPL remembers between turns: the conversation, the actions shown waiting, the ones approved here. */
export interface Session {
  conversationId?: string;
  /** Ids of actions shown waiting in this session, oldest first (the default of /approve and /reject is the last). */
  waiting: string[];
  /** Ids of actions approved in this session, oldest first (the default of /undo is the last). */
  approved: string[];
  /** The last message shown after the agent carried on (not shown twice). */
  shown?: string;
}

export const HELP = [
  '/approve [ID]   approve an action (the last one shown waiting, when no ID)',
  '/reject [ID]    reject an action',
  '/undo [ID]      undo an action that ran (the last one approved here, when no ID)',
  '/actions        the actions waiting for your decision',
  '/inbox          your inbox',
  '/new            start a new conversation',
  '/exit           end (Ctrl-D too; Ctrl-C twice)',
  '//…             send a message that starts with /',
].join('\n');

type Loose = Record<string, unknown>;

/** The actions of a reply that wait for a decision. */
export function waitingActions(message: ChatMessage): Loose[] {
  const parts = Array.isArray(message.parts) ? (message.parts as unknown[]) : [];
  return parts
    .map((part) => (part && typeof part === 'object' ? (part as Loose) : {}))
    .filter(
      (p) =>
        p.type === 'action' &&
        p.action &&
        typeof p.action === 'object' &&
        (p.action as Loose).status === 'pending' &&
        typeof (p.action as Loose).id === 'string',
    )
    .map((p) => p.action as Loose);
}

type Choice = 'approve' | 'remember' | 'reject' | 'later';

/**
 * Asks about each waiting action of a reply and carries the decision out. Returns the
 * ids approved (the agent then carries on in the conversation). `ask` wraps a prompt
 * as the REPL does (undefined when the person ends the input).
 */
export async function decideInline(
  ctx: Context,
  reply: ChatMessage,
  session: Session,
  ask: <T>(prompt: () => Promise<T>) => Promise<T | undefined>,
): Promise<{ approved: string[]; ended: boolean }> {
  const approved: string[] = [];
  for (const action of waitingActions(reply)) {
    const id = String(action.id);
    if (!session.waiting.includes(id)) session.waiting.push(id);
    const scope = typeof action.ruleScope === 'string' && action.ruleScope ? sanitizeLine(action.ruleScope) : undefined;
    const title = sanitizeLine(String(action.title ?? id));
    const choices: Array<{ value: Choice; name: string }> = [
      { value: 'approve', name: 'Approve' },
      ...(scope ? [{ value: 'remember' as const, name: `Approve, and allow this kind (${scope}) from now on` }] : []),
      { value: 'reject', name: 'Reject' },
      { value: 'later', name: `Decide later (/approve ${id})` },
    ];
    // A high-risk action (or one of a risk this version does not know): Enter alone decides nothing.
    const risky = action.risk !== 'low' && action.risk !== 'medium';
    const picked = await ask(() =>
      ctx.prompter.select(`${title}?`, choices, risky ? { default: 'later' as const } : undefined),
    );
    if (picked === undefined) return { approved, ended: true };
    if (picked === 'later') continue;
    if (await decide(ctx, id, picked !== 'reject', picked === 'remember', session)) {
      if (picked !== 'reject') approved.push(id);
    }
  }
  return { approved, ended: false };
}

/** Approves or rejects; a declined confirmation says "Cancelled." and an error is printed, the REPL goes on. */
async function decide(
  ctx: Context,
  id: string,
  approve: boolean,
  remember: boolean,
  session: Session,
): Promise<boolean> {
  try {
    await decideAction(ctx, id, approve, remember, { print: false });
  } catch (error) {
    await reportAndGoOn(ctx, error);
    return false;
  }
  session.waiting = session.waiting.filter((other) => other !== id);
  if (approve) session.approved.push(id);
  return true;
}

/**
 * A failure the REPL survives: reported as the program reports one (a confirmation
 * refused is one word, "Cancelled."), then the REPL goes on. After Ctrl-C it ends.
 */
export async function reportAndGoOn(ctx: Context, error: unknown): Promise<void> {
  if (ctx.signal.aborted) throw error;
  reportError(error, {
    stderr: ctx.io.stderr,
    json: false,
    color: ctx.io.colorStderr,
    debug: ctx.flags.debug,
    interrupted: false,
  });
}

/**
 * A slash command other than /new, /exit and /help. Returns the ids approved
 * (so the REPL follows the agent carrying on), or undefined when `line` is no such command.
 */
export async function slashCommand(
  ctx: Context,
  line: string,
  session: Session,
): Promise<{ approved: string[] } | undefined> {
  const [word, ...rest] = line.trim().split(/\s+/);
  const id = rest[0];
  switch (word) {
    case '/approve':
    case '/reject': {
      const target = id ?? session.waiting.at(-1);
      if (!target) {
        await warn(ctx, `no action is waiting here: ${word} ID (/actions lists them)`);
        return { approved: [] };
      }
      const approve = word === '/approve';
      return { approved: (await decide(ctx, target, approve, false, session)) && approve ? [target] : [] };
    }
    case '/undo': {
      const target = id ?? session.approved.at(-1);
      if (!target) {
        await warn(ctx, 'nothing approved here to undo: /undo ID');
        return { approved: [] };
      }
      try {
        const action = await undoAction(ctx, target);
        session.approved = session.approved.filter((other) => other !== target);
        await success(ctx, `Undone: ${sanitizeLine(action.title ?? target)} (${target})`);
      } catch (error) {
        await reportAndGoOn(ctx, error);
      }
      return { approved: [] };
    }
    case '/actions':
      await listActions(ctx);
      return { approved: [] };
    case '/inbox':
      await listInbox(ctx);
      return { approved: [] };
    default:
      return undefined;
  }
}

async function listActions(ctx: Context): Promise<void> {
  const f = await getFormatter(ctx, 'stderr');
  const lines: string[] = [];
  try {
    for await (const action of pendingActions(ctx, { limit: 20 })) {
      lines.push(`${action.id}  ${riskText(action.risk, f)}  ${sanitizeLine(action.title)}`);
    }
  } catch (error) {
    await reportAndGoOn(ctx, error);
    return;
  }
  await note(
    ctx,
    lines.length
      ? `${lines.join('\n')}\n${f.dim('/approve ID or /reject ID')}`
      : 'No actions are waiting for your decision.',
  );
}

async function listInbox(ctx: Context): Promise<void> {
  const f = await getFormatter(ctx, 'stderr');
  try {
    const page = await (await ctx.api()).call('listInbox', { query: { limit: 20 }, signal: ctx.signal });
    const items = Array.isArray(page.items) ? page.items : [];
    const lines = items.map(
      (item) =>
        `${item.read ? ' ' : f.cyan('●')} ${sanitizeLine(item.id)}  ${f.dim(sanitizeLine(String(item.kind)))}  ${sanitizeLine(item.title)}`,
    );
    await note(ctx, lines.length ? lines.join('\n') : 'Your inbox is empty.');
  } catch (error) {
    await reportAndGoOn(ctx, error);
  }
}
