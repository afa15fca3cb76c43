// The config file: profiles { baseUrl, apiKey, lang, space, rateLimit } and the
// current profile. Reading is a plain fs read of JSON (start-up stays fast;
// conf and its validator load only to write). The file holds API keys, so it
// is kept at mode 0600 (0700 for its directory), checked on every read and
// write. Writes take a lock, so parallel kagent processes never lose an update.
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { abortError, CliError } from '../errors.js';
import { readPlainFileSync } from './plain-file.js';
import { configDir, configPath } from './paths.js';
import { loadConfigWriter } from '../lazy.js';

export type Lang = 'zh' | 'en';

export interface Profile {
  baseUrl?: string;
  apiKey?: string;
  lang?: Lang;
  /** Default space (id or name) for commands that take --space. */
  space?: string;
  /** Requests per minute this profile stays under. */
  rateLimit?: number;
  /** The pager for long output ('' or `cat`: none); KAGENT_PAGER overrides it, it overrides PAGER. */
  pager?: string;
  /** Saved by `kagent sandbox` (which replaces only such a profile without asking). */
  sandbox?: true;
}

export interface ConfigFile {
  currentProfile?: string;
  profiles: Record<string, Profile>;
}

export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** Reads the config file; a missing file is an empty config. Tightens the file's mode to 0600 if it is looser. */
export function readConfigFile(path: string): ConfigFile {
  let text: string | undefined;
  try {
    text = readPlainFileSync(path);
  } catch (error) {
    throw new CliError(`cannot read the config file ${path}: ${(error as Error).message}`, {
      code: 'CONFIG_UNREADABLE',
    });
  }
  if (text === undefined) return { profiles: {} };
  ensurePrivate(path);
  let parsed: unknown;
  try {
    parsed = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw new CliError(`the config file ${path} is not valid JSON`, {
      code: 'CONFIG_INVALID',
      hint: `fix it by hand, or remove it and log in again`,
    });
  }
  return normalize(parsed);
}

/** Keeps only well-typed fields: a hand-edited file never crashes a command. */
export function normalize(raw: unknown): ConfigFile {
  const record = isRecord(raw) ? raw : {};
  const profiles: Record<string, Profile> = {};
  if (isRecord(record.profiles)) {
    for (const [name, value] of Object.entries(record.profiles)) {
      if (isRecord(value)) profiles[name] = normalizeProfile(value);
    }
  }
  const currentProfile = nonEmptyString(record.currentProfile) ? record.currentProfile : undefined;
  return currentProfile === undefined ? { profiles } : { currentProfile, profiles };
}

/** One profile's well-typed fields; the rest is left out. */
function normalizeProfile(value: Record<string, unknown>): Profile {
  const profile: Profile = {};
  if (nonEmptyString(value.baseUrl)) profile.baseUrl = value.baseUrl;
  if (nonEmptyString(value.apiKey)) profile.apiKey = value.apiKey;
  if (value.lang === 'zh' || value.lang === 'en') profile.lang = value.lang;
  if (nonEmptyString(value.space)) profile.space = value.space;
  if (typeof value.rateLimit === 'number' && Number.isFinite(value.rateLimit) && value.rateLimit > 0)
    profile.rateLimit = value.rateLimit;
  if (typeof value.pager === 'string') profile.pager = value.pager;
  if (value.sandbox === true) profile.sandbox = true;
  return profile;
}

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function ensurePrivate(path: string, mode = 0o600): void {
  if (process.platform === 'win32') return;
  try {
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, mode);
  } catch {
    // Not ours to change (another owner): reading still works.
  }
}

/** How long a write waits for another kagent process to finish its own write. */
export const CONFIG_LOCK_WAIT_MS = 5000;

/**
 * Changes the config file: under an exclusive lock (proper-lockfile: a
 * `config.json.lock` directory, safe across processes), the file is re-read,
 * `change` edits a normalised copy in place, and conf writes it back whole
 * (atomic replace, fsync'd, mode 0600). Parallel writers never lose each
 * other's updates; a writer that cannot take the lock within `lockWaitMs`
 * fails (CONFIG_LOCKED, exit 1) without writing.
 */
export async function updateConfigFile(
  dir: string,
  change: (config: ConfigFile) => void,
  options: { lockWaitMs?: number; signal?: AbortSignal } = {},
): Promise<ConfigFile> {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new CliError(`cannot create the config directory ${dir}: ${(error as Error).message}`, {
      code: 'CONFIG_UNWRITABLE',
    });
  }
  ensurePrivate(dir, 0o700);
  // Both load before the lock is taken: the time under the lock is only read, change and write.
  const [{ default: Conf }, { default: lockfile }] = await loadConfigWriter();
  const path = configPath(dir);
  const release = await acquireConfigLock(
    lockfile.lock,
    path,
    options.lockWaitMs ?? CONFIG_LOCK_WAIT_MS,
    options.signal,
  );
  let config: ConfigFile;
  try {
    config = writeUnderLock(Conf, dir, path, change);
  } catch (error) {
    await release.unlock().catch(() => undefined);
    throw error;
  }
  let lost = await release.unlock().then(
    () => undefined,
    (error: Error) => error.message,
  );
  if (release.compromised()) lost ??= 'another process took it over';
  if (lost !== undefined) {
    throw new CliError(`the config file ${path} may not have been saved: its lock was lost (${lost})`, {
      code: 'CONFIG_LOCK_LOST',
      hint: 'check it with `kagent config list` and try again',
    });
  }
  return config;
}

