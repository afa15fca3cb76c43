// What each action does when it is executed, and how it is undone: the tools the
// agent proposes (create_doc, delete_doc, delete_library_item, create_watch,
// save_report) and the memory update it makes on its own (update_memory).
import type * as S from '../../api/shapes.js';
import { toolLabel } from '../agent/plan.js';
import { cancelTask, completeMilestone, findTask, finishTask, isActive } from '../tasks/model.js';
import { HttpFail, type Account, type ActionRecord, type DocRecord, type LibraryRecord } from '../types.js';
import { startMediaFor } from '../media/model.js';
import { deleteWatch } from '../watches/model.js';
import { createWatchFor } from '../watches/setup.js';
import { monthKey, type World } from '../world.js';
import { UNDO_WINDOW_MS } from './times.js';

type Lang = S.Locale;
type ChangeCore = Omit<S.ArtifactChange, 'actionIds' | 'undoUntil'>;

export interface ExecutionOutcome {
  ok: boolean;
  change: ChangeCore | null;
  text: string | null;
  /** Parts the agent's message after the execution shows besides its text (a started transcription's media and task). */
  parts?: S.ChatPart[];
}

export interface Executor {
  label(lang: Lang): string;
  execute(world: World, account: Account, action: ActionRecord): ExecutionOutcome;
  undo(world: World, account: Account, action: ActionRecord): void;
  /** The action was rejected or expired. */
  declined?(world: World, account: Account, action: ActionRecord): void;
}

function langOf(account: Account, action: ActionRecord): Lang {
  const lang = action._execute?.lang;
  return lang === 'zh' || lang === 'en' ? lang : account.lang;
}

/** The document an action creates (create_doc, save_report), from what it was proposed with; undo removes it. */
function addDoc(world: World, account: Account, action: ActionRecord): DocRecord {
  const { title, markdown, spaceId } = action._execute as { title: string; markdown: string; spaceId: string };
  const space = account.spaces.find((s) => s.id === spaceId) ?? world.defaultSpace(account);
  const doc: DocRecord = {
    id: world.id('doc'),
    title,
    body: markdown,
    revision: 1,
    origin: 'agent',
    folderId: null,
    updatedAt: world.iso(),
    spaceId: space.id,
    publication: null,
  };
  account.docs.push(doc);
  action._undo = { docId: doc.id };
  return doc;
}

/** Undoes addDoc. */
function removeDoc(account: Account, action: ActionRecord): void {
  account.docs = account.docs.filter((d) => d.id !== action._undo?.docId);
}

const createDoc: Executor = {
  label: (lang) => toolLabel('create_doc', lang),
  execute(world, account, action) {
    const zh = langOf(account, action) === 'zh';
    const doc = addDoc(world, account, action);
    const title = doc.title;
    return {
      ok: true,
      change: { kind: 'doc', id: doc.id, title, action: 'created', href: `/docs/${doc.id}` },
      text: zh ? `已创建文档“${title}”。` : `I created the document “${title}”.`,
    };
  },
  undo(_world, account, action) {
    removeDoc(account, action);
  },
};

/** What a removing executor needs to know of its records: where they are, and what to say. */
interface Removal<T> {
  tool: string;
  /** Where the removed record is kept to be put back (a sandbox state saved with an action pending keeps its key). */
  undoKey: string;
  list(account: Account): T[];
  /** Still there to remove: a document marked deleted is not. */
  present(record: T): boolean;
  kind: ChangeCore['kind'];
  href(id: string): string;
  gone(zh: boolean): string;
  done(title: string, zh: boolean): string;
}

