// SHA-256 digests of files already hashed on this machine, so that uploading
// an unchanged large file again (a re-run on the same CI runner, a folder
// synced every day) does not read it all once more: to derive its idempotency
// key, or for a large file keyed by samples, to check the service's answer.
//
// An entry is used only when the file is the same to the nanosecond: device,
// inode, size, modification and change time (the change time moves on every
// write and cannot be set back by tools like touch or tar). A file changed less
// than two seconds before it was hashed is not recorded: timestamps are coarser
// than writes on some filesystems, and a write in the same tick would leave them
// as they were (git's "racy clean" problem). Entries are small JSON files under
// <cache dir>/digests, named by a hash of device and inode (no paths kept),
// written atomically; losing one to a race only costs a re-hash.
import { createHash, randomUUID } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Files smaller than this hash faster than a cache lookup pays for. */
export const CACHE_MIN_BYTES = 4 * 1024 * 1024;
const SETTLE_NS = 2_000_000_000n;
const MAX_ENTRIES = 5000;
/** 3: always the SHA-256 of the whole file (entries of 1 and 2 could hold other digests of large files). */
const ENTRY_VERSION = 3;

export interface DigestCache {
  /** The file's SHA-256 (hex), when recorded for this very version of it. */
  get(info: BigIntStats): Promise<string | undefined>;
  set(info: BigIntStats, sha256: string): Promise<void>;
}

interface Entry {
  v: typeof ENTRY_VERSION;
  dev: string;
  ino: string;
  size: string;
  mtimeNs: string;
  ctimeNs: string;
  sha256: string;
}

export const noDigestCache: DigestCache = { get: async () => undefined, set: async () => undefined };

/** `now`: the clock (ms) that says how long ago a file changed; the command's clock, which a test can set ahead. */
export function digestCache(cacheDir: string, now: () => number = Date.now): DigestCache {
  const dir = join(cacheDir, 'digests');
  const fileOf = (info: BigIntStats) =>
    join(dir, `${createHash('sha256').update(`${info.dev}:${info.ino}`).digest('hex').slice(0, 32)}.json`);
  const identity = (info: BigIntStats) => ({
    dev: String(info.dev),
    ino: String(info.ino),
    size: String(info.size),
    mtimeNs: String(info.mtimeNs),
    ctimeNs: String(info.ctimeNs),
  });

  return {
    async get(info) {
      if (info.size < BigInt(CACHE_MIN_BYTES)) return undefined;
      let entry: Partial<Entry>;
      try {
        entry = JSON.parse(await readFile(fileOf(info), 'utf8')) as Partial<Entry>;
      } catch {
        return undefined;
      }
      const now = identity(info);
      const same =
        entry.v === ENTRY_VERSION &&
        entry.dev === now.dev &&
        entry.ino === now.ino &&
        entry.size === now.size &&
        entry.mtimeNs === now.mtimeNs &&
        entry.ctimeNs === now.ctimeNs;
      if (!same || typeof entry.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(entry.sha256)) return undefined;
      return entry.sha256;
    },

    async set(info, sha256) {
      if (info.size < BigInt(CACHE_MIN_BYTES)) return;
      const nowNs = BigInt(Math.floor(now())) * 1_000_000n;
      const changed = info.mtimeNs > info.ctimeNs ? info.mtimeNs : info.ctimeNs;
      if (nowNs - changed < SETTLE_NS) return; // possibly still being written: not trusted later
      const entry: Entry = { v: ENTRY_VERSION, ...identity(info), sha256 };
      try {
        await mkdir(dir, { recursive: true, mode: 0o700 });
        const target = fileOf(info);
        const temporary = `${target}.${randomUUID()}.tmp`;
        await writeFile(temporary, JSON.stringify(entry), { mode: 0o600 });
        await rename(temporary, target);
        if (Math.random() < 1 / 64) await prune(dir);
      } catch {
        // A cache that cannot be written is only slower.
      }
    },
  };
}

/** Keeps the newest MAX_ENTRIES entries. */
async function prune(dir: string): Promise<void> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.json'));
  if (names.length <= MAX_ENTRIES) return;
  const dated = await Promise.all(
    names.map(async (name) => ({ name, at: (await stat(join(dir, name)).catch(() => undefined))?.mtimeMs ?? 0 })),
  );
  dated.sort((a, b) => a.at - b.at);
  for (const { name } of dated.slice(0, dated.length - MAX_ENTRIES))
    await unlink(join(dir, name)).catch(() => undefined);
}

