// `lib sync`'s plan: which item of the space came from which file of DIR, and
// what to do about each.
//
// Which item came from which file: the item's note. A file at
// `guide/intro.md` under DIR goes up under its own name (`intro.md`, so the
// library, chat and home show the title `intro`) with the note
// `kagent lib sync "<prefix>" "guide/intro.md"` (prefix: by default DIR's own
// name, --prefix to choose; both JSON strings, so the note reads back to
// exactly one prefix and path). The service's listing of the space, with each
// item's note, is then the whole record: nothing is kept on this machine, so a
// CI job with no cache, two runs at once and a run killed half-way all read
// the same truth. An item is "from DIR" only when its note is exactly one sync
// wrote for the prefix; every other item in the space is left alone.
//
// Items of the earlier scheme (the name `<prefix>:guide:intro.md`, %-escaped
// parts, no note) are still DIR's: an unchanged one is deleted and its file
// sent again under its own name and note, once (a migration, reported as
// such); a changed or removed one goes as any earlier version.
//
// The plan (this file) reads only: the listing (sync-listing.ts), and the files' SHA-256 (the
// digest cache spares re-reading large unchanged ones). The run is sync.ts.
import { CliError } from '../errors.js';
import { compareCodeUnits, type Source } from './discover.js';
import type { listSpace, Listed, Mapping } from './sync-listing.js';
import { pathOfName, pathOfNote, syncFileName } from './sync-names.js';

export { pathOfName, pathOfNote, prefixProblem, syncFileName, syncName, syncNote } from './sync-names.js';
import type { DigestCache, FolderDigests } from './digest-cache.js';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sha256Of } from './prepare.js';

export interface PlannedFile {
  source: Source;
  rel: string;
  sha256?: string;
  /** upload: a new path; replace: a path with earlier items (unchanged or not: known after the upload when the listing has no SHA-256); keep: unchanged. */
  action: 'upload' | 'replace' | 'keep';
  /** keep: the item holding the bytes. */
  holder?: Listed;
  /** Items of this path that are not the file as it is now (replace: deleted after the upload; keep: older versions). */
  previous: Listed[];
  /**
   * Items deleted before the upload, because they hold the file's bytes under another name (the
   * service would answer the upload with them): the earlier scheme's item of this path (`migrated`),
   * or with --delete, the item of a file gone from DIR (a rename).
   */
  first?: Listed[];
  migrated?: Listed;
}

export interface PlannedRemoval {
  rel: string;
  name: string;
  item: Listed;
  /** Set when the item stays although its file is gone: its bytes are those of a file in DIR. */
  heldFor?: string;
  /** Deleted before the upload of `early` (its bytes under their new name). */
  early?: string;
}

export interface SyncPlan {
  files: PlannedFile[];
  /** Files found but refused before anything is read (a name that is not UTF-8, gone since listed). */
  refused: Source[];
  removals: PlannedRemoval[];
  mapping: Mapping;
  /** File items listed in the space (their ids), and the listing requests made. */
  listed: number;
  listedIds: ReadonlySet<string>;
  listRequests: number;
}

// ---------------------------------------------------------------- the plan

export interface PlanInput {
  /** The space's listing (listSpace), asked for as early as the caller could. */
  listing: ReturnType<typeof listSpace>;
  prefix: string;
  /** DIR's files, each with its path relative to DIR (/ between folders) as `rel`. */
  sources: Array<Source & { rel: string }>;
  cache?: DigestCache;
  /** DIR's record of its files' digests: an unchanged file is not read again. */
  known?: FolderDigests;
  /** --delete: a gone file's item holding the bytes of a file under another path goes, and the file goes up under its name. */
  deleting?: boolean;
  signal?: AbortSignal;
}

/** DIR's items by path: by their note, or by the earlier scheme's file name (`legacy`). */
function mapped(items: Listed[], mapping: Mapping, input: PlanInput): Map<string, Listed[]> {
  const ours = new Map<string, Listed[]>();
  if (!mapping.names) return ours;
  for (const item of items) {
    let rel = typeof item.note === 'string' ? pathOfNote(input.prefix, item.note) : undefined;
    if (rel === undefined && item.fileName !== undefined) {
      rel = pathOfName(input.prefix, item.fileName);
      if (rel !== undefined) item.legacy = true;
    }
    if (rel === undefined) continue;
    const list = ours.get(rel) ?? [];
    list.push(item);
    ours.set(rel, list);
  }
  return ours;
}

