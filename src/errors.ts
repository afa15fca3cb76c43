// Errors and exit codes: one place maps every failure to the documented exit code.

export const ExitCode = {
  OK: 0,
  ERROR: 1,
  USAGE: 2,
  AUTH: 3,
  NOT_FOUND: 4,
  CONFLICT: 5,
  QUOTA: 6,
  UNAVAILABLE: 7,
  TIMEOUT: 8,
  INTERRUPTED: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * What each exit status means: `kagent help exit-codes` prints it, the man page lists it, and
 * docs/exit-codes.md holds the same table (test/unit/exit-codes.test.ts keeps them one text).
 */
export const exitCodeTable: Array<[number, string]> = [
  [0, 'success'],
  [
    1,
    'an error not listed below (among them `NOT_A_LIST`, a list answer without a list, a 403 that is no plan limit — `FORBIDDEN`, `NOT_OWNER`, `FORBIDDEN_HOST`, `FORBIDDEN_ORIGIN` —, `DOCTOR_PROBLEMS`, `kagent doctor` finding a problem, and `CONFIG_UNWRITABLE`, a config file the disk refuses to write — full, read-only); a confirmation answered no (`Cancelled.`)',
  ],
  [
    2,
    'usage error or invalid input (bad flags, a bound of the contract, server-side `INVALID_INPUT`, `SPACE_NOT_DELETABLE`, `lib save` of a media link `MEDIA_LINK`, …; a `-H` header, `--idempotency-key` or an API key with a line break or a character past U+00FF, a `kagent api` path with a `.` or `..` segment in any spelling (`\\..\\`, `%2e%2e`), a damaged sidecar of a pulled file (`SIDECAR_DAMAGED`; `doc status` still shows the other files), `--timeout` out of range, a proxy variable kagent cannot use; a step that loses something without a terminal and without `--yes` — `config delete`, `auth login` over a saved login; a profile that is not saved, `PROFILE_NOT_FOUND`: named with `-p` or `KAGENT_PROFILE` for any command that uses it, given to `config use` / `config delete`, or `config set`/`unset` on it without `--create`)',
  ],
  [3, 'not authenticated (no API key or base URL configured, or the service answered 401)'],
  [
    4,
    'not found (404: a record missing on the service; never a profile, whose absence is an error of the command line, 2)',
  ],
  [
    5,
    'conflict (409: `REVISION_CONFLICT`, `CONVERSATION_BUSY`, `ACTION_DECIDED`, …; `SPACE_NAME_TAKEN` of `space create` without `--allow-duplicate`; `MERGE_CONFLICT` of `doc push` / `doc edit`, `LOCAL_CHANGES` of `doc pull`)',
  ],
  [
    6,
    'quota (402 `CREDITS_EXHAUSTED`, 403 plan limits, 413 `FILE_TOO_LARGE` / `STORAGE_FULL`; `OVER_MAX_CREDITS` and `CREDITS_EXHAUSTED` of `media start --max-credits`, refused before anything is spent)',
  ],
  [
    7,
    'rate-limited or unavailable after retries (429, 502, 503, 504), a `Retry-After` over 60 s, a wait for the rate limit longer than `--timeout`, a request not answered by the `--timeout` deadline (`TIMEOUT`) or after 30 s of silence, an answer over 64 MiB or 8 million values (`ANSWER_TOO_LARGE`) or not JSON (`INVALID_RESPONSE`), or a network failure (a refused connection after one quick retry)',
  ],
  [8, 'still running when `--timeout` ran out (the work goes on; the message says how to resume)'],
  [129, 'hung up (SIGHUP): stopped as Ctrl-C stops it, temporary files removed'],
  [130, 'interrupted (Ctrl-C); never the `--timeout` deadline, which is 7 (or 8) whatever was waiting'],
  [143, 'terminated (SIGTERM): stopped as Ctrl-C stops it, temporary files removed'],
];

export interface CliErrorOptions {
  exitCode?: number;
  code?: string;
  hint?: string;
  cause?: unknown;
}

/** An error meant for the user: one line of message, a stable code, an exit code, maybe a hint. */
export class CliError extends Error {
  readonly exitCode: number;
  readonly code: string;
  hint: string | undefined;

  constructor(message: string, options: CliErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CliError';
    this.exitCode = options.exitCode ?? ExitCode.ERROR;
    this.code = options.code ?? 'ERROR';
    this.hint = options.hint;
  }
}

/** Bad flags or arguments, or a missing input that could not be prompted for. */
export class UsageError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, { exitCode: ExitCode.USAGE, code: 'USAGE', hint });
    this.name = 'UsageError';
  }
}

export interface ApiIssue {
  path: string;
  message: string;
}

