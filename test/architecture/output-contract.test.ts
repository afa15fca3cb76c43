// The output contract (src/io/output.ts) is kept by mechanism: where output goes — a
// terminal, a pipe, --json/--jq — is asked in src/io only. Commands say what they have
// to show through src/io/outcome.ts (printDone, printView, printBody, doneEach, …) and
// never ask where it goes; the few places in src/ that still ask are listed below with
// why, and their number can only shrink: remove one and lower its count here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../helpers/imports.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Each way of asking where the output goes. */
const ASKS: Record<string, RegExp> = {
  'f.tty': /\bf\.tty\b/g,
  stdoutIsTTY: /\bstdoutIsTTY\b/g,
  '--json': /\bwantsJson\(|\bflags\.json\b|\bflags\.jq\b/g,
};

/** What still asks outside src/io, file by file: how many times, and why it is there. */
const REMAINING: Record<string, { asks: Partial<Record<keyof typeof ASKS, number>>; why: string }> = {
  'src/context.ts': { asks: { stdoutIsTTY: 1 }, why: 'where the flag is declared' },
  'src/cli/runtime.ts': {
    asks: { stdoutIsTTY: 1, '--json': 4 },
    why: 'the run itself: no pager for JSON or a pipe; answers are checked against their shape unless JSON is printed as it came',
  },
  'src/cli/program.ts': {
    asks: { '--json': 1 },
    why: 'errors are reported as JSON on stderr when --json was asked and stderr is no terminal',
  },
  'src/chat/message.ts': { asks: { '--json': 2 }, why: 'whether a conversation can be held: --json prints one reply' },
  'src/raw-api/send.ts': { asks: { '--json': 1 }, why: '--jq refuses an answer that is not JSON' },
  'src/kit/created.ts': {
    asks: { '--json': 1 },
    why: 'a create without an id fails unless --json prints the answer as it came',
  },
  'src/upload/lines.ts': {
    asks: { '--json': 3 },
    why: 'the upload report streams its own lines: NDJSON (through --jq), TSV or the terminal',
  },
  'src/upload/sync-report.ts': {
    asks: { '--json': 1 },
    why: 'the sync report streams its own lines, as the upload report',
  },
  'src/views/media.ts': {
    asks: { 'f.tty': 3, '--json': 1 },
    why: 'the live media view writes segments as they arrive (a terminal wraps them); --json prints the page at the end',
  },
  'src/views/chat.ts': { asks: { 'f.tty': 1 }, why: 'links in a reply are made clickable on a colour terminal only' },
  'src/views/chat-reply.ts': {
    asks: { stdoutIsTTY: 1 },
    why: "piped, a reply's text parts go to stdout and the rest to stderr (the piped rendering is a copy: no tolerant reading of it)",
  },
  'src/views/brief.ts': {
    asks: { 'f.tty': 1 },
    why: "watch knowledge's report and timeline: the Markdown source piped (src/io/declared.ts to come)",
  },
  'src/watch/create.ts': {
    asks: { '--json': 2 },
    why: 'watch create prints the watch as created or as followed, by field table',
  },
};

function asksIn(text: string): Partial<Record<string, number>> {
  const found: Partial<Record<string, number>> = {};
  for (const [name, pattern] of Object.entries(ASKS)) {
    const count = (text.match(pattern) ?? []).length;
    if (count > 0) found[name] = count;
  }
  return found;
}

const found = new Map(
  sourceFiles(root, ['src', 'commands'])
    .filter((file) => !file.startsWith('src/io/'))
    .map((file) => [file, asksIn(readFileSync(join(root, file), 'utf8'))] as const)
    .filter(([, asks]) => Object.keys(asks).length > 0),
);

describe('the output contract is kept in src/io', () => {
  it('no command asks where its output goes (f.tty, stdoutIsTTY, --json): src/io/outcome.ts does', () => {
    expect([...found.keys()].filter((file) => file.startsWith('commands/'))).toEqual([]);
  });

  it('src/ outside src/io asks only where the list says, as often as it says (lower the count when one goes)', () => {
    const actual = Object.fromEntries([...found].filter(([file]) => file.startsWith('src/')));
    const listed = Object.fromEntries(Object.entries(REMAINING).map(([file, entry]) => [file, entry.asks]));
    expect(actual).toEqual(listed);
  });

  it('finds each way of asking (the check can fail)', () => {
    expect(asksIn('if (!f.tty) return; ctx.io.stdoutIsTTY; wantsJson(ctx); ctx.flags.json; ctx.flags.jq')).toEqual({
      'f.tty': 1,
      stdoutIsTTY: 1,
      '--json': 3,
    });
    expect(asksIn('this.f.tty')).toEqual({ 'f.tty': 1 });
    expect(asksIn('printDone(ctx, item, { piped: (r) => r.id })')).toEqual({});
  });

  it('every file listed still exists and says why', () => {
    for (const [file, entry] of Object.entries(REMAINING)) {
      expect(() => readFileSync(join(root, file)), file).not.toThrow();
      expect(entry.why.length, file).toBeGreaterThan(10);
    }
  });
});
