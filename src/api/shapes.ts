// The single source of shapes: every request body, query and resource of the
// contract, with its bounds. The TypeScript types, kagent's flag checks, the
// sandbox's request validation and the OpenAPI document all come from here.
// Where the contract says "not shown", the shape chosen is documented in
// docs/assumptions.md and marked `(assumed)` in its description.
import { Type, type Static, type TSchema } from '@sinclair/typebox';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Str = (min: number, max: number, extra: Record<string, unknown> = {}) =>
  Type.String({ minLength: min, maxLength: max, ...extra });
const Enum = <const T extends readonly string[]>(values: T, extra: Record<string, unknown> = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...extra });
const Ms = (description = 'Unix time in milliseconds') => Type.Integer({ description });
const DateTime = () => Type.String({ format: 'date-time' });
/** A calendar date, YYYY-MM-DD, that exists (not 2026-13-01 or 2026-02-30): checked by validate.ts. */
const CalendarDate = () => Type.String({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const assumed = (description: string) => ({ description: `${description} (assumed)` });

// ---------------------------------------------------------------- enums and bounds

export const LOCALES = ['zh', 'en'] as const;
export const Locale = Enum(LOCALES);
export type Locale = Static<typeof Locale>;

export const ACTION_STATUSES = ['pending', 'approved', 'rejected', 'expired', 'executed', 'failed', 'undone'] as const;
export const TOOL_RISKS = ['low', 'medium', 'high'] as const;
export const ARTIFACT_KINDS = ['media', 'doc', 'watch', 'issue', 'clip', 'task'] as const;
export const TASK_KINDS = ['watch_setup', 'brief', 'research', 'transcription', 'scheduled'] as const;
export const ACTIVE_TASK_STATUSES = ['queued', 'running', 'waiting'] as const;
export const TASK_STATUSES = [...ACTIVE_TASK_STATUSES, 'done', 'failed', 'cancelled'] as const;
export const MEDIA_STATUSES = ['queued', 'transcribing', 'summarizing', 'ready', 'failed'] as const;
export const LIBRARY_KINDS = ['entry', 'link', 'file', 'media'] as const;
export const WATCH_TYPES = ['topic', 'sources', 'pages'] as const;
export const VISIBILITIES = ['public', 'unlisted', 'private'] as const;
export const CADENCES = ['daily', 'weekly', 'off'] as const;
export const INBOX_FILTERS = ['all', 'unread', 'approval', 'task', 'brief'] as const;
export const INBOX_KINDS = ['approval', 'task', 'brief', 'alert', 'suggestion'] as const;
export const CONNECTION_STATES = ['available', 'pending', 'connected', 'expired'] as const;

/** Bounds that are not attached to a single field of a body. */
export const limits = {
  idempotencyKeyMax: 200,
  ratePerMinute: 60,
  idempotencyWindowMs: 24 * 60 * 60 * 1000,
  uploadNoteMax: 2000,
  queryMax: 200,
  cursorMax: 200,
  spaceFilter: { min: 1, max: 80 },
  textChunk: { min: 100, max: 50000, default: 8000 },
  memoryMax: 20000,
  /** X-File-Name, decoded (the contract states none; the sandbox's limit). */
  fileNameMax: 255,
} as const;

const SpaceRef = Str(1, 80);
const Cursor = Type.String({ maxLength: limits.cursorMax });
const Url = Type.String({ maxLength: 2048, format: 'uri' });
const PageSize = (max: number, def: number) => Type.Integer({ minimum: 1, maximum: max, default: def });

// ---------------------------------------------------------------- errors

export const Issue = Type.Object({ path: Type.String(), message: Type.String() });
export const ErrorEnvelope = Type.Object({
  error: Type.Object({
    code: Type.String(),
    message: Type.String(),
    issues: Type.Optional(Type.Array(Issue)),
  }),
});
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;

// ---------------------------------------------------------------- account and spaces

export const Me = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    name: Type.String(),
    emailVerified: Type.Boolean(),
    lang: Locale,
    plan: Type.Object({ id: Type.String(), name: Type.String() }),
    trial: Nullable(Type.Object({ active: Type.Boolean(), endsAt: Nullable(DateTime()) })),
    credits: Type.Object({
      total: Type.Number(),
      pools: Type.Array(
        Type.Object({
          pool: Type.String(),
          remaining: Type.Number(),
          total: Nullable(Type.Number()),
          resetsAt: Nullable(DateTime()),
        }),
      ),
    }),
    limits: Type.Object({
      follows: Type.Integer(),
      watchesPerMonth: Type.Integer(),
      fileBytes: Type.Integer(),
      storageBytes: Type.Integer(),
    }),
    usage: Type.Object({ follows: Type.Integer(), watchesThisMonth: Type.Integer(), storageBytes: Type.Integer() }),
  },
  assumed('the account: plan, trial, credits by pool, plan limits and what is used of them'),
);
export type Me = Static<typeof Me>;

