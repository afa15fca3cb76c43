// The config file: profiles { baseUrl, apiKey, lang, space, rateLimit } and the
// current profile. Reading is a plain fs read of JSON (start-up stays fast;
// conf and its validator load only to write). The file holds API keys, so it
// is kept at mode 0600 (0700 for its directory), checked on every read.
import { chmodSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { CliError } from '../errors.js';
import { configDir, configPath } from './paths.js';

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
}

export interface ConfigFile {
  currentProfile?: string;
  profiles: Record<string, Profile>;
}

export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** Reads the config file; a missing file is an empty config. Tightens the file's mode to 0600 if it is looser. */
export function readConfigFile(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw new CliError(`cannot read the config file ${path}: ${(error as Error).message}`, { code: 'CONFIG_UNREADABLE' });
  }
  ensurePrivate(path);
  let parsed: unknown;
  try {
    parsed = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw new CliError(`the config file ${path} is not valid JSON`, { code: 'CONFIG_INVALID', hint: `fix it by hand, or remove it and log in again` });
  }
  return normalize(parsed);
}

/** Keeps only well-typed fields: a hand-edited file never crashes a command. */
export function normalize(raw: unknown): ConfigFile {
  const record = isRecord(raw) ? raw : {};
  const profiles: Record<string, Profile> = {};
  if (isRecord(record.profiles)) {
    for (const [name, value] of Object.entries(record.profiles)) {
      if (!isRecord(value)) continue;
      const profile: Profile = {};
      if (typeof value.baseUrl === 'string' && value.baseUrl !== '') profile.baseUrl = value.baseUrl;
      if (typeof value.apiKey === 'string' && value.apiKey !== '') profile.apiKey = value.apiKey;
      if (value.lang === 'zh' || value.lang === 'en') profile.lang = value.lang;
      if (typeof value.space === 'string' && value.space !== '') profile.space = value.space;
      if (typeof value.rateLimit === 'number' && Number.isFinite(value.rateLimit) && value.rateLimit > 0) profile.rateLimit = value.rateLimit;
      if (typeof value.pager === 'string') profile.pager = value.pager;
      profiles[name] = profile;
    }
  }
  const currentProfile = typeof record.currentProfile === 'string' && record.currentProfile !== '' ? record.currentProfile : undefined;
  return currentProfile === undefined ? { profiles } : { currentProfile, profiles };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function ensurePrivate(path: string): void {
  if (process.platform === 'win32') return;
  try {
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  } catch {
    // Not ours to change (another owner): reading still works.
  }
}

/**
 * Changes the config file through conf (atomic write, mode 0600). `change`
 * edits a normalised copy in place; the result is written back whole.
 */
export async function updateConfigFile(dir: string, change: (config: ConfigFile) => void): Promise<ConfigFile> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { default: Conf } = await import('conf');
  let store: InstanceType<typeof Conf<Record<string, unknown>>>;
  try {
    store = new Conf<Record<string, unknown>>({
      cwd: dir,
      configName: 'config',
      projectName: 'kagent',
      configFileMode: 0o600,
      accessPropertiesByDotNotation: false,
      clearInvalidConfig: false,
    });
  } catch (error) {
    throw new CliError(`cannot open the config file ${configPath(dir)}: ${(error as Error).message}`, {
      code: 'CONFIG_INVALID',
      hint: 'fix it by hand, or remove it and log in again',
    });
  }
  const config = normalize(store.store);
  change(config);
  store.store = config as unknown as Record<string, unknown>;
  ensurePrivate(store.path);
  return config;
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
  options: { makeCurrent?: boolean } = {},
): Promise<string> {
  if (!PROFILE_NAME.test(name)) throw new CliError(`invalid profile name "${name}"`, { code: 'USAGE', exitCode: 2 });
  const where = dir ?? configDir(process.env);
  await updateConfigFile(where, (config) => {
    const profile: Profile = { ...config.profiles[name] };
    for (const [key, value] of Object.entries(values) as Array<[keyof Profile, unknown]>) {
      if (value === undefined) delete profile[key];
      else (profile as Record<string, unknown>)[key] = value;
    }
    config.profiles[name] = profile;
    if (options.makeCurrent) config.currentProfile = name;
  });
  return configPath(where);
}
