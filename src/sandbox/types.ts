// The sandbox's state model and the shape of a route handler. Stored records are
// the API's own resource objects (from shapes.ts) plus internal fields starting
// with "_", which `publicView` strips before anything is sent.
import type { IncomingMessage } from 'node:http';
import type { OperationId } from '../api/operations.js';
import type * as S from '../api/shapes.js';
import type { SandboxClock } from './clock.js';
import type { SandboxOptions as PublicOptions } from './public.js';

export interface State {
  version: 1;
  seed: number;
  /** Counter behind every generated id: ids are deterministic for a seed. */
  seq: number;
  accounts: Record<string, Account>;
  /** API key → account id. */
  keys: Record<string, string>;
  /** Watches are global: public ones are found by search and followed by anyone. */
  watches: Record<string, WatchRecord>;
  /** Briefs by id (each belongs to one watch). */
  briefs: Record<string, S.Brief & { _slug: string }>;
  /** Background work, run in order of sandbox time (see scheduler in world.ts). */
  events: ScheduledEvent[];
  /** `${accountId} ${operationId} ${key}` → the first call's outcome. */
  idempotency: Record<string, IdempotencyRecord>;
  /** Sandbox milliseconds added by `clock/advance`, persisted with the state. */
  clockAdvancedMs: number;
  /** Sandbox time and real time when the state was last written: a reload resumes the clock from there. */
  clockSavedAt?: { sandbox: number; real: number };
}

export interface ScheduledEvent {
  id: string;
  at: number;
  kind: string;
  accountId: string | null;
  data: Record<string, unknown>;
}

export interface IdempotencyRecord {
  fingerprint: string;
  status: 'running' | 'done';
  at: number;
  response?: { status: number; headers: Record<string, string>; body: unknown };
}

export interface CreditPool {
  pool: string;
  remaining: number;
  total: number | null;
  resetsAt: string | null;
}

export interface Account {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  lang: S.Locale;
  plan: { id: string; name: string };
  trial: { active: boolean; endsAt: string | null } | null;
  credits: CreditPool[];
  limits: S.Me['limits'];
  /** `YYYY-MM` → watches created that month. */
  watchesByMonth: Record<string, number>;
  storageUsed: number;
  createdAt: string;

  spaces: S.Space[];
  /** slug → where and since when this account follows the watch. */
  follows: Record<string, { spaceId: string | null; followedAt: string }>;
  /** entry id → this account's feedback / saved flag. */
  entryState: Record<string, { feedback: 'up' | 'down' | null; saved: boolean }>;
  library: LibraryRecord[];
  docs: DocRecord[];
  media: MediaRecord[];
  agent: { name: string; memory: string; address: string };
  inbox: S.InboxItem[];
  tasks: TaskRecord[];
  actions: ActionRecord[];
  conversations: S.Conversation[];
  messages: Record<string, S.ChatMessage[]>;
  /** Rule scopes allowed with `remember: true`. */
  rules: string[];
  /**
   * Library item fields left out of every answer (set through the admin routes): a service
   * that does not send them, such as `fileName` or `sha256` (the contract does not show them).
   */
  hideFields?: string[];
}

export type WatchRecord = Omit<S.Watch, 'owner' | 'following' | 'spaceId' | 'followers'> & {
  _ownerId: string;
  /** Brief ids, oldest first. */
  _briefIds: string[];
  _taskId: string | null;
  _methodSummary: string;
};

export type LibraryRecord = S.LibraryItem & {
  /** Where an uploaded file's bytes and extracted text live on disk (relative to the blob dir). */
  _blob?: string;
  _textFile?: string;
  _textLength?: number;
};

export type DocRecord = Omit<S.Doc, 'space'> & { spaceId: string; _deleted?: boolean };
export type MediaRecord = Omit<S.MediaPage, 'segments'> & {
  spaceId: string | null;
  _segments: S.Segment[];
  _credits: number;
};
export type TaskRecord = S.TaskDetail & { _milestonePlan?: unknown };
export type ActionRecord = S.Action & { _undo?: Record<string, unknown>; _execute?: Record<string, unknown> };

export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** What a route handler receives: validated input and the world it acts on. */
export interface RouteRequest {
  op: OperationId;
  params: Record<string, string>;
  query: Record<string, any>;
  body: any;
  account: Account;
  /** The raw request, for binary bodies (uploadFile) read as a stream. */
  raw: IncomingMessage;
  headers: IncomingMessage['headers'];
  idempotencyKey: string | undefined;
  world: import('./world.js').World;
}

export type Handler = (req: RouteRequest) => Reply | Promise<Reply>;
export type Routes = Partial<Record<OperationId, Handler>>;

/** Background job: runs when its event comes due on the sandbox clock. */
export type Job = (world: import('./world.js').World, event: ScheduledEvent) => void;
export type Jobs = Record<string, Job>;

/** Thrown by handlers: becomes the error envelope `{error:{code,message,issues?}, ...extra}`. */
export class HttpFail extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The public options (public.ts) and what only kagent's own command passes. */
export interface SandboxOptions extends PublicOptions {
  /** Where warnings go even when `quiet` (a PDF that cannot be read, say); stderr by default. */
  warn?: (line: string) => void;
  /** Load the file parsers at start and warn (through `warn`) when one cannot load: `kagent sandbox` does. */
  checkExtractors?: boolean;
}

export type { SandboxClock };
