// The world: state, clock, deterministic ids and randomness, the scheduler of
// background work, accounts, persistence, and small helpers every route uses.
import { createHash, randomBytes } from 'node:crypto';
import type { Space } from '../api/shapes.js';
import { SandboxClock } from './clock.js';
import { ChangeTracker } from './changes.js';
import { blobFile, strayBlobPath } from './blobs.js';
import { Journal, loadState, STATE_VERSION, StateFileError } from './journal.js';
import { HttpFail, type Account, type Jobs, type ScheduledEvent, type State } from './types.js';

export const DEFAULT_LIMITS: Account['limits'] = {
  follows: 20,
  watchesPerMonth: 10,
  fileBytes: 100 * 1024 * 1024,
  storageBytes: 10 * 1024 * 1024 * 1024,
};
export const DEFAULT_CREDITS = 1000;

/**
 * A record keyed by ids, keys or names that come from requests: without a prototype, so
 * that `__proto__` or `constructor` is just a key that is not there (never
 * Object.prototype, which a PATCH would then pollute for every object).
 */
export function dictionary<T>(entries: Record<string, T> = {}): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  for (const key of Object.keys(entries))
    Object.defineProperty(out, key, { value: entries[key], writable: true, enumerable: true, configurable: true });
  return out;
}

/** A loaded state's records keyed by ids, made dictionaries (JSON.parse gives plain objects). */
function withOwnKeysOnly(state: State): State {
  state.accounts = dictionary(state.accounts);
  state.keys = dictionary(state.keys);
  state.watches = dictionary(state.watches);
  state.briefs = dictionary(state.briefs);
  state.idempotency = dictionary(state.idempotency);
  for (const account of Object.values(state.accounts)) {
    account.watchesByMonth = dictionary(account.watchesByMonth);
    account.follows = dictionary(account.follows);
    account.entryState = dictionary(account.entryState);
    account.messages = dictionary(account.messages);
  }
  return state;
}

export class World {
  /** The state; with --state, a tracking view of it (see journal.ts) once the journal is open. */
  state: State;
  readonly clock: SandboxClock;
  private readonly jobs: Jobs = dictionary();
  private running = false;
  private journal: Journal | undefined;
  private tracker: ChangeTracker | undefined;
  /** Says something the person running the sandbox must see (startSandbox's `warn`). */
  warn: (line: string) => void = (line) => process.stderr.write(`warning: ${line}\n`);

  constructor(
    state: State,
    clock: SandboxClock,
    readonly blobDir: string,
    private readonly stateFile: string | undefined,
    /** The generation of the snapshot the state was loaded from (0 for a new one). */
    private readonly generation = 0,
  ) {
    this.state = state;
    this.clock = clock;
  }

  static create(options: { seed: number; start: number; speed: number; blobDir: string; stateFile?: string }): World {
    const stored = options.stateFile ? loadState(options.stateFile) : undefined;
    const loaded = stored?.state && withOwnKeysOnly(stored.state);
    const stray = loaded && strayBlobPath(loaded, options.blobDir);
    if (stray)
      throw new StateFileError(
        `cannot use sandbox state ${options.stateFile}: item ${stray.itemId} names the file ${JSON.stringify(stray.path)}, which ${stray.reason} ${options.blobDir}; the file was left as it is`,
        'STATE_UNREADABLE',
      );
    const state: State = loaded ?? {
      version: STATE_VERSION,
      seed: options.seed,
      seq: 0,
      accounts: dictionary(),
      keys: dictionary(),
      watches: dictionary(),
      briefs: dictionary(),
      events: [],
      idempotency: dictionary(),
      clockAdvancedMs: 0,
    };
    // A reloaded sandbox resumes its clock where it stopped (plus the real time it was down),
    // so sandbox time never runs backwards across a restart.
    const saved = loaded?.clockSavedAt;
    if (saved) state.clockAdvancedMs = 0;
    const start = saved ? saved.sandbox + Math.max(0, Date.now() - saved.real) : options.start;
    const clock = new SandboxClock(start, options.speed, state.clockAdvancedMs);
    return new World(state, clock, options.blobDir, options.stateFile, stored?.generation ?? 0);
  }

  /** The absolute path of a file stored in the blob folder (see blobs.ts: never outside it). */
  blobFile(stored: string): string {
    return blobFile(this.blobDir, stored);
  }

  // ------------------------------------------------------------ ids and randomness

  /** A deterministic, opaque-looking id: `sp_3k9x8q2m7d`. */
  id(prefix: string): string {
    const n = ++this.state.seq;
    const hash = createHash('sha256').update(`${this.state.seed}:${n}`).digest();
    let out = '';
    for (let i = 0; i < 10; i++) out += 'abcdefghijkmnpqrstuvwxyz23456789'[(hash[i] ?? 0) % 32];
    return `${prefix}_${out}`;
  }

