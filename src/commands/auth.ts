// kagent auth login / status / logout / token. The key is checked with GET /me
// before it is saved, shown masked everywhere (kak_…abcd), and printed in full
// only by `auth token`.
import type { Me } from '../api/shapes.js';
import type { Context, ValueSource } from '../context.js';
import { ApiError, CliError, ExitCode, UsageError } from '../errors.js';
import { redactUrlCredentials } from '../http/url.js';
import type { Formatter } from '../io/output.js';
import { defineCommand, defineGroup } from './define.js';

/** What `auth status` (and `auth login --json`) report. */
export interface AuthStatus {
  profile: string;
  profileSource: ValueSource;
  configPath: string;
  baseUrl: string | null;
  baseUrlSource: ValueSource;
  apiKey: string | null;
  apiKeySource: ValueSource;
  authenticated: boolean;
  user: Me | null;
}

const MAX_KEY_BYTES = 16 * 1024;

async function readKeyFromStdin(ctx: Context): Promise<string> {
  let text = '';
  for await (const chunk of ctx.io.stdin) {
    text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
    if (text.length > MAX_KEY_BYTES) throw new UsageError('--with-key: stdin holds more than an API key');
  }
  const key = text.trim().split(/\r?\n/)[0]?.trim() ?? '';
  if (key === '') throw new UsageError('--with-key: no API key on stdin', 'for example: kagent auth login --with-key < key.txt');
  return key;
}

function sourceLabel(source: ValueSource, names: { flag?: string; env?: string }, ctx: Context): string {
  switch (source) {
    case 'flag':
      return names.flag ?? 'flag';
    case 'env':
      return names.env ?? 'environment';
    case 'profile':
      return `profile "${ctx.config.profile}"`;
    default:
      return 'default';
  }
}

function statusOf(ctx: Context, user: Me | null, masked: (key: string) => string): AuthStatus {
  const { config } = ctx;
  return {
    profile: config.profile,
    profileSource: config.profileSource,
    configPath: config.configPath,
    baseUrl: config.baseUrl ? redactUrlCredentials(config.baseUrl) : null,
    baseUrlSource: config.baseUrlSource,
    apiKey: config.apiKey ? masked(config.apiKey) : null,
    apiKeySource: config.apiKeySource,
    authenticated: user !== null,
    user,
  };
}

function renderStatus(ctx: Context, status: AuthStatus, f: Formatter, problem?: string): string {
  const profileFrom =
    status.profileSource === 'profile' ? 'current profile' : status.profileSource === 'default' ? 'default' : sourceLabel(status.profileSource, { flag: '--profile', env: 'KAGENT_PROFILE' }, ctx);
  if (!f.tty) {
    return f.fields([
      ['profile', status.profile],
      ['profile-source', status.profileSource],
      ['base-url', status.baseUrl ?? ''],
      ['base-url-source', status.baseUrl ? status.baseUrlSource : ''],
      ['api-key', status.apiKey ?? ''],
      ['api-key-source', status.apiKey ? status.apiKeySource : ''],
      ['email', status.user?.email],
      ['plan', status.user?.plan?.id],
      ['authenticated', String(status.authenticated)],
    ]);
  }
  const from = (text: string) => f.dim(`(${text})`);
  const account = status.user
    ? `${status.user.email}${status.user.plan ? ` · plan ${status.user.plan.name}` : ''}  ${f.green('✓ logged in')}`
    : f.red(problem ?? 'not logged in');
  return f.fields([
    ['Profile', `${status.profile}  ${from(`${profileFrom}; ${status.configPath}`)}`],
    ['Base URL', status.baseUrl ? `${status.baseUrl}  ${from(sourceLabel(status.baseUrlSource, { flag: '--base-url', env: 'KAGENT_BASE_URL' }, ctx))}` : f.yellow('not set')],
    ['API key', status.apiKey ? `${status.apiKey}  ${from(sourceLabel(status.apiKeySource, { env: 'KAGENT_API_KEY' }, ctx))}` : f.yellow('not set')],
    ['Account', account],
  ]);
}