export async function planSync(input: PlanInput): Promise<SyncPlan> {
  // The files are read while the listing comes: both are needed, neither waits for the other.
  const { listing } = input;
  const hashing = hashAll(input.sources, input);
  const [{ items, mapping, requests }, digests] = await Promise.all([
    listing,
    hashing.catch((error: unknown) => error as Error),
  ]);
  if (digests instanceof Error) throw digests;
  const index = indexListing(items, mapping, input);

  const files: PlannedFile[] = [];
  const refused: Source[] = [];
  const localShas = new Map<string, string>();
  /** Items deleted before an upload: the file of that path. */
  const early = new Map<string, string>();
  for (const source of input.sources) {
    if (source.refusal) {
      refused.push(source);
      continue;
    }
    const sha256 = mapping.hashes ? digests.get(source) : undefined;
    if (sha256 !== undefined) localShas.set(sha256, source.rel);
    const file = planFile(source, sha256, index);
    if (file.first) early.set(file.first[0]!.id, source.rel);
    files.push(file);
  }
  sendWhereHolderGoes(files, early);

  const removals = plannedRemovals(index.ours, index.present, early, localShas);
  removals.sort((a, b) => compareCodeUnits(a.rel, b.rel));
  // An older version's bytes that are now another file's stay, as that file's item.
  for (const file of files)
    file.previous = file.previous.filter((item) => item.sha256 === undefined || !localShas.has(item.sha256));
  return {
    files,
    refused,
    removals,
    mapping,
    listed: items.length,
    listedIds: new Set(items.map((item) => item.id)),
    listRequests: requests,
  };
}

/** What the listing says of DIR, read once for every file. */
interface ListingIndex {
  /** DIR's items by path (mapped). */
  ours: Map<string, Listed[]>;
  /** The first item listed with each SHA-256 (none when the listing gives no SHA-256). */
  bySha: Map<string, Listed>;
  /** The path each item of DIR stands for. */
  pathOf: Map<string, string>;
  /** The paths of DIR's files now. */
  present: Set<string>;
  deleting: boolean;
}

function indexListing(items: Listed[], mapping: Mapping, input: PlanInput): ListingIndex {
  const ours = mapped(items, mapping, input);
  const bySha = new Map<string, Listed>();
  if (mapping.hashes)
    for (const item of items) if (item.sha256 && !bySha.has(item.sha256)) bySha.set(item.sha256, item);
  const pathOf = new Map<string, string>();
  for (const [rel, list] of ours) for (const item of list) pathOf.set(item.id, rel);
  const present = new Set(input.sources.map((s) => s.rel));
  return { ours, bySha, pathOf, present, deleting: input.deleting === true };
}

/**
 * One readable file's plan. Without its SHA-256 (none in the listing, or the file unreadable now: the
 * upload reports it with its own code), it goes up. With it: kept where an item holds its bytes, else
 * sent; an item holding its bytes under another name goes first (`first`).
 */
function planFile(source: Source & { rel: string }, sha256: string | undefined, index: ListingIndex): PlannedFile {
  const { rel } = source;
  const previous = index.ours.get(rel) ?? [];
  if (sha256 === undefined) return { source, rel, action: sendAction(previous), previous };
  const own = previous.find((item) => item.sha256 === sha256 && !item.legacy);
  const legacy = own ? undefined : previous.find((item) => item.sha256 === sha256);
  const holder = own ?? (legacy ? undefined : index.bySha.get(sha256));
  const stale = previous.filter((item) => item.sha256 !== sha256);
  // The bytes under the earlier scheme's name, or with --delete under a gone file's: that item goes
  // first (an upload would be answered with it), and the file goes up under its own name.
  const first = legacy ?? renamedFrom(holder, index);
  if (first) {
    const file: PlannedFile = { source, rel, sha256, action: sendAction(stale), previous: stale, first: [first] };
    if (legacy) file.migrated = legacy;
    return file;
  }
  if (holder) return { source, rel, sha256, action: 'keep', holder, previous: stale };
  return { source, rel, sha256, action: sendAction(previous), previous };
}

/** A file sent replaces its path's earlier items, if any. */
function sendAction(earlier: Listed[]): 'upload' | 'replace' {
  return earlier.length > 0 ? 'replace' : 'upload';
}

/** With --delete, the item holding a file's bytes when it is the item of a file gone from DIR (a rename). */
function renamedFrom(holder: Listed | undefined, index: ListingIndex): Listed | undefined {
  if (!holder || !index.deleting) return undefined;
  const rel = index.pathOf.get(holder.id);
  return rel !== undefined && !index.present.has(rel) ? holder : undefined;
}

/** A file whose bytes are held by an item deleted first goes up too (after it, answered with the new item). */
function sendWhereHolderGoes(files: PlannedFile[], early: Map<string, string>): void {
  for (const file of files)
    if (file.action === 'keep' && file.holder && early.has(file.holder.id)) {
      file.action = file.previous.length > 0 ? 'replace' : 'upload';
      delete file.holder;
    }
}

