import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { colorEnabled, colorLevel, createIO, envFlag, promptBlocker } from '../../src/io/terminal.js';

function stream(tty: boolean, columns?: number) {
  return Object.assign(new PassThrough(), { isTTY: tty, columns });
}

describe('colour rules', () => {
  it('is on for a terminal, off when piped', () => {
    expect(colorEnabled(true, {}, true)).toBe(true);
    expect(colorEnabled(false, {}, true)).toBe(false);
  });
  it('--no-color wins over everything', () => {
    expect(colorEnabled(true, { FORCE_COLOR: '1' }, false)).toBe(false);
  });
  it('NO_COLOR (non-empty) turns it off; an empty NO_COLOR does not', () => {
    expect(colorEnabled(true, { NO_COLOR: '1' }, true)).toBe(false);
    expect(colorEnabled(true, { NO_COLOR: '' }, true)).toBe(true);
  });
  it('FORCE_COLOR turns it on when piped, and wins over NO_COLOR; 0/false turn it off', () => {
    expect(colorEnabled(false, { FORCE_COLOR: '1' }, true)).toBe(true);
    expect(colorEnabled(false, { FORCE_COLOR: '1', NO_COLOR: '1' }, true)).toBe(true);
    expect(colorEnabled(true, { FORCE_COLOR: '0' }, true)).toBe(false);
    expect(colorEnabled(true, { FORCE_COLOR: 'false' }, true)).toBe(false);
  });
  it('TERM=dumb has no colour', () => {
    expect(colorEnabled(true, { TERM: 'dumb' }, true)).toBe(false);
  });
  it('picks the colour level from FORCE_COLOR, COLORTERM and TERM', () => {
    expect(colorLevel({ FORCE_COLOR: '3' })).toBe(3);
    expect(colorLevel({ COLORTERM: 'truecolor' })).toBe(3);
    expect(colorLevel({ TERM: 'xterm-256color' })).toBe(2);
    expect(colorLevel({ TERM: 'xterm' })).toBe(1);
  });
});

describe('prompting', () => {
  const flags = { color: true, input: true };
  it('needs stdin and stdout to be terminals', () => {
    expect(promptBlocker(true, true, {}, flags)).toBeUndefined();
    expect(promptBlocker(false, true, {}, flags)).toBe('stdin is not a terminal');
    expect(promptBlocker(true, false, {}, flags)).toBe('stdout is not a terminal');
  });
  it('is off with --no-input, KAGENT_NO_PROMPT or CI', () => {
    expect(promptBlocker(true, true, {}, { color: true, input: false })).toBe('--no-input was given');
    expect(promptBlocker(true, true, { KAGENT_NO_PROMPT: '1' }, flags)).toBe('KAGENT_NO_PROMPT is set');
    expect(promptBlocker(true, true, { CI: 'true' }, flags)).toBe('running in CI');
    expect(promptBlocker(true, true, { CI: 'false' }, flags)).toBeUndefined();
  });
  it('envFlag treats "", 0 and false as off', () => {
    expect(envFlag({ A: '' }, 'A')).toBe(false);
    expect(envFlag({ A: '0' }, 'A')).toBe(false);
    expect(envFlag({ A: 'FALSE' }, 'A')).toBe(false);
    expect(envFlag({ A: 'yes' }, 'A')).toBe(true);
    expect(envFlag({}, 'A')).toBe(false);
  });
});

