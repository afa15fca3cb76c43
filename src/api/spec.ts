// Joins every operation to its shapes and documented errors. The sandbox routes
// and validates with this table; the OpenAPI document is generated from it.
import type { TSchema } from '@sinclair/typebox';
import { operations, type OperationId } from './operations.js';
import * as S from './shapes.js';

export interface OperationSpec {
  summary: string;
  tag: string;
  query?: TSchema;
  body?: TSchema;
  response?: TSchema;
  /** Documented error answers beyond 400/401/429, as [status, code]. */
  errors?: Array<[number, string]>;
}

const idem: Array<[number, string]> = [
  [409, 'IDEMPOTENCY_IN_PROGRESS'],
  [422, 'IDEMPOTENCY_MISMATCH'],
];

const table = {
  getMe: { tag: 'account', summary: 'The account: plan, trial, credits by pool, plan limits', response: S.Me },

  listSpaces: { tag: 'spaces', summary: 'List spaces', response: S.ItemsOf(S.Space) },
  createSpace: {
    tag: 'spaces',
    summary: 'Create a space',
    body: S.CreateSpaceRequest,
    response: S.Space,
    errors: idem,
  },
  updateSpace: {
    tag: 'spaces',
    summary: 'Update a space',
    body: S.UpdateSpaceRequest,
    errors: [[404, 'SPACE_NOT_FOUND']],
  },
  deleteSpace: {
    tag: 'spaces',
    summary: 'Delete a space; its contents move to the default space',
    errors: [
      [400, 'SPACE_NOT_DELETABLE'],
      [404, 'SPACE_NOT_FOUND'],
    ],
  },

  listFollowedWatches: {
    tag: 'watches',
    summary: 'Followed watches, each with its latest brief',
    response: S.ItemsOf(S.FollowedWatch),
  },
  createWatch: {
    tag: 'watches',
    summary: 'Create a watch; set-up continues in the background',
    body: S.CreateWatchRequest,
    response: S.WatchCreated,
    errors: [[403, 'EMAIL_NOT_VERIFIED'], [403, 'WATCH_LIMIT'], [404, 'SPACE_NOT_FOUND'], ...idem],
  },
  searchWatches: {
    tag: 'watches',
    summary: 'Search existing public watches',
    query: S.Queries.searchWatches,
    response: S.ItemsOf(S.WatchCard),
  },
  getWatch: {
    tag: 'watches',
    summary: 'A watch with one brief, its archive and method',
    query: S.Queries.getWatch,
    response: S.WatchPage,
    errors: [
      [404, 'WATCH_NOT_FOUND'],
      [404, 'BRIEF_NOT_FOUND'],
    ],
  },
  getWatchKnowledge: {
    tag: 'watches',
    summary: 'Weekly report and timeline',
    response: S.Knowledge,
    errors: [[404, 'WATCH_NOT_FOUND']],
  },
  listWatchIssues: {
    tag: 'watches',
    summary: 'Issues of a watch, newest first',
    query: S.Queries.listWatchIssues,
    response: S.PageOf(S.IssueSummary),
    errors: [[404, 'WATCH_NOT_FOUND']],
  },
  followWatch: {
    tag: 'watches',
    summary: 'Follow a watch or move it to another space',
    body: S.FollowRequest,
    response: S.FollowState,
    errors: [
      [403, 'FOLLOW_LIMIT'],
      [404, 'WATCH_NOT_FOUND'],
      [404, 'SPACE_NOT_FOUND'],
    ],
  },
  unfollowWatch: { tag: 'watches', summary: 'Stop following a watch', errors: [[404, 'WATCH_NOT_FOUND']] },
  updateWatchSettings: {
    tag: 'watches',
    summary: 'Change cadence and alerts (owner only)',
    body: S.WatchSettingsRequest,
    errors: [[404, 'WATCH_NOT_FOUND']],
  },
  setEntryFeedback: {
    tag: 'watches',
    summary: 'Rate a brief entry',
    body: S.EntryFeedbackRequest,
    errors: [[404, 'ENTRY_NOT_FOUND']],
  },
  setEntrySaved: {
    tag: 'watches',
    summary: 'Save a brief entry to the library or remove it',
    body: S.EntrySavedRequest,
    errors: [[404, 'ENTRY_NOT_FOUND']],
  },

  listLibrary: {
    tag: 'library',
    summary: 'List or search the library, newest first',
    query: S.Queries.listLibrary,
    response: S.PageOf(S.LibraryItem),
  },
  saveLink: {
    tag: 'library',
    summary: 'Save a web page',
    body: S.SaveLinkRequest,
    response: S.LinkSaved,
    errors: [[402, 'CREDITS_EXHAUSTED'], [404, 'SPACE_NOT_FOUND'], ...idem],
  },
  getLibraryItem: {
    tag: 'library',
    summary: 'A library item',
    response: S.LibraryItem,
    errors: [[404, 'ITEM_NOT_FOUND']],
  },
  updateLibraryItem: {
    tag: 'library',
    summary: 'Change the note or space of an item',
    body: S.UpdateLibraryItemRequest,
    errors: [
      [404, 'ITEM_NOT_FOUND'],
      [404, 'SPACE_NOT_FOUND'],
    ],
  },
  deleteLibraryItem: { tag: 'library', summary: 'Delete a library item', errors: [[404, 'ITEM_NOT_FOUND']] },
  readLibraryText: {
    tag: 'library',
    summary: 'Extracted text of an uploaded file, in chunks',
    query: S.Queries.readLibraryText,
    response: S.LibraryText,
    errors: [
      [400, 'NO_TEXT'],
      [404, 'ITEM_NOT_FOUND'],
    ],
  },
  uploadFile: {
    tag: 'library',
    summary: 'Upload a file (raw body, X-File-Name header)',
    query: S.Queries.uploadFile,
    response: S.FileSaved,
    errors: [
      [400, 'EMPTY_FILE'],
      [402, 'CREDITS_EXHAUSTED'],
      [404, 'SPACE_NOT_FOUND'],
      [413, 'FILE_TOO_LARGE'],
      [413, 'STORAGE_FULL'],
      [415, 'UNSUPPORTED_TYPE'],
      ...idem,
    ],
  },

  listDocs: {
    tag: 'docs',
    summary: 'List docs, most recently updated first',
    query: S.Queries.listDocs,
    response: S.PageOf(S.DocSummary),
  },
  createDoc: {
    tag: 'docs',
    summary: 'Create a doc',
    body: S.CreateDocRequest,
    response: S.DocCreated,
    errors: [[404, 'SPACE_NOT_FOUND'], ...idem],
  },
  searchDocs: {
    tag: 'docs',
    summary: 'Search docs by keywords and meaning',
    query: S.Queries.searchDocs,
    response: S.ItemsOf(S.DocHit),
  },
  getDoc: { tag: 'docs', summary: 'A doc', response: S.Doc, errors: [[404, 'DOC_NOT_FOUND']] },
  updateDoc: {
    tag: 'docs',
    summary: 'Replace the title and/or body of a doc',
    body: S.UpdateDocRequest,
    response: S.Revision,
    errors: [
      [404, 'DOC_NOT_FOUND'],
      [409, 'REVISION_CONFLICT'],
    ],
  },
  deleteDoc: { tag: 'docs', summary: 'Delete a doc', errors: [[404, 'DOC_NOT_FOUND']] },
  editDoc: {
    tag: 'docs',
    summary: 'Exact-match edits of a doc',
    body: S.EditDocRequest,
    response: S.Revision,
    errors: [
      [400, 'EDIT_NOT_APPLICABLE'],
      [404, 'DOC_NOT_FOUND'],
      [409, 'REVISION_CONFLICT'],
    ],
  },

  quoteMedia: {
    tag: 'media',
    summary: 'Duration and credit cost of transcribing a link',
    body: S.QuoteMediaRequest,
    response: S.MediaQuote,
    errors: [
      [400, 'UNSUPPORTED_MEDIA'],
      [503, 'MEDIA_UNAVAILABLE'],
    ],
  },
  startMedia: {
    tag: 'media',
    summary: 'Transcribe and summarise a link in the background',
    body: S.StartMediaRequest,
    response: S.MediaStarted,
    errors: [
      [400, 'UNSUPPORTED_MEDIA'],
      [402, 'CREDITS_EXHAUSTED'],
      [404, 'SPACE_NOT_FOUND'],
      [503, 'MEDIA_UNAVAILABLE'],
      ...idem,
    ],
  },
  listMedia: {
    tag: 'media',
    summary: 'Saved media, most recent first',
    query: S.Queries.listMedia,
    response: S.PageOf(S.MediaItem),
  },
  getMedia: {
    tag: 'media',
    summary: 'Status, summary, chapters and segments',
    query: S.Queries.getMedia,
    response: S.MediaPage,
    errors: [[404, 'MEDIA_NOT_FOUND']],
  },
  getTranscript: {
    tag: 'media',
    summary: 'Summary and transcript as Markdown',
    query: S.Queries.getTranscript,
    response: S.Transcript,
    errors: [
      [400, 'MEDIA_NOT_READY'],
      [404, 'MEDIA_NOT_FOUND'],
    ],
  },

  getAgent: { tag: 'agent', summary: "The agent's name, memory and address", response: S.Agent },
  updateAgent: { tag: 'agent', summary: 'Rename the agent or edit its memory', body: S.UpdateAgentRequest },
  getHome: { tag: 'agent', summary: 'Home overview', response: S.Home },

  listInbox: { tag: 'inbox', summary: 'Inbox, actions waiting first', query: S.Queries.listInbox, response: S.Inbox },
  markInboxItem: {
    tag: 'inbox',
    summary: 'Mark an inbox item read, done or dismissed',
    body: S.MarkInboxRequest,
    errors: [[404, 'INBOX_ITEM_NOT_FOUND']],
  },

  listTasks: { tag: 'tasks', summary: 'Tasks, newest first', query: S.Queries.listTasks, response: S.PageOf(S.Task) },
  getTask: {
    tag: 'tasks',
    summary: 'A task with milestones and the actions it waits on',
    response: S.TaskDetail,
    errors: [[404, 'TASK_NOT_FOUND']],
  },
  cancelTask: {
    tag: 'tasks',
    summary: 'Cancel an active task',
    response: S.Task,
    errors: [
      [404, 'TASK_NOT_FOUND'],
      [409, 'TASK_NOT_ACTIVE'],
    ],
  },

  listConversations: {
    tag: 'conversations',
    summary: 'Conversations, most recently active first',
    query: S.Queries.listConversations,
    response: S.PageOf(S.Conversation),
  },
  getConversationMessages: {
    tag: 'conversations',
    summary: 'A conversation and its most recent messages, oldest first',
    query: S.Queries.getConversationMessages,
    response: S.Messages,
    errors: [[404, 'CONVERSATION_NOT_FOUND']],
  },
  sendMessage: {
    tag: 'conversations',
    summary: 'Send a message; the turn runs in the background',
    body: S.SendMessageRequest,
    response: S.TurnStarted,
    errors: [
      [402, 'CREDITS_EXHAUSTED'],
      [404, 'CONVERSATION_NOT_FOUND'],
      [404, 'SPACE_NOT_FOUND'],
      [409, 'CONVERSATION_BUSY'],
      ...idem,
    ],
  },
  deleteConversation: {
    tag: 'conversations',
    summary: 'Delete a conversation',
    errors: [[404, 'CONVERSATION_NOT_FOUND']],
  },

  decideAction: {
    tag: 'actions',
    summary: 'Approve or reject an action',
    body: S.DecideActionRequest,
    response: S.Action,
    errors: [[404, 'ACTION_NOT_FOUND'], [409, 'ACTION_DECIDED'], ...idem],
  },
  undoAction: {
    tag: 'actions',
    summary: 'Undo an executed action within its window',
    response: S.Action,
    errors: [
      [404, 'ACTION_NOT_FOUND'],
      [409, 'ACTION_NOT_UNDOABLE'],
    ],
  },
} satisfies Record<OperationId, OperationSpec>;

/** Every operation's spec, for code that looks one up by id at run time. */
export const spec: Record<OperationId, OperationSpec> = table;
/** The table with each entry's own schemas: what src/api/operation-types.ts derives the types from. */
export type SpecTable = typeof table;

export { operations };
