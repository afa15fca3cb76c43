// Logging in: the base URL and the API key, asked on a terminal or read from
// stdin (--with-key), checked with the service (GET /me) before anything is
// saved; a profile logged in already is replaced only once the user agrees.
import type { Me } from '../api/shapes.js';
import type { Context } from '../context.js';
import { ApiError, CliError, ExitCode, UsageError, onInterruptSay } from '../errors.js';
import { checkBaseUrl, configDirOf, maskKey, storedProfile } from '../config/resolve.js';
import { writeProfile } from '../config/store.js';
import * as output from '../io/output.js';
import { askSecret, askText, confirmOrYes } from '../io/prompt.js';
import { withSpinner } from '../io/spinner.js';
import { statusOf, type AuthStatus } from './status.js';
import { printDone } from '../io/outcome.js';

/**
 * `kagent auth login`: the base URL and key (asked where not given), checked with the
 * service, then saved in the profile, which becomes the current one.
 */
export async function logIn(ctx: Context, opts: { withKey?: boolean }): Promise<void> {
  await confirmReplace(ctx);
  // Ctrl-C at the prompts or while the key is checked: nothing was saved, and its one quiet line says so.
  const { baseUrl, apiKey, me, client } = await onInterruptSay('nothing was saved', () => checkedLogin(ctx, opts));
  const path = await writeProfile(
    configDirOf(ctx.config),
    ctx.config.profile,
    { baseUrl, apiKey },
    { makeCurrent: true, signal: ctx.signal },
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
  await printDone(ctx, status, {
    said: `Logged in to ${new URL(client.baseUrl).host} as ${me.email ?? me.id}${me.plan ? ` (plan ${me.plan.name})` : ''}; saved as profile "${ctx.config.profile}"`,
  });
  if (ctx.config.apiKeySource === 'env')
    await output.warn(ctx, 'KAGENT_API_KEY is set in your environment and wins over the saved key while it is set');
}

const MAX_KEY_BYTES = 16 * 1024;

async function readKeyFromStdin(ctx: Context): Promise<string> {
  let text = '';
  for await (const chunk of ctx.io.stdin) {
    text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
    if (text.length > MAX_KEY_BYTES) throw new UsageError('--with-key: stdin holds more than an API key');
  }
  const key = text.trim().split(/\r?\n/)[0]?.trim() ?? '';
  if (key === '')
    throw new UsageError('--with-key: no API key on stdin', 'for example: `kagent auth login --with-key < key.txt`');
  return key;
}

/**
 * A profile that holds a key already: say who is logged in where, and ask before replacing it
 * (elsewhere --yes, as every step that loses something). The account is looked up with the
 * saved key, briefly; a service that does not answer leaves it out.
 */
async function confirmReplace(ctx: Context): Promise<void> {
  const saved = storedProfile(ctx.config);
  if (!saved.apiKey || ctx.flags.yes) return;
  const profile = ctx.config.profile;
  const account = saved.baseUrl ? await accountOf(ctx, saved.baseUrl, saved.apiKey) : undefined;
  await output.note(
    ctx,
    `Profile "${profile}" is logged in${saved.baseUrl ? ` to ${saved.baseUrl}` : ''}${account ? ` as ${account}` : ''} (key ${maskKey(saved.apiKey)})`,
  );
  await confirmOrYes(ctx, {
    message: `Replace the login of profile "${profile}"?`,
    action: `replace the login of profile "${profile}"`,
  });
}

const ACCOUNT_LOOKUP_MS = 5_000;

async function accountOf(ctx: Context, baseUrl: string, apiKey: string): Promise<string | undefined> {
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(ACCOUNT_LOOKUP_MS)]);
  try {
    const client = await ctx.api({ credentials: { baseUrl, apiKey } });
    const me = await client.call('getMe', { signal });
    return me.email ?? me.id;
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return undefined;
  }
}

async function askBaseUrl(ctx: Context): Promise<string> {
  const typed = await askText(ctx, {
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
  });
  return typed.trim();
}

/**
 * The key refused: nothing of it is saved, but a base URL typed or given with --base-url is kept
 * in a profile without a key, so the next `kagent auth login` asks only for the key. (A profile
 * logged in already keeps its own URL: a new one with the old key would break that login.)
 */
async function refused(ctx: Context, baseUrl: string, serviceUrl: string, code: string): Promise<CliError> {
  const keep = baseUrl !== ctx.config.baseUrl || ctx.config.baseUrlSource === 'flag';
  const kept = keep && !storedProfile(ctx.config).apiKey;
  if (kept) await writeProfile(configDirOf(ctx.config), ctx.config.profile, { baseUrl }, { signal: ctx.signal });
  const retry = `kagent auth login${ctx.config.profile === 'default' ? '' : ` -p ${ctx.config.profile}`}`;
  return new CliError(`the service at ${serviceUrl} did not accept this API key`, {
    exitCode: ExitCode.AUTH,
    code,
    hint: kept
      ? `copy the key again from your account settings; the key was not saved, the base URL was (profile "${ctx.config.profile}"): \`${retry}\` asks only for the key`
      : 'copy the key again from your account settings; nothing was saved',
  });
}

/** The base URL and key, asked where not given, and the account the service says the key is (not saved yet). */
async function checkedLogin(ctx: Context, opts: { withKey?: boolean }) {
  const baseUrl = ctx.config.baseUrl ?? (await askBaseUrl(ctx));
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

  const client = await ctx.api({ credentials: { baseUrl, apiKey } });
  let me: Me;
  try {
    me = await withSpinner(ctx, 'Checking the key…', () => client.call('getMe', { signal: ctx.signal }));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401)
      throw await refused(ctx, baseUrl, String(client.baseUrl), error.code);
    throw error;
  }

  return { baseUrl, apiKey, me, client };
}
