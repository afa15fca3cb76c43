// What a command handler is given. Nothing global: tests build a Context with
// fake streams and a sandbox URL and call handlers in-process.
import type { Readable, Writable } from 'node:stream';
import type { ApiClient } from './api/client.js';
import type { Misfit } from './api/misfit.js';
import type { OperationId } from './api/operations.js';
import type { Clock } from './http/clock.js';
import type { ServiceClock } from './http/service-clock.js';

export interface GlobalFlags {
  json: boolean;
  /** `--json id,title`: only these fields of each object. */
  jsonFields?: string[];
  jq?: string;
  profile?: string;
  baseUrl?: string;
  lang?: 'zh' | 'en';
  color: boolean;
  input: boolean;
  yes: boolean;
  quiet: boolean;
  debug: boolean;
  /** Seconds: the deadline of the whole command (src/http/deadline.ts), every wait included. */
  timeout?: number;
  insecure: boolean;
  /** false with --no-pager (undefined: paging allowed). */
  pager?: boolean;
}

export interface IO {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable & { isTTY?: boolean; columns?: number };
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Colour on stdout / stderr after NO_COLOR, FORCE_COLOR and --no-color. */
  color: boolean;
  colorStderr: boolean;
  /** Prompts allowed: stdin and stdout are terminals, no --no-input, KAGENT_NO_PROMPT or CI. */
  canPrompt: boolean;
  /** Terminal width for tables (80 when unknown). */
  columns: number;
  /** Terminal height (stdout's rows, else LINES), when known: output taller than this is paged. */
  rows: number | undefined;
  env: NodeJS.ProcessEnv;
  /**
   * From here on, stdout may go through the pager (src/io/pager.ts): only on a
   * terminal, without --json/--jq/--no-pager, and only once the output is taller
   * than the screen. Lists do it themselves; a command that shows long text asks once.
   */
  page(): Promise<void>;
  /** Ends paging (output held is written, a running pager is waited for); the program calls it when the command ends. */
  endPaging(): Promise<void>;
}

export type ValueSource = 'flag' | 'env' | 'profile' | 'default';

export interface ResolvedConfig {
  profile: string;
  profileSource: ValueSource;
  baseUrl: string | undefined;
  baseUrlSource: ValueSource;
  apiKey: string | undefined;
  apiKeySource: ValueSource;
  lang: 'zh' | 'en' | undefined;
  langSource: ValueSource;
  space: string | undefined;
  /** Requests per minute this process (and its siblings) stays under. */
  rateLimit: number;
  /** The pager for long output on a terminal: KAGENT_PAGER > profile `pager` > PAGER > `less -FRX`; '' or `cat` is none. */
  pager: string;
  pagerSource: ValueSource;
  configPath: string;
}

export interface Prompter {
  text(message: string, options?: { default?: string; validate?: (value: string) => true | string }): Promise<string>;
  password(message: string): Promise<string>;
  confirm(message: string, options?: { default?: boolean }): Promise<boolean>;
  /** `default`: the choice highlighted at first (else the first one). */
  select<T extends string>(
    message: string,
    choices: Array<{ value: T; name: string; description?: string }>,
    options?: { default?: T },
  ): Promise<T>;
}

export interface Editor {
  /** Opens $VISUAL / $EDITOR on the text and returns what was saved. */
  edit(text: string, options?: { extension?: string }): Promise<string>;
}

export interface Context {
  io: IO;
  flags: GlobalFlags;
  config: ResolvedConfig;
  /**
   * Built on first use: commands that never call the API never load the HTTP stack.
   * `keyOptional`: the request needs no key (the published API description), so a missing
   * key is no error; the client still refuses operations that need one.
   * `credentials`: a client for these instead of the configured ones (`auth login` checks a
   * new key before it saves it); made anew each time, never the one later calls get.
   */
  api(options?: { keyOptional?: boolean; credentials?: { baseUrl: string; apiKey: string } }): Promise<ApiClient>;
  /** Answers of this run that did not fit their assumed shape (tolerant reading), oldest first. */
  misfits?: Misfit[];
  /** The last answer of this run (tolerant reading falls back to it when a command fails on it). */
  lastAnswer?: { op: OperationId; body: unknown };
  clock: Clock;
  /** The service's clock as its answers tell it: what relative times are of (serviceNow()). Absent: the local clock. */
  serviceClock?: ServiceClock;
  prompter: Prompter;
  editor: Editor;
  /** Aborted on Ctrl-C: long waits stop and say how to resume. */
  signal: AbortSignal;
  version: string;
  /** The working directory relative paths are read against (the process's, unless a test gives one). */
  cwd: string;
  /** The operating system kagent runs on (the process's, unless a test gives one): path separators, defaults. */
  platform: NodeJS.Platform;
}
