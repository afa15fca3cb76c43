// Builds the real Context a handler runs with: IO over the given streams, the
// resolved config, an API client made on first use, the clock, prompter and
// editor. Everything comes from the arguments: tests pass fake streams, an
// env and a config dir, and get the same behaviour as the binary.
import type { ApiClient } from './api/client.js';
import type { Clock, Context, Editor, GlobalFlags, IO, Prompter } from './context.js';
import { CliError, ExitCode, InterruptedError } from './errors.js';
import { maskKey, resolveConfig, type Resolved } from './config/resolve.js';
import { createEditor } from './io/editor.js';
import type { PagerHold, PagingStream } from './io/pager.js';
import { createPrompter } from './io/prompt.js';
import { sanitize } from './io/sanitize.js';
import { createIO, envFlag, type Streams } from './io/terminal.js';

export interface RuntimeOptions {
  streams: Streams;
  env: NodeJS.ProcessEnv;
  flags: GlobalFlags;
  signal: AbortSignal;
  version: string;
  /** Test seams: a scripted prompter, a fake editor or clock. */
  overrides?: { prompter?: Prompter; editor?: Editor; clock?: Clock };
  /** Set while a pager runs, so the process boundary leaves Ctrl-C to it. */
  pagerHold?: PagerHold;
}

/** What a running command has: the Context plus the resolved config with its sources. */
export interface RuntimeContext extends Context {
  config: Resolved;
}

export function createContext(options: RuntimeOptions): RuntimeContext {
  const { env, flags, signal, version } = options;
  const io = createIO(options.streams, env, flags);
  const config = resolveConfig(flags, env);
  enablePaging(io, flags, config, options.pagerHold);
  let client: Promise<ApiClient> | undefined;
  const ctx: RuntimeContext = {
    io,
    flags,
    config,
    api: () => (client ??= connect(ctx, { baseUrl: config.baseUrl, apiKey: config.apiKey })),
    clock: options.overrides?.clock ?? systemClock,
    prompter: options.overrides?.prompter ?? createPrompter(io, signal, flags),
    editor: options.overrides?.editor ?? createEditor(io),
    signal,
    version,
  };
  return ctx;
}

/**
 * Gives io.page() its pager: KAGENT_PAGER > config `pager` > PAGER > `less -FRX`
 * (when installed). Nothing happens unless stdout is a terminal of known
 * height and neither --json, --jq nor --no-pager was given.
 */
function enablePaging(io: IO, flags: GlobalFlags, config: Resolved, hold: PagerHold | undefined): void {
  let stream: PagingStream | undefined;
  const real = io.stdout;
  io.page = async () => {
    if (stream || flags.pager === false || flags.json || flags.jq !== undefined || !io.stdoutIsTTY || io.rows === undefined) return;
    const { PagingStream, findProgram, isNoPager } = await import('./io/pager.js');
    const command = config.pager;
    if (isNoPager(command)) return;
    if (!findProgram(command, io.env)) {
      // No less on this machine: print as is. A pager the user named and we cannot find is worth a word.
      const from = config.pagerSource === 'profile' ? '`kagent config set pager`' : config.pagerVariable;
      if (from) io.stderr.write(`warning: the pager "${sanitize(command)}" (from ${from}) was not found; printing directly\n`);
      return;
    }
    stream = new PagingStream({
      command,
      env: io.env,
      stdout: real,
      stderr: io.stderr,
      rows: io.rows,
      hold,
      onStartFailure: (message) => io.stderr.write(`warning: ${sanitize(message)}\n`),
    });
    io.stdout = Object.assign(stream, { isTTY: true, columns: io.columns });
  };
  io.endPaging = async () => {
    if (!stream) return;
    await stream.close();
    io.stdout = real;
    stream = undefined;
  };
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new InterruptedError());
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(new InterruptedError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

export interface Credentials {
  baseUrl: string | undefined;
  apiKey: string | undefined;
}

/**
 * An API client for these credentials (ctx.api() uses the resolved ones;
 * `auth login` checks new ones before saving them). The HTTP stack is
 * imported here, on first use.
 */
export async function connect(ctx: Pick<Context, 'io' | 'flags' | 'config' | 'signal' | 'version'>, credentials: Credentials): Promise<ApiClient> {
  const { baseUrl, apiKey } = credentials;
  if (!baseUrl) {
    throw new CliError('no API base URL configured', {
      exitCode: ExitCode.AUTH,
      code: 'NO_BASE_URL',
      hint: 'log in with `kagent auth login --base-url URL`, set KAGENT_BASE_URL, or start a local one with `kagent sandbox`',
    });
  }
  if (!apiKey) {
    throw new CliError('not logged in: no API key', {
      exitCode: ExitCode.AUTH,
      code: 'NOT_AUTHENTICATED',
      hint: `run \`kagent auth login\`${ctx.config.profile === 'default' ? '' : ` --profile ${ctx.config.profile}`}, or set KAGENT_API_KEY`,
    });
  }
  const [{ createApiClient }, { defaultCacheDir }] = await Promise.all([import('./api/client.js'), import('./http/shared-pacer.js')]);
  const debugOn = ctx.flags.debug || envFlag(ctx.io.env, 'KAGENT_DEBUG');
  return createApiClient({
    baseUrl,
    apiKey,
    userAgent: `kagent/${ctx.version}`,
    insecure: ctx.flags.insecure,
    ratePerMinute: ctx.config.rateLimit,
    // Parallel kagent processes (CI jobs, xargs -P) share one budget through the cache dir.
    sharedPacingDir: defaultCacheDir(ctx.io.env),
    requestTimeoutMs: ctx.flags.timeout === undefined ? undefined : ctx.flags.timeout * 1000,
    signal: ctx.signal,
    debug: debugOn ? debugWriter(ctx.io.stderr, apiKey) : undefined,
  });
}

/** --debug lines on stderr; the key is masked here too, whatever the HTTP layer wrote. */
export function debugWriter(stderr: NodeJS.WritableStream, apiKey: string): (line: string) => void {
  const masked = maskKey(apiKey);
  return (line) => {
    stderr.write(`debug: ${sanitize(line.split(apiKey).join(masked))}\n`);
  };
}