export const Space = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    icon: Nullable(Type.String()),
    description: Type.String(),
    isDefault: Type.Boolean(),
    position: Type.Integer(),
    createdAt: DateTime(),
  },
  assumed('a space'),
);
export type Space = Static<typeof Space>;

export const CreateSpaceRequest = Type.Object({
  name: Str(1, 60),
  icon: Type.Optional(Nullable(Type.String({ maxLength: 16 }))),
  description: Type.Optional(Type.String({ maxLength: 300 })),
});
export type CreateSpaceRequest = Static<typeof CreateSpaceRequest>;

export const UpdateSpaceRequest = Type.Object(
  {
    name: Type.Optional(Str(1, 60)),
    icon: Type.Optional(Nullable(Type.String({ maxLength: 16 }))),
    description: Type.Optional(Type.String({ maxLength: 300 })),
    position: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000 })),
  },
  { minProperties: 1, ...assumed('at least one field') },
);
export type UpdateSpaceRequest = Static<typeof UpdateSpaceRequest>;

// ---------------------------------------------------------------- watches, briefs, entries

export const Evidence = Type.Object(
  {
    url: Type.String(),
    title: Type.String(),
    source: Type.String(),
    publishedAt: Nullable(DateTime()),
    excerpt: Type.String(),
  },
  assumed('a source backing a brief entry'),
);
export type Evidence = Static<typeof Evidence>;

export const BriefEntry = Type.Object({
  id: Type.String(),
  position: Type.Number(),
  importance: Type.Number(),
  category: Nullable(Type.String()),
  headline: Type.String(),
  summary: Type.String(),
  why: Type.String(),
  primaryUrl: Type.String(),
  mediaId: Nullable(Type.String()),
  feedback: Nullable(Enum(['up', 'down'])),
  saved: Type.Boolean(),
  evidence: Type.Array(Evidence),
});
export type BriefEntry = Static<typeof BriefEntry>;

export const Brief = Type.Object(
  {
    id: Type.String(),
    date: CalendarDate(),
    title: Type.String(),
    summary: Type.String(),
    lang: Locale,
    coversFrom: DateTime(),
    coversTo: DateTime(),
    createdAt: DateTime(),
    entries: Type.Array(BriefEntry),
  },
  assumed('one brief of a watch'),
);
export type Brief = Static<typeof Brief>;

export const BriefRef = Type.Object(
  { id: Type.String(), date: Type.String(), title: Type.String(), entryCount: Type.Integer(), createdAt: DateTime() },
  assumed('a brief without its entries'),
);
export type BriefRef = Static<typeof BriefRef>;

export const Watch = Type.Object(
  {
    slug: Type.String(),
    title: Type.String(),
    intent: Type.String(),
    type: Enum(WATCH_TYPES),
    cadence: Enum(CADENCES),
    visibility: Enum(VISIBILITIES),
    lang: Locale,
    urls: Type.Array(Type.String()),
    alerts: Type.Array(Type.String()),
    owner: Type.Boolean(),
    following: Type.Boolean(),
    spaceId: Nullable(Type.String()),
    followers: Type.Integer(),
    status: Enum(['setting_up', 'active', 'failed']),
    createdAt: DateTime(),
  },
  assumed('a watch'),
);
export type Watch = Static<typeof Watch>;