/** Every error answer of the service, whichever of its two formats it came in. */
export class ApiError extends CliError {
  readonly status: number;
  readonly issues: ApiIssue[];
  /** The parsed error body, kept for `--json` and for bodies that carry more (REVISION_CONFLICT's `latest`). */
  readonly body: unknown;
  readonly retryAfterMs: number | undefined;
  /** The answer's headers, when it came from the HTTP core (`kagent api -i` prints them). */
  headers: Record<string, string | string[] | undefined> | undefined;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    issues?: ApiIssue[];
    body?: unknown;
    retryAfterMs?: number;
    hint?: string;
  }) {
    super(init.message, { exitCode: exitCodeForStatus(init.status, init.code), code: init.code, hint: init.hint });
    this.name = 'ApiError';
    this.status = init.status;
    this.issues = init.issues ?? [];
    this.body = init.body;
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** Network failures, exhausted retries, timeouts before any answer. */
export class NetworkError extends CliError {
  constructor(message: string, cause?: unknown, hint?: string) {
    super(message, { exitCode: ExitCode.UNAVAILABLE, code: 'NETWORK_ERROR', cause, hint });
    this.name = 'NetworkError';
  }
}

/** Thrown when a wait bounded by --timeout runs out while the work still goes on. */
export class StillRunningError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, { exitCode: ExitCode.TIMEOUT, code: 'STILL_RUNNING', hint });
    this.name = 'StillRunningError';
  }
}

/** The message of an interruption that has nothing more to say. */
export const INTERRUPTED = 'interrupted';

/**
 * Ctrl-C: stop what we are doing. Not reported as an error (src/io/report.ts): the
 * message says what goes on ("the task goes on", "nothing was saved"), the hint how to
 * pick it up again; with neither (the default), nothing is said.
 */
export class InterruptedError extends CliError {
  constructor(message = INTERRUPTED, hint?: string) {
    super(message, { exitCode: ExitCode.INTERRUPTED, code: 'INTERRUPTED', hint });
    this.name = 'InterruptedError';
  }
}

/**
 * Runs `work`; an interruption during it that has nothing to say of its own (Ctrl-C at a
 * prompt, during a request) says `note` instead: what Ctrl-C leaves, e.g. "nothing was saved".
 */
export async function onInterruptSay<T>(note: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof InterruptedError && error.message === INTERRUPTED && !error.hint)
      throw new InterruptedError(note);
    throw error;
  }
}

/**
 * What an aborted command signal means. The --timeout deadline aborts it with its
 * DeadlineError (exit 7), which is passed on as it is (as is any CliError given as
 * the reason); anything else is Ctrl-C or SIGTERM: InterruptedError (exit 130).
 * Every wait that ends on the signal throws this, so no command maps an abort by hand.
 */
export function abortError(signal: AbortSignal | undefined, cause?: unknown): CliError {
  const reason: unknown = signal?.reason;
  if (reason instanceof CliError) return reason;
  const error = new InterruptedError();
  if (cause !== undefined) (error as { cause?: unknown }).cause = cause;
  return error;
}

/** Throws abortError(signal) once the signal has aborted (between steps of a loop, say). */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError(signal);
}

const NOT_A_LIMIT_403 = new Set(['FORBIDDEN', 'NOT_OWNER', 'FORBIDDEN_HOST', 'FORBIDDEN_ORIGIN']);

export function exitCodeForStatus(status: number, code?: string): number {
  if (status === 401) return ExitCode.AUTH;
  if (status === 404) return ExitCode.NOT_FOUND;
  if (status === 409) return ExitCode.CONFLICT;
  if (status === 402 || status === 413) return ExitCode.QUOTA;
  // A 403 that is no plan limit: a refusal of who asks or of the request's Host/Origin (`api -H 'Host: …'`).
  if (status === 403) return code !== undefined && NOT_A_LIMIT_403.has(code) ? ExitCode.ERROR : ExitCode.QUOTA;
  if (status === 429 || status === 502 || status === 503 || status === 504) return ExitCode.UNAVAILABLE;
  if (status === 400 || status === 415 || status === 422) return ExitCode.USAGE;
  return ExitCode.ERROR;
}

/**
 * The exit status of a run with failures: the most severe one, in this order —
 * interrupted 130, not authenticated 3, unavailable 7, quota 6, other error 1,
 * conflict 5, not found 4, refused input 2.
 */
/** Exit codes from the most to the least severe: a run with several failures ends with the worst. */
const SEVERITY: readonly number[] = [
  ExitCode.INTERRUPTED,
  ExitCode.AUTH,
  ExitCode.UNAVAILABLE,
  ExitCode.QUOTA,
  ExitCode.ERROR,
  ExitCode.CONFLICT,
  ExitCode.NOT_FOUND,
  ExitCode.USAGE,
];

export function mostSevere(codes: Iterable<number>): number {
  let best: number | undefined;
  for (const code of codes) {
    if (code === ExitCode.OK) continue;
    const rank = SEVERITY.indexOf(code) === -1 ? SEVERITY.indexOf(ExitCode.ERROR) : SEVERITY.indexOf(code);
    if (best === undefined || rank < SEVERITY.indexOf(best)) best = SEVERITY[rank];
  }
  return best ?? ExitCode.OK;
}