function writeUnderLock(
  Conf: typeof import('conf').default,
  dir: string,
  path: string,
  change: (config: ConfigFile) => void,
): ConfigFile {
  let store: InstanceType<typeof Conf<Record<string, unknown>>>;
  try {
    // Opened under the lock: it reads what the last writer left.
    store = new Conf<Record<string, unknown>>({
      cwd: dir,
      configName: 'config',
      projectName: 'kagent',
      configFileMode: 0o600,
      accessPropertiesByDotNotation: false,
      clearInvalidConfig: false,
    });
  } catch (error) {
    throw new CliError(`cannot open the config file ${path}: ${(error as Error).message}`, {
      code: 'CONFIG_INVALID',
      hint: 'fix it by hand, or remove it and log in again',
    });
  }
  const config = normalize(store.store);
  change(config);
  try {
    // conf writes a temporary file, then renames it over the old one: a failed write leaves the old file whole.
    store.store = config as unknown as Record<string, unknown>;
  } catch (error) {
    throw unwritable(path, error);
  }
  ensurePrivate(store.path);
  return config;
}

/** The config file could not be written (a full disk, a read-only one, no permission): said so, with the path. */
function unwritable(path: string, error: unknown): CliError {
  const code = (error as NodeJS.ErrnoException).code;
  // "ENOSPC: no space left on device, write" → "no space left on device".
  const reason = (error as Error).message.replace(/^E[A-Z]+: /, '').replace(/, \w+( '.*')?$/s, '');
  const full = code === 'ENOSPC' || code === 'EDQUOT';
  return new CliError(
    `cannot write the config file ${path}: ${full ? 'the disk is full' : reason}${code ? ` (${code})` : ''}; nothing was saved`,
    {
      code: 'CONFIG_UNWRITABLE',
      cause: error,
      hint: full
        ? `free some space on the disk that holds ${path}, or set KAGENT_CONFIG_DIR to a directory on another disk`
        : `check that ${path} and its directory can be written, or set KAGENT_CONFIG_DIR to another directory`,
    },
  );
}

interface ConfigLock {
  unlock(): Promise<void>;
  compromised(): boolean;
}

async function acquireConfigLock(
  lock: typeof import('proper-lockfile').lock,
  path: string,
  waitMs: number,
  signal: AbortSignal | undefined,
): Promise<ConfigLock> {
  let compromised = false;
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    // The command's --timeout and Ctrl-C end the wait for another writer too (nothing saved).
    if (signal?.aborted) throw abortError(signal);
    try {
      const unlock = await lock(path, {
        lockfilePath: `${path}.lock`,
        realpath: false,
        // A writer holds it for milliseconds; one that died holding it is taken over after 3 s.
        stale: 3000,
        onCompromised: () => {
          compromised = true;
        },
      });
      return { unlock, compromised: () => compromised };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ELOCKED') {
        throw new CliError(`cannot lock the config file ${path}: ${(error as Error).message}`, {
          code: 'CONFIG_UNWRITABLE',
        });
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new CliError(
          `the config file ${path} is locked by another kagent process; nothing was saved (waited ${(waitMs / 1000).toFixed(1)} s)`,
          {
            code: 'CONFIG_LOCKED',
            hint: `try again; if no kagent is running, remove ${path}.lock`,
          },
        );
      }
      // Short randomised waits: parallel writers take turns instead of stepping in lock-step.
      const pause = Math.min(left, Math.min(100, 5 + attempt * 5) * (0.5 + Math.random()));
      await pauseFor(pause, signal);
    }
  }
}

/** A pause that ends early when `signal` aborts (the loop then stops). */
function pauseFor(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Writes (merges) one profile. Used by `auth login`, `config set`, and by the
 * sandbox to leave a ready `sandbox` profile behind. Values set to undefined
 * are removed. Returns the config file's path.
 */
export async function writeProfile(
  dir: string | undefined,
  name: string,
  values: { [K in keyof Profile]?: Profile[K] | undefined },
  options: { makeCurrent?: boolean; signal?: AbortSignal } = {},
): Promise<string> {
  if (!PROFILE_NAME.test(name)) throw new CliError(`invalid profile name "${name}"`, { code: 'USAGE', exitCode: 2 });
  const where = dir ?? configDir(process.env);
  await updateConfigFile(
    where,
    (config) => {
      const profile: Profile = { ...config.profiles[name] };
      // A new URL or key from anyone else (auth login, config set) makes it no longer the sandbox's.
      if (('baseUrl' in values || 'apiKey' in values) && !('sandbox' in values)) delete profile.sandbox;
      for (const [key, value] of Object.entries(values) as Array<[keyof Profile, unknown]>) {
        if (value === undefined) delete profile[key];
        else (profile as Record<string, unknown>)[key] = value;
      }
      config.profiles[name] = profile;
      if (options.makeCurrent) config.currentProfile = name;
    },
    { signal: options.signal },
  );
  return configPath(where);
}