export const FollowedWatch = Type.Object(
  {
    slug: Type.String(),
    title: Type.String(),
    intent: Type.String(),
    type: Enum(WATCH_TYPES),
    cadence: Enum(CADENCES),
    owner: Type.Boolean(),
    spaceId: Nullable(Type.String()),
    followedAt: DateTime(),
    latestBrief: Nullable(BriefRef),
  },
  assumed('a followed watch with its latest brief'),
);
export type FollowedWatch = Static<typeof FollowedWatch>;

export const WatchCard = Type.Object(
  {
    slug: Type.String(),
    title: Type.String(),
    intent: Type.String(),
    type: Enum(WATCH_TYPES),
    cadence: Enum(CADENCES),
    followers: Type.Integer(),
    lastBriefAt: Nullable(DateTime()),
  },
  assumed('a public watch found by search'),
);
export type WatchCard = Static<typeof WatchCard>;

export const WatchPage = Type.Object(
  {
    watch: Watch,
    brief: Nullable(Brief),
    archive: Type.Array(BriefRef),
    method: Type.Object({
      summary: Type.String(),
      sources: Type.Array(Type.Object({ url: Type.String(), title: Type.String() })),
    }),
  },
  assumed('one brief (latest or of a date), the archive and the method'),
);
export type WatchPage = Static<typeof WatchPage>;

export const Knowledge = Type.Object(
  {
    slug: Type.String(),
    report: Nullable(Type.Object({ week: Type.String(), markdown: Type.String(), createdAt: DateTime() })),
    timeline: Type.Array(
      Type.Object({
        date: Type.String(),
        headline: Type.String(),
        importance: Type.Number(),
        entryId: Type.String(),
        url: Type.String(),
      }),
    ),
  },
  assumed('latest weekly report and timeline of important items'),
);
export type Knowledge = Static<typeof Knowledge>;

export const IssueSummary = Type.Object(
  {
    id: Type.String(),
    date: Type.String(),
    title: Type.String(),
    entryCount: Type.Integer(),
    headlines: Type.Array(Type.String()),
    createdAt: DateTime(),
  },
  assumed('one issue (brief) of a watch'),
);
export type IssueSummary = Static<typeof IssueSummary>;

export const CreateWatchRequest = Type.Object({
  intent: Str(2, 200, { description: 'one sentence on what to track' }),
  lang: Type.Optional(Locale),
  visibility: Type.Optional(Enum(VISIBILITIES, { default: 'public' })),
  spaceId: Type.Optional(Nullable(SpaceRef)),
  type: Type.Optional(Enum(WATCH_TYPES, { default: 'topic' })),
  urls: Type.Optional(Type.Array(Url, { maxItems: 20 })),
  cadence: Type.Optional(Enum(CADENCES, { default: 'daily' })),
  alerts: Type.Optional(Type.Array(Str(2, 200), { maxItems: 5 })),
});
export type CreateWatchRequest = Static<typeof CreateWatchRequest>;

export const WatchCreated = Type.Object(
  { slug: Type.String(), taskId: Type.String(), watch: Watch },
  assumed('the new watch and the task that sets it up'),
);
export type WatchCreated = Static<typeof WatchCreated>;

export const FollowRequest = Type.Object(
  { spaceId: Type.Optional(Nullable(SpaceRef)) },
  assumed('the space to follow into'),
);
export type FollowRequest = Static<typeof FollowRequest>;

export const FollowState = Type.Object(
  { slug: Type.String(), following: Type.Boolean(), spaceId: Nullable(Type.String()), followers: Type.Integer() },
  assumed('whether the caller follows the watch, and where'),
);
export type FollowState = Static<typeof FollowState>;

export const WatchSettingsRequest = Type.Object(
  { cadence: Type.Optional(Enum(CADENCES)), alerts: Type.Optional(Type.Array(Str(2, 200), { maxItems: 5 })) },
  { minProperties: 1, ...assumed('cadence and/or alerts') },
);
export type WatchSettingsRequest = Static<typeof WatchSettingsRequest>;

export const EntryFeedbackRequest = Type.Object({ feedback: Nullable(Enum(['up', 'down'])) });
export type EntryFeedbackRequest = Static<typeof EntryFeedbackRequest>;

export const EntrySavedRequest = Type.Object({ saved: Type.Boolean() });
export type EntrySavedRequest = Static<typeof EntrySavedRequest>;

// ---------------------------------------------------------------- library