const login = defineCommand<{ withKey?: boolean }>({
  name: 'login',
  summary: 'Log in with an API key (checked with the service before it is saved)',
  description:
    'On a terminal you are asked for the base URL (unless given) and the key (typed masked). In scripts, pipe the key in with --with-key. ' +
    'The profile (-p, default: the current one) is saved with its base URL and key in the config file (mode 0600) and becomes the current profile.',
  options: [{ flags: '--with-key', description: 'read the API key from stdin instead of asking' }],
  examples: [
    'kagent auth login --base-url https://example.com/api/v1',
    'kagent auth login --base-url https://example.com/api/v1 --with-key < key.txt',
    'echo "$KEY" | kagent auth login -p work --with-key',
  ],
  async run(ctx, opts) {
    const [{ askSecret, askText }, { checkBaseUrl, configDirOf, maskKey }, { connect }, { writeProfile }, output, { withSpinner }] = await Promise.all([
      import('../io/prompt.js'),
      import('../config/resolve.js'),
      import('../runtime.js'),
      import('../config/store.js'),
      import('../io/output.js'),
      import('../io/spinner.js'),
    ]);

    let baseUrl = ctx.config.baseUrl;
    if (!baseUrl) {
      baseUrl = (
        await askText(ctx, {
          message: 'API base URL (e.g. https://example.com/api/v1):',
          flag: '--base-url URL',
          what: 'the API base URL',
          validate: (value) => {
            try {
              checkBaseUrl(value.trim(), 'the base URL');
              return true;
            } catch (error) {
              return (error as Error).message;
            }
          },
        })
      ).trim();
    }

    const apiKey = opts.withKey
      ? await readKeyFromStdin(ctx)
      : (await askSecret(ctx, { message: 'API key (from your account settings):', flag: '--with-key (and the key on stdin)', what: 'the API key' })).trim();
    if (apiKey === '') throw new UsageError('the API key is empty');

    const client = await connect(ctx, { baseUrl, apiKey });
    let me: Me;
    try {
      me = await withSpinner(ctx, 'Checking the key…', () => client.call('getMe', { signal: ctx.signal }));
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        throw new CliError(`the service at ${client.baseUrl} did not accept this API key`, {
          exitCode: ExitCode.AUTH,
          code: error.code,
          hint: 'copy the key again from your account settings; nothing was saved',
        });
      }
      throw error;
    }

    const path = await writeProfile(configDirOf(ctx.config), ctx.config.profile, { baseUrl, apiKey }, { makeCurrent: true });
    const status: AuthStatus = {
      ...statusOf(ctx, me, maskKey),
      configPath: path,
      baseUrl: redactUrlCredentials(baseUrl),
      baseUrlSource: ctx.config.baseUrlSource === 'default' ? 'profile' : ctx.config.baseUrlSource,
      apiKey: maskKey(apiKey),
      apiKeySource: 'profile',
      profileSource: ctx.config.profileSource,
    };
    if (output.wantsJson(ctx)) await output.printJson(ctx, status);
    else await output.success(ctx, `Logged in to ${new URL(client.baseUrl).host} as ${me.email ?? me.id}${me.plan ? ` (plan ${me.plan.name})` : ''}; saved as profile "${ctx.config.profile}"`);
    if (ctx.config.apiKeySource === 'env') await output.warn(ctx, 'KAGENT_API_KEY is set in your environment and wins over the saved key while it is set');
  },
});

const status = defineCommand({
  name: 'status',
  summary: 'Show the profile, base URL and key in use (masked), where each came from, and the account',
  description: 'Exit status 0 when the key works, 3 when there is no key, no base URL, or the key is not accepted.',
  examples: ['kagent auth status', 'kagent auth status -p work', "kagent auth status --jq '.user.email'"],
  async run(ctx) {
    const [{ maskKey }, output] = await Promise.all([import('../config/resolve.js'), import('../io/output.js')]);
    let user: Me | null = null;
    let failure: CliError | undefined;
    if (!ctx.config.baseUrl || !ctx.config.apiKey) {
      try {
        await ctx.api();
      } catch (error) {
        failure = error as CliError;
      }
    } else {
      try {
        const api = await ctx.api();
        user = await api.call('getMe', { signal: ctx.signal });
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 401)) throw error;
        failure = new CliError('the API key was not accepted', { exitCode: ExitCode.AUTH, code: error.code, hint: 'log in again with `kagent auth login`' });
      }
    }
    const result = statusOf(ctx, user, maskKey);
    await output.printItem(ctx, result, (shown, f) => renderStatus(ctx, shown, f, failure?.message));
    if (failure) throw failure;
  },
});

const logout = defineCommand({
  name: 'logout',
  summary: "Remove the profile's saved API key (the base URL and settings stay)",
  examples: ['kagent auth logout', 'kagent auth logout -p work'],
  async run(ctx) {
    const [{ writeProfile }, { configDirOf, storedProfile }, output] = await Promise.all([import('../config/store.js'), import('../config/resolve.js'), import('../io/output.js')]);
    const hadKey = storedProfile(ctx.config).apiKey !== undefined;
    if (hadKey) await writeProfile(configDirOf(ctx.config), ctx.config.profile, { apiKey: undefined });
    if (output.wantsJson(ctx)) await output.printJson(ctx, { profile: ctx.config.profile, loggedOut: hadKey });
    else if (hadKey) await output.success(ctx, `Logged out: removed the API key of profile "${ctx.config.profile}"`);
    else await output.note(ctx, `Profile "${ctx.config.profile}" has no saved API key; nothing to do`);
    if (ctx.config.apiKeySource === 'env') await output.warn(ctx, 'KAGENT_API_KEY is still set in your environment: unset it to log out completely');
  },
});

const token = defineCommand({
  name: 'token',
  summary: 'Print the API key in use (the only command that shows it)',
  examples: ['kagent auth token', 'curl -H "Authorization: Bearer $(kagent auth token)" "$(kagent config get base-url)/me"'],
  async run(ctx) {
    const key = ctx.config.apiKey;
    if (!key) {
      throw new CliError('not logged in: no API key', { exitCode: ExitCode.AUTH, code: 'NOT_AUTHENTICATED', hint: 'run `kagent auth login`, or set KAGENT_API_KEY' });
    }
    const output = await import('../io/output.js');
    if (output.wantsJson(ctx)) await output.printJson(ctx, { token: key });
    else await output.printText(ctx, key);
  },
});

export default defineGroup({
  name: 'auth',
  summary: 'Log in with an API key, check who you are, log out',
  description: 'Keys are created in your account settings. Precedence: KAGENT_API_KEY > the profile\'s saved key.',
  examples: ['kagent auth login --base-url https://example.com/api/v1', 'kagent auth status', 'kagent auth logout'],
  commands: [login, status, logout, token],
});
