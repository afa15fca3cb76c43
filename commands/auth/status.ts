import type { Me } from '../../src/api/shapes.js';
import type { ValueSource } from '../../src/context.js';
import { ApiError, CliError, ExitCode } from '../../src/errors.js';
import type { Formatter } from '../../src/io/output.js';
import { defineCommand } from '../../src/kit/define.js';
import { type AuthStatus, statusOf } from '../../src/auth/status.js';
import { maskKey } from '../../src/config/resolve.js';
import { pipedFieldsHelp, printItem, type ItemView } from '../../src/io/output.js';

/** Where a value came from, as the terminal says it: the flag or variable that set it, or the profile. */
function sourceLabel(source: ValueSource, names: { flag?: string; env?: string }, profile: string): string {
  switch (source) {
    case 'flag':
      return names.flag ?? 'flag';
    case 'env':
      return names.env ?? 'environment';
    case 'profile':
      return `profile "${profile}"`;
    default:
      return 'default';
  }
}

const PROFILE_FROM: Partial<Record<ValueSource, string>> = { profile: 'current profile', default: 'default' };

/** One declaration: piped, every key with its source; on a terminal, each value with where it came from (problem: why not logged in). */
function statusView(problem?: string): ItemView<AuthStatus> {
  const from = (f: Formatter, text: string) => f.dim(`(${text})`);
  return {
    fields: [
      {
        key: 'profile',
        label: 'Profile',
        value: (s) => s.profile,
        display: (s, f) => {
          const source =
            PROFILE_FROM[s.profileSource] ??
            sourceLabel(s.profileSource, { flag: '--profile', env: 'KAGENT_PROFILE' }, s.profile);
          return `${s.profile}  ${from(f, `${source}; ${s.configPath}`)}`;
        },
        json: 'profile',
      },
      { key: 'profile-source', json: 'profileSource' },
      {
        key: 'base-url',
        label: 'Base URL',
        value: (s) => s.baseUrl ?? '',
        display: (s, f) =>
          s.baseUrl
            ? `${s.baseUrl}  ${from(f, sourceLabel(s.baseUrlSource, { flag: '--base-url', env: 'KAGENT_BASE_URL' }, s.profile))}`
            : f.yellow('not set'),
        json: 'baseUrl',
      },
      { key: 'base-url-source', value: (s) => (s.baseUrl ? s.baseUrlSource : ''), json: 'baseUrlSource' },
      {
        key: 'api-key',
        label: 'API key',
        about: 'masked',
        value: (s) => s.apiKey ?? '',
        display: (s, f) =>
          s.apiKey
            ? `${s.apiKey}  ${from(f, sourceLabel(s.apiKeySource, { env: 'KAGENT_API_KEY' }, s.profile))}`
            : f.yellow('not set'),
        json: 'apiKey',
      },
      { key: 'api-key-source', value: (s) => (s.apiKey ? s.apiKeySource : ''), json: 'apiKeySource' },
      { key: 'email', json: 'user.email' },
      { key: 'plan', json: 'user.plan.id' },
      {
        key: 'authenticated',
        label: 'Account',
        value: (s) => s.authenticated,
        kind: 'bool',
        display: (s, f) =>
          s.user
            ? `${s.user.email}${s.user.plan ? ` · plan ${s.user.plan.name}` : ''}  ${f.green('✓ logged in')}`
            : f.red(problem ?? 'not logged in'),
        json: 'authenticated',
      },
    ],
  };
}

export default defineCommand({
  name: 'status',
  summary: 'Show the profile, base URL and key in use (masked), where each came from, and the account',
  description: `Exit status 0 when the key works, 3 when there is no key, no base URL, or the key is not accepted. ${pipedFieldsHelp(statusView())}`,
  examples: ['kagent auth status', 'kagent auth status -p work', "kagent auth status --jq '.user.email'"],
  async run(ctx) {
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
        failure = new CliError('the API key was not accepted', {
          exitCode: ExitCode.AUTH,
          code: error.code,
          hint: 'log in again with `kagent auth login`',
        });
      }
    }
    const result = statusOf(ctx, user, maskKey);
    await printItem(ctx, result, statusView(failure?.message));
    if (failure) throw failure;
  },
});