describe('createIO', () => {
  it('reads terminal-ness, width and colour from the streams and env', () => {
    const io = createIO(
      { stdin: stream(true), stdout: stream(true, 120), stderr: stream(false) },
      {},
      { color: true, input: true },
    );
    expect(io).toMatchObject({
      stdinIsTTY: true,
      stdoutIsTTY: true,
      stderrIsTTY: false,
      color: true,
      colorStderr: false,
      canPrompt: true,
      columns: 120,
    });
  });
  it("follows the terminal's size as it changes (a resize during the chat REPL)", () => {
    const stdout = stream(true, 120);
    const io = createIO({ stdin: stream(true), stdout, stderr: stream(true) }, {}, { color: false, input: true });
    expect(io.columns).toBe(120);
    // What Node's tty.WriteStream does on SIGWINCH: its columns change.
    stdout.columns = 60;
    expect(io.columns).toBe(60);
    io.columns = 50;
    expect(io.columns).toBe(50);
  });
  it('falls back to COLUMNS, then 80', () => {
    expect(
      createIO(
        { stdin: stream(false), stdout: stream(false), stderr: stream(false) },
        { COLUMNS: '132' },
        { color: true, input: true },
      ).columns,
    ).toBe(132);
    expect(
      createIO({ stdin: stream(false), stdout: stream(false), stderr: stream(false) }, {}, { color: true, input: true })
        .columns,
    ).toBe(80);
  });
  it('with stdinIsTTY given, leaves stdin unread (unmade) until a command reads it, as the context and its prompter do', async () => {
    const { createContext } = await import('../../src/cli/runtime.js');
    const stdin = stream(false);
    let reads = 0;
    const streams = {
      get stdin() {
        reads++;
        return stdin;
      },
      stdinIsTTY: true,
      stdout: stream(true, 100),
      stderr: stream(true),
    };
    const flags = {
      json: false,
      color: true,
      input: true,
      pager: false,
      yes: false,
      quiet: false,
      debug: false,
      insecure: false,
    };
    const ctx = createContext({
      streams,
      env: { KAGENT_CONFIG_DIR: '/nonexistent/kagent-config' },
      flags,
      signal: new AbortController().signal,
      version: '0.0.0',
    });
    expect(reads).toBe(0);
    // Terminal-ness comes from the hint, not from the stream (whose isTTY is false here).
    expect(ctx.io).toMatchObject({ stdinIsTTY: true, stdoutIsTTY: true, canPrompt: true });
    expect(ctx.io.stdin).toBe(stdin);
    expect(reads).toBe(1);
    // Without the hint the stream itself says.
    expect(
      createIO({ stdin: stream(false), stdout: stream(true), stderr: stream(true) }, {}, { color: true, input: true })
        .stdinIsTTY,
    ).toBe(false);
  });
  it('asks whether stdin is a terminal only when something needs to know, and once (asking loads node:tty in the binary)', async () => {
    const { createContext } = await import('../../src/cli/runtime.js');
    const flags = {
      json: false,
      color: true,
      input: true,
      pager: false,
      yes: false,
      quiet: false,
      debug: false,
      insecure: false,
    };
    const watched = (stdout: ReturnType<typeof stream>) => {
      const asked = { count: 0 };
      const streams = {
        stdin: stream(false),
        get stdinIsTTY() {
          asked.count++;
          return true;
        },
        stdout,
        stderr: stream(true),
      };
      return { streams, asked };
    };
    const env = { KAGENT_CONFIG_DIR: '/nonexistent/kagent-config' };
    const signal = new AbortController().signal;

    // Making the context, and a command printing into a pipe: never asked.
    const piped = watched(stream(false));
    const pipedCtx = createContext({ streams: piped.streams, env, flags, signal, version: '0.0.0' });
    expect(pipedCtx.io.canPrompt).toBe(false); // stdout is no terminal: stdin does not matter
    expect(piped.asked.count).toBe(0);
    expect(pipedCtx.io.stdinIsTTY).toBe(true); // asked for itself, it is answered
    expect(piped.asked.count).toBe(1);

    // On a terminal, whether a prompt can be shown needs stdin's answer: asked once, then kept.
    const terminal = watched(stream(true, 100));
    const terminalCtx = createContext({ streams: terminal.streams, env, flags, signal, version: '0.0.0' });
    expect(terminal.asked.count).toBe(0);
    expect(terminalCtx.io.canPrompt).toBe(true);
    expect(terminalCtx.io.canPrompt).toBe(true);
    expect(terminalCtx.io.stdinIsTTY).toBe(true);
    expect(terminal.asked.count).toBe(1);
  });
});

describe('spinners', () => {
  const ctx = (stderr: { isTTY: boolean; columns?: number }, env: NodeJS.ProcessEnv = {}, quiet = false) => ({
    io: createIO({ stdin: stream(false), stdout: stream(false), stderr: stream(stderr.isTTY, stderr.columns) }, env, {
      color: true,
      input: true,
    }),
    flags: { quiet } as never,
  });
  it('only on a sized terminal stderr, not in CI, not with --quiet', async () => {
    const { spinnersAllowed } = await import('../../src/io/spinner.js');
    expect(spinnersAllowed(ctx({ isTTY: true, columns: 80 }))).toBe(true);
    expect(spinnersAllowed(ctx({ isTTY: false, columns: 80 }))).toBe(false);
    expect(spinnersAllowed(ctx({ isTTY: true, columns: 0 }))).toBe(false);
    expect(spinnersAllowed(ctx({ isTTY: true, columns: 80 }, { CI: '1' }))).toBe(false);
    expect(spinnersAllowed(ctx({ isTTY: true, columns: 80 }, {}, true))).toBe(false);
  });
  it('a fast task shows nothing at all', async () => {
    const { withSpinner } = await import('../../src/io/spinner.js');
    const c = ctx({ isTTY: true, columns: 80 });
    let written = '';
    c.io.stderr.write = ((chunk: string) => ((written += chunk), true)) as never;
    expect(await withSpinner(c, 'Working…', async () => 42)).toBe(42);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(written).toBe('');
  });
});
