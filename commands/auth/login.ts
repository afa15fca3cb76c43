import type { Me } from '../../src/api/shapes.js';
import type { Context } from '../../src/context.js';
import { ApiError, CliError, ExitCode, UsageError } from '../../src/errors.js';
import { defineCommand } from '../../src/kit/define.js';
import { type AuthStatus, statusOf } from './shared.js';
import { askSecret, askText } from '../../src/io/prompt.js';
import { checkBaseUrl, configDirOf, maskKey } from '../../src/config/resolve.js';
import { connect } from '../../src/cli/runtime.js';
import { writeProfile } from '../../src/config/store.js';
import * as output from '../../src/io/output.js';
import { withSpinner } from '../../src/io/spinner.js';

const MAX_KEY_BYTES = 16 * 1024;

async function readKeyFromStdin(ctx: Context): Promise<string> {
  let text = '';
  for await (const chunk of ctx.io.stdin) {
    text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
    if (text.length > MAX_KEY_BYTES) throw new UsageError('--with-key: stdin holds more than an API key');
  }
  const key = text.trim().split(/\r?\n/)[0]?.trim() ?? '';
  if (key === '')
    throw new UsageError('--with-key: no API key on stdin', 'for example: kagent auth login --with-key < key.txt');
  return key;
}

export default defineCommand({
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
      : (
          await askSecret(ctx, {
            message: 'API key (from your account settings):',
            flag: '--with-key (and the key on stdin)',
            what: 'the API key',
          })
        ).trim();
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

    const path = await writeProfile(
      configDirOf(ctx.config),
      ctx.config.profile,
      { baseUrl, apiKey },
      { makeCurrent: true },
    );
    const status: AuthStatus = {
      ...statusOf(ctx, me, maskKey),
      configPath: path,
      baseUrl,
      baseUrlSource: ctx.config.baseUrlSource === 'default' ? 'profile' : ctx.config.baseUrlSource,
      apiKey: maskKey(apiKey),
      apiKeySource: 'profile',
      profileSource: ctx.config.profileSource,
    };
    if (output.wantsJson(ctx)) await output.printJson(ctx, status);
    else
      await output.success(
        ctx,
        `Logged in to ${new URL(client.baseUrl).host} as ${me.email ?? me.id}${me.plan ? ` (plan ${me.plan.name})` : ''}; saved as profile "${ctx.config.profile}"`,
      );
    if (ctx.config.apiKeySource === 'env')
      await output.warn(ctx, 'KAGENT_API_KEY is set in your environment and wins over the saved key while it is set');
  },
});