  /** A seeded random number generator for one purpose: the same seed and label give the same sequence. */
  rng(label: string): () => number {
    let h = createHash('sha256').update(`${this.state.seed}:${label}`).digest().readUInt32LE(0);
    return () => {
      // mulberry32
      h = (h + 0x6d2b79f5) | 0;
      let t = Math.imul(h ^ (h >>> 15), 1 | h);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  /** While a job runs, "now" is the time its event came due, so what it writes is stamped exactly, whenever it actually runs. */
  private jobTime: number | undefined;

  now(): number {
    return this.jobTime ?? this.clock.now();
  }

  iso(ms = this.now()): string {
    return this.clock.iso(ms);
  }

  // ------------------------------------------------------------ background work

  registerJobs(jobs: Jobs): void {
    Object.assign(this.jobs, jobs);
  }

  schedule(at: number, kind: string, accountId: string | null, data: Record<string, unknown> = {}): ScheduledEvent {
    if (!this.jobs[kind]) throw new Error(`no job named ${kind}`);
    const event: ScheduledEvent = { id: this.id('ev'), at, kind, accountId, data };
    // Keep events sorted by time, then by creation order, so runs are deterministic.
    const i = this.state.events.findIndex((e) => e.at > at);
    if (i === -1) this.state.events.push(event);
    else this.state.events.splice(i, 0, event);
    this.changed();
    return event;
  }

  cancelEvents(match: (event: ScheduledEvent) => boolean): void {
    this.state.events = this.state.events.filter((e) => !match(e));
  }

  /** Runs every event that has come due, in order; jobs may schedule more. */
  runDue(): void {
    if (this.running) return;
    this.running = true;
    try {
      const now = this.clock.now();
      for (let guard = 0; guard < 100_000; guard++) {
        const next = this.state.events[0];
        if (!next || next.at > now) break;
        this.state.events.shift();
        this.jobTime = next.at;
        try {
          this.jobs[next.kind]?.(this, next);
        } finally {
          this.jobTime = undefined;
        }
        this.changed();
      }
    } finally {
      this.running = false;
    }
  }

  advance(ms: number): number {
    // Step through due events at their own times so that work scheduled by a job
    // relative to "now" lands where it would have in real time.
    const target = this.now() + Math.max(0, ms);
    for (;;) {
      const next = this.state.events[0];
      if (!next || next.at > target) break;
      const step = next.at - this.now();
      if (step > 0) this.clock.advance(step);
      this.runDue();
    }
    const rest = target - this.now();
    if (rest > 0) this.clock.advance(rest);
    this.runDue();
    this.state.clockAdvancedMs = this.clock.advancedMs;
    this.changed();
    return this.now();
  }

  // ------------------------------------------------------------ accounts

  createAccount(
    init: Partial<Pick<Account, 'email' | 'name' | 'emailVerified' | 'lang' | 'plan'>> & {
      credits?: number;
      limits?: Partial<Account['limits']>;
      apiKey?: string;
    } = {},
  ): { account: Account; apiKey: string } {
    const id = this.id('acc');
    const createdAt = this.iso();
    const defaultSpace: Space = {
      id: this.id('sp'),
      name: 'Personal',
      icon: null,
      description: 'Your default space',
      isDefault: true,
      position: 0,
      createdAt,
    };
    const account: Account = {
      id,
      email: init.email ?? `user-${id.slice(4)}@sandbox.test`,
      name: init.name ?? 'Sandbox User',
      emailVerified: init.emailVerified ?? true,
      lang: init.lang ?? 'en',
      plan: init.plan ?? { id: 'pro', name: 'Pro' },
      trial: null,
      credits: [
        {
          pool: 'monthly',
          remaining: init.credits ?? DEFAULT_CREDITS,
          total: init.credits ?? DEFAULT_CREDITS,
          resetsAt: this.iso(this.now() + 30 * 86_400_000),
        },
      ],
      limits: { ...DEFAULT_LIMITS, ...init.limits },
      watchesByMonth: dictionary(),
      storageUsed: 0,
      createdAt,
      spaces: [defaultSpace],
      follows: dictionary(),
      entryState: dictionary(),
      library: [],
      docs: [],
      media: [],
      agent: { name: 'Ada', memory: '', address: `ada-${id.slice(4)}@agent.sandbox.test` },
      inbox: [],
      tasks: [],
      actions: [],
      conversations: [],
      messages: dictionary(),
      rules: [],
    };
    this.state.accounts[id] = account;
    const apiKey = init.apiKey ?? this.newKey();
    this.state.keys[apiKey] = id;
    this.changed();
    return { account, apiKey };
  }

  newKey(): string {
    return `kak_${randomBytes(18).toString('base64url')}`;
  }

  addKey(accountId: string): string {
    const key = this.newKey();
    this.state.keys[key] = accountId;
    this.changed();
    return key;
  }

  accountForKey(key: string | undefined): Account | undefined {
    if (!key) return undefined;
    const id = this.state.keys[key];
    return id ? this.state.accounts[id] : undefined;
  }

  defaultSpace(account: Account): Space {
    const space = account.spaces.find((s) => s.isDefault);
    if (!space) throw new Error('account without a default space');
    return space;
  }

  /** A space given by id (or, leniently, by exact name); 404 when it is not the account's. */
  space(account: Account, ref: string): Space {
    const space = account.spaces.find((s) => s.id === ref) ?? account.spaces.find((s) => s.name === ref);
    if (!space) throw new HttpFail(404, 'SPACE_NOT_FOUND', `No space ${ref}`);
    return space;
  }

  /** Total credits left across pools. */
  credits(account: Account): number {
    return account.credits.reduce((sum, p) => sum + p.remaining, 0);
  }

  /** Takes `amount` credits, pool by pool; 402 CREDITS_EXHAUSTED when there are not enough. */
  spend(account: Account, amount: number, what: string): void {
    if (this.credits(account) < amount || this.credits(account) <= 0) {
      throw new HttpFail(
        402,
        'CREDITS_EXHAUSTED',
        `Not enough credits for ${what}: ${round(amount)} needed, ${round(this.credits(account))} left`,
      );
    }
    let left = amount;
    for (const pool of account.credits) {
      const take = Math.min(pool.remaining, left);
      pool.remaining = round(pool.remaining - take);
      left -= take;
      if (left <= 0) break;
    }
    this.changed();
  }

  // ------------------------------------------------------------ persistence

  /** Kept for the call sites that mark a change: with a journal, changes are found as they are made. */
  changed(): void {}

  /**
   * With --state: writes a snapshot of the state as it is now, and from then on
   * tracks every change for the journal. Called once the world is set up.
   */
  async openJournal(): Promise<void> {
    if (!this.stateFile || this.journal) return;
    const tracker = new ChangeTracker(this.state);
    this.tracker = tracker;
    this.journal = await Journal.open(this.stateFile, tracker, this.generation, () => this.stampClock(tracker.root));
    this.state = tracker.proxy;
  }

  private reader: World | undefined;

  /**
   * The world for a read: the same world, but its `state` is the plain state, not the
   * change-tracking view of --state (reading through that view costs several times more).
   * Only for handlers that change nothing.
   */
  readView(): World {
    const tracker = this.tracker;
    if (!tracker) return this;
    this.reader ??= Object.create(this, { state: { value: tracker.root, writable: false } }) as World;
    return this.reader;
  }

  /** Resolves once every change so far is durable (immediately without --state). */
  async commit(): Promise<void> {
    if (!this.journal) return;
    // The clock is saved with whatever else changed (not on its own: an idle sandbox writes nothing).
    if (this.tracker?.dirty) this.stampClock(this.state);
    await this.journal.commit();
  }

  /** The last commit, a final snapshot; the journal is closed. */
  async closeJournal(): Promise<void> {
    const journal = this.journal;
    if (!journal) return;
    await this.commit().catch(() => undefined);
    this.journal = undefined;
    await journal.close();
  }

  private stampClock(state: State): void {
    state.clockAdvancedMs = this.clock.advancedMs;
    state.clockSavedAt = { sandbox: this.clock.now(), real: Date.now() };
  }
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

// ------------------------------------------------------------ shared route helpers

/** Drops internal fields (those starting with "_") from a stored record. */
export function publicView<T extends object>(record: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (!key.startsWith('_')) out[key] = value;
  return out as T;
}

/**
 * One page of a list with opaque cursors. The cursor carries the offset and a
 * check of which list it belongs to; anything else is 400 INVALID_INPUT.
 */
export function page<T>(
  items: T[],
  query: { limit?: number; cursor?: string },
  listKey: string,
  defaultLimit: number,
): { items: T[]; nextCursor: string | null } {
  const limit = query.limit ?? defaultLimit;
  let offset = 0;
  if (query.cursor) {
    const decoded = decodeCursor(query.cursor, listKey);
    if (decoded === undefined) {
      throw new HttpFail(400, 'INVALID_INPUT', 'Invalid input', {
        issues: [{ path: 'cursor', message: 'is not a cursor of this list' }],
      });
    }
    offset = decoded;
  }
  const slice = items.slice(offset, offset + limit);
  const next = offset + limit < items.length ? encodeCursor(offset + limit, listKey) : null;
  return { items: slice, nextCursor: next };
}

function encodeCursor(offset: number, listKey: string): string {
  const sig = createHash('sha256').update(`${listKey}:${offset}`).digest('base64url').slice(0, 8);
  return Buffer.from(`${offset}.${sig}`).toString('base64url');
}

function decodeCursor(cursor: string, listKey: string): number | undefined {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^(\d+)\.([\w-]{8})$/.exec(text);
  if (!match) return undefined;
  const offset = Number(match[1]);
  return encodeCursor(offset, listKey) === cursor ? offset : undefined;
}

/** `2026-11` for a sandbox time: the month watch creations are counted in. */
export function monthKey(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

export function notFound(code: string, what: string): HttpFail {
  return new HttpFail(404, code, `${what} not found`);
}
