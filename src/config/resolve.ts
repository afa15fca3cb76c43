// Which profile, base URL, key and language this run uses, and where each came
// from: flag > environment > profile > default. `auth status` and `config list`
// show the sources; nothing here talks to the network.
import { dirname } from 'node:path';
import type { ResolvedConfig, ValueSource } from '../context.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { configDir, configPath } from './paths.js';
import { PROFILE_NAME, readConfigFile, type ConfigFile, type Lang, type Profile } from './store.js';

/** The contract's rate: 60 requests per minute per account. */
export const DEFAULT_RATE_LIMIT = 60;
export const DEFAULT_PROFILE = 'default';
/** As gh: quit when the text fits one screen, keep colour, leave the screen as it is. Used only when less is installed. */
export const DEFAULT_PAGER = 'less -FRX';

export interface ResolveFlags {
  profile?: string;
  baseUrl?: string;
  lang?: Lang;
}

export interface Resolved extends ResolvedConfig {
  configDir: string;
  file: ConfigFile;
  /** The stored profile (possibly empty). */
  stored: Profile;
  spaceSource: ValueSource;
  rateLimitSource: ValueSource;
  /** Which variable gave the pager when its source is 'env'. */
  pagerVariable: 'KAGENT_PAGER' | 'PAGER' | undefined;
}

export function resolveConfig(flags: ResolveFlags, env: NodeJS.ProcessEnv): Resolved {
  const dir = configDir(env);
  const path = configPath(dir);
  const file = readConfigFile(path);

  const [profile, profileSource] = pickProfile(flags, env, file);
  const stored = file.profiles[profile] ?? {};
  const [baseUrl, baseUrlSource] = pickBaseUrl(flags, env, stored, profile);
  const [apiKey, apiKeySource] = pick<string | undefined>(
    [
      [env.KAGENT_API_KEY?.trim() || undefined, 'env'],
      [stored.apiKey, 'profile'],
    ],
    undefined,
  );
  const [lang, langSource] = pickLang(flags, env, stored);
  const [space, spaceSource] = pick<string | undefined>([[stored.space, 'profile']], undefined);
  const [rateLimit, rateLimitSource] = pick<number>([[stored.rateLimit, 'profile']], DEFAULT_RATE_LIMIT);
  const [pager, pagerSource] = pick<string>(
    [
      [env.KAGENT_PAGER, 'env'],
      [stored.pager, 'profile'],
      [env.PAGER, 'env'],
    ],
    DEFAULT_PAGER,
  );

  return {
    profile,
    profileSource,
    baseUrl,
    baseUrlSource,
    apiKey,
    apiKeySource,
    lang,
    langSource,
    space,
    spaceSource,
    rateLimit,
    rateLimitSource,
    pager: pager.trim(),
    pagerSource,
    pagerVariable: pagerSource === 'env' ? pagerVariable(env) : undefined,
    configPath: path,
    configDir: dir,
    file,
    stored,
  };
}

/** The variable the environment gave the pager in: KAGENT_PAGER before PAGER. */
function pagerVariable(env: NodeJS.ProcessEnv): 'KAGENT_PAGER' | 'PAGER' {
  return env.KAGENT_PAGER !== undefined ? 'KAGENT_PAGER' : 'PAGER';
}

/** --profile > KAGENT_PROFILE > the current profile of the file > 'default'; the name must be a valid one. */
function pickProfile(flags: ResolveFlags, env: NodeJS.ProcessEnv, file: ConfigFile): [string, ValueSource] {
  const [profile, profileSource] = pick<string>(
    [
      [flags.profile, 'flag'],
      [env.KAGENT_PROFILE || undefined, 'env'],
      [file.currentProfile, 'profile'],
    ],
    DEFAULT_PROFILE,
  );
  if (!PROFILE_NAME.test(profile)) {
    throw new UsageError(
      `invalid profile name "${profile}"${profileSource === 'env' ? ' in KAGENT_PROFILE' : ''}`,
      'profile names are letters, digits, ".", "_" and "-"',
    );
  }
  return [profile, profileSource];
}

