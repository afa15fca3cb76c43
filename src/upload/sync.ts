// `lib sync DIR --space S` runs its plan (sync-plan.ts) on `lib upload`'s
// machinery: the upload queue (uploader.ts: checks, content-derived
// idempotency keys, streamed bodies, retries) and the HTTP core's shared pacing.
//
// Order, so that a run killed at any moment leaves nothing lost and a re-run
// converges: a changed file is uploaded first and the items of its earlier
// versions are deleted only once the service has answered with the new one;
// removed files' items are deleted last, after every upload. An item is never
// deleted while its bytes are those of a file in DIR (the service keeps one
// item per content, so two files with the same bytes share an item) or when an
// upload of this run was answered with it. A 404 on a delete is another run
// having done it. Two runs at once send the same keys, get the same items, and
// delete the same earlier ones.
import type { LibraryItem } from '../api/shapes.js';
import { abortError, ApiError, CliError, ExitCode, mostSevere } from '../errors.js';
import { refusalExitCode, type Source } from './discover.js';
import { notListed, type Listed } from './sync-listing.js';
import { tooManyDeletes, type PlannedFile } from './sync-plan.js';
import type { FileResult, UploadSummary } from './uploader.js';
import type { RunOptions, SyncEntry, SyncStatus, SyncSummary } from './sync-types.js';

export type { RunOptions, SyncEntry, SyncEvents, SyncStatus, SyncSummary } from './sync-types.js';

const FATAL_EXIT = new Set<number>([ExitCode.AUTH, ExitCode.UNAVAILABLE, ExitCode.INTERRUPTED]);

interface Pending {
  file: PlannedFile;
  entry: SyncEntry;
  delete: Listed[];
}

export function runSync(options: RunOptions): Promise<SyncSummary> {
  return new SyncRun(options).run();
}

class SyncRun {
  private readonly summary: SyncSummary = {
    uploaded: 0,
    replaced: 0,
    deleted: 0,
    unchanged: 0,
    failed: 0,
    skipped: 0,
    kept: 0,
    bytes: 0,
    exitCode: ExitCode.OK,
  };
  private readonly codes: number[] = [];
  private names: boolean;
  private noMapping: string | undefined;
  /** Ids an upload of this run was answered with, or that hold an unchanged file: never deleted. */
  private readonly answered = new Set<string>();
  /** Files whose entry waits for earlier versions to be deleted. */
  private readonly pending: Pending[] = [];
  private uploads: UploadSummary | undefined;
  /** Files reported as held by an item, checked against the listing once the run sent anything. */
  private readonly held: Array<{ entry: SyncEntry; source?: Source }> = [];
  /** Items of gone files deleted before an upload of their bytes under a new name (already reported). */
  private readonly deletedEarly = new Set<string>();
  /** Every item deleted before the uploads (earlier-scheme items too). */
  private readonly deletedFirst = new Set<string>();
  /** Whether the run sent a write (an upload or a delete). */
  private sent = false;

  constructor(private readonly options: RunOptions) {
    this.names = options.plan.mapping.names;
    if (!this.names) this.noMapping = "the library listing does not give items' notes (note)";
  }

  async run(): Promise<SyncSummary> {
    await this.reportUnsent();
    await this.upload();
    const stopped =
      this.options.signal?.aborted === true ||
      (this.uploads?.stoppedBy !== undefined && FATAL_EXIT.has(this.uploads.stoppedBy.exitCode));
    if (this.uploads?.stoppedBy) this.summary.stoppedBy = this.uploads.stoppedBy;
    const removing = this.removing();
    const refusal = stopped ? undefined : this.overMaxDeletes(removing);
    const mayDelete = !stopped && this.names && refusal === undefined;
    await this.deleteEarlierVersions(mayDelete);
    await this.deleteRemoved(removing && mayDelete, { stopped, refusal });
    if (this.sent && !stopped) await this.confirmEndState();
    const { summary } = this;
    if (!this.names) summary.noMapping = this.noMapping;
    if (this.options.signal?.aborted) this.codes.push(abortError(this.options.signal).exitCode);
    else if (summary.stoppedBy) this.codes.push(summary.stoppedBy.exitCode);
    if (refusal) {
      summary.stoppedBy ??= refusal;
      this.codes.push(ExitCode.ERROR);
    }
    summary.exitCode = mostSevere(this.codes);
    return summary;
  }