export const LibraryItem = Type.Object(
  {
    id: Type.String(),
    kind: Enum(LIBRARY_KINDS),
    title: Type.String(),
    url: Nullable(Type.String()),
    note: Nullable(Type.String()),
    spaceId: Nullable(Type.String()),
    status: Enum(['processing', 'ready', 'failed']),
    summary: Nullable(Type.String()),
    keyPoints: Type.Array(Type.String()),
    fileName: Nullable(Type.String()),
    mime: Nullable(Type.String()),
    size: Nullable(Type.Integer()),
    sha256: Nullable(Type.String()),
    entryId: Nullable(Type.String()),
    mediaId: Nullable(Type.String()),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  assumed('a library item'),
);
export type LibraryItem = Static<typeof LibraryItem>;

export const SaveLinkRequest = Type.Object({
  url: Url,
  note: Type.Optional(Type.String({ maxLength: limits.uploadNoteMax })),
  spaceId: Type.Optional(Nullable(SpaceRef)),
  lang: Type.Optional(Locale),
});
export type SaveLinkRequest = Static<typeof SaveLinkRequest>;

export const LinkSaved = Type.Object(
  { media: Type.Boolean(), item: Nullable(LibraryItem) },
  assumed('the saved item; for video and podcast links media=true and nothing is saved'),
);
export type LinkSaved = Static<typeof LinkSaved>;

export const FileSaved = Type.Object(
  { item: LibraryItem, duplicate: Type.Boolean() },
  assumed('the saved file; duplicate=true when the same bytes were already in the library'),
);
export type FileSaved = Static<typeof FileSaved>;

export const UpdateLibraryItemRequest = Type.Object(
  {
    note: Type.Optional(Nullable(Type.String({ maxLength: limits.uploadNoteMax }))),
    spaceId: Type.Optional(SpaceRef),
    space: Type.Optional(Str(1, 80, { description: 'the same as spaceId (the contract names this field "space")' })),
  },
  { minProperties: 1, ...assumed('note and/or space') },
);
export type UpdateLibraryItemRequest = Static<typeof UpdateLibraryItemRequest>;

export const LibraryText = Type.Object(
  {
    id: Type.String(),
    offset: Type.Integer(),
    limit: Type.Integer(),
    total: Type.Integer(),
    text: Type.String(),
    nextOffset: Nullable(Type.Integer()),
  },
  assumed("one chunk of an uploaded file's text"),
);
export type LibraryText = Static<typeof LibraryText>;

// ---------------------------------------------------------------- docs

const DocSpace = Type.Object({
  id: Type.String(),
  name: Type.String(),
  icon: Nullable(Type.String()),
  isDefault: Type.Boolean(),
});

export const Doc = Type.Object({
  id: Type.String(),
  title: Type.String(),
  body: Type.String(),
  revision: Type.Number(),
  origin: Type.String(),
  folderId: Nullable(Type.String()),
  updatedAt: DateTime(),
  space: Nullable(DocSpace),
  publication: Nullable(Type.Object({ url: Type.String(), siteId: Type.String(), updatedAt: DateTime() })),
});
export type Doc = Static<typeof Doc>;

export const DocCreated = Type.Object({ id: Type.String(), revision: Type.Number() });
export type DocCreated = Static<typeof DocCreated>;
export const DocHit = Type.Object({
  id: Type.String(),
  title: Type.String(),
  spaceId: Type.String(),
  excerpt: Type.String(),
  updatedAt: DateTime(),
});
export type DocHit = Static<typeof DocHit>;
export const DocSummary = Type.Object({
  id: Type.String(),
  title: Type.String(),
  spaceId: Type.String(),
  folderId: Nullable(Type.String()),
  revision: Type.Number(),
  updatedAt: DateTime(),
});
export type DocSummary = Static<typeof DocSummary>;

export const CreateDocRequest = Type.Object({
  title: Type.Optional(Type.String({ maxLength: 200, default: '' })),
  markdown: Type.Optional(Type.String({ maxLength: 500000, default: '', description: 'no front matter' })),
  spaceId: Type.Optional(Nullable(SpaceRef)),
  folderId: Type.Optional(Nullable(Str(1, 80))),
});
export type CreateDocRequest = Static<typeof CreateDocRequest>;

export const UpdateDocRequest = Type.Object(
  {
    title: Type.Optional(Type.String({ maxLength: 200 })),
    body: Type.Optional(Type.String({ maxLength: 500000 })),
    baseRevision: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  assumed('title and/or body, with the revision they were read at'),
);
export type UpdateDocRequest = Static<typeof UpdateDocRequest>;

export const EditOp = Type.Union([
  Type.Object({ op: Type.Literal('replace'), find: Str(1, 20000), replace: Type.String({ maxLength: 40000 }) }),
  Type.Object({ op: Type.Literal('insert_after'), after: Str(1, 4000), content: Str(1, 40000) }),
  Type.Object({ op: Type.Literal('append'), content: Str(1, 40000) }),
  Type.Object({ op: Type.Literal('prepend'), content: Str(1, 40000) }),
  Type.Object({
    op: Type.Literal('rewrite'),
    content: Type.String({ maxLength: 500000, ...assumed('the whole new body') }),
  }),
]);
export type EditOp = Static<typeof EditOp>;

export const EditDocRequest = Type.Object({
  edits: Type.Array(EditOp, { minItems: 1, maxItems: 20 }),
  revision: Type.Optional(Type.Integer({ minimum: 1 })),
});
export type EditDocRequest = Static<typeof EditDocRequest>;

export const Revision = Type.Object(
  { id: Type.String(), revision: Type.Number(), updatedAt: DateTime() },
  assumed('the saved revision'),
);
export type Revision = Static<typeof Revision>;

export const RevisionConflict = Type.Object(
  {
    error: Type.Object({ code: Type.Literal('REVISION_CONFLICT'), message: Type.String() }),
    latest: Type.Object({ revision: Type.Number(), title: Type.String(), body: Type.String(), updatedAt: DateTime() }),
  },
  assumed('the error envelope plus the current revision and content'),
);
export type RevisionConflict = Static<typeof RevisionConflict>;

// ---------------------------------------------------------------- media

export const QuoteMediaRequest = Type.Object({ url: Url });
export type QuoteMediaRequest = Static<typeof QuoteMediaRequest>;

export const MediaQuote = Type.Object(
  {
    url: Type.String(),
    title: Type.String(),
    kind: Enum(['video', 'podcast']),
    durationSec: Type.Number(),
    minutes: Type.Integer(),
    pricePerMinute: Type.Number(),
    credits: Type.Number(),
  },
  assumed('duration and credit cost'),
);
export type MediaQuote = Static<typeof MediaQuote>;

export const StartMediaRequest = Type.Object({
  url: Url,
  lang: Type.Optional(Locale),
  spaceId: Type.Optional(Nullable(SpaceRef)),
});
export type StartMediaRequest = Static<typeof StartMediaRequest>;

export const MediaStarted = Type.Object(
  { mediaId: Type.String(), taskId: Type.String(), credits: Type.Number() },
  assumed('the media item and the task transcribing it'),
);
export type MediaStarted = Static<typeof MediaStarted>;

export const MediaItem = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    url: Type.String(),
    kind: Enum(['video', 'podcast']),
    status: Enum(MEDIA_STATUSES),
    durationSec: Type.Number(),
    spaceId: Nullable(Type.String()),
    createdAt: DateTime(),
  },
  assumed('a saved video or podcast'),
);
export type MediaItem = Static<typeof MediaItem>;