// ---------------------------------------------------------------- a synced folder's digests
//
// `lib sync` needs the SHA-256 of every file of DIR on every run, most of them
// small files that have not changed since the last run. One entry file per
// inode (above) would cost a read per file, as much as the file itself; so a
// synced folder keeps one record of its files' digests, read once and written
// once per run: <cache dir>/digests/folder-<hash of DIR's path>.json. The same
// rules as above decide when an entry is used (device, inode, size, modification
// and change time, to the nanosecond) and when one is recorded (the file
// settled for two seconds). It is a cache only: the service's listing stays
// the record of what the space holds; losing this file costs one re-hash.

/**
 * A file's identity as a digest record compares it: device, inode, size, modification and change
 * time to the nanosecond, in one string (a walked file keeps this, not its stats object: lib sync
 * holds one per file of DIR).
 */
export function fileIdentity(info: BigIntStats): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

/** 2: one string per file, "<identity> <sha256>" (1 kept the six parts apart: more memory for the same). */
const FOLDER_VERSION = 2;
const HEX64 = /^[0-9a-f]{64}$/;

export interface FolderDigests {
  /** The SHA-256 recorded for the file at `rel` when it is this very version of it (`identity`: fileIdentity). */
  get(rel: string, identity: string): string | undefined;
  /** Records a digest just computed from the file whose identity was `identity` (when it has settled). */
  set(rel: string, identity: string, sha256: string): void;
  /** Writes the record (only the files seen this run) when anything in it changed. */
  save(): Promise<void>;
}

/** When the file of `identity` last changed (ns): the later of its modification and change times. */
function changedNs(identity: string): bigint {
  const [, , , mtimeNs = '0', ctimeNs = '0'] = identity.split(':');
  const m = BigInt(mtimeNs);
  const c = BigInt(ctimeNs);
  return m > c ? m : c;
}

/** Reads the record of folder `dir` (an absolute path); a missing or unreadable one is empty. */
export async function folderDigests(
  cacheDir: string,
  dir: string,
  now: () => number = Date.now,
): Promise<FolderDigests> {
  const folder = join(cacheDir, 'digests');
  const file = join(folder, `folder-${createHash('sha256').update(dir).digest('hex').slice(0, 32)}.json`);
  let recorded: Record<string, unknown> = {};
  try {
    const read = JSON.parse(await readFile(file, 'utf8')) as { v?: unknown; files?: unknown };
    if (read.v === FOLDER_VERSION && typeof read.files === 'object' && read.files !== null)
      recorded = read.files as typeof recorded;
  } catch {
    // none yet, or unreadable: every file is read
  }
  const seen = new Map<string, string>();
  let changed = false;
  return {
    get(rel, identity) {
      const entry = Object.hasOwn(recorded, rel) ? recorded[rel] : undefined;
      if (
        typeof entry !== 'string' ||
        entry.length !== identity.length + 65 ||
        entry.charCodeAt(identity.length) !== 0x20 ||
        !entry.startsWith(identity)
      )
        return undefined;
      const sha256 = entry.slice(identity.length + 1);
      if (!HEX64.test(sha256)) return undefined;
      seen.set(rel, entry);
      return sha256;
    },
    set(rel, identity, sha256) {
      const nowNs = BigInt(Math.floor(now())) * 1_000_000n;
      changed = true; // an entry is new, or an earlier one is dropped
      if (nowNs - changedNs(identity) < SETTLE_NS) return; // possibly still being written: not trusted later
      seen.set(rel, `${identity} ${sha256}`);
    },
    async save() {
      if (!changed && seen.size === Object.keys(recorded).length) return;
      try {
        await mkdir(folder, { recursive: true, mode: 0o700 });
        const temporary = `${file}.${randomUUID()}.tmp`;
        await writeFile(temporary, JSON.stringify({ v: FOLDER_VERSION, files: Object.fromEntries(seen) }), {
          mode: 0o600,
        });
        await rename(temporary, file);
      } catch {
        // A cache that cannot be written is only slower.
      }
    },
  };
}