  private async count(entry: SyncEntry, source?: Source): Promise<void> {
    const s = this.summary;
    if (entry.status === 'skipped') s.skipped++;
    else s[entry.status]++;
    if (entry.status === 'failed') this.codes.push(entry.exitCode ?? ExitCode.ERROR);
    this.hold(entry, source);
    await this.options.events.entry(entry, source);
  }

  private hold(entry: SyncEntry, source?: Source): void {
    if (entry.item && (entry.status === 'uploaded' || entry.status === 'replaced' || entry.status === 'unchanged'))
      this.held.push({ entry, ...(source ? { source } : {}) });
  }

  /**
   * One more listing after a run that sent anything: every file reported as held by an item must
   * have that item in the space. One whose item is not there is a failure of the run, told on a
   * line of its own (its earlier line is taken back from the counts).
   */
  private async confirmEndState(): Promise<void> {
    const { api, space, signal } = this.options;
    let missing: Set<string>;
    try {
      missing = await notListed(
        api,
        space,
        this.held.map(({ entry }) => entry.item?.id as string),
        signal,
      );
    } catch (error) {
      const cause = error instanceof CliError ? error : new CliError(String(error), { cause: error });
      this.summary.stoppedBy ??= new CliError(`the space could not be listed to confirm the run: ${cause.message}`, {
        code: cause.code,
        exitCode: cause.exitCode,
        cause,
      });
      return;
    }
    for (const { entry, source } of this.held.splice(0)) {
      const id = entry.item?.id as string;
      if (!missing.has(id)) continue;
      this.summary[entry.status as 'uploaded' | 'replaced' | 'unchanged']--;
      const message = `the space's listing after the run does not show its item ${id}`;
      await this.count(
        { ...entry, status: 'failed', error: { code: 'NOT_IN_SPACE', message }, exitCode: ExitCode.ERROR },
        source,
      );
    }
  }

  /** Files refused before reading, and unchanged files: no request. */
  private async reportUnsent(): Promise<void> {
    const { plan } = this.options;
    for (const source of plan.refused) {
      const code = source.refusal?.code ?? 'FILE_UNREADABLE';
      const path = (source as Source & { rel?: string }).rel ?? source.display;
      const error = { code, message: source.refusal?.message ?? 'cannot read the file' };
      await this.count(
        {
          path,
          name: source.name,
          size: 0,
          status: 'failed',
          error,
          exitCode: refusalExitCode(source.refusal),
        },
        source,
      );
    }
    const unchanged: Array<{ entry: SyncEntry; source: Source }> = [];
    for (const file of plan.files) {
      if (file.action !== 'keep' || !file.holder) continue;
      this.answered.add(file.holder.id);
      const entry: SyncEntry = {
        path: file.rel,
        name: file.source.name,
        size: file.source.size,
        status: 'unchanged',
        item: { id: file.holder.id },
      };
      // Earlier versions left by a replace cut short go with the deletes.
      if (file.previous.length > 0) this.pending.push({ file, entry, delete: file.previous });
      else unchanged.push({ entry, source: file.source });
    }
    await this.countUnchanged(unchanged);
  }

  /** Unchanged files, told at once (one write for all of them when the reporter takes a batch). */
  private async countUnchanged(batch: Array<{ entry: SyncEntry; source: Source }>): Promise<void> {
    const { events } = this.options;
    if (batch.length === 0) return;
    if (!events.entries) {
      for (const { entry, source } of batch) await this.count(entry, source);
      return;
    }
    this.summary.unchanged += batch.length;
    for (const { entry, source } of batch) this.hold(entry, source);
    await events.entries(batch);
  }