export const Segment = Type.Object({
  start: Type.Number(),
  end: Type.Number(),
  text: Type.String(),
  revision: Type.Integer(),
});
export type Segment = Static<typeof Segment>;

export const MediaPage = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    url: Type.String(),
    kind: Enum(['video', 'podcast']),
    status: Enum(MEDIA_STATUSES),
    lang: Locale,
    durationSec: Type.Number(),
    revision: Type.Integer({ description: 'grows as segments arrive; pass it back as `after`' }),
    taskId: Nullable(Type.String()),
    summary: Nullable(Type.String()),
    chapters: Type.Array(Type.Object({ start: Type.Number(), title: Type.String() })),
    segments: Type.Array(Segment),
    createdAt: DateTime(),
  },
  assumed('status, summary, chapters and transcript segments'),
);
export type MediaPage = Static<typeof MediaPage>;

export const Transcript = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    lang: Locale,
    from: Type.Number(),
    to: Type.Number(),
    markdown: Type.String(),
  },
  assumed('summary and transcript as Markdown with timestamp links'),
);
export type Transcript = Static<typeof Transcript>;

// ---------------------------------------------------------------- agent, actions, tasks

export const Agent = Type.Object({
  name: Type.String(),
  memory: Type.String(),
  memoryMax: Type.Number(),
  address: Type.String(),
});
export type Agent = Static<typeof Agent>;

