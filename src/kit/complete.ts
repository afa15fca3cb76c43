// Values for the shell completion (`kagent completion __complete KIND PREFIX`):
// what the account holds — watch slugs, space names and ids, the ids of docs,
// library items, media, tasks, conversations, actions and inbox items, each
// with its title — and the profiles saved on this machine. (Setting names are the
// choices of `config get/set`'s argument.)
//
// It runs at every Tab, so it must be quick and quiet: answers are kept for a
// short while in the cache dir (one file per base URL and key, the key only as
// a hash), one request per kind with a hard deadline and no retries, and any
// failure (no key, no network, a slow or odd answer) is an empty list, never an
// error on the user's command line.
import type { CompleteKind } from './define.js';
import { readConfigFile } from '../config/store.js';
import { createApiClient } from '../api/client.js';
import { defaultCacheDir } from '../config/cache-dir.js';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import { join } from 'node:path';

export interface Candidate {
  value: string;
  /** A title, a name: zsh and fish show it beside the value. */
  description: string;
}

export interface CompleteSource {
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /** Where profiles are stored (for `profile`). */
  configPath: string;
  env: NodeJS.ProcessEnv;
  version: string;
  now?: () => number;
}

/** How long fetched values are reused: a few Tabs in a row ask once. */
export const CACHE_TTL_MS = 30_000;
/** The request, from connect to parsed answer: beyond it, nothing is offered. */
export const FETCH_DEADLINE_MS = 250;

/** KAGENT_COMPLETE_TIMEOUT (milliseconds) stretches the deadline for a slow link; 250 by default. */
function deadlineMs(env: NodeJS.ProcessEnv): number {
  const value = Number(env.KAGENT_COMPLETE_TIMEOUT);
  return Number.isFinite(value) && value > 0 ? Math.min(value, 10_000) : FETCH_DEADLINE_MS;
}
/** The most values offered for one kind (one page of the list). */
const MAX_VALUES = 100;

type Row = Record<string, unknown>;
interface Remote {
  op:
    | 'listFollowedWatches'
    | 'listSpaces'
    | 'listDocs'
    | 'listLibrary'
    | 'listMedia'
    | 'listTasks'
    | 'listConversations'
    | 'listInbox';
  query?: Record<string, string | number>;
  pick(row: Row): Candidate[];
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const byId = (row: Row): Candidate[] => (text(row.id) ? [{ value: text(row.id), description: text(row.title) }] : []);

const REMOTE: Record<Exclude<CompleteKind, 'profile'>, Remote> = {
  watch: {
    op: 'listFollowedWatches',
    pick: (row) => (text(row.slug) ? [{ value: text(row.slug), description: text(row.title) }] : []),
  },
  space: {
    op: 'listSpaces',
    pick: (row) => [
      ...(text(row.name) ? [{ value: text(row.name), description: text(row.id) }] : []),
      ...(text(row.id) ? [{ value: text(row.id), description: text(row.name) }] : []),
    ],
  },
  doc: { op: 'listDocs', query: { limit: MAX_VALUES }, pick: byId },
  lib: { op: 'listLibrary', query: { limit: MAX_VALUES }, pick: byId },
  media: { op: 'listMedia', query: { limit: MAX_VALUES }, pick: byId },
  task: { op: 'listTasks', query: { limit: MAX_VALUES }, pick: byId },
  conversation: { op: 'listConversations', query: { limit: MAX_VALUES }, pick: byId },
  inbox: { op: 'listInbox', query: { limit: MAX_VALUES }, pick: byId },
  action: {
    op: 'listInbox',
    query: { filter: 'approval', limit: MAX_VALUES },
    pick: (row) => {
      const action = row.action as Row | null | undefined;
      if (!action || typeof action !== 'object' || (action.status !== undefined && action.status !== 'pending'))
        return [];
      return byId(action);
    },
  },
};

export const COMPLETE_KINDS: readonly CompleteKind[] = [...Object.keys(REMOTE), 'profile'] as CompleteKind[];

export function isCompleteKind(kind: string): kind is CompleteKind {
  return (COMPLETE_KINDS as readonly string[]).includes(kind);
}

/** The values of a kind that start with `prefix`; never throws. */
export async function completeValues(kind: CompleteKind, prefix: string, source: CompleteSource): Promise<Candidate[]> {
  let all: Candidate[];
  try {
    all = kind === 'profile' ? await profiles(source) : await remote(kind, source);
  } catch {
    return [];
  }
  const seen = new Set<string>();
  return all.filter((c) => c.value.startsWith(prefix) && !seen.has(c.value) && seen.add(c.value));
}

async function profiles(source: CompleteSource): Promise<Candidate[]> {
  const file = readConfigFile(source.configPath);
  return Object.entries(file.profiles).map(([name, profile]) => ({
    value: name,
    description: `${name === file.currentProfile ? 'current · ' : ''}${profile.baseUrl ?? ''}`,
  }));
}

async function remote(kind: keyof typeof REMOTE, source: CompleteSource): Promise<Candidate[]> {
  const { baseUrl, apiKey } = source;
  if (!baseUrl || !apiKey) return [];
  const now = source.now ?? Date.now;
  const dir = defaultCacheDir(source.env);
  const file = join(
    dir,
    `complete-${createHash('sha256').update(`${baseUrl}\n${apiKey}`).digest('hex').slice(0, 24)}.json`,
  );
  let cache: Record<string, { at: number; values: Candidate[] }> = {};
  try {
    cache = JSON.parse(await fs.readFile(file, 'utf8')) as typeof cache;
  } catch {
    cache = {};
  }
  const hit = cache[kind];
  if (
    hit &&
    Array.isArray(hit.values) &&
    typeof hit.at === 'number' &&
    now() - hit.at < CACHE_TTL_MS &&
    hit.at <= now()
  )
    return hit.values;

  const values = await fetchValues(REMOTE[kind], source, dir);
  if (values === undefined) return [];
  cache[kind] = { at: now(), values };
  try {
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.tmp`;
    await fs.writeFile(temp, JSON.stringify(cache), { mode: 0o600 });
    await fs.rename(temp, file);
  } catch {
    // A cache that cannot be written only makes the next Tab ask again.
  }
  return values;
}

/** One page of the list, within the deadline; undefined on any failure. */
async function fetchValues(spec: Remote, source: CompleteSource, pacingDir: string): Promise<Candidate[] | undefined> {
  try {
    const deadline = deadlineMs(source.env);
    const signal = AbortSignal.timeout(deadline);
    const api = createApiClient({
      baseUrl: source.baseUrl as string,
      apiKey: source.apiKey,
      userAgent: `kagent/${source.version}`,
      requestTimeoutMs: deadline,
      retries: 0,
      signal,
      sharedPacingDir: pacingDir,
    });
    const answer = await Promise.race([
      api.call(spec.op, { query: spec.query, signal }) as Promise<unknown>,
      new Promise<never>((_, reject) =>
        signal.addEventListener('abort', () => reject(new Error('deadline')), { once: true }),
      ),
    ]);
    const items = (answer as { items?: unknown } | null)?.items;
    if (!Array.isArray(items)) return undefined;
    return items
      .filter((row): row is Row => typeof row === 'object' && row !== null)
      .flatMap((row) => spec.pick(row))
      .slice(0, MAX_VALUES * 2);
  } catch {
    return undefined;
  }
}
