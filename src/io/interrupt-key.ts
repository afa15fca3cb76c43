// Ctrl-C as a key, not a signal: while something runs in an interactive loop
// (a chat turn), the terminal is put in raw mode and the Ctrl-C byte calls
// `onInterrupt`, so the loop can stop that one thing and go on — where SIGINT
// would end the whole command. Without a terminal on stdin this does nothing.
import type { IO } from '../context.js';

const CTRL_C = '\x03';

/**
 * Watches stdin for Ctrl-C until the returned function is called, which restores the terminal —
 * or, with `keepRaw`, leaves it raw for a prompt about to take it (a Ctrl-C typed in between is
 * then a key that prompt reads, not a signal).
 */
export function onInterruptKey(
  io: Pick<IO, 'stdin' | 'stdinIsTTY'>,
  onInterrupt: () => void,
): (keepRaw?: boolean) => void {
  const stdin = io.stdin as IO['stdin'] & { setRawMode?: (raw: boolean) => unknown; isRaw?: boolean };
  if (!io.stdinIsTTY || typeof stdin.setRawMode !== 'function') return () => {};
  const wasRaw = stdin.isRaw === true;
  const wasFlowing = stdin.readableFlowing === true;
  const onData = (chunk: Buffer | string) => {
    if (String(chunk).includes(CTRL_C)) onInterrupt();
  };
  stdin.setRawMode(true);
  stdin.on('data', onData);
  stdin.resume();
  return (keepRaw = false) => {
    stdin.off('data', onData);
    if (!keepRaw) stdin.setRawMode?.(wasRaw);
    if (!wasFlowing) stdin.pause();
  };
}
