// What several `kagent config` verbs share.
import type { Context, ValueSource } from '../../src/context.js';
import { UsageError } from '../../src/errors.js';
import { checkBaseUrl, maskKey, profileNotFound, storedProfile } from '../../src/config/resolve.js';
import { readConfigFile, type Profile } from '../../src/config/store.js';
import { parsePager } from '../../src/io/pager-setting.js';

export type Bounds = (typeof import('../../src/api/shapes.js'))['limits'];

interface Setting {
  key: string;
  field: keyof Profile;
  about: string;
  /** The value in effect and its source. */
  current(config: Context['config']): [unknown, ValueSource];
  /** Text from the command line → the stored value (throws a usage error naming the key). */
  parse?(value: string, bounds: Bounds): Profile[keyof Profile];
  secret?: boolean;
}

export const SETTINGS: Setting[] = [
  {
    key: 'base-url',
    field: 'baseUrl',
    about: 'API base URL, e.g. https://example.com/api/v1',
    current: (config) => [config.baseUrl, config.baseUrlSource],
    parse(value) {
      checkBaseUrl(value, 'base-url');
      return value;
    },
  },
  {
    key: 'lang',
    field: 'lang',
    about: 'content language for writes: zh or en',
    current: (config) => [config.lang, config.langSource],
    parse(value) {
      if (value !== 'zh' && value !== 'en') throw new UsageError(`lang must be zh or en (got "${value}")`);
      return value;
    },
  },
  {
    key: 'space',
    field: 'space',
    about: 'default space (id or name) for commands that take --space',
    current: (config) => [config.space, config.space === undefined ? 'default' : 'profile'],
    parse(value, bounds) {
      // The contract's bound on a space given as a filter.
      const { min, max } = bounds.spaceFilter;
      const length = [...value].length;
      if (length < min || length > max)
        throw new UsageError(`space must be ${min} to ${max} characters (got ${length})`);
      return value;
    },
  },
  {
    key: 'rate-limit',
    field: 'rateLimit',
    about: "requests per minute kagent stays under (default 60, the service's limit)",
    current: (config) => [config.rateLimit, storedProfile(config).rateLimit === undefined ? 'default' : 'profile'],
    parse(value) {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1 || n > 100_000)
        throw new UsageError(`rate-limit must be an integer from 1 to 100000 (got "${value}")`);
      return n;
    },
  },
  {
    key: 'pager',
    field: 'pager',
    about:
      'program that shows long output on a terminal, e.g. "less -R" (cat: none; KAGENT_PAGER overrides it, it overrides PAGER)',
    current: (config) => [config.pager, config.pagerSource],
    parse: (value) => parsePager(value),
  },
  {
    key: 'api-key',
    field: 'apiKey',
    about: 'API key (set it with `kagent auth login`; shown masked)',
    current: (config) => [config.apiKey, config.apiKeySource],
    secret: true,
  },
];

export function settingFor(key: string): Setting {
  const setting = SETTINGS.find((candidate) => candidate.key === key);
  if (!setting) throw new UsageError(`unknown setting "${key}"`, `settings: ${SETTINGS.map((s) => s.key).join(', ')}`);
  return setting;
}

export interface Row {
  key: string;
  value: string | number | null;
  source: ValueSource | null;
}

export function rowFor(ctx: Context, setting: Setting): Row {
  const [value, source] = setting.current(ctx.config);
  if (value === undefined || value === null || value === '') return { key: setting.key, value: null, source: null };
  return { key: setting.key, value: setting.secret ? maskKey(String(value)) : (value as string | number), source };
}

/**
 * `config set` and `unset` change only a saved profile: `-p sandbx config set lang zh` is a
 * usage error (exit 2) naming the closest saved profile, never a new junk profile. `create`
 * (set's --create) makes a new one. The single exception is the very first setting of all:
 * with nothing saved yet, the implicit "default" profile is created (set lang before logging in).
 */
export function requireSavedProfile(ctx: Context, options: { create: boolean; retry: string }): void {
  const { profile, profileSource, configPath } = ctx.config;
  const saved = Object.keys(readConfigFile(configPath).profiles);
  if (saved.includes(profile) || options.create) return;
  if (profileSource === 'default' && saved.length === 0) return;
  throw profileNotFound(profile, saved, {
    fromEnv: profileSource === 'env',
    create: options.retry,
  });
}
