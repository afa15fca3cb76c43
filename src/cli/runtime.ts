// Builds the real Context a handler runs with: IO over the given streams, the
// resolved config, an API client made on first use, the clock, prompter and
// editor. Everything comes from the arguments: tests pass fake streams, an
// env and a config dir, and get the same behaviour as the binary.
import type { ApiClient } from '../api/client.js';
import { describeDifferences, misfitNote, type Misfit } from '../api/misfit.js';
import type { Context, Editor, GlobalFlags, IO, Prompter } from '../context.js';
import { systemClock, type Clock } from '../http/clock.js';
import { ServiceClock } from '../http/service-clock.js';
import { defaultCacheDir } from '../config/cache-dir.js';
import { CliError, ExitCode } from '../errors.js';
import {
  describeSource,
  maskKey,
  missingProfileError,
  resolveConfig,
  unsavedDefaultHint,
  type Resolved,
} from '../config/resolve.js';
import { createEditor } from '../io/editor.js';
import type { PagerHold } from '../io/pager.js';
import { createPrompter } from '../io/prompt.js';
import { addSecrets, keySecret, redactStream, urlSecrets, type Secret } from '../io/redact.js';
import type { Writable } from 'node:stream';
import { sanitize } from '../io/sanitize.js';
import { writeNow } from '../io/streams.js';
import { aboveLiveNow } from '../io/live-line.js';
import { guardWorkflowCommands } from '../io/workflow-commands.js';
import { createIO, envFlag, type Streams } from '../io/terminal.js';
import { createApiClient } from '../api/client.js';
import { PagingStream, findProgram, isNoPager } from '../io/pager.js';
import { timeoutMs } from '../http/deadline.js';

export interface RuntimeOptions {
  streams: Streams;
  env: NodeJS.ProcessEnv;
  flags: GlobalFlags;
  signal: AbortSignal;
  version: string;
  /** The working directory and the operating system (default: the process's). */
  cwd?: string;
  platform?: NodeJS.Platform;
  /** Test seams: a scripted prompter, a fake editor or clock. */
  overrides?: { prompter?: Prompter; editor?: Editor; clock?: Clock };
  /** Set while a pager runs, so the process boundary leaves Ctrl-C to it. */
  pagerHold?: PagerHold;
  /** The command prints the API key (`auth token`): the key is not masked in its output (URL passwords still are). */
  revealsKey?: boolean;
}

/** What a running command has: the Context plus the resolved config with its sources. */
export interface RuntimeContext extends Context {
  config: Resolved;
}

