// kagent config get / set / unset / list, and profiles / use. Settings belong
// to a profile (-p, default: the current one). `get` and `list` show the value
// in effect and where it came from (flag > environment > profile > default).
import type { Context, ValueSource } from '../context.js';
import { CliError, UsageError } from '../errors.js';
import { checkBaseUrl, configDirOf, maskKey, storedProfile } from '../config/resolve.js';
import type { Profile } from '../config/store.js';
import type { Column } from '../io/output.js';
import { parsePager } from '../io/pager-setting.js';
import { defineCommand, defineGroup } from './define.js';

type Bounds = typeof import('../api/shapes.js')['limits'];

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

const SETTINGS: Setting[] = [
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
      if (length < min || length > max) throw new UsageError(`space must be ${min} to ${max} characters (got ${length})`);
      return value;
    },
  },
  {
    key: 'rate-limit',
    field: 'rateLimit',
    about: 'requests per minute kagent stays under (default 60, the service\'s limit)',
    current: (config) => [config.rateLimit, storedProfile(config).rateLimit === undefined ? 'default' : 'profile'],
    parse(value) {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1 || n > 100_000) throw new UsageError(`rate-limit must be an integer from 1 to 100000 (got "${value}")`);
      return n;
    },
  },
  {
    key: 'pager',
    field: 'pager',
    about: 'program that shows long output on a terminal, e.g. "less -R" (cat: none; KAGENT_PAGER overrides it, it overrides PAGER)',
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

function settingFor(key: string): Setting {
  const setting = SETTINGS.find((candidate) => candidate.key === key);
  if (!setting) throw new UsageError(`unknown setting "${key}"`, `settings: ${SETTINGS.map((s) => s.key).join(', ')}`);
  return setting;
}

interface Row {
  key: string;
  value: string | number | null;
  source: ValueSource | null;
}

function rowFor(ctx: Context, setting: Setting): Row {
  const [value, source] = setting.current(ctx.config);
  if (value === undefined || value === null || value === '') return { key: setting.key, value: null, source: null };
  return { key: setting.key, value: setting.secret ? maskKey(String(value)) : (value as string | number), source };
}

const SOURCE_WORDS: Record<string, string> = {
  'base-url': 'KAGENT_BASE_URL',
  lang: 'KAGENT_LANG',
  'api-key': 'KAGENT_API_KEY',
  pager: 'KAGENT_PAGER or PAGER',
};

function sourceText(row: Row): string {
  if (row.source === 'env') return SOURCE_WORDS[row.key] ?? 'environment';
  if (row.source === 'flag') return `--${row.key}`;
  return row.source ?? '';
}

const get = defineCommand<Record<string, never>, { key: string }>({
  name: 'get',
  summary: 'Print the value of a setting in effect (the API key masked)',
  description: `Settings: ${SETTINGS.map((s) => s.key).join(', ')}. Exit status 1 when the setting has no value.`,
  arguments: [{ name: 'key', description: 'the setting', choices: SETTINGS.map((s) => s.key) }],
  examples: ['kagent config get base-url', 'kagent config get lang -p work', 'kagent config get rate-limit --json'],
  async run(ctx, _opts, args) {
    const row = rowFor(ctx, settingFor(args.key));
    const output = await import('../io/output.js');
    if (row.value === null) throw new CliError(`${row.key} is not set for profile "${ctx.config.profile}"`, { code: 'NOT_SET', hint: `set it with \`kagent config set ${row.key} <value>\`` });
    if (output.wantsJson(ctx)) await output.printJson(ctx, row);
    else await output.printText(ctx, String(row.value));
  },
});

const set = defineCommand<Record<string, never>, { key: string; value: string }>({
  name: 'set',
  summary: 'Save a setting in the profile',
  description: `Settings: ${SETTINGS.filter((s) => !s.secret).map((s) => `${s.key} (${s.about})`).join('; ')}. The API key is saved by \`kagent auth login\`.`,
  arguments: [
    { name: 'key', description: 'the setting', choices: SETTINGS.map((s) => s.key) },
    { name: 'value', description: 'its new value' },
  ],
  examples: ['kagent config set lang zh', 'kagent config set base-url https://example.com/api/v1 -p work', 'kagent config set rate-limit 30'],
  async run(ctx, _opts, args) {
    const setting = settingFor(args.key);
    if (!setting.parse) {
      throw new UsageError(`${setting.key} cannot be set here`, 'use `kagent auth login --with-key` (a key typed on the command line ends up in your shell history)');
    }
    const { limits } = await import('../api/shapes.js');
    const value = setting.parse(args.value, limits);
    const { writeProfile } = await import('../config/store.js');
    await writeProfile(configDirOf(ctx.config), ctx.config.profile, { [setting.field]: value });
    const output = await import('../io/output.js');
    if (output.wantsJson(ctx)) await output.printJson(ctx, { key: setting.key, value, source: 'profile', profile: ctx.config.profile });
    else await output.success(ctx, `Set ${setting.key} for profile "${ctx.config.profile}"`);
    const [, source] = setting.current(ctx.config);
    if (source === 'env' || source === 'flag') await output.warn(ctx, `a ${source === 'env' ? 'environment variable' : 'flag'} overrides ${setting.key} in this run`);
  },
});

const unset = defineCommand<Record<string, never>, { key: string }>({
  name: 'unset',
  summary: 'Remove a setting from the profile',
  arguments: [{ name: 'key', description: 'the setting', choices: SETTINGS.map((s) => s.key) }],
  examples: ['kagent config unset space', 'kagent config unset lang -p work'],
  async run(ctx, _opts, args) {
    const setting = settingFor(args.key);
    const [{ writeProfile }, output] = await Promise.all([import('../config/store.js'), import('../io/output.js')]);
    await writeProfile(configDirOf(ctx.config), ctx.config.profile, { [setting.field]: undefined });
    if (output.wantsJson(ctx)) await output.printJson(ctx, { key: setting.key, value: null, profile: ctx.config.profile });
    else await output.success(ctx, `Removed ${setting.key} from profile "${ctx.config.profile}"`);
  },
});

const rowColumns: Column<Row>[] = [
  { header: 'key', value: (row) => row.key },
  { header: 'value', value: (row) => row.value, flex: true },
  { header: 'source', value: (row) => row.source, display: (row) => sourceText(row) },
];

const list = defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'Show every setting in effect and where it came from',
  description: 'Piped, each row is: key, value, source (flag, env, profile or default). Unset settings have an empty value.',
  examples: ['kagent config list', 'kagent config list -p work', 'kagent config list --json'],
  async run(ctx) {
    const rows = SETTINGS.map((setting) => rowFor(ctx, setting));
    const output = await import('../io/output.js');
    if (!output.wantsJson(ctx)) await output.note(ctx, `Profile "${ctx.config.profile}" (${ctx.config.configPath})`);
    await output.printList(ctx, rows, { columns: rowColumns });
  },
});

