// Why a sandbox could not start, in the words `kagent sandbox` reports: a code, a
// message and a hint. Plain data: the command makes it an error with an exit code.

export interface StartFailure {
  code: string;
  message: string;
  hint?: string;
  /** The user's to fix in what they gave (the --state file): a usage error, not a failure. */
  usage: boolean;
}

/** What to do about each problem with the --state file (a StateFileError of journal.ts or statelock.ts). */
const STATE_HINTS: Record<string, string> = {
  STATE_UNREADABLE: 'fix or remove the --state file',
  STATE_VERSION: 'use the kagent that wrote it, or another --state file',
  STATE_UNWRITABLE: 'give --state a file in a directory you can write',
  STATE_LOCKED: 'stop that sandbox first, or use another --state file',
};

/** The failure of startSandbox() on `port`: the port taken or denied, the state file's problem, or anything else. */
export function startFailure(error: unknown, port: number): StartFailure {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    const hint = 'pick another with --port, or --port 0 for a free one';
    return { code: 'PORT_IN_USE', message: `port ${port} on 127.0.0.1 is already in use`, hint, usage: false };
  }
  if (code === 'EACCES') {
    const hint = 'use a port above 1023, or --port 0';
    return { code: 'PORT_DENIED', message: `not allowed to listen on port ${port}`, hint, usage: false };
  }
  const message = (error as Error).message ?? String(error);
  const stateError = (error as { stateError?: string }).stateError;
  if (stateError !== undefined)
    return { code: stateError, message, hint: STATE_HINTS[stateError] ?? 'check the --state file', usage: true };
  return { code: 'SANDBOX_FAILED', message: `the sandbox could not start: ${message}`, usage: false };
}