export function createContext(options: RuntimeOptions): RuntimeContext {
  const { env, flags, signal, version } = options;
  const io = createIO(options.streams, env, flags);
  const config = resolveConfig(flags, env);
  // The output boundary (src/io/redact.ts) masks what this run knows to be secret, whatever prints it.
  addSecrets(
    [io.stdout, io.stderr],
    [
      ...urlSecrets(config.baseUrl),
      ...proxySecrets(env),
      ...(options.revealsKey ? [] : keySecret(config.apiKey, maskKey)),
    ],
  );
  // Under GitHub Actions, no line of service text is a workflow command (src/io/workflow-commands.ts).
  guardWorkflowCommands(io.stdout, env);
  guardWorkflowCommands(io.stderr, env);
  enablePaging(io, flags, config, options.pagerHold);
  let client: Promise<ApiClient> | undefined;
  let keyless: Promise<ApiClient> | undefined;
  const clock = options.overrides?.clock ?? systemClock;
  const ctx: RuntimeContext = {
    io,
    flags,
    config,
    api: (options) => {
      if (options?.credentials) return connect(ctx, options.credentials);
      return options?.keyOptional && !config.apiKey
        ? (keyless ??= connect(ctx, { baseUrl: config.baseUrl, apiKey: undefined }, { keyOptional: true }))
        : (client ??= connect(ctx, { baseUrl: config.baseUrl, apiKey: config.apiKey }));
    },
    misfits: [],
    clock,
    serviceClock: new ServiceClock(clock),
    prompter: options.overrides?.prompter ?? createPrompter(io, signal, flags),
    editor: options.overrides?.editor ?? createEditor(io),
    signal,
    version,
    cwd: options.cwd ?? process.cwd(),
    platform: options.platform ?? process.platform,
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
    if (
      stream ||
      flags.pager === false ||
      flags.json ||
      flags.jq !== undefined ||
      !io.stdoutIsTTY ||
      io.rows === undefined
    )
      return;
    const command = config.pager;
    if (isNoPager(command)) return;
    if (!findProgram(command, io.env)) {
      // No less on this machine: print as is. A pager the user named and we cannot find is worth a word.
      const from = config.pagerSource === 'profile' ? '`kagent config set pager`' : config.pagerVariable;
      if (from)
        io.stderr.write(`warning: the pager "${sanitize(command)}" (from ${from}) was not found; printing directly\n`);
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
    // What goes to the pager is redacted as stdout is.
    redactStream(stream, real);
    io.stdout = Object.assign(stream, { isTTY: true, columns: io.columns });
  };
  io.endPaging = async () => {
    if (!stream) return;
    await stream.close();
    io.stdout = real;
    const failed = stream.failed;
    stream = undefined;
    if (failed)
      throw new CliError(`the pager "${config.pager}" ${failed}: the output may not have been shown`, {
        code: 'PAGER_FAILED',
        hint: 'choose another pager (KAGENT_PAGER, PAGER or `kagent config set pager`), or pass --no-pager',
      });
  };
}

export interface Credentials {
  baseUrl: string | undefined;
  apiKey: string | undefined;
}

/**
 * An API client for these credentials (ctx.api() uses the resolved ones, or
 * `auth login` checks new ones before saving them). The HTTP stack is
 * imported here, on first use.
 */
async function connect(
  ctx: Pick<Context, 'io' | 'flags' | 'config' | 'signal' | 'version' | 'misfits' | 'lastAnswer' | 'serviceClock'>,
  credentials: Credentials,
  options: { keyOptional?: boolean } = {},
): Promise<ApiClient> {
  const { baseUrl, apiKey } = credentials;
  const keyMissing = !apiKey && !options.keyOptional;
  // `-p sandbx`: say that the profile does not exist (and which one was meant), not that it has no URL or key.
  const missing =
    (!baseUrl || keyMissing) && 'file' in ctx.config ? missingProfileError(ctx.config as Resolved) : undefined;
  if (missing) throw missing;
  // No current profile, but saved ones (the `sandbox` one, say): name them and how to use one.
  const unsaved =
    (!baseUrl || keyMissing) && 'file' in ctx.config ? unsavedDefaultHint(ctx.config as Resolved) : undefined;
  if (!baseUrl) {
    throw new CliError('no API base URL configured', {
      exitCode: ExitCode.AUTH,
      code: 'NO_BASE_URL',
      hint:
        unsaved ??
        'log in with `kagent auth login --base-url URL`, set KAGENT_BASE_URL, or start a local one with `kagent sandbox`',
    });
  }
  if (keyMissing) {
    throw new CliError('not logged in: no API key', {
      exitCode: ExitCode.AUTH,
      code: 'NOT_AUTHENTICATED',
      hint:
        unsaved ??
        `run \`kagent auth login${ctx.config.profile === 'default' ? '' : ` --profile ${ctx.config.profile}`}\`, or set KAGENT_API_KEY`,
    });
  }
  // Credentials other than the configured ones (`auth login` checking a new key) are secrets of this run too.
  addSecrets([ctx.io.stdout, ctx.io.stderr], [...urlSecrets(baseUrl), ...keySecret(apiKey, maskKey)]);
  const debugOn = ctx.flags.debug || envFlag(ctx.io.env, 'KAGENT_DEBUG');
  const apiKeySource = keySource(ctx.config, apiKey);
  const baseUrlSource =
    baseUrl === ctx.config.baseUrl && ctx.config.baseUrlSource !== 'default'
      ? describeSource(ctx.config.baseUrlSource, { flag: '--base-url', env: 'KAGENT_BASE_URL' }, ctx.config.profile)
      : undefined;
  const stderr = ctx.io.stderr;
  return createApiClient({
    baseUrl,
    apiKey,
    apiKeySource,
    ...(baseUrlSource ? { baseUrlSource } : {}),
    env: ctx.io.env,
    userAgent: `kagent/${ctx.version}`,
    insecure: ctx.flags.insecure,
    ratePerMinute: ctx.config.rateLimit,
    // Parallel kagent processes (CI jobs, xargs -P) share one budget through the cache dir.
    sharedPacingDir: defaultCacheDir(ctx.io.env),
    requestTimeoutMs: timeoutMs(ctx.flags),
    // --timeout bounds every wait too: for the rate budget, a Retry-After, a backoff.
    waitLimitMs: timeoutMs(ctx.flags),
    notice: ctx.flags.quiet ? undefined : (line) => void stderr.write(`${line}\n`),
    signal: ctx.signal,
    serviceClock: ctx.serviceClock,
    debug: debugOn ? debugWriter(ctx.io.stderr) : undefined,
    onMisfit: misfitReporter(ctx, debugOn),
    // --json prints answers as they came: no need to load the shapes for them (start-up), unless --debug.
    checkAnswers: debugOn || !(ctx.flags.json || ctx.flags.jq !== undefined),
    onAnswer: (op, body) => {
      ctx.lastAnswer = { op, body };
    },
  });
}

/**
 * Tolerant reading: an answer that does not fit its shape is kept on the context
 * (views and the fallback renderer use it) and said once per operation on stderr;
 * --debug lists every difference. --quiet keeps the note but not the details.
 */
/** Where the key in use came from, for a message that names it. */
function keySource(config: Context['config'], apiKey: string | undefined): string {
  if (apiKey !== config.apiKey) return 'the key given';
  if (config.apiKeySource === 'env') return 'KAGENT_API_KEY';
  if (config.apiKeySource === 'profile') return `profile "${config.profile}"`;
  return 'the key given';
}

function misfitReporter(ctx: Pick<Context, 'io' | 'flags' | 'misfits'>, debugOn: boolean): (misfit: Misfit) => void {
  const told = new Set<string>();
  return (misfit) => {
    ctx.misfits?.push(misfit);
    const serious = misfit.differences.filter((d) => d.kind !== 'extra');
    const write = (line: string) => {
      try {
        aboveLiveNow(ctx.io.stderr, () => ctx.io.stderr.write(`${sanitize(line)}\n`));
      } catch {
        // stderr gone: nothing to tell.
      }
    };
    if (debugOn) {
      write(`debug: ${misfit.op} answer differs from ${misfit.shape}:`);
      for (const d of misfit.differences)
        write(
          `debug:   ${d.kind} ${d.path}${d.kind === 'retyped' ? ` (kagent expects ${d.expected}, got ${d.got})` : ''}`,
        );
    }
    // Fields kagent does not know are harmless: noted only with --debug.
    if (serious.length === 0 && !misfit.notAList) return;
    if (told.has(misfit.op) || ctx.flags.quiet) return;
    told.add(misfit.op);
    write(misfitNote(misfit, (m) => describeDifferences(m.differences)));
  };
}

/** --debug lines on stderr (the key and any URL's user and password are masked at the output boundary, whatever the HTTP layer wrote). */
export function debugWriter(stderr: Writable): (line: string) => void {
  return (line) => aboveLiveNow(stderr, () => writeNow(stderr, `debug: ${sanitize(line)}\n`));
}

/** The passwords of the proxy variables (a proxy's failure may quote its URL). */
function proxySecrets(env: NodeJS.ProcessEnv): Secret[] {
  return ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy'].flatMap((name) =>
    urlSecrets(env[name]),
  );
}
