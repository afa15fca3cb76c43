// Under GitHub Actions the runner reads every line a step writes to stdout or
// stderr, and one that starts (after blanks) with `::` is a workflow command:
// `::add-mask::`, `::stop-commands::`, `::error`, output and environment files'
// old forms; so is a line holding `##[` anywhere (the legacy form,
// `##[add-mask]…`, `x ##[error]y`). Service text (a document, a title, an error message) must never be
// one. So at the output boundary, next to redaction (redact.ts), every write to
// the run's two streams is looked at line by line when GITHUB_ACTIONS is set: a
// line that the runner would take for a command is framed, as GitHub's docs
// recommend, by `::stop-commands::TOKEN` and `::TOKEN::` (TOKEN random, unknown
// to the service), so the runner shows it and does not act on it. kagent's own
// annotations (lib upload's and lib sync's `::error`, `::warning`) are made by
// ownWorkflowCommand() and pass as they are. Only what the runner reads is
// framed: a pipe, a socket or a terminal; a stream redirected to a regular file
// (`doc show ID --raw > f.md`) is the user's, and gets the bytes as they are.
import { fstatSync } from 'node:fs';
import type { Writable } from 'node:stream';

/** GITHUB_ACTIONS set to anything but empty or false. */
export function inGitHubActions(env: Record<string, string | undefined>): boolean {
  const value = env.GITHUB_ACTIONS;
  return value !== undefined && value !== '' && value !== 'false';
}

/** The lines kagent itself means as workflow commands, waiting to be written. */
const own = new Set<string>();

/** Marks `line` (one `::command…` line, escaped as GitHub specifies) as kagent's own: written as it is. */
export function ownWorkflowCommand(line: string): string {
  own.add(line.endsWith('\n') ? line.slice(0, -1) : line);
  return line;
}

/** Would the runner take this line (its start: the line may go on in a later write) for a command? */
function looksLikeCommand(line: string): boolean {
  return /^\s*::/.test(line);
}

/** The legacy form, anywhere in a line (`tail`: the end of the line's part already written). */
function holdsLegacyCommand(tail: string, line: string): boolean {
  return (tail + line).includes('##[');
}

/** Could this start of a line still become a command once the rest of it is written? */
function mayBecomeCommand(start: string): boolean {
  return /^\s*:?$/.test(start);
}

interface LineState {
  /** What has been written of the current line, while it may still become a command ('' at a line's start). */
  start: string | undefined;
  /** The last two characters written of the current line: `##` there and `[` next is a command. */
  tail: string;
}

const guarded = new WeakSet<Writable>();

/** Wraps the stream's write() once, when under GitHub Actions: no service line is a workflow command. */
export function guardWorkflowCommands(stream: Writable, env: Record<string, string | undefined>): void {
  if (!inGitHubActions(env) || guarded.has(stream) || !readByRunner(stream)) return;
  guarded.add(stream);
  const state: LineState = { start: '', tail: '' };
  const token = randomToken();
  const write = stream.write;
  stream.write = function guardedWrite(this: Writable, chunk: unknown, ...rest: unknown[]) {
    return (write as (...args: unknown[]) => boolean).call(this, frameChunk(chunk, state, token), ...rest);
  } as Writable['write'];
}

/**
 * Whether the runner reads this stream: a pipe, a socket or a terminal (a character device). A regular file does
 * not reach it. A stream without a descriptor (a test's) counts as read.
 */
function readByRunner(stream: Writable): boolean {
  const fd = (stream as { fd?: unknown }).fd;
  if (typeof fd !== 'number') return true;
  try {
    const stat = fstatSync(fd);
    return stat.isFIFO() || stat.isSocket() || stat.isCharacterDevice();
  } catch {
    return true;
  }
}

/** A chunk without these characters cannot start or complete a command. */
const MAY_MATTER = /[:#[]/;

function frameChunk(chunk: unknown, state: LineState, token: string): unknown {
  if (typeof chunk === 'string') return MAY_MATTER.test(chunk) ? frameText(chunk, state, token) : track(chunk, state);
  if (chunk instanceof Uint8Array) {
    // Bytes: looked at as latin1, one character per byte, so bytes that are not text come back unchanged.
    const text = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1');
    if (!MAY_MATTER.test(text)) return (track(text, state), chunk);
    return Buffer.from(frameText(text, state, token), 'latin1');
  }
  return chunk;
}

/** Follows where lines start in text written unchanged. */
function track(text: string, state: LineState): string {
  const last = text.lastIndexOf('\n');
  const tail = last === -1 ? state.start?.concat(text) : text.slice(last + 1);
  state.start = tail !== undefined && mayBecomeCommand(tail) ? tail : undefined;
  state.tail = (last === -1 ? state.tail + text : text.slice(last + 1)).slice(-2);
  return text;
}

function frameText(text: string, state: LineState, token: string): string {
  const lines = text.split('\n');
  return lines
    .map((line, i) => {
      const last = i === lines.length - 1;
      const before = i === 0 ? state.start : '';
      const tail = i === 0 ? state.tail : '';
      const current = before === undefined ? undefined : before + line;
      if (!last && own.delete(line)) return line;
      if ((current !== undefined && looksLikeCommand(current)) || holdsLegacyCommand(tail, line)) {
        if (last) [state.start, state.tail] = ['', ''];
        // A line begun in an earlier write is ended first, so that the command's start is inside the frame.
        const begun = i === 0 && (before !== '' || tail !== '');
        return `${begun ? '\n' : ''}::stop-commands::${token}\n${line}\n::${token}::${last ? '\n' : ''}`;
      }
      if (last) {
        state.start = current !== undefined && mayBecomeCommand(current) ? current : undefined;
        state.tail = (tail + line).slice(-2);
      }
      return line;
    })
    .join('\n');
}

/** 32 hex digits the service cannot guess (Web Crypto, which Node has without an import). */
function randomToken(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
