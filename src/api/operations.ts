// Every operation of the contract: method, path, whether it is create-style
// (takes an Idempotency-Key) and its success status. Plain data (importing only
// the errors), so the client can use it without loading the request/response
// shapes (those live in shapes.ts and are joined to these ids in spec.ts).
import { UsageError } from '../errors.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface OperationInfo {
  method: HttpMethod;
  path: string;
  /** Create-style: accepts Idempotency-Key, and kagent always sends one. */
  idempotent?: boolean;
  success: number;
  /** The body is the raw bytes of a file, not JSON. */
  binary?: boolean;
  /** Lists answering {items, nextCursor}. */
  paged?: boolean;
  /** The published API description needs no key. */
  public?: boolean;
}

export const operations = {
  getMe: { method: 'GET', path: '/me', success: 200 },

  listSpaces: { method: 'GET', path: '/spaces', success: 200 },
  createSpace: { method: 'POST', path: '/spaces', idempotent: true, success: 201 },
  updateSpace: { method: 'PATCH', path: '/spaces/{id}', success: 204 },
  deleteSpace: { method: 'DELETE', path: '/spaces/{id}', success: 204 },

  listFollowedWatches: { method: 'GET', path: '/watches', success: 200 },
  createWatch: { method: 'POST', path: '/watches', idempotent: true, success: 202 },
  searchWatches: { method: 'GET', path: '/watches/search', success: 200 },
  getWatch: { method: 'GET', path: '/watches/{slug}', success: 200 },
  getWatchKnowledge: { method: 'GET', path: '/watches/{slug}/knowledge', success: 200 },
  listWatchIssues: { method: 'GET', path: '/watches/{slug}/issues', success: 200, paged: true },
  followWatch: { method: 'PUT', path: '/watches/{slug}/follow', success: 200 },
  unfollowWatch: { method: 'DELETE', path: '/watches/{slug}/follow', success: 204 },
  updateWatchSettings: { method: 'PATCH', path: '/watches/{slug}/settings', success: 204 },
  setEntryFeedback: { method: 'PUT', path: '/entries/{id}/feedback', success: 204 },
  setEntrySaved: { method: 'PUT', path: '/entries/{id}/saved', success: 204 },

  listLibrary: { method: 'GET', path: '/library', success: 200, paged: true },
  saveLink: { method: 'POST', path: '/library', idempotent: true, success: 201 },
  getLibraryItem: { method: 'GET', path: '/library/{id}', success: 200 },
  updateLibraryItem: { method: 'PATCH', path: '/library/{id}', success: 204 },
  deleteLibraryItem: { method: 'DELETE', path: '/library/{id}', success: 204 },
  readLibraryText: { method: 'GET', path: '/library/{id}/text', success: 200 },
  uploadFile: { method: 'POST', path: '/library/files', idempotent: true, success: 201, binary: true },

  listDocs: { method: 'GET', path: '/docs', success: 200, paged: true },
  createDoc: { method: 'POST', path: '/docs', idempotent: true, success: 201 },
  searchDocs: { method: 'GET', path: '/docs/search', success: 200 },
  getDoc: { method: 'GET', path: '/docs/{id}', success: 200 },
  updateDoc: { method: 'PATCH', path: '/docs/{id}', success: 200 },
  deleteDoc: { method: 'DELETE', path: '/docs/{id}', success: 204 },
  editDoc: { method: 'POST', path: '/docs/{id}/edits', success: 200 },

  quoteMedia: { method: 'POST', path: '/media/quote', success: 200 },
  startMedia: { method: 'POST', path: '/media', idempotent: true, success: 202 },
  listMedia: { method: 'GET', path: '/media', success: 200, paged: true },
  getMedia: { method: 'GET', path: '/media/{id}', success: 200 },
  getTranscript: { method: 'GET', path: '/media/{id}/transcript', success: 200 },

  getAgent: { method: 'GET', path: '/agent', success: 200 },
  updateAgent: { method: 'PATCH', path: '/agent', success: 204 },
  getHome: { method: 'GET', path: '/home', success: 200 },

  listInbox: { method: 'GET', path: '/inbox', success: 200, paged: true },
  markInboxItem: { method: 'POST', path: '/inbox/{id}', success: 204 },

  listTasks: { method: 'GET', path: '/tasks', success: 200, paged: true },
  getTask: { method: 'GET', path: '/tasks/{id}', success: 200 },
  cancelTask: { method: 'POST', path: '/tasks/{id}/cancel', success: 200 },

  listConversations: { method: 'GET', path: '/conversations', success: 200, paged: true },
  getConversationMessages: { method: 'GET', path: '/conversations/{id}/messages', success: 200 },
  sendMessage: { method: 'POST', path: '/conversations/messages', idempotent: true, success: 202 },
  deleteConversation: { method: 'DELETE', path: '/conversations/{id}', success: 204 },

  decideAction: { method: 'POST', path: '/actions/{id}/decide', idempotent: true, success: 200 },
  undoAction: { method: 'POST', path: '/actions/{id}/undo', success: 200 },
} as const satisfies Record<string, OperationInfo>;

export type OperationId = keyof typeof operations;

export const operationIds = Object.keys(operations) as OperationId[];

/** `/spaces/{id}` + {id: 'a b'} → `/spaces/a%20b`. */
export function fillPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new Error(`missing path parameter ${name}`);
    // An id read from an answer of another shape (an object, null) is no id: never send "[object Object]".
    if (typeof value !== 'string' && typeof value !== 'number')
      throw new TypeError(`path parameter ${name} is not text`);
    // "." and ".." stay as they are in encodeURIComponent, and a URL resolves them: /docs/.. would be
    // another route of the API. Such an id (typed, or read from an answer) names nothing: refused, nothing sent.
    if (/^\.{1,2}$/.test(String(value))) {
      throw new UsageError(
        `"${String(value)}" cannot be used as the ${name} in a URL: it would name another path; nothing was sent`,
      );
    }
    return encodeURIComponent(value);
  });
}
