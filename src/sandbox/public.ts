// kagent/sandbox: the local double of the knowledge-agent API, started in-process
// (what `kagent sandbox` runs). The public face of src/sandbox/index.ts: the
// implementation's own types extend these, and types/sandbox.d.ts is generated
// from this file (scripts/sandbox-types.mjs, run by the build).
import type { Server } from 'node:http';

export interface SandboxOptions {
  /** Port on `host`; 0 picks a free one (default 0). */
  port?: number;
  /** Address to listen on (default 127.0.0.1). */
  host?: string;
  /** Persist state (and uploaded bytes beside it) to this file and reload it on start. */
  stateFile?: string;
  /** Seed of every generated id and text (default 1). */
  seed?: number;
  /** Sandbox clock multiplier: 60 makes a minute pass every real second (default 1). */
  speed?: number;
  /** Requests per minute per key; 0 turns limiting off (default 60). */
  rateLimit?: number;
  /** Faults by probability, as `kagent sandbox --faults` takes them: `503=0.1,reset=0.05,slow=0.1:1500`. */
  faults?: string;
  /** Error body format: the contract's envelope (default) or RFC 9457 problem documents. */
  errorFormat?: 'envelope' | 'problem';
  /** Sandbox time at start (ms since the epoch); defaults to the real time. */
  startTime?: number;
  /** An API key to create the default account with (otherwise one is generated). */
  apiKey?: string;
  /** Silence the request log. */
  quiet?: boolean;
  /** Where request log lines go. */
  log?: (line: string) => void;
  /** Folder for uploaded bytes (default: a temporary one, removed by close()). */
  blobDir?: string;
  /** Run due background work on a real-time timer (default true; false in tests that drive the clock). */
  autoAdvance?: boolean;
}

export type FaultKind = '503' | '502' | '504' | '429' | '500' | 'reset' | 'slow' | 'truncate' | 'reset-after' | 'shape';

export interface FaultRequest {
  kind: FaultKind;
  /** For `slow`: how long to wait before answering. */
  ms?: number;
  /** How many matching requests fail (default 1). */
  count?: number;
  /** Only requests with this method… */
  method?: string;
  /** …and a path starting with this (e.g. `/api/v1/library`). */
  path?: string;
}

export interface SandboxStats {
  /** Requests per operation id, answered or not. */
  requests: Record<string, number>;
  /** Handler runs per operation id: for create-style calls, how many times work was actually done. */
  executions: Record<string, number>;
  /** Answers per status code. */
  statuses: Record<string, number>;
}

export interface Sandbox {
  /** `http://127.0.0.1:PORT/api/v1` */
  baseUrl: string;
  /** `http://127.0.0.1:PORT` (the admin routes are under `/_sandbox/`). */
  origin: string;
  port: number;
  /** Key of the default account. */
  apiKey: string;
  accountId: string;
  world: {
    /** Sandbox time, ms since the epoch. */
    now(): number;
    /** Moves the clock, running every piece of background work that comes due, in order, at its own time. */
    advance(ms: number): number;
    /** Runs the background work due now. */
    runDue(): void;
  };
  faults: {
    /** The next `count` matching requests fail with `kind`. */
    inject(fault: FaultRequest): void;
    clear(): void;
  };
  limiter: { perMinute: number };
  stats: SandboxStats;
  server: Server;
  /** Stops listening, saves the state (with `stateFile`) and removes a temporary blob folder. */
  close(): Promise<void>;
}

export declare function startSandbox(options?: SandboxOptions): Promise<Sandbox>;