export const UpdateAgentRequest = Type.Object(
  { name: Type.Optional(Str(1, 60)), memory: Type.Optional(Type.String({ maxLength: limits.memoryMax })) },
  { minProperties: 1, ...assumed('name and/or memory') },
);
export type UpdateAgentRequest = Static<typeof UpdateAgentRequest>;

export const Action = Type.Object({
  id: Type.String(),
  tool: Type.String(),
  risk: Enum(TOOL_RISKS, assumed('risk level')),
  title: Type.String(),
  status: Enum(ACTION_STATUSES),
  preview: Nullable(Type.Record(Type.String(), Type.Unknown())),
  ruleScope: Nullable(Type.String()),
  undoUntil: Nullable(Ms('end of the undo window')),
  conversationId: Nullable(Type.String()),
  taskId: Nullable(Type.String()),
  createdAt: Ms(),
});
export type Action = Static<typeof Action>;

export const DecideActionRequest = Type.Object({
  approve: Type.Boolean(),
  remember: Type.Optional(Type.Boolean({ default: false })),
});
export type DecideActionRequest = Static<typeof DecideActionRequest>;

export const Task = Type.Object(
  {
    id: Type.String(),
    kind: Enum(TASK_KINDS),
    title: Type.String(),
    status: Enum(TASK_STATUSES),
    spaceId: Nullable(Type.String()),
    progress: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
    createdAt: DateTime(),
    updatedAt: DateTime(),
    finishedAt: Nullable(DateTime()),
  },
  assumed('a background task'),
);
export type Task = Static<typeof Task>;

export const Milestone = Type.Object(
  {
    id: Type.String(),
    kind: Enum(['plan', 'step', 'output']),
    title: Type.String(),
    status: Enum(['pending', 'running', 'done', 'failed', 'skipped']),
    detail: Nullable(Type.String()),
    at: Nullable(DateTime()),
  },
  assumed('one milestone of a task'),
);
export type Milestone = Static<typeof Milestone>;

export const TaskDetail = Type.Composite(
  [
    Task,
    Type.Object({
      milestones: Type.Array(Milestone),
      waitingOn: Type.Array(Action),
      result: Nullable(Type.Object({ kind: Enum(ARTIFACT_KINDS), id: Type.String(), href: Type.String() })),
    }),
  ],
  assumed('a task with its milestones and the actions it waits on'),
);
export type TaskDetail = Static<typeof TaskDetail>;

// ---------------------------------------------------------------- conversations

export const ArtifactChange = Type.Object({
  kind: Enum(ARTIFACT_KINDS),
  id: Type.String(),
  title: Type.String(),
  action: Enum(['created', 'updated']),
  href: Type.String(),
  note: Type.Optional(Type.String()),
  pending: Type.Optional(Type.Boolean()),
  outcome: Type.Optional(Enum(['done', 'failed'])),
  actionIds: Type.Array(Type.String()),
  undoUntil: Nullable(Ms()),
  undone: Type.Optional(Type.Boolean()),
});
export type ArtifactChange = Static<typeof ArtifactChange>;

export const ConnectCard = Type.Object({
  connector: Type.String(),
  name: Type.String(),
  logo: Nullable(Type.String()),
  reason: Type.String(),
  recipe: Nullable(Type.Object({ id: Type.String(), title: Type.String(), body: Type.String() })),
  access: Type.String(),
  href: Type.String(),
  waitId: Nullable(Type.String()),
  state: Enum(CONNECTION_STATES),
});