/** --base-url > KAGENT_BASE_URL > the profile's; checked, the message naming where it came from. */
function pickBaseUrl(
  flags: ResolveFlags,
  env: NodeJS.ProcessEnv,
  stored: Profile,
  profile: string,
): [string | undefined, ValueSource] {
  const [baseUrl, baseUrlSource] = pick<string | undefined>(
    [
      [flags.baseUrl, 'flag'],
      [env.KAGENT_BASE_URL || undefined, 'env'],
      [stored.baseUrl, 'profile'],
    ],
    undefined,
  );
  if (baseUrl !== undefined) checkBaseUrl(baseUrl, baseUrlOrigin(baseUrlSource, profile));
  return [baseUrl, baseUrlSource];
}

/** Where a base URL came from, as a message about it names it. */
function baseUrlOrigin(source: ValueSource, profile: string): string {
  if (source === 'flag') return '--base-url';
  if (source === 'env') return 'KAGENT_BASE_URL';
  return `base-url of profile "${profile}"`;
}

/** --lang > KAGENT_LANG (zh or en, else a usage error) > the profile's. */
function pickLang(flags: ResolveFlags, env: NodeJS.ProcessEnv, stored: Profile): [Lang | undefined, ValueSource] {
  const envLang = env.KAGENT_LANG || undefined;
  if (envLang !== undefined && envLang !== 'zh' && envLang !== 'en')
    throw new UsageError(`KAGENT_LANG must be zh or en (got "${envLang}")`);
  return pick<Lang | undefined>(
    [
      [flags.lang, 'flag'],
      [envLang as Lang | undefined, 'env'],
      [stored.lang, 'profile'],
    ],
    undefined,
  );
}

function pick<T>(candidates: Array<[T | undefined, ValueSource]>, fallback: T): [T, ValueSource] {
  for (const [value, source] of candidates) if (value !== undefined) return [value, source];
  return [fallback, 'default'];
}

/** A base URL must be an absolute http(s) URL; `where` names the flag, variable or setting it came from. */
export function checkBaseUrl(value: string, where: string): void {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new UsageError(
      `${where} must be an http:// or https:// URL (got "${value}")`,
      'for example https://example.com/api/v1',
    );
  }
}

/** `kak_…abcd`: the key's prefix and last four characters, never more. */
export function maskKey(key: string): string {
  const prefix = /^[A-Za-z]{1,8}_/.exec(key)?.[0] ?? '';
  const rest = key.length - prefix.length;
  return `${prefix}…${rest >= 12 ? key.slice(-4) : ''}`;
}

/** Where a value came from, in words: "--base-url flag", "KAGENT_API_KEY", "profile default". */
export function describeSource(source: ValueSource, names: { flag?: string; env?: string }, profile: string): string {
  switch (source) {
    case 'flag':
      return `${names.flag ?? 'flag'} flag`;
    case 'env':
      return `${names.env ?? 'environment'}`;
    case 'profile':
      return `profile "${profile}"`;
    default:
      return 'default';
  }
}

/** The config directory of a resolved config. */
export function configDirOf(config: Pick<ResolvedConfig, 'configPath'>): string {
  return dirname(config.configPath);
}

/** The profile as saved in the file (without env or flags), possibly empty. */
export function storedProfile(config: Pick<ResolvedConfig, 'configPath' | 'profile'>): Profile {
  return readConfigFile(config.configPath).profiles[config.profile] ?? {};
}

/**
 * The profile named with -p/--profile or KAGENT_PROFILE that is not saved, as an error that
 * names the closest saved one ("no profile "sandbx": did you mean "sandbox"?"), or undefined
 * when the profile exists or was not asked for by name. (A profile that does not exist yet is
 * fine for commands that create it, such as `auth login -p NAME`: this is checked only when a
 * command needs the profile's base URL or key and it has none.)
 */
