// One sandbox per state file. The lock is proper-lockfile's (a FILE.lock
// directory, kept fresh while held, taken over once stale); beside it,
// FILE.lock.pid names the holder, so a second sandbox can say which process
// has the file — and can take the lock over at once when that process is gone
// (killed with kill -9), instead of waiting for the lock to go stale.
import { mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { StateFileError } from './journal.js';
import { loadLockfile } from '../lazy.js';

export class StateLockedError extends StateFileError {
  constructor(
    message: string,
    readonly pid: number | undefined,
  ) {
    super(message, 'STATE_LOCKED');
  }
}

export interface StateLock {
  release(): Promise<void>;
}

interface Holder {
  pid: number;
  host: string;
}

export async function lockStateFile(
  stateFile: string,
  options: { onLost?: (error: Error) => void } = {},
): Promise<StateLock> {
  const lockPath = `${stateFile}.lock`;
  const pidPath = `${lockPath}.pid`;
  try {
    mkdirSync(dirname(stateFile), { recursive: true });
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'EEXIST'
        ? `${(error as NodeJS.ErrnoException).path ?? dirname(stateFile)} is not a directory`
        : (error as Error).message;
    throw new StateFileError(`cannot use --state ${stateFile}: ${reason}`, 'STATE_UNWRITABLE');
  }
  const { default: lockfile } = await loadLockfile();
  const take = () =>
    lockfile.lock(stateFile, {
      lockfilePath: lockPath,
      realpath: false,
      stale: 15_000,
      update: 5_000,
      onCompromised: (error) => options.onLost?.(error),
    });
  let unlock: () => Promise<void>;
  try {
    unlock = await take();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') {
      throw new StateFileError(`cannot use --state ${stateFile}: ${(error as Error).message}`, 'STATE_UNWRITABLE');
    }
    const holder = readHolder(pidPath);
    if (!holder || holder.host !== hostname() || isAlive(holder.pid)) {
      const who = holder
        ? `process ${holder.pid}${holder.host !== hostname() ? ` on ${holder.host}` : ''}`
        : 'another process';
      throw new StateLockedError(`the state file ${stateFile} is in use by another sandbox (${who})`, holder?.pid);
    }
    // Its holder is gone (killed without a chance to unlock): take the lock over now.
    try {
      rmdirSync(lockPath);
    } catch {
      // Someone else cleared it first.
    }
    try {
      unlock = await take();
    } catch {
      const now = readHolder(pidPath);
      throw new StateLockedError(
        `the state file ${stateFile} is in use by another sandbox (${now ? `process ${now.pid}` : 'another process'})`,
        now?.pid,
      );
    }
  }
  try {
    writeFileSync(pidPath, JSON.stringify({ pid: process.pid, host: hostname() }), { mode: 0o600 });
  } catch (error) {
    await unlock().catch(() => undefined);
    throw new StateFileError(`cannot use --state ${stateFile}: ${(error as Error).message}`, 'STATE_UNWRITABLE');
  }
  return {
    async release() {
      rmSync(pidPath, { force: true });
      await unlock().catch(() => undefined);
    },
  };
}

function readHolder(pidPath: string): Holder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(pidPath, 'utf8')) as Partial<Holder>;
    return typeof parsed.pid === 'number' && typeof parsed.host === 'string'
      ? { pid: parsed.pid, host: parsed.host }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a process with this pid exists on this machine. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, owned by someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