export const ChatPart = Type.Union([
  Type.Object({ type: Type.Literal('text'), text: Type.String() }),
  Type.Object({
    type: Type.Literal('files'),
    items: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), mime: Type.String(), url: Type.String() })),
  }),
  Type.Object({
    type: Type.Literal('tool'),
    id: Type.String(),
    name: Type.String(),
    label: Type.String(),
    status: Enum(['running', 'done', 'error']),
  }),
  Type.Object({
    type: Type.Literal('citations'),
    items: Type.Array(
      Type.Object({ n: Type.Number(), title: Type.String(), url: Type.String(), source: Type.String() }),
    ),
  }),
  Type.Object({ type: Type.Literal('action'), action: Action }),
  Type.Object({ type: Type.Literal('task'), taskId: Type.String(), kind: Enum(TASK_KINDS), title: Type.String() }),
  Type.Object({ type: Type.Literal('media'), mediaId: Type.String(), title: Type.String() }),
  Type.Object({ type: Type.Literal('changes'), items: Type.Array(ArtifactChange) }),
  Type.Object({ type: Type.Literal('memory'), text: Type.String(), actionId: Type.String() }),
  Type.Object({
    type: Type.Literal('choice'),
    id: Type.String(),
    question: Type.String(),
    options: Type.Array(Type.Object({ id: Type.String(), label: Type.String(), hint: Type.Optional(Type.String()) })),
  }),
  Type.Object({ type: Type.Literal('connect'), card: ConnectCard }),
]);
export type ChatPart = Static<typeof ChatPart>;

export const ContextRef = Type.Object({ kind: Enum(['watch', 'doc', 'media']), id: Type.String({ maxLength: 40 }) });
export const PageContext = Type.Object(
  {
    path: Type.Optional(Type.String({ maxLength: 2048 })),
    refs: Type.Optional(Type.Array(ContextRef, { maxItems: 10 })),
  },
  assumed('what the user was looking at'),
);

export const ChatMessage = Type.Object({
  id: Type.String(),
  conversationId: Type.String(),
  role: Enum(['user', 'assistant']),
  parts: Type.Array(ChatPart),
  context: Type.Optional(PageContext),
  credits: Type.Optional(Type.Number()),
  createdAt: Ms(),
});
export type ChatMessage = Static<typeof ChatMessage>;

export const Conversation = Type.Object({
  id: Type.String(),
  title: Type.String(),
  spaceId: Nullable(Type.String()),
  channel: Type.String(),
  preview: Type.String(),
  messageCount: Type.Number(),
  updatedAt: Ms(),
  running: Type.Boolean(),
});
export type Conversation = Static<typeof Conversation>;

export const Messages = Type.Object(
  { conversation: Conversation, messages: Type.Array(ChatMessage) },
  assumed('a conversation plus messages'),
);
export type Messages = Static<typeof Messages>;

export const SendMessageRequest = Type.Object(
  {
    text: Str(1, 20000),
    conversationId: Type.Optional(Str(1, 80)),
    spaceId: Type.Optional(Nullable(SpaceRef)),
    lang: Type.Optional(Locale),
    context: Type.Optional(PageContext),
  },
  assumed('the message'),
);
export type SendMessageRequest = Static<typeof SendMessageRequest>;

export const TurnStarted = Type.Object(
  {
    conversationId: Type.String(),
    messageId: Type.String({ description: "id of the agent's reply" }),
    userMessageId: Type.String(),
  },
  assumed("conversation id and the id of the agent's reply"),
);
export type TurnStarted = Static<typeof TurnStarted>;

// ---------------------------------------------------------------- inbox and home

export const InboxItem = Type.Object(
  {
    id: Type.String(),
    kind: Enum(INBOX_KINDS),
    title: Type.String(),
    body: Type.String(),
    read: Type.Boolean(),
    done: Type.Boolean(),
    dismissed: Type.Boolean(),
    action: Nullable(Action),
    taskId: Nullable(Type.String()),
    watchSlug: Nullable(Type.String()),
    briefId: Nullable(Type.String()),
    createdAt: DateTime(),
  },
  assumed('one inbox item'),
);
export type InboxItem = Static<typeof InboxItem>;

export const Inbox = Type.Object(
  { items: Type.Array(InboxItem), nextCursor: Nullable(Type.String()), unread: Type.Integer() },
  assumed('inbox items, actions waiting first'),
);
export type Inbox = Static<typeof Inbox>;

