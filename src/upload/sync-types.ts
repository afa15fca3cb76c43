// The shapes of a `lib sync` run: its options, the lines of its outcome and its summary (sync.ts runs it).
import type { ApiClient } from '../api/client.js';
import type { LibraryItem } from '../api/shapes.js';
import type { CliError } from '../errors.js';
import type { DigestCache } from './digest-cache.js';
import type { Source } from './discover.js';
import type { SyncPlan } from './sync-plan.js';
import type { FileError, UploadEvents, UploadOptions, UploadSummary } from './uploader.js';

export type SyncStatus = 'uploaded' | 'replaced' | 'deleted' | 'unchanged' | 'kept' | 'failed' | 'skipped';

/** One line of the outcome: a file of DIR, or an item whose file is no longer there. */
export interface SyncEntry {
  /** The path relative to DIR, with / between folders. */
  path: string;
  /** The name sent as X-File-Name (and read back as the item's fileName). */
  name: string;
  size: number;
  status: SyncStatus;
  /** The item that holds the file now (or, for deleted and kept, the item whose file is gone). */
  item?: Pick<LibraryItem, 'id'> & Partial<LibraryItem>;
  /** Items of earlier versions deleted (replaced). */
  previous?: string[];
  /** Why an item whose file is gone is kept. */
  reason?: string;
  error?: FileError;
  exitCode?: number;
}

export interface SyncEvents {
  /** Progress of the uploads (the reporter's bar). */
  upload: Omit<UploadEvents, 'finished'>;
  /** A line of the outcome, as soon as it is final. */
  entry(entry: SyncEntry, source?: Source): void | Promise<void>;
  /** Lines of the outcome told at once (the unchanged files); without it, each goes to entry(). */
  entries?(batch: Array<{ entry: SyncEntry; source?: Source }>): void | Promise<void>;
}

export interface RunOptions {
  api: ApiClient;
  space: string;
  plan: SyncPlan;
  deleting: boolean;
  /** The most items the run may delete; over it nothing is deleted (exit 1). */
  maxDeletes?: number;
  concurrency: number;
  failFast: boolean;
  limit: () => Promise<number | undefined>;
  cache?: DigestCache;
  signal?: AbortSignal;
  events: SyncEvents;
  /** `lib upload`'s queue (passed in, so that this module loads nothing more). */
  uploadAll: (sources: Source[], options: UploadOptions) => Promise<UploadSummary>;
}

export interface SyncSummary {
  uploaded: number;
  replaced: number;
  deleted: number;
  unchanged: number;
  failed: number;
  skipped: number;
  kept: number;
  /** Bytes of the files that became new items. */
  bytes: number;
  /** Items of the earlier naming scheme replaced by the same file under its own name (once). */
  migrated?: number;
  /** Why nothing was deleted, when the service does not say which items came from DIR. */
  noMapping?: string;
  exitCode: number;
  stoppedBy?: CliError;
}