  private async upload(): Promise<void> {
    const { options } = this;
    const toSend = options.plan.files.filter((f) => f.action !== 'keep');
    if (toSend.length === 0 || options.signal?.aborted) return;
    this.sent = true;
    const sending: PlannedFile[] = [];
    for (const file of toSend) if (await this.deleteFirst(file)) sending.push(file);
    if (sending.length === 0) return;
    const bySource = new Map(toSend.map((f) => [f.source, f] as const));
    this.uploads = await options.uploadAll(
      sending.map((f) => f.source),
      {
        api: options.api,
        target: { space: options.space },
        concurrency: options.concurrency,
        failFast: options.failFast,
        limit: options.limit,
        cache: options.cache,
        // What the listing gave, less what this run deleted since: a replay naming one is read again.
        listed:
          this.deletedFirst.size > 0
            ? new Set([...options.plan.listedIds].filter((id) => !this.deletedFirst.has(id)))
            : options.plan.listedIds,
        signal: options.signal,
        events: {
          ...options.events.upload,
          finished: (result, source) => this.uploaded(bySource.get(source) as PlannedFile, result),
        },
      },
    );
  }

  /**
   * Deletes the items that hold the file's bytes under another name (the earlier scheme's, or a gone
   * file's with --delete), so that its upload adds it under its own name; false when one could not
   * be deleted (the file then fails: its upload would be answered with that item).
   */
  private async deleteFirst(file: PlannedFile): Promise<boolean> {
    for (const item of file.first ?? []) {
      const error = await this.remove(item.id);
      const removal = this.options.plan.removals.find((r) => r.item.id === item.id);
      if (error) {
        const message = `its bytes are item ${item.id}, which could not be deleted to add it under its own name: ${error.message}`;
        await this.count(
          {
            path: file.rel,
            name: file.source.name,
            size: file.source.size,
            status: 'failed',
            error: { code: error.code, message },
            exitCode: error.exitCode,
          },
          file.source,
        );
        return false;
      }
      this.deletedFirst.add(item.id);
      if (!removal) continue;
      this.deletedEarly.add(item.id);
      const name = removal.item.fileName ?? removal.name;
      await this.count({
        path: removal.rel,
        name,
        size: removal.item.size ?? 0,
        item: { id: item.id },
        status: 'deleted',
      });
    }
    return true;
  }

  private async uploaded(file: PlannedFile, result: FileResult): Promise<void> {
    const { source } = file;
    const base = { path: file.rel, name: source.name, size: source.size };
    if (result.status === 'failed' || result.status === 'skipped') {
      const { item, error, exitCode } = result;
      await this.count(
        {
          ...base,
          status: result.status,
          ...(item ? { item } : {}),
          ...(error ? { error } : {}),
          ...(exitCode !== undefined ? { exitCode } : {}),
        },
        source,
      );
      return;
    }
    const item = result.item as LibraryItem;
    this.answered.add(item.id);
    if (result.status === 'uploaded') {
      this.summary.bytes += source.size;
      this.checkName(item, source.note);
    }
    const earlier = file.previous.filter((p) => p.id !== item.id);
    const wasThere = result.status === 'exists' || file.previous.some((p) => p.id === item.id);
    const { migrated } = file;
    const entry: SyncEntry = migrated
      ? {
          ...base,
          status: 'replaced',
          item,
          previous: [migrated.id],
          reason: `migrated once from the name ${migrated.fileName ?? migrated.id}`,
        }
      : { ...base, status: uploadStatus(earlier.length > 0, wasThere), item };
    if (migrated) this.summary.migrated = (this.summary.migrated ?? 0) + 1;
    if (earlier.length > 0) this.pending.push({ file, entry, delete: earlier });
    else await this.count(entry, source);
  }

  /** A new item must carry the note it was sent with, or the listing cannot be read as a map. */
  private checkName(item: LibraryItem, sent: string | undefined): void {
    if (!this.names) return;
    const said = (item as { note?: unknown }).note;
    if (said === sent) return;
    this.names = false;
    this.noMapping =
      typeof said === 'string' || said === null
        ? `the service gave an uploaded file the note ${JSON.stringify(said)}, not ${JSON.stringify(sent)} as it was sent`
        : "the service does not give uploaded items' notes (note)";
  }

  /** Whether removed files' items may go: asked for, mapped, and sure no failed file's bytes are in one. */
  private removing(): boolean {
    const { options } = this;
    const unsent = (this.uploads?.failed ?? 0) + (this.uploads?.skipped ?? 0) + options.plan.refused.length;
    // Without SHA-256 in the listing, a removed file's item might hold the bytes of a file whose upload failed.
    return options.deleting && this.names && (options.plan.mapping.hashes || unsent === 0);
  }