export const MarkInboxRequest = Type.Object(
  {
    read: Type.Optional(Type.Boolean()),
    done: Type.Optional(Type.Boolean()),
    dismissed: Type.Optional(Type.Boolean()),
  },
  { minProperties: 1, ...assumed('read, done and/or dismissed') },
);
export type MarkInboxRequest = Static<typeof MarkInboxRequest>;

export const Suggestion = Type.Object(
  { id: Type.String(), text: Type.String(), prompt: Type.String() },
  assumed('a suggestion'),
);

export const Home = Type.Object(
  {
    agent: Type.Object({ name: Type.String() }),
    read: Type.Array(LibraryItem),
    briefs: Type.Array(Type.Object({ slug: Type.String(), watchTitle: Type.String(), brief: BriefRef })),
    tasks: Type.Array(Task),
    actions: Type.Array(Action),
    suggestions: Type.Array(Suggestion),
    inbox: Type.Object({ unread: Type.Integer(), items: Type.Array(InboxItem) }),
    conversations: Type.Array(Conversation),
  },
  assumed('the home overview'),
);
export type Home = Static<typeof Home>;

// ---------------------------------------------------------------- lists

export const ItemsOf = <T extends TSchema>(item: T) => Type.Object({ items: Type.Array(item) });
export const PageOf = <T extends TSchema>(item: T) =>
  Type.Object({ items: Type.Array(item), nextCursor: Nullable(Type.String()) });
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

// ---------------------------------------------------------------- queries

export const Queries = {
  searchWatches: Type.Object({ q: Str(1, limits.queryMax) }),
  getWatch: Type.Object({
    date: Type.Optional(CalendarDate()),
    lang: Type.Optional(Locale),
  }),
  listWatchIssues: Type.Object({ limit: Type.Optional(PageSize(100, 30)), cursor: Type.Optional(Cursor) }),
  listLibrary: Type.Object({
    space: Type.Optional(SpaceRef),
    kind: Type.Optional(Enum(LIBRARY_KINDS)),
    q: Type.Optional(Type.String({ maxLength: limits.queryMax })),
    limit: Type.Optional(PageSize(200, 50)),
    cursor: Type.Optional(Cursor),
  }),
  readLibraryText: Type.Object({
    offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
    limit: Type.Optional(
      Type.Integer({ minimum: limits.textChunk.min, maximum: limits.textChunk.max, default: limits.textChunk.default }),
    ),
  }),
  uploadFile: Type.Object({
    space: Type.Optional(SpaceRef),
    note: Type.Optional(Type.String({ maxLength: limits.uploadNoteMax })),
    lang: Type.Optional(Locale),
  }),
  listDocs: Type.Object({
    space: Type.Optional(SpaceRef),
    limit: Type.Optional(PageSize(500, 100)),
    cursor: Type.Optional(Cursor),
  }),
  searchDocs: Type.Object({ q: Str(1, limits.queryMax) }),
  listMedia: Type.Object({
    space: Type.Optional(SpaceRef),
    limit: Type.Optional(PageSize(200, 50)),
    cursor: Type.Optional(Cursor),
  }),
  getMedia: Type.Object({ lang: Type.Optional(Locale), after: Type.Optional(Type.Integer({ minimum: 0 })) }),
  getTranscript: Type.Object({
    lang: Type.Optional(Locale),
    from: Type.Optional(Type.Number({ minimum: 0 })),
    to: Type.Optional(Type.Number({ minimum: 0 })),
  }),
  listInbox: Type.Object({
    filter: Type.Optional(Enum(INBOX_FILTERS, { default: 'all' })),
    cursor: Type.Optional(Cursor),
  }),
  listTasks: Type.Object({
    space: Type.Optional(SpaceRef),
    active: Type.Optional(Enum(['true', 'false'])),
    kind: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'a TaskKind' })),
    limit: Type.Optional(PageSize(100, 30)),
    cursor: Type.Optional(Cursor),
  }),
  listConversations: Type.Object({
    space: Type.Optional(SpaceRef),
    limit: Type.Optional(PageSize(100, 30)),
    cursor: Type.Optional(Cursor),
  }),
  getConversationMessages: Type.Object({ limit: Type.Optional(PageSize(200, 60)) }),
} as const;