interface ProfileRow {
  name: string;
  current: boolean;
  baseUrl: string | null;
  loggedIn: boolean;
}

const profiles = defineCommand({
  name: 'profiles',
  summary: 'List the saved profiles',
  description: 'Piped, each row is: name, current (true/false), base URL, has a key (true/false).',
  examples: ['kagent config profiles', 'kagent config profiles --json'],
  async run(ctx) {
    const [{ readConfigFile }, output] = await Promise.all([import('../config/store.js'), import('../io/output.js')]);
    const file = readConfigFile(ctx.config.configPath);
    const rows: ProfileRow[] = Object.entries(file.profiles).map(([name, profile]) => ({
      name,
      current: name === (file.currentProfile ?? 'default'),
      baseUrl: profile.baseUrl ?? null,
      loggedIn: profile.apiKey !== undefined,
    }));
    await output.printList(ctx, rows, {
      columns: [
        { header: 'name', value: (row) => row.name },
        { header: 'current', value: (row) => row.current, kind: 'bool' },
        { header: 'base url', value: (row) => row.baseUrl, flex: true },
        { header: 'key', value: (row) => row.loggedIn, kind: 'bool' },
      ],
      empty: 'No profiles yet: log in with `kagent auth login`.',
    });
  },
});

const use = defineCommand<Record<string, never>, { profile: string }>({
  name: 'use',
  summary: 'Make a profile the current one',
  arguments: [{ name: 'profile', description: 'a saved profile' }],
  examples: ['kagent config use sandbox', 'kagent config use default'],
  async run(ctx, _opts, args) {
    const [{ readConfigFile, updateConfigFile }, output] = await Promise.all([import('../config/store.js'), import('../io/output.js')]);
    const file = readConfigFile(ctx.config.configPath);
    if (!file.profiles[args.profile]) {
      throw new CliError(`no profile "${args.profile}"`, { exitCode: 4, code: 'PROFILE_NOT_FOUND', hint: 'see them with `kagent config profiles`, or create one with `kagent auth login -p NAME`' });
    }
    await updateConfigFile(configDirOf(ctx.config), (config) => {
      config.currentProfile = args.profile;
    });
    if (output.wantsJson(ctx)) await output.printJson(ctx, { currentProfile: args.profile });
    else await output.success(ctx, `Now using profile "${args.profile}"`);
  },
});

export default defineGroup({
  name: 'config',
  summary: 'Read and change settings and profiles',
  description: `Settings (per profile): ${SETTINGS.map((s) => `${s.key} — ${s.about}`).join('; ')}.`,
  examples: ['kagent config list', 'kagent config set lang zh', 'kagent config use sandbox'],
  commands: [get, set, unset, list, profiles, use],
});
