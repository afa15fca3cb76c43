import type { Me } from '../../src/api/shapes.js';
import type { Context, ValueSource } from '../../src/context.js';
import { ApiError, CliError, ExitCode } from '../../src/errors.js';
import type { Formatter } from '../../src/io/output.js';
import { defineCommand } from '../../src/kit/define.js';
import { type AuthStatus, statusOf } from '../../src/auth/status.js';
import { maskKey } from '../../src/config/resolve.js';
import * as output from '../../src/io/output.js';

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

function renderStatus(ctx: Context, status: AuthStatus, f: Formatter, problem?: string): string {
  const named: Record<string, string> = { profile: 'current profile', default: 'default' };
  const profileFrom =
    named[status.profileSource] ?? sourceLabel(status.profileSource, { flag: '--profile', env: 'KAGENT_PROFILE' }, ctx);
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
    [
      'Base URL',
      status.baseUrl
        ? `${status.baseUrl}  ${from(sourceLabel(status.baseUrlSource, { flag: '--base-url', env: 'KAGENT_BASE_URL' }, ctx))}`
        : f.yellow('not set'),
    ],
    [
      'API key',
      status.apiKey
        ? `${status.apiKey}  ${from(sourceLabel(status.apiKeySource, { env: 'KAGENT_API_KEY' }, ctx))}`
        : f.yellow('not set'),
    ],
    ['Account', account],
  ]);
}

export default defineCommand({
  name: 'status',
  summary: 'Show the profile, base URL and key in use (masked), where each came from, and the account',
  description: 'Exit status 0 when the key works, 3 when there is no key, no base URL, or the key is not accepted.',
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
    await output.printItem(ctx, result, (shown, f) => renderStatus(ctx, shown, f, failure?.message));
    if (failure) throw failure;
  },
});
