// The typed API: one call per operationId, built on the HTTP core.
// (Interface first; the implementation lives below the types.)
import type { Readable } from 'node:stream';
import type { OperationId } from './operations.js';
import type * as S from './shapes.js';

/** What each operation answers with (void for 204s). */
export interface Responses {
  getMe: S.Me;
  listSpaces: { items: S.Space[] };
  createSpace: S.Space;
  updateSpace: void;
  deleteSpace: void;
  listFollowedWatches: { items: S.FollowedWatch[] };
  createWatch: S.WatchCreated;
  searchWatches: { items: S.WatchCard[] };
  getWatch: S.WatchPage;
  getWatchKnowledge: S.Knowledge;
  listWatchIssues: S.Page<S.IssueSummary>;
  followWatch: S.FollowState;
  unfollowWatch: void;
  updateWatchSettings: void;
  setEntryFeedback: void;
  setEntrySaved: void;
  listLibrary: S.Page<S.LibraryItem>;
  saveLink: S.LinkSaved;
  getLibraryItem: S.LibraryItem;
  updateLibraryItem: void;
  deleteLibraryItem: void;
  readLibraryText: S.LibraryText;
  uploadFile: S.FileSaved;
  listDocs: S.Page<S.DocSummary>;
  createDoc: S.DocCreated;
  searchDocs: { items: S.DocHit[] };
  getDoc: S.Doc;
  updateDoc: S.Revision;
  deleteDoc: void;
  editDoc: S.Revision;
  quoteMedia: S.MediaQuote;
  startMedia: S.MediaStarted;
  listMedia: S.Page<S.MediaItem>;
  getMedia: S.MediaPage;
  getTranscript: S.Transcript;
  getAgent: S.Agent;
  updateAgent: void;
  getHome: S.Home;
  listInbox: S.Inbox;
  markInboxItem: void;
  listTasks: S.Page<S.Task>;
  getTask: S.TaskDetail;
  cancelTask: S.Task;
  listConversations: S.Page<S.Conversation>;
  getConversationMessages: S.Messages;
  sendMessage: S.TurnStarted;
  deleteConversation: void;
  decideAction: S.Action;
  undoAction: S.Action;
}

export interface CallArgs {
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Raw body for binary operations (uploadFile): streamed, never buffered. */
  stream?: () => Readable;
  contentLength?: number;
  headers?: Record<string, string>;
  /** Overrides the random key create-style calls get (content-derived keys for uploads, --idempotency-key). */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface CallResult<T> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  /** The service answered from its idempotency cache (`idempotent-replayed: true`). */
  replayed: boolean;
}

export interface ApiClient {
  call<K extends OperationId>(op: K, args?: CallArgs): Promise<Responses[K]>;
  callFull<K extends OperationId>(op: K, args?: CallArgs): Promise<CallResult<Responses[K]>>;
  /** Raw request for `kagent api`: any method and path under the base URL. */
  raw(method: string, path: string, args?: Omit<CallArgs, 'params'>): Promise<CallResult<unknown>>;
  /** Follows cursors: yields items one by one; stops after `limit` items unless `all`. */
  paginate<K extends PagedOperation>(op: K, args?: CallArgs, options?: { limit?: number; all?: boolean }): AsyncIterable<PageItem<K>>;
  readonly baseUrl: string;
}

export type PagedOperation = {
  [K in OperationId]: Responses[K] extends { items: unknown[]; nextCursor: string | null } ? K : never;
}[OperationId];
export type PageItem<K extends PagedOperation> = Responses[K] extends { items: Array<infer T> } ? T : never;