export function missingProfileError(
  config: Pick<Resolved, 'profile' | 'profileSource' | 'file'>,
): CliError | undefined {
  if (config.profileSource !== 'flag' && config.profileSource !== 'env') return undefined;
  const names = Object.keys(config.file.profiles);
  if (names.includes(config.profile)) return undefined;
  return profileNotFound(config.profile, names, {
    fromEnv: config.profileSource === 'env',
    create: `kagent auth login -p ${config.profile}`,
  });
}

/**
 * A command that reads or changes the named profile itself (`config get`, `auth logout`):
 * `-p sandbx` is PROFILE_NOT_FOUND whatever the environment supplies.
 */
export function checkNamedProfile(config: Pick<ResolvedConfig, 'profile' | 'profileSource' | 'configPath'>): void {
  const missing = missingProfileError({ ...config, file: readConfigFile(config.configPath) });
  if (missing) throw missing;
}

/**
 * `no profile "sandbx": did you mean "sandbox"?` (PROFILE_NOT_FOUND), its hint naming the saved
 * profiles and the command that would create this one. Exit 2, as any invalid input: a profile
 * that does not exist is an error of the command line (or KAGENT_PROFILE), which a script must
 * not read as 4, a record missing on the service that it might go on to create.
 */
export function profileNotFound(
  name: string,
  saved: readonly string[],
  options: { fromEnv?: boolean; create: string },
): CliError {
  const closest = closestName(name, saved);
  const where = options.fromEnv ? ' (from KAGENT_PROFILE)' : '';
  return new CliError(`no profile "${name}"${where}${closest ? `: did you mean "${closest}"?` : ''}`, {
    exitCode: ExitCode.USAGE,
    code: 'PROFILE_NOT_FOUND',
    hint: profileNotFoundHint(name, saved, options.create),
  });
}

/** What to do about a missing profile: mind its name, use a saved one, or create one (`create`). */
function profileNotFoundHint(name: string, saved: readonly string[], create: string): string {
  if (!PROFILE_NAME.test(name)) return 'profile names are letters, digits, ".", "_" and "-"';
  if (saved.length)
    return `saved profiles: ${saved.join(', ')} (\`kagent config profiles\`); create one with \`${create}\``;
  return `no profile is saved yet: create one with \`${create}\``;
}

/**
 * When this run's profile is the fallback "default" (no -p, no KAGENT_PROFILE, no current
 * profile in the file) and it is not saved while others are: the hint that names them, with the
 * exact commands to use one. kagent never picks a saved profile by itself (a script would
 * silently talk to another service); it says how, as gh does.
 */
export function unsavedDefaultHint(config: Pick<Resolved, 'profile' | 'profileSource' | 'file'>): string | undefined {
  if (config.profileSource !== 'default') return undefined;
  const names = Object.keys(config.file.profiles);
  if (names.includes(config.profile) || names.length === 0) return undefined;
  if (names.length === 1) {
    const [name] = names as [string];
    return `no current profile; the one saved profile is "${name}": make it current with \`kagent config use ${name}\`, or add \`-p ${name}\` to the command`;
  }
  return `no current profile; saved profiles: ${names.join(', ')}: make one current with \`kagent config use NAME\`, or add \`-p NAME\` to the command`;
}

/**
 * The name nearest to `name` by edit distance, if it is near enough to be a typo: at most
 * `limit` edits (by default a third of its length rounded up, and 3).
 */
export function closestName(
  name: string,
  names: readonly string[],
  limit = Math.min(3, Math.max(1, Math.ceil(name.length / 3))),
): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of names) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best !== undefined && bestDistance <= limit ? best : undefined;
}

/** Levenshtein distance, with a transposition of two neighbours counting as one edit. */
function editDistance(a: string, b: string): number {
  // The first row and column: the distance from the empty string (i + j, as one of them is 0).
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 || j === 0 ? i + j : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, d[i - 2]![j - 2]! + 1);
      d[i]![j] = value;
    }
  }
  return d[a.length]![b.length]!;
}
