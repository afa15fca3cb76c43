// The sandbox's agent: composes the reply to a chat turn from the message and
// the account's own content.
//
// A reply is built from parts, in this order: `tool` parts (localized labels;
// `name` is an identifier, never meant for display), a `text` part citing the
// account's library items and docs as [n], a `citations` part, then whatever
// words in the message ask for (English or Chinese; see REPLY_HANDLERS):
//   "create/write/draft/add/save … doc|document|note|page" → action create_doc (low risk, ruleScope docs.create)
//   "delete"/"remove"                → action delete_doc or delete_library_item (high risk, no rule scope)
//   "remember"                       → a `memory` part; memory updated at once, undoable
//   "watch"/"track"/"follow"/"monitor" → action create_watch (medium risk, ruleScope watches.create)
//   "research"/"investigate"         → a `task` part: a research task that waits on action save_report
//   a video/podcast URL              → action start_media carrying the quote (medium risk, no rule scope): nothing is
//                                      charged until it is approved; then `media` + `task` parts in the follow-up message
//   "choose"/"which"/"pick"          → a `choice` part
//   "connect"/"gmail"/"slack"/"notion"/"github"/"calendar" → a `connect` card (state available)
// and a `files` part when an uploaded file of the library is cited,
// and a `changes` part for what was created or changed during the turn, with the
// action ids that undo it and the end of the undo window.
import type * as S from '../../api/shapes.js';
import type { Account } from '../types.js';
import type { World } from '../world.js';
import { planTurn, toolLabel, type Trigger, type TurnPlan } from './plan.js';
import { queryTokens, retrieve, topicOf } from './retrieve.js';
import {
  askToConnect,
  offerChoice,
  proposeDelete,
  proposeDoc,
  proposeWatch,
  remember,
  research,
  transcribe,
  type Turn,
} from './triggers.js';

type Lang = S.Locale;

/**
 * What a turn does for each trigger of its message (`media`: a video or podcast
 * link), in the order of this table: the order of the reply's words and parts.
 */
const REPLY_HANDLERS: Record<Trigger | 'media', (turn: Turn) => void> = {
  createDoc: proposeDoc,
  delete: proposeDelete,
  remember,
  watch: proposeWatch,
  research,
  media: transcribe,
  choice: offerChoice,
  connect: askToConnect,
};

function fires(plan: TurnPlan, trigger: Trigger | 'media'): boolean {
  return trigger === 'media' ? plan.mediaUrl !== null : plan.triggers.includes(trigger);
}

/** The parts of the agent's reply to `text`; carries out what the turn itself does (memory, media, research, auto-approved actions). */
export function composeReply(
  world: World,
  account: Account,
  conversation: S.Conversation,
  text: string,
  lang: Lang,
): S.ChatPart[] {
  const turn = startTurn(world, account, conversation, text, lang);
  for (const [trigger, handle] of Object.entries(REPLY_HANDLERS) as Array<[Trigger | 'media', (turn: Turn) => void]>) {
    if (fires(turn.plan, trigger)) handle(turn);
  }
  return replyParts(turn);
}

/** A turn with what the message asks for and finds, and the first words of the reply. */
function startTurn(world: World, account: Account, conversation: S.Conversation, text: string, lang: Lang): Turn {
  const zh = lang === 'zh';
  const plan = planTurn(text);
  const tokens = queryTokens(text);
  const hits = retrieve(account, tokens);
  const topic = topicOf(text, lang);
  const lines: string[] = [];
  if (hits.length > 0) {
    lines.push(
      zh
        ? `关于“${topic}”，我在你的资料库和文档里找到这些：`
        : `Here is what I found in your library and docs about “${topic}”:`,
    );
    lines.push('');
    hits.forEach((h, i) => lines.push(`- **${h.title}**${zh ? '：' : ': '}${h.snippet} [${i + 1}]`));
  } else if (tokens.length > 0) {
    lines.push(
      zh
        ? `我在你的资料库和文档里还没有找到关于“${topic}”的内容。`
        : `I found nothing about “${topic}” in your library or docs yet.`,
    );
  } else {
    lines.push(
      zh ? '你好！可以问我资料库和文档里的任何内容。' : 'Hello! Ask me about anything in your library or docs.',
    );
  }
  return {
    world,
    account,
    conversation,
    text,
    lang,
    zh,
    plan,
    tokens,
    hits,
    topic,
    spaceId: conversation.spaceId ?? world.defaultSpace(account).id,
    toolStatus: new Map<string, 'done' | 'error'>(plan.tools.map((t) => [t, 'done'])),
    toolNames: new Map<string, string>(),
    after: [],
    changes: [],
    lines,
    say(line: string) {
      lines.push('');
      lines.push(line);
    },
  };
}

/** The reply's parts: tools, text, citations, files, then what the turn did, and its changes. */
function replyParts(turn: Turn): S.ChatPart[] {
  const { world, lang, plan, hits, toolStatus, toolNames, after, changes, lines } = turn;
  const parts: S.ChatPart[] = plan.tools.map((name) => {
    const shown = toolNames.get(name) ?? name;
    return {
      type: 'tool',
      id: world.id('tl'),
      name: shown,
      label: toolLabel(shown, lang),
      status: toolStatus.get(name) ?? 'done',
    };
  });
  parts.push({ type: 'text', text: lines.join('\n') });
  if (hits.length > 0)
    parts.push({
      type: 'citations',
      items: hits.map((h, i) => ({ n: i + 1, title: h.title, url: h.url, source: h.source })),
    });
  const files = hits
    .filter((h) => h.file)
    .map((h) => ({ id: h.id, name: h.file?.name ?? h.title, mime: h.file?.mime ?? '', url: `/library/${h.id}` }));
  if (files.length > 0) parts.push({ type: 'files', items: files });
  parts.push(...orderAfter(after));
  if (changes.length > 0) parts.push({ type: 'changes', items: changes });
  return parts;
}

const PART_ORDER = ['action', 'choice', 'memory', 'task', 'media', 'connect'];

function orderAfter(parts: S.ChatPart[]): S.ChatPart[] {
  return parts
    .map((p, i) => ({ p, i }))
    .sort((a, b) => PART_ORDER.indexOf(a.p.type) - PART_ORDER.indexOf(b.p.type) || a.i - b.i)
    .map((x) => x.p);
}