  private removable(): Listed[] {
    return this.options.plan.removals
      .filter((r) => r.heldFor === undefined && r.early === undefined && !this.answered.has(r.item.id))
      .map((r) => r.item);
  }

  private overMaxDeletes(removing: boolean): CliError | undefined {
    if (!this.names) return undefined;
    const replacements = this.pending.reduce((n, p) => n + p.delete.filter((d) => !this.answered.has(d.id)).length, 0);
    const removals = removing ? this.removable().length : 0;
    return tooManyDeletes({ removals, replacements }, this.options.maxDeletes, 'nothing was deleted');
  }

  /** Deletes an item; undefined when it is gone (a 404 is another run having deleted it). */
  private async remove(id: string): Promise<CliError | undefined> {
    const { api, signal } = this.options;
    if (signal?.aborted) return abortError(signal);
    this.sent = true;
    try {
      await api.call('deleteLibraryItem', { params: { id }, signal });
      return undefined;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return undefined;
      if (error instanceof CliError) return error;
      return new CliError((error as Error)?.message ?? String(error), { cause: error });
    }
  }

  private async deleteEarlierVersions(mayDelete: boolean): Promise<void> {
    for (const { file, entry, delete: olds } of this.pending) {
      const ids = olds.map((o) => o.id).filter((id) => !this.answered.has(id));
      if (!mayDelete || ids.length === 0) {
        // The new version stands; the earlier ones stay until a run may delete them.
        await this.count(entry.status === 'replaced' ? { ...entry, status: 'uploaded' } : entry, file.source);
        continue;
      }
      const done: string[] = [];
      let failed: CliError | undefined;
      for (const id of ids) {
        const error = await this.remove(id);
        if (error) failed ??= error;
        else done.push(id);
      }
      if (!failed) {
        await this.count({ ...entry, status: 'replaced', previous: [...(entry.previous ?? []), ...done] }, file.source);
        continue;
      }
      const message = `the new version is ${entry.item?.id}; deleting the earlier one failed: ${failed.message}`;
      const error = { code: failed.code, message, ...(failed instanceof ApiError ? { status: failed.status } : {}) };
      await this.count({ ...entry, status: 'failed', previous: done, error, exitCode: failed.exitCode }, file.source);
    }
  }

  private async deleteRemoved(go: boolean, why: { stopped: boolean; refusal: CliError | undefined }): Promise<void> {
    for (const removal of this.options.plan.removals) {
      if (this.deletedEarly.has(removal.item.id)) continue;
      const base = {
        path: removal.rel,
        name: removal.name,
        size: removal.item.size ?? 0,
        item: { id: removal.item.id },
      };
      if (removal.heldFor !== undefined || this.answered.has(removal.item.id)) {
        await this.count({
          ...base,
          status: 'kept',
          reason: `its bytes are those of ${removal.heldFor ?? 'a file in the folder'}`,
        });
        continue;
      }
      if (!go) {
        await this.count({ ...base, status: 'kept', reason: this.keptBecause(why) });
        continue;
      }
      const error = await this.remove(removal.item.id);
      if (!error) {
        await this.count({ ...base, status: 'deleted' });
        continue;
      }
      const failure = {
        code: error.code,
        message: `deleting the item failed: ${error.message}`,
        ...(error instanceof ApiError ? { status: error.status } : {}),
      };
      await this.count({ ...base, status: 'failed', error: failure, exitCode: error.exitCode });
    }
  }

  private keptBecause(why: { stopped: boolean; refusal: CliError | undefined }): string {
    if (!this.options.deleting) return 'the file is no longer in the folder; --delete deletes its item';
    if (!this.names) return 'the service does not say which items came from the folder';
    if (why.refusal) return 'over --max-deletes';
    if (why.stopped) return 'the run stopped before deleting';
    return 'an upload failed, and the listing gives no SHA-256 to tell this item does not hold its bytes';
  }
}

/** A file's line once its upload answered: it replaced older items, was there already, or is new. */
function uploadStatus(replacing: boolean, wasThere: boolean): SyncStatus {
  if (replacing) return 'replaced';
  return wasThere ? 'unchanged' : 'uploaded';
}