/** An executor that removes one record, and on undo puts it back at its old place (restoreAt). */
function removing<T extends { id: string; title: string }>(r: Removal<T>): Executor {
  return {
    label: (lang) => toolLabel(r.tool, lang),
    execute(_world, account, action) {
      const zh = langOf(account, action) === 'zh';
      const id = action._execute?.id;
      const list = r.list(account);
      const index = list.findIndex((x) => x.id === id && r.present(x));
      const record = list[index];
      if (!record) return { ok: false, change: null, text: r.gone(zh) };
      list.splice(index, 1);
      action._undo = { [r.undoKey]: { ...record }, index };
      return {
        ok: true,
        change: {
          kind: r.kind,
          id: record.id,
          title: record.title,
          action: 'updated',
          href: r.href(record.id),
          note: zh ? '已删除' : 'deleted',
        },
        text: r.done(record.title, zh),
      };
    },
    undo(_world, account, action) {
      restoreAt(r.list(account), action._undo?.[r.undoKey] as T | undefined, action._undo?.index);
    },
  };
}

/** A refusal by the service (HttpFail) said as a failed execution: what could not be done, then why; anything else is thrown. */
function refused(error: unknown, zh: boolean, what: { zh: string; en: string }): ExecutionOutcome {
  if (!(error instanceof HttpFail)) throw error;
  return {
    ok: false,
    change: null,
    text: zh ? `${what.zh}：${error.message}（${error.code}）` : `${what.en}: ${error.message} (${error.code})`,
  };
}

/** Why a report was not saved, by how its approval ended. */
const NOT_SAVED = {
  expired: { zh: '未获批准（已过期），报告未保存', en: 'Not approved in time; the report was not saved' },
  rejected: { zh: '已拒绝，报告未保存', en: 'Rejected; the report was not saved' },
};

/** Puts back a record an executor removed, at its old place (or last), unless it is back already. */
function restoreAt<T extends { id: string }>(list: T[], record: T | undefined, index: unknown): void {
  if (!record || list.some((r) => r.id === record.id)) return;
  list.splice(Math.min(Number(index ?? list.length), list.length), 0, record);
}

const deleteDoc = removing<DocRecord>({
  tool: 'delete_doc',
  undoKey: 'doc',
  list: (account) => account.docs,
  present: (doc) => !doc._deleted,
  kind: 'doc',
  href: (id) => `/docs/${id}`,
  gone: (zh) => (zh ? '这个文档已经不在了。' : 'That document is already gone.'),
  done: (title, zh) =>
    zh
      ? `已删除“${title}”。${UNDO_WINDOW_MS / 60_000} 分钟内可以撤销。`
      : `I deleted “${title}”. You can undo this for ${UNDO_WINDOW_MS / 60_000} minutes.`,
});

const deleteLibraryItem = removing<LibraryRecord>({
  tool: 'delete_library_item',
  undoKey: 'item',
  list: (account) => account.library,
  present: () => true,
  kind: 'clip',
  href: (id) => `/library/${id}`,
  gone: (zh) => (zh ? '这一条已经不在资料库里了。' : 'That item is no longer in the library.'),
  done: (title, zh) => (zh ? `已从资料库删除“${title}”。` : `I removed “${title}” from the library.`),
});

const createWatch: Executor = {
  label: (lang) => toolLabel('create_watch', lang),
  execute(world, account, action) {
    const zh = langOf(account, action) === 'zh';
    const { intent, lang, spaceId } = action._execute as { intent: string; lang: Lang; spaceId: string };
    try {
      const created = createWatchFor(world, account, {
        intent,
        lang,
        spaceId,
        visibility: 'private',
        cadence: 'daily',
        type: 'topic',
      });
      action._undo = { slug: created.slug, month: monthKey(world.now()) };
      return {
        ok: true,
        change: {
          kind: 'watch',
          id: created.slug,
          title: created.watch.title,
          action: 'created',
          href: `/watches/${created.slug}`,
          pending: true,
        },
        text: zh
          ? `已设置关注“${created.watch.title}”，大约一分钟后会有第一期简报。`
          : `I set up the watch “${created.watch.title}”; the first brief arrives in about a minute.`,
      };
    } catch (error) {
      return refused(error, zh, { zh: '没能设置关注', en: 'I could not set up the watch' });
    }
  },
  undo(world, account, action) {
    const slug = String(action._undo?.slug ?? '');
    const month = String(action._undo?.month ?? '');
    deleteWatch(world, slug);
    const used = account.watchesByMonth[month];
    if (used) account.watchesByMonth[month] = used - 1;
  },
};