/** The items of files gone from DIR: kept when their bytes are a file's, or deleted before its upload (`early`). */
function plannedRemovals(
  ours: Map<string, Listed[]>,
  present: Set<string>,
  early: Map<string, string>,
  localShas: Map<string, string>,
): PlannedRemoval[] {
  const removals: PlannedRemoval[] = [];
  for (const [rel, list] of ours) {
    if (present.has(rel)) continue;
    for (const item of list) {
      const movedTo = early.get(item.id);
      const heldFor = movedTo === undefined && item.sha256 !== undefined ? localShas.get(item.sha256) : undefined;
      removals.push({
        rel,
        name: item.fileName ?? syncFileName(rel),
        item,
        ...(heldFor !== undefined ? { heldFor } : {}),
        ...(movedTo !== undefined ? { early: movedTo } : {}),
      });
    }
  }
  return removals;
}

/** Files read at once while hashing: small files cost a few round trips to the thread pool each, which overlap. */
const HASHING = 16;

/** Up to this size a file is read in one call: the open, stat, read and close of a streamed read cost more than the bytes. */
const SMALL_FILE = 256 * 1024;

/** A small file's SHA-256 from one synchronous read; undefined when it cannot be read or is not the size listed (the streamed read then says why). */
function smallDigest(source: Source): string | undefined {
  try {
    const bytes = readFileSync(source.path);
    return bytes.length === source.size ? createHash('sha256').update(bytes).digest('hex') : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Each readable file's SHA-256; an unreadable one is left out. A file unchanged
 * since an earlier run (same stats as recorded in `known`) is not read; a large
 * one may come from the digest cache.
 */
async function hashAll(
  sources: Array<Source & { rel: string }>,
  input: Pick<PlanInput, 'cache' | 'known' | 'signal'>,
): Promise<Map<Source, string>> {
  const { known } = input;
  const digests = new Map<Source, string>();
  const queue: Array<Source & { rel: string }> = [];
  for (const source of sources) {
    if (source.refusal) continue;
    const recorded = source.identity && known?.get(source.rel, source.identity);
    if (recorded) digests.set(source, recorded);
    else queue.push(source);
  }
  let next = 0;
  const worker = async () => {
    for (let source = queue[next++]; source !== undefined; source = queue[next++]) {
      try {
        const sha256 =
          source.size <= SMALL_FILE
            ? (smallDigest(source) ?? (await sha256Of(source.path, source.size, input)))
            : await sha256Of(source.path, source.size, input);
        digests.set(source, sha256);
        if (source.identity) known?.set(source.rel, source.identity, sha256);
      } catch (error) {
        if (input.signal?.aborted) throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(HASHING, queue.length) }, worker));
  await known?.save();
  return digests;
}

/**
 * What the plan deletes, in the two counts the run keeps apart: `removals`, items of files no longer
 * in DIR (only when `deleting`; what --max-deletes counts, as rclone's --max-delete), and
 * `replacements`, earlier versions of files still in DIR known for sure (from SHA-256).
 */
export function plannedDeletes(plan: SyncPlan, deleting: boolean): { removals: number; replacements: number } {
  if (!plan.mapping.names) return { removals: 0, replacements: 0 };
  let replacements = 0;
  for (const file of plan.files)
    if (file.action === 'keep' || plan.mapping.hashes) replacements += file.previous.length;
  const removals = deleting ? plan.removals.filter((r) => r.heldFor === undefined).length : 0;
  return { removals, replacements };
}

/** The items a run will delete, by the path of the line that tells them (the file's, or the removed file's): as plannedDeletes counts them. */
export function deletesByPath(plan: SyncPlan, deleting: boolean): Map<string, number> {
  const byPath = new Map<string, number>();
  if (!plan.mapping.names) return byPath;
  for (const file of plan.files)
    if (file.previous.length > 0 && (file.action === 'keep' || plan.mapping.hashes))
      byPath.set(file.rel, file.previous.length);
  if (deleting)
    for (const removal of plan.removals)
      if (removal.heldFor === undefined) byPath.set(removal.rel, (byPath.get(removal.rel) ?? 0) + 1);
  return byPath;
}

/** The refusal of a run that would delete more items of gone files than --max-deletes allows. */
export function tooManyDeletes(
  counts: { removals: number; replacements: number },
  maxDeletes: number | undefined,
  done: string,
): CliError | undefined {
  if (maxDeletes === undefined || counts.removals <= maxDeletes) return undefined;
  const replaced =
    counts.replacements > 0
      ? `; the ${counts.replacements} earlier version${counts.replacements === 1 ? '' : 's'} of changed files are not counted`
      : '';
  return new CliError(
    `the run would delete ${counts.removals} items, more than --max-deletes ${maxDeletes} (items of files no longer in the folder${replaced}): ${done}`,
    {
      code: 'TOO_MANY_DELETES',
      hint: `--dry-run lists the ${counts.removals} to delete; raise --max-deletes if they should go`,
    },
  );
}