/** A transcription the agent quoted in chat, started once approved (like POST /media: paid up front). */
const startMedia: Executor = {
  label: (lang) => toolLabel('start_media', lang),
  execute(world, account, action) {
    const zh = langOf(account, action) === 'zh';
    const { url, lang, spaceId } = action._execute as { url: string; lang: Lang; spaceId: string };
    try {
      const { started, media } = startMediaFor(world, account, { url, lang, spaceId });
      action._undo = { taskId: started.taskId };
      return {
        ok: true,
        parts: [
          { type: 'media', mediaId: media.id, title: media.title },
          {
            type: 'task',
            taskId: started.taskId,
            kind: 'transcription',
            title: findTask(account, started.taskId)?.title ?? media.title,
          },
        ],
        change: {
          kind: 'media',
          id: media.id,
          title: media.title,
          action: 'created',
          href: `/media/${media.id}`,
          pending: true,
        },
        text: zh
          ? `正在转写“${media.title}”（${started.credits} 积分）。`
          : `I'm transcribing “${media.title}” (${started.credits} credits).`,
      };
    } catch (error) {
      return refused(error, zh, { zh: '没能开始转写', en: 'I could not start the transcription' });
    }
  },
  undo(world, account, action) {
    // Stops the transcription, as cancelling its task does: the minutes not transcribed are refunded.
    const task = findTask(account, String(action._undo?.taskId ?? ''));
    if (task) cancelTask(world, account, task);
  },
};

const updateMemory: Executor = {
  label: (lang) => toolLabel('update_memory', lang),
  execute: () => ({ ok: true, change: null, text: null }),
  undo(_world, account, action) {
    const previous = action._undo?.previous;
    if (typeof previous === 'string') account.agent.memory = previous;
  },
};

const saveReport: Executor = {
  label: (lang) => toolLabel('save_report', lang),
  execute(world, account, action) {
    const zh = langOf(account, action) === 'zh';
    const doc = addDoc(world, account, action);
    const title = doc.title;
    const task = action.taskId ? findTask(account, action.taskId) : undefined;
    if (task && isActive(task)) {
      task.status = 'running';
      const last = task.milestones.length - 1;
      completeMilestone(world, task, last, { detail: zh ? `已保存为文档 ${doc.id}` : `Saved as doc ${doc.id}` });
      finishTask(world, account, task, 'done', {
        result: { kind: 'doc', id: doc.id, href: `/docs/${doc.id}` },
        body: title,
      });
    }
    return {
      ok: true,
      change: { kind: 'doc', id: doc.id, title, action: 'created', href: `/docs/${doc.id}` },
      text: zh ? `报告已保存为文档“${title}”。` : `I saved the report as the document “${title}”.`,
    };
  },
  undo(_world, account, action) {
    removeDoc(account, action);
  },
  declined(world, account, action) {
    const task = action.taskId ? findTask(account, action.taskId) : undefined;
    if (!task || !isActive(task)) return;
    const zh = langOf(account, action) === 'zh';
    const why = NOT_SAVED[action.status === 'expired' ? 'expired' : 'rejected'];
    task.status = 'running';
    const last = task.milestones.length - 1;
    completeMilestone(world, task, last, {
      status: 'skipped',
      detail: zh ? why.zh : why.en,
    });
    finishTask(world, account, task, 'done', { body: zh ? '报告未保存。' : 'The report was not saved.' });
  },
};

export const executors: Record<string, Executor> = {
  create_doc: createDoc,
  delete_doc: deleteDoc,
  delete_library_item: deleteLibraryItem,
  create_watch: createWatch,
  start_media: startMedia,
  update_memory: updateMemory,
  save_report: saveReport,
};
